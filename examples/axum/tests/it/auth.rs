//! The mounted endpoint (`http::McpService` in the application's axum router) as an OAuth
//! resource server: the same metadata, challenges and scope-free calls as the runtime's own
//! listener, while the application's own routes stay as they were. The verifier is the
//! application's own ([`TokenVerifier`]); real JWTs are examples/notes/tests/it/auth.rs's.

use std::sync::Arc;

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use toolidl_runtime::auth::{AuthInfo, TokenError, TokenVerifier, VerifyFuture};
use toolidl_runtime::http::{AuthConfig, HttpConfig};

/// Accepts the token `good` only.
struct Good;

impl TokenVerifier for Good {
    fn verify<'a>(&'a self, token: &'a str) -> VerifyFuture<'a> {
        Box::pin(async move {
            match token {
                "good" => Ok(AuthInfo::from_claims(json!({"sub": "alice"}))),
                _ => Err(TokenError::Invalid("not good".into())),
            }
        })
    }
}

async fn send(
    addr: &str,
    method: &str,
    path: &str,
    extra: &str,
    body: &str,
) -> (u16, String, String) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nAccept: application/json\r\n{extra}Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    s.read_to_string(&mut response).await.unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    (
        head[9..12].parse().unwrap(),
        head.to_ascii_lowercase(),
        body.to_owned(),
    )
}

#[tokio::test]
async fn the_mounted_endpoint_is_a_resource_server() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let resource = format!("http://{addr}/mcp");
    let auth =
        AuthConfig::new(resource.clone(), Good).authorization_server("https://auth.example.com");
    let (app, _mcp) = axum_example::app(Arc::default(), HttpConfig::new().auth(auth));
    tokio::spawn(async move { axum::serve(listener, app).await });

    let (status, _, body) = send(
        &addr,
        "GET",
        "/.well-known/oauth-protected-resource/mcp",
        "",
        "",
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let metadata: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(metadata["resource"], resource);
    assert_eq!(
        metadata["authorization_servers"],
        json!(["https://auth.example.com"])
    );

    let call = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "list_items", "arguments": {},
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}})
    .to_string();
    let modern =
        "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: list_items\r\n";
    let (status, head, _) = send(&addr, "POST", "/mcp", modern, &call).await;
    assert_eq!(status, 401);
    assert!(
        head.contains(&format!(
            "www-authenticate: bearer resource_metadata=\"http://{addr}/.well-known/oauth-protected-resource/mcp\""
        )),
        "{head}"
    );
    let bad = format!("{modern}Authorization: Bearer bad\r\n");
    let (status, head, _) = send(&addr, "POST", "/mcp", &bad, &call).await;
    assert_eq!(status, 401);
    assert!(head.contains("error=\"invalid_token\""), "{head}");
    let good = format!("{modern}Authorization: Bearer good\r\n");
    let (status, _, body) = send(&addr, "POST", "/mcp", &good, &call).await;
    assert_eq!(status, 200, "{body}");
    // The application's own routes are its business: no token needed.
    let (status, _, body) = send(&addr, "GET", "/health", "", "").await;
    assert_eq!((status, body.as_str()), (200, "ok"));
}
