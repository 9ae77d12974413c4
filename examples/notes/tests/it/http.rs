//! `--http ADDR --stateless` serves the same tools over Streamable HTTP (a smoke test with a
//! plain HTTP/1.1 request; the transport itself is tested in the runtime).

use crate::common;

use std::io::{Read, Write};
use std::net::TcpStream;

use serde_json::{Value, json};

fn post(addr: &str, body: &Value) -> Value {
    let body = body.to_string();
    let mut stream = TcpStream::connect(addr).expect("connect");
    write!(
        stream,
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .expect("write");
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("read");
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    let json = response
        .split("\r\n\r\n")
        .nth(1)
        .and_then(|b| b.lines().find(|l| l.starts_with('{')))
        .unwrap_or_else(|| panic!("no JSON body: {response}"));
    serde_json::from_str(json).expect("JSON")
}

#[test]
fn stateless_http_serves_the_tools() {
    let (mut child, addr) = common::spawn_http(&["--stateless"]);

    let call = |id: i64, name: &str, arguments: Value| json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": name, "arguments": arguments}});
    let created = post(
        &addr,
        &call(
            1,
            "create_note",
            json!({"title": "over HTTP", "tags": ["web"]}),
        ),
    );
    assert_eq!(created["result"]["structuredContent"]["id"], 1, "{created}");
    // Stateless: another request, another connection, the same database.
    let got = post(&addr, &call(2, "get_note", json!({"id": 1})));
    assert_eq!(got["result"]["structuredContent"]["title"], "over HTTP");
    let missing = post(&addr, &call(3, "get_note", json!({"id": 2})));
    assert_eq!(missing["result"]["isError"], true);
    assert_eq!(
        missing["result"]["content"][0]["text"],
        "No note with id 2."
    );
    let _ = child.kill();
    let _ = child.wait();
}
