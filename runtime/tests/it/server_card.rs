//! The server card (`HttpConfig::server_card`, SEP-2127, a draft): served as given at
//! `/.well-known/mcp/server-card` when configured, after the Host and Origin checks; absent
//! (404) otherwise; read with GET only.

#![cfg(feature = "http")]

use crate::common;

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use toolidl_runtime::http::HttpConfig;

const PATH: &str = "/.well-known/mcp/server-card";

/// One request; the status, the head (lower-cased header names) and the body.
async fn send(addr: &str, method: &str, path: &str, host: &str) -> (u16, String, String) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
    );
    s.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    s.read_to_string(&mut response).await.unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    (
        response[9..12].parse().unwrap(),
        head.to_ascii_lowercase(),
        body.to_owned(),
    )
}

fn card() -> Value {
    json!({
        "$schema": "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json",
        "name": "io.github.toolidl/kitchen",
        "version": "1.0.0",
        "description": "The runtime's test server.",
        "remotes": [{"type": "streamable-http", "url": "https://kitchen.example/mcp"}],
    })
}

#[tokio::test]
async fn a_configured_card_is_served_as_given() {
    let (addr, stop) = common::serve_kitchen(HttpConfig::new().server_card(&card())).await;
    let (status, head, body) = send(&addr, "GET", PATH, &addr).await;
    assert_eq!(status, 200, "{head}");
    assert!(head.contains("content-type: application/json"), "{head}");
    assert!(head.contains("cache-control: max-age=300"), "{head}");
    assert_eq!(serde_json::from_str::<Value>(&body).unwrap(), card());
    // Read with GET only.
    let (status, head, _) = send(&addr, "POST", PATH, &addr).await;
    assert_eq!(status, 405, "{head}");
    assert!(head.contains("allow: get, head"), "{head}");
    // The Host check (DNS rebinding) applies to it as to the endpoint.
    let (status, head, _) = send(&addr, "GET", PATH, "evil.example").await;
    assert_eq!(status, 403, "{head}");
    let _ = stop.send(());
}

#[tokio::test]
async fn without_a_card_the_path_is_not_found() {
    let (addr, stop) = common::serve_kitchen(HttpConfig::new()).await;
    let (status, head, _) = send(&addr, "GET", PATH, &addr).await;
    assert_eq!(status, 404, "{head}");
    let _ = stop.send(());
}
