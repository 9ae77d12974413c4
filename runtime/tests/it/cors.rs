//! CORS (`HttpConfig::cors_origin`): preflights of listed origins answered, responses to them
//! readable by their scripts with the MCP headers exposed, everything else as without CORS.

#![cfg(feature = "http")]

use crate::common;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use toolidl_runtime::http::HttpConfig;

const APP: &str = "https://app.example.com";

/// One request; the status and the head (lower-cased header names).
async fn send(addr: &str, method: &str, headers: &[(&str, &str)], body: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let mut request = format!(
        "{method} /mcp HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (k, v) in headers {
        request.push_str(&format!("{k}: {v}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(body);
    s.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    s.read_to_string(&mut response).await.unwrap();
    let head = response
        .split("\r\n\r\n")
        .next()
        .unwrap()
        .to_ascii_lowercase();
    (response[9..12].parse().unwrap(), head)
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;

fn preflight(origin: &str) -> Vec<(&str, &str)> {
    vec![
        ("Origin", origin),
        ("Access-Control-Request-Method", "POST"),
        (
            "Access-Control-Request-Headers",
            "content-type, mcp-protocol-version, mcp-param-region",
        ),
    ]
}

#[tokio::test]
async fn listed_origins_get_cors_and_others_do_not() {
    let (addr, stop) = common::serve_kitchen(HttpConfig::new().cors_origin(APP)).await;
    let (status, head) = send(&addr, "OPTIONS", &preflight(APP), "").await;
    assert_eq!(status, 204, "{head}");
    assert!(
        head.contains("access-control-allow-origin: https://app.example.com"),
        "{head}"
    );
    assert!(
        head.contains("access-control-allow-methods: post, get, delete, options"),
        "{head}"
    );
    assert!(
        head.contains("mcp-session-id, mcp-protocol-version"),
        "{head}"
    );
    assert!(head.contains(", mcp-param-region"), "{head}");
    // Another origin: the Origin check refuses it, preflight or not.
    let (status, head) = send(&addr, "OPTIONS", &preflight("https://evil.example"), "").await;
    assert_eq!(status, 403, "{head}");
    assert!(!head.contains("access-control-allow-origin"), "{head}");
    // A listed origin's request: readable, with the MCP headers exposed.
    let json = [
        ("Origin", APP),
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
    ];
    let (status, head) = send(&addr, "POST", &json, INITIALIZE).await;
    assert_eq!(status, 200, "{head}");
    assert!(
        head.contains("access-control-allow-origin: https://app.example.com"),
        "{head}"
    );
    assert!(
        head.contains(
            "access-control-expose-headers: mcp-session-id, mcp-protocol-version, www-authenticate"
        ),
        "{head}"
    );
    assert!(head.contains("mcp-session-id: "), "{head}");
    // Without Origin (not a browser): no CORS headers.
    let (status, head) = send(&addr, "POST", &json[1..], INITIALIZE).await;
    assert_eq!(status, 200, "{head}");
    assert!(!head.contains("access-control-"), "{head}");
    let _ = stop.send(());
}

#[tokio::test]
async fn without_cors_options_is_not_allowed() {
    let (addr, stop) = common::serve_kitchen(HttpConfig::new().allow_origin(APP)).await;
    let (status, head) = send(&addr, "OPTIONS", &preflight(APP), "").await;
    assert_eq!(status, 405, "{head}");
    assert!(!head.contains("access-control-"), "{head}");
    let _ = stop.send(());
}
