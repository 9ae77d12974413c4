//! Changing a `.tool` file without breaking implementers: `evolution/v2/notes.tool` adds an
//! optional parameter to a tool and to a prompt of `evolution/v1/notes.tool` and reorders the
//! tool's parameters. One handler body (`evolution/handler.rs`), written with `..`, compiles
//! against the code generated from both versions and answers alike; `toolidl::diff` calls every
//! change compatible for clients and for implementers.

use serde_json::{Value, json};
use toolidl_runtime::transport::Connection;
use toolidl_runtime::{RequestContext, RpcError, Server, ToolError};

mod v1 {
    // The generated server's `get_ref` is not used here.
    #[allow(dead_code)]
    pub mod api {
        include!(concat!(env!("OUT_DIR"), "/evolution_v1/evolution.rs"));
    }
    use super::*;
    include!("evolution/handler.rs");
}

mod v2 {
    // The generated server's `get_ref` is not used here.
    #[allow(dead_code)]
    pub mod api {
        include!(concat!(env!("OUT_DIR"), "/evolution_v2/evolution.rs"));
    }
    use super::*;
    include!("evolution/handler.rs");
}

/// What `server` answers to `requests` (each a method and its params), in 2026-07-28.
async fn answers(server: Server, requests: &[(&str, Value)]) -> Vec<Value> {
    let (conn, mut outbox) = Connection::new(&server, tokio::runtime::Handle::current());
    let mut out = Vec::new();
    for (id, (method, params)) in requests.iter().enumerate() {
        let mut params = params.clone();
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": {},
        });
        let line = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        conn.handle_line(&line.to_string());
        let reply: Value = serde_json::from_str(&outbox.recv().await.unwrap()).unwrap();
        out.push(reply["result"].clone());
    }
    out
}

#[tokio::test]
async fn one_implementation_serves_both_versions_alike() {
    let requests = [
        (
            "tools/call",
            json!({"name": "rename_note", "arguments": {"id": 7, "title": "Groceries"}}),
        ),
        (
            "prompts/get",
            json!({"name": "summarize", "arguments": {"tag": "home"}}),
        ),
        ("resources/read", json!({"uri": "notes://7"})),
    ];
    let old = Server::builder("notes", "1")
        .service(v1::api::NotesServer::new(v1::Impl))
        .build();
    let new = Server::builder("notes", "1")
        .service(v2::api::NotesServer::new(v2::Impl))
        .build();
    let (old, new) = (answers(old, &requests).await, answers(new, &requests).await);
    assert_eq!(
        old[0]["content"][0]["text"], "note 7 is now \"Groceries\"",
        "{old:?}"
    );
    assert_eq!(old, new);
    // The new optional parameter is accepted by the new version only.
    let with_notify = [(
        "tools/call",
        json!({"name": "rename_note", "arguments": {"id": 7, "title": "G", "notify": true}}),
    )];
    let server = Server::builder("notes", "2")
        .service(v2::api::NotesServer::new(v2::Impl))
        .build();
    let answer = answers(server, &with_notify).await;
    assert_eq!(answer[0]["isError"], json!(null), "{answer:?}");
}

#[test]
fn diff_calls_the_changes_compatible_for_clients_and_implementers() {
    let model = |path: &str| {
        toolidl_build::compile::compile_file(std::path::Path::new(path))
            .unwrap_or_else(|failed| panic!("{}", failed.rendered))
            .model
    };
    let (old, new) = (
        model("tests/it/evolution/v1/notes.tool"),
        model("tests/it/evolution/v2/notes.tool"),
    );
    let changes = toolidl::diff::diff(&old, &new);
    let codes: Vec<&str> = changes.iter().map(|c| c.code.as_str()).collect();
    assert_eq!(
        codes,
        [
            "PARAM_REORDERED",
            "PARAM_ADDED_OPTIONAL",
            "PARAM_ADDED_OPTIONAL"
        ],
        "{changes:#?}"
    );
    for change in &changes {
        assert_eq!(change.label(), "compatible", "{change:?}");
    }
}
