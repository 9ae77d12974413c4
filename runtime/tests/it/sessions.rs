//! Sessions under pressure: a handshake left half done does not hold a slot, a full table
//! ends the session idle longest rather than refusing newcomers, and the 503 of a table whose
//! every session was used within the grace period carries the request's id.

#![cfg(feature = "http")]

use crate::common;

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use toolidl_runtime::http::HttpConfig;

fn request(method: &str, addr: &str, sid: Option<&str>, body: &str) -> String {
    let session = sid.map_or(String::new(), |s| {
        format!("Mcp-Session-Id: {s}\r\nMCP-Protocol-Version: 2025-06-18\r\n")
    });
    format!(
        "{method} /mcp HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n{session}Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

/// A POST; the status, the session id it names, the body.
async fn post(addr: &str, sid: Option<&str>, body: &str) -> (u16, Option<String>, String) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(request("POST", addr, sid, body).as_bytes())
        .await
        .unwrap();
    let mut response = String::new();
    s.read_to_string(&mut response).await.unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    let sid = head
        .lines()
        .find_map(|l| l.strip_prefix("mcp-session-id: "))
        .map(str::to_owned);
    (head[9..12].parse().unwrap(), sid, body.to_owned())
}

fn initialize(id: u32) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"initialize","params":{{"protocolVersion":"2025-06-18","capabilities":{{}},"clientInfo":{{"name":"t","version":"1"}}}}}}"#
    )
}

const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
const PING: &str = r#"{"jsonrpc":"2.0","id":9,"method":"ping"}"#;

/// Opens a session; `settle`: and finishes the handshake.
async fn open(addr: &str, settle: bool) -> String {
    let (status, sid, body) = post(addr, None, &initialize(1)).await;
    assert_eq!(status, 200, "{body}");
    let sid = sid.expect("a session id");
    if settle {
        assert_eq!(post(addr, Some(&sid), INITIALIZED).await.0, 202);
    }
    sid
}

async fn alive(addr: &str, sid: &str) -> bool {
    match post(addr, Some(sid), PING).await.0 {
        200 => true,
        404 => false,
        other => panic!("ping answered {other}"),
    }
}

#[tokio::test]
async fn half_done_handshakes_give_their_slots_up() {
    let config = HttpConfig::new()
        .max_sessions(4)
        .handshake_timeout(Duration::from_millis(200))
        .session_idle_timeout(Duration::from_secs(3600));
    let (addr, stop) = common::serve_kitchen(config).await;
    let settled = open(&addr, true).await;
    let mut flood = Vec::new();
    for _ in 0..3 {
        flood.push(open(&addr, false).await);
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let newcomer = open(&addr, true).await;
    // Every abandoned handshake went, not just one; the settled session stays.
    for sid in &flood {
        assert!(
            !alive(&addr, sid).await,
            "an abandoned handshake still holds a slot"
        );
    }
    assert!(alive(&addr, &settled).await);
    assert!(alive(&addr, &newcomer).await);
    let _ = stop.send(());
}

#[tokio::test]
async fn a_full_table_ends_the_session_idle_longest() {
    let config = HttpConfig::new()
        .max_sessions(2)
        .session_grace(Duration::ZERO)
        .session_idle_timeout(Duration::from_secs(3600));
    let (addr, stop) = common::serve_kitchen(config).await;
    let older = open(&addr, true).await;
    let newer = open(&addr, true).await;
    tokio::time::sleep(Duration::from_millis(20)).await;
    assert!(alive(&addr, &newer).await); // used last: `older` is idle longest
    let third = open(&addr, true).await;
    assert!(!alive(&addr, &older).await);
    assert!(alive(&addr, &newer).await);
    assert!(alive(&addr, &third).await);
    let _ = stop.send(());
}

#[tokio::test]
async fn a_table_of_recently_used_sessions_answers_503_with_the_request_id() {
    // The default grace: a session used within the last minute is never ended for another,
    // even with its GET stream open (a stream is not a use that protects it for ever).
    let (addr, stop) = common::serve_kitchen(HttpConfig::new().max_sessions(1)).await;
    let busy = open(&addr, true).await;
    let mut stream = TcpStream::connect(&addr).await.unwrap();
    stream
        .write_all(request("GET", &addr, Some(&busy), "").as_bytes())
        .await
        .unwrap();
    let mut first = [0u8; 12];
    stream.read_exact(&mut first).await.unwrap();
    assert_eq!(&first, b"HTTP/1.1 200");
    let (status, _, body) = post(&addr, None, &initialize(42)).await;
    assert_eq!(status, 503, "{body}");
    assert_eq!(
        body,
        r#"{"jsonrpc":"2.0","id":42,"error":{"code":-32603,"message":"Service unavailable: too many sessions; retry later."}}"#
    );
    assert!(alive(&addr, &busy).await);
    drop(stream);
    let _ = stop.send(());
}

#[tokio::test]
async fn a_full_table_ends_handshakes_in_progress_before_a_settled_session() {
    // No grace and no cap on handshakes: the order alone keeps the settled session.
    let config = HttpConfig::new()
        .max_sessions(4)
        .max_half_open_sessions(1000)
        .session_grace(Duration::ZERO)
        .session_idle_timeout(Duration::from_secs(3600));
    let (addr, stop) = common::serve_kitchen(config).await;
    let settled = open(&addr, true).await;
    assert!(alive(&addr, &settled).await);
    tokio::time::sleep(Duration::from_millis(20)).await;
    for _ in 0..10 {
        open(&addr, false).await;
    }
    assert!(
        alive(&addr, &settled).await,
        "a settled session ended for a handshake"
    );
    let _ = stop.send(());
}

#[tokio::test]
async fn a_burst_of_handshakes_from_one_client_ends_its_idle_session_not_each_other() {
    let config = HttpConfig::new().max_sessions_per_client(3);
    let (addr, stop) = common::serve_kitchen(config).await;
    let idle = open(&addr, true).await;
    // Three handshakes in progress at once, from the same address: the third goes over the
    // client's share, and the session it ends is the idle settled one, not a handshake.
    let mut burst = Vec::new();
    for _ in 0..3 {
        burst.push(open(&addr, false).await);
    }
    for sid in &burst {
        assert_eq!(
            post(&addr, Some(sid), INITIALIZED).await.0,
            202,
            "a handshake was ended"
        );
    }
    assert!(!alive(&addr, &idle).await);
    let _ = stop.send(());
}
