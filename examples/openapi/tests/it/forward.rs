//! The generated Petstore server against a Petstore on a local socket (the interop run uses
//! Prism instead, scripts/openapi.sh): each tool's request and typed result, an argument
//! refused before any request, an API error as the tool's error, and a handler written by
//! hand that wraps one generated request and leaves the others as generated.

use std::sync::{Arc, Mutex};

use openapi_example::petstore::{
    AddPetArgs, FindPetByIdArgs, FindPetsArgs, Pet, PetstoreForward, PetstoreRequests,
    PetstoreServer,
};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use toolidl_runtime::codegen::{Decode, Path, Reader};
use toolidl_runtime::forward::Upstream;
use toolidl_runtime::testing::Client;
use toolidl_runtime::{RequestContext, RpcError, Server, ToolError};

/// A Petstore answering every request with `pet` (404 for `/pets/404`), and the request
/// lines and bodies it received.
async fn petstore() -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let log = log.clone();
            tokio::spawn(async move {
                let mut data = Vec::new();
                let mut buf = [0u8; 4096];
                loop {
                    let n = socket.read(&mut buf).await.unwrap_or(0);
                    if n == 0 {
                        return;
                    }
                    data.extend_from_slice(&buf[..n]);
                    let text = String::from_utf8_lossy(&data).to_string();
                    let Some((head, body)) = text.split_once("\r\n\r\n") else {
                        continue;
                    };
                    let length: usize = head
                        .lines()
                        .find_map(|l| {
                            l.to_ascii_lowercase()
                                .strip_prefix("content-length: ")
                                .map(str::to_owned)
                        })
                        .and_then(|v| v.trim().parse().ok())
                        .unwrap_or(0);
                    if body.len() < length {
                        continue;
                    }
                    let line = head.lines().next().unwrap_or_default().to_owned();
                    log.lock().unwrap().push(format!("{line} {body}"));
                    let (status, answer) = if line.contains("/pets/404") {
                        (
                            "404 Not Found",
                            json!({"code": 404, "message": "no pet 404"}),
                        )
                    } else if line.starts_with("GET /pets?") || line.starts_with("GET /pets ") {
                        ("200 OK", json!([{"id": 1, "name": "Rex", "tag": "dog"}]))
                    } else if line.starts_with("DELETE") {
                        ("204 No Content", serde_json::Value::Null)
                    } else {
                        (
                            "200 OK",
                            json!({"id": 7, "name": "Rex", "tag": "dog", "color": "brown"}),
                        )
                    };
                    let answer = if answer.is_null() {
                        String::new()
                    } else {
                        answer.to_string()
                    };
                    let response = format!(
                        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{answer}",
                        answer.len()
                    );
                    let _ = socket.write_all(response.as_bytes()).await;
                    return;
                }
            });
        }
    });
    (url, seen)
}

fn upstream(url: &str) -> Upstream {
    PetstoreRequests::upstream().base_url(url).build().unwrap()
}

#[tokio::test]
async fn each_tool_sends_its_request_and_returns_the_typed_answer() -> Result<(), RpcError> {
    let (url, seen) = petstore().await;
    let server = Server::builder("petstore", "1")
        .service(PetstoreServer::new(upstream(&url)))
        .build();
    let client = Client::connect(&server).await?;

    let pets = client
        .call(&FindPetsArgs {
            tags: Some(vec!["dog".into(), "cat".into()]),
            limit: Some(2),
        })
        .await?;
    assert!(!pets.is_error(), "{}", pets.text());
    // Read by the generated decoder, which checks what the document declares.
    let pets = <Vec<Pet>>::read(&mut Reader::new(pets.text()), &Path::Root).unwrap();
    assert_eq!(pets[0].name, "Rex");

    let added = client
        .call(&AddPetArgs {
            name: "Rex".into(),
            tag: None,
        })
        .await?;
    let pet: Pet = added.structured_as().unwrap();
    // A member the document does not declare is kept (`Pet` is open).
    assert_eq!((pet.id, pet.extra["color"].as_str()), (7, Some("brown")));

    let missing = client.call(&FindPetByIdArgs { id: 404 }).await?;
    assert!(missing.is_error());
    assert_eq!(missing.text(), "The API answered 404 Not Found: no pet 404");

    // Refused before any request: the API never sees it.
    let refused = client.call_tool("add_pet", json!({"name": 5})).await?;
    assert_eq!(
        refused.text(),
        "Argument 'name' is not valid. Expected a string."
    );

    let seen = seen.lock().unwrap().clone();
    assert_eq!(
        seen,
        [
            "GET /pets?tags=dog&tags=cat&limit=2 HTTP/1.1 ",
            r#"POST /pets HTTP/1.1 {"name":"Rex"}"#,
            "GET /pets/404 HTTP/1.1 ",
        ]
    );
    Ok(())
}

/// Wraps `add_pet` (a reserved name is refused, the rest sent by the generated request);
/// every other tool is forwarded as generated.
struct Guarded {
    upstream: Upstream,
}

impl PetstoreForward for Guarded {
    fn upstream(&self) -> &Upstream {
        &self.upstream
    }

    async fn add_pet(&self, ctx: RequestContext, input: AddPetArgs) -> Result<Pet, ToolError> {
        if input.name.eq_ignore_ascii_case("admin") {
            return Err(ToolError::message("That name is reserved."));
        }
        PetstoreRequests::add_pet(&self.upstream, ctx, input).await
    }
}

#[tokio::test]
async fn a_handler_written_by_hand_wraps_a_generated_one() -> Result<(), RpcError> {
    let (url, seen) = petstore().await;
    let server = Server::builder("petstore", "1")
        .service(PetstoreServer::new(Guarded {
            upstream: upstream(&url),
        }))
        .build();
    let client = Client::connect(&server).await?;
    let reserved = client
        .call(&AddPetArgs {
            name: "admin".into(),
            tag: None,
        })
        .await?;
    assert_eq!(reserved.text(), "That name is reserved.");
    let added = client
        .call(&AddPetArgs {
            name: "Rex".into(),
            tag: Some("dog".into()),
        })
        .await?;
    assert!(!added.is_error(), "{}", added.text());
    let found = client.call(&FindPetByIdArgs { id: 7 }).await?;
    assert!(!found.is_error(), "{}", found.text());
    assert_eq!(
        seen.lock().unwrap().clone(),
        [
            r#"POST /pets HTTP/1.1 {"name":"Rex","tag":"dog"}"#,
            "GET /pets/7 HTTP/1.1 ",
        ]
    );
    Ok(())
}
