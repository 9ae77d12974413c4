//! The network edge under hostile load, on real sockets with the default limits: one
//! address (127.0.0.2) floods the endpoint while a well-behaved client on another
//! (127.0.0.3) opens a session and calls a tool, and makes a 2026-07-28 call (in stateless
//! mode, a stateless call and a 2026-07-28 call). Each attack is one that locked everyone
//! out before the per-client budgets (`docs/deploy.md`, "Limits"); each test fails when the
//! budget that stops it is taken away. Then the strict `Host` and `Origin` checks, and what
//! a long-lived stream does when it has nothing to say.

#![cfg(feature = "http")]

use crate::common;

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use toolidl_runtime::Server;
use toolidl_runtime::http::{HttpConfig, HttpServer};

use common::raw::{Client, Reply, sse};
use common::{Kitchen, modern_meta, text_of};

const ATTACKER: [u8; 4] = [127, 0, 0, 2];
const HONEST: [u8; 4] = [127, 0, 0, 3];

fn ip(octets: [u8; 4]) -> IpAddr {
    IpAddr::from(octets)
}

/// The kitchen service, announcing list changes and `mem://readme` updates, so that a
/// `subscriptions/listen` has something to wait for and stays open.
fn edge_server() -> Server {
    Server::builder("edge", "1")
        .list_changed(true)
        .subscribable("mem://readme")
        .service(Arc::new(Kitchen))
        .build()
}

async fn serve(config: HttpConfig) -> (SocketAddr, oneshot::Sender<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let http = HttpServer::from_listener(edge_server(), listener, config).unwrap();
    let addr = http.local_addr().unwrap();
    let (stop, stopped) = oneshot::channel::<()>();
    tokio::spawn(http.run_until(async {
        let _ = stopped.await;
    }));
    (addr, stop)
}

fn message(id: u64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

fn initialize(id: u64) -> Value {
    message(
        id,
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {},
               "clientInfo": {"name": "edge", "version": "1"}}),
    )
}

/// A POST of `body` on `c` with the MCP headers and `extra`.
async fn post(c: &mut Client, extra: &[(&str, &str)], body: &Value) -> Reply {
    c.post(extra, body).await
}

/// A 2026-07-28 request's headers.
fn modern(method: &str, name: Option<&str>) -> Vec<(&'static str, String)> {
    let mut h = vec![
        ("MCP-Protocol-Version", "2026-07-28".to_owned()),
        ("Mcp-Method", method.to_owned()),
    ];
    if let Some(name) = name {
        h.push(("Mcp-Name", name.to_owned()));
    }
    h
}

fn borrowed<'a>(h: &'a [(&'static str, String)]) -> Vec<(&'static str, &'a str)> {
    h.iter().map(|(k, v)| (*k, v.as_str())).collect()
}

/// Opens a session from `source`; `settle`: and sends `notifications/initialized`.
async fn open_session(addr: SocketAddr, source: [u8; 4], settle: bool) -> Result<String, Reply> {
    let mut c = Client::connect_from(ip(source), addr).await;
    let r = post(&mut c, &[], &initialize(1)).await;
    let Some(sid) = r.header("mcp-session-id").map(str::to_owned) else {
        return Err(r);
    };
    if settle {
        let h = [
            ("Mcp-Session-Id", sid.as_str()),
            ("MCP-Protocol-Version", "2025-11-25"),
        ];
        let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        assert_eq!(post(&mut c, &h, &note).await.status, 202);
    }
    Ok(sid)
}

/// Whether the session still answers a ping (200) rather than 404.
async fn alive(addr: SocketAddr, source: [u8; 4], sid: &str) -> bool {
    let mut c = Client::connect_from(ip(source), addr).await;
    let h = [
        ("Mcp-Session-Id", sid),
        ("MCP-Protocol-Version", "2025-11-25"),
    ];
    match post(&mut c, &h, &message(9, "ping", json!({})))
        .await
        .status
    {
        200 => true,
        404 => false,
        other => panic!("ping answered {other}"),
    }
}

/// The well-behaved client's calls, which must all be served.
async fn honest_calls(addr: SocketAddr, sessions: bool) {
    let mut c = Client::connect_from(ip(HONEST), addr).await;
    if sessions {
        let sid = open_session(addr, HONEST, true)
            .await
            .unwrap_or_else(|r| panic!("initialize refused: {} {:?}", r.status, r.body));
        let h = [
            ("Mcp-Session-Id", sid.as_str()),
            ("MCP-Protocol-Version", "2025-11-25"),
        ];
        let r = post(
            &mut c,
            &h,
            &message(2, "tools/call", json!({"name": "text"})),
        )
        .await;
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
        assert_eq!(text_of(&r.json()), "hi \"there\"");
    } else {
        let h = [("MCP-Protocol-Version", "2025-11-25")];
        let r = post(
            &mut c,
            &h,
            &message(2, "tools/call", json!({"name": "text"})),
        )
        .await;
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
        assert_eq!(text_of(&r.json()), "hi \"there\"");
    }
    let h = modern("tools/call", Some("text"));
    let call = message(
        3,
        "tools/call",
        json!({"name": "text", "_meta": modern_meta(json!({}))}),
    );
    let r = post(&mut c, &borrowed(&h), &call).await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(text_of(&r.json()), "hi \"there\"");
}

/// A refusal for a budget: `status`, `Retry-After`, and the request's id when it had one.
fn assert_refused(r: &Reply, status: u16, id: Value, text: &str) {
    assert_eq!(r.status, status, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.header("retry-after"), Some("1"));
    let mut expected =
        json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32603, "message": text}});
    if id.is_null() {
        // Refused before its body was read: no id to answer with.
        expected.as_object_mut().unwrap().remove("id");
    }
    assert_eq!(r.json(), expected);
}

fn listen_request(id: u64) -> Value {
    message(
        id,
        "subscriptions/listen",
        json!({"_meta": modern_meta(json!({})),
               "notifications": {"resourceSubscriptions": ["mem://readme"]}}),
    )
}

/// Opens a `subscriptions/listen` stream from `source`: the client holding it open, or the
/// refusal.
async fn listen(addr: SocketAddr, source: [u8; 4], id: u64) -> Result<Client, Reply> {
    let mut c = Client::connect_from(ip(source), addr).await;
    let h = modern("subscriptions/listen", None);
    let mut all = vec![
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
    ];
    all.extend(borrowed(&h));
    c.write("POST", &all, listen_request(id).to_string().as_bytes())
        .await;
    let head = c.read_head().await;
    if head.status != 200 {
        let mut r = head;
        let n: usize = r.header("content-length").unwrap().parse().unwrap();
        r.body = c.exactly(n).await;
        return Err(r);
    }
    assert_eq!(head.header("content-type"), Some("text/event-stream"));
    let ack = c.chunk().await;
    assert!(String::from_utf8_lossy(&ack).contains("notifications/subscriptions/acknowledged"));
    Ok(c)
}

#[tokio::test]
async fn held_listen_streams_lock_no_one_out() {
    for stateless in [false, true] {
        let (addr, stop) = serve(HttpConfig::new().stateless(stateless)).await;
        // More than the endpoint's whole stream budget (1024), from one address.
        let mut held = Vec::new();
        for id in 0..1100 {
            match listen(addr, ATTACKER, id).await {
                Ok(c) => held.push(c),
                Err(r) => assert_refused(
                    &r,
                    429,
                    json!(id),
                    "Too many requests: this client has too many open streams; retry later.",
                ),
            }
        }
        // The client's share of the streams, and not one more.
        assert_eq!(held.len(), 16);
        honest_calls(addr, !stateless).await;
        // The honest client's own streams are not taken either.
        let mine = listen(addr, HONEST, 1).await;
        assert!(mine.is_ok(), "the honest client's listen was refused");
        // An ordinary request of the attacker is still served: streams have their own budget.
        let mut c = Client::connect_from(ip(ATTACKER), addr).await;
        let h = modern("tools/call", Some("text"));
        let call = message(
            4,
            "tools/call",
            json!({"name": "text", "_meta": modern_meta(json!({}))}),
        );
        assert_eq!(post(&mut c, &borrowed(&h), &call).await.status, 200);
        // A stream given up gives its slot back.
        drop(held.pop());
        let mut again = None;
        for _ in 0..100 {
            if let Ok(c) = listen(addr, ATTACKER, 2000).await {
                again = Some(c);
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert!(again.is_some(), "a closed stream's slot was not given back");
        let _ = stop.send(());
    }
}

/// Starts a POST whose body (100 kB announced) never arrives past its first byte; the
/// refusal when it was answered at once.
async fn slow_body(addr: SocketAddr, source: [u8; 4]) -> (Client, Option<Reply>) {
    let mut c = Client::connect_from(ip(source), addr).await;
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\nContent-Length: 100000\r\n\r\n{{"
    );
    c.stream.write_all(head.as_bytes()).await.unwrap();
    let answered = tokio::time::timeout(Duration::from_millis(300), c.read_head()).await;
    match answered {
        Ok(mut r) => {
            let n: usize = r.header("content-length").unwrap().parse().unwrap();
            r.body = c.exactly(n).await;
            (c, Some(r))
        }
        Err(_) => (c, None),
    }
}

#[tokio::test]
async fn slow_bodies_lock_no_one_out() {
    for stateless in [false, true] {
        let (addr, stop) = serve(HttpConfig::new().stateless(stateless)).await;
        // As many trickling bodies as the endpoint may receive at once (256), from one address.
        let mut pending = Vec::new();
        let mut refused = 0;
        for _ in 0..256 {
            match slow_body(addr, ATTACKER).await {
                (c, None) => pending.push(c),
                (mut c, Some(r)) => {
                    assert_refused(
                        &r,
                        429,
                        Value::Null,
                        "Too many requests: this client has too many request bodies on their way; retry later.",
                    );
                    // Refused unread: the connection closes.
                    assert_eq!(r.header("connection"), Some("close"));
                    assert!(c.closed().await);
                    refused += 1;
                }
            }
        }
        assert_eq!(
            pending.len(),
            16,
            "the client's share of bodies on their way"
        );
        assert_eq!(refused, 240);
        honest_calls(addr, !stateless).await;
        let _ = stop.send(());
    }
}

#[tokio::test]
async fn a_body_gets_its_deadline_not_a_slot() {
    let config = HttpConfig::new()
        .body_timeout(Duration::from_millis(300))
        .max_in_flight(1);
    let (addr, stop) = serve(config).await;
    let (mut c, answered) = slow_body(addr, ATTACKER).await;
    assert!(answered.is_none());
    // While it trickles, the one request slot is free for a request whose body is in.
    honest_calls(addr, true).await;
    let mut r = c.read_head().await;
    assert_eq!(r.status, 408);
    let n: usize = r.header("content-length").unwrap().parse().unwrap();
    r.body = c.exactly(n).await;
    assert_eq!(
        r.json()["error"]["message"],
        "Request timeout: the body did not arrive in time."
    );
    assert!(c.closed().await);
    let _ = stop.send(());
}

#[tokio::test]
async fn idle_session_streams_lock_no_one_out() {
    let (addr, stop) = serve(HttpConfig::new()).await;
    // As many sessions as the table holds (1024), each with its GET stream open.
    let mut streams = Vec::new();
    let mut refused = 0;
    for _ in 0..1024 {
        let sid = open_session(addr, ATTACKER, true)
            .await
            .unwrap_or_else(|r| panic!("the attacker's initialize answered {}", r.status));
        let mut c = Client::connect_from(ip(ATTACKER), addr).await;
        let h = [
            ("Mcp-Session-Id", sid.as_str()),
            ("MCP-Protocol-Version", "2025-11-25"),
            ("Accept", "text/event-stream"),
        ];
        c.write("GET", &h, b"").await;
        let head = c.read_head().await;
        match head.status {
            200 => streams.push(c),
            429 => refused += 1,
            other => panic!("GET answered {other}"),
        }
    }
    // Its share of the streams (16): the others were refused, although the attacker's
    // oldest sessions, streams and all, were ended for its newer ones as it went.
    assert!(refused > 0 && streams.len() < 1024, "{refused} refused");
    honest_calls(addr, true).await;
    let _ = stop.send(());
}

#[tokio::test]
async fn a_flood_of_half_open_sessions_never_ends_a_settled_one() {
    let (addr, stop) = serve(HttpConfig::new()).await;
    let settled = open_session(addr, HONEST, true).await.unwrap();
    honest_calls(addr, true).await;
    // From one address: more bare `initialize`s than the table holds.
    let mut mine = Vec::new();
    for _ in 0..1030 {
        mine.push(open_session(addr, ATTACKER, false).await.unwrap());
    }
    assert!(
        alive(addr, HONEST, &settled).await,
        "the settled session was ended"
    );
    // The address holds its share of the table (64), its newest sessions.
    let mut held = 0;
    for sid in &mine {
        if alive(addr, ATTACKER, sid).await {
            held += 1;
        }
    }
    assert_eq!(held, 64);
    assert!(alive(addr, ATTACKER, &mine[1029]).await);
    honest_calls(addr, true).await;
    // From twenty addresses, each within its share (60 of 64): the table overflows, and
    // still the handshakes in progress go first, and never take more than their share.
    let mut flood = Vec::new();
    for n in 0..20u8 {
        for _ in 0..60 {
            let source = [127, 0, 1, n + 1];
            flood.push((source, open_session(addr, source, false).await.unwrap()));
        }
    }
    assert!(
        alive(addr, HONEST, &settled).await,
        "the settled session was ended"
    );
    let mut still_open = 0;
    for (source, sid) in &flood {
        if alive(addr, *source, sid).await {
            still_open += 1;
        }
    }
    assert!(still_open <= 256, "{still_open} handshakes in progress");
    // The oldest went first.
    assert!(!alive(addr, flood[0].0, &flood[0].1).await);
    honest_calls(addr, true).await;
    let _ = stop.send(());
}

#[tokio::test]
async fn requests_in_flight_are_shared_out_per_client() {
    let config = HttpConfig::new()
        .max_in_flight(8)
        .max_in_flight_per_client(3);
    let (addr, stop) = serve(config).await;
    // Three slow calls from one address take its share; the fourth is refused with its id.
    let mut slow = Vec::new();
    for id in 0..3 {
        let mut c = Client::connect_from(ip(ATTACKER), addr).await;
        let h = modern("tools/call", Some("slow"));
        let call = message(
            id,
            "tools/call",
            json!({"name": "slow", "arguments": {"ms": 3000}, "_meta": modern_meta(json!({}))}),
        );
        let mut all = vec![
            ("Content-Type", "application/json"),
            ("Accept", "application/json"),
        ];
        all.extend(borrowed(&h));
        c.write("POST", &all, call.to_string().as_bytes()).await;
        slow.push(c);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut c = Client::connect_from(ip(ATTACKER), addr).await;
    let h = modern("tools/call", Some("text"));
    let call = message(
        77,
        "tools/call",
        json!({"name": "text", "_meta": modern_meta(json!({}))}),
    );
    let r = post(&mut c, &borrowed(&h), &call).await;
    assert_refused(
        &r,
        429,
        json!(77),
        "Too many requests: this client has too many requests in flight; retry later.",
    );
    honest_calls(addr, true).await;
    drop(slow);
    let _ = stop.send(());
}

#[tokio::test]
async fn a_trusted_proxy_names_the_client() {
    let config = HttpConfig::new()
        .max_streams(1024, 2)
        .trust_proxy(ip(ATTACKER), 32);
    let (addr, stop) = serve(config).await;
    // Requests through the proxy (127.0.0.2) count against the address it forwards.
    let through = |client: &'static str, id: u64| async move {
        let mut c = Client::connect_from(ip(ATTACKER), addr).await;
        let h = modern("subscriptions/listen", None);
        let mut all = vec![
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
            ("X-Forwarded-For", client),
        ];
        all.extend(borrowed(&h));
        c.write("POST", &all, listen_request(id).to_string().as_bytes())
            .await;
        (c.read_head().await.status, c)
    };
    let a1 = through("10.0.0.1", 1).await;
    let a2 = through("10.0.0.1", 2).await;
    assert_eq!((a1.0, a2.0), (200, 200));
    assert_eq!(through("10.0.0.1", 3).await.0, 429);
    assert_eq!(through("10.0.0.9", 4).await.0, 200);
    // A client that is no trusted proxy cannot choose whom it counts against.
    let from_honest = |id: u64| async move {
        let mut c = Client::connect_from(ip(HONEST), addr).await;
        let h = modern("subscriptions/listen", None);
        let mut all = vec![
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
            ("X-Forwarded-For", "10.0.0.77"),
        ];
        all.extend(borrowed(&h));
        c.write("POST", &all, listen_request(id).to_string().as_bytes())
            .await;
        (c.read_head().await.status, c)
    };
    let h1 = from_honest(5).await;
    let h2 = from_honest(6).await;
    assert_eq!((h1.0, h2.0), (200, 200));
    assert_eq!(from_honest(7).await.0, 429);
    let _ = stop.send(());
}

/// The status of a POST on a raw connection with these `Host`/`Origin` lines.
async fn status_with(addr: SocketAddr, lines: &[(&str, &str)]) -> u16 {
    let mut c = Client::connect_from(ip(HONEST), addr).await;
    let body = initialize(1).to_string();
    let mut head = "POST /mcp HTTP/1.1\r\n".to_owned();
    for (k, v) in lines {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str(&format!(
        "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    ));
    c.stream.write_all(head.as_bytes()).await.unwrap();
    c.read_head().await.status
}

#[tokio::test]
async fn host_and_origin_are_strict() {
    for stateless in [false, true] {
        let (addr, stop) = serve(HttpConfig::new().stateless(stateless)).await;
        let port = addr.port().to_string();
        let local = format!("localhost:{port}");
        let cases: [(&[(&str, &str)], u16); 7] = [
            (&[("Host", "[::1]evil.com")], 400),
            (&[("Host", "localhost:")], 403),
            (&[("Host", &local), ("Host", &local)], 400),
            (
                &[
                    ("Host", &local),
                    ("Origin", "http://localhost"),
                    ("Origin", "http://localhost"),
                ],
                403,
            ),
            (&[("Host", &local), ("Origin", "http://[::1]evil.com")], 403),
            (&[], 400),
            (
                &[
                    ("Host", &local),
                    ("Origin", &format!("http://[::1]:{port}")),
                ],
                200,
            ),
        ];
        for (lines, status) in cases {
            assert_eq!(status_with(addr, lines).await, status, "{lines:?}");
        }
        let _ = stop.send(());
    }
}

#[tokio::test]
async fn the_mounted_service_is_as_strict() {
    use tower_service::Service as _;
    let mut mcp = toolidl_runtime::http::McpService::new(edge_server(), HttpConfig::new());
    let body = initialize(1).to_string();
    let cases: [(&[(&str, &str)], u16); 4] = [
        (&[("host", "[::1]evil.com")], 400),
        (&[("host", "localhost"), ("host", "localhost")], 400),
        (
            &[
                ("host", "localhost"),
                ("origin", "http://a"),
                ("origin", "http://localhost"),
            ],
            403,
        ),
        (&[("host", "localhost")], 200),
    ];
    for (lines, status) in cases {
        let mut req = hyper::Request::builder()
            .method("POST")
            .uri("/mcp")
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2025-11-25");
        for (k, v) in lines {
            req = req.header(*k, *v);
        }
        let req = req.body(body.clone()).unwrap();
        let response = mcp.call(req).await.unwrap();
        assert_eq!(response.status().as_u16(), status, "{lines:?}");
    }
}

#[tokio::test]
async fn quiet_streams_keep_alive_then_end_gracefully() {
    let config = HttpConfig::new()
        .stateless(true)
        .stream_keepalive(Duration::from_millis(100))
        .stream_idle_timeout(Duration::from_millis(700));
    let (addr, stop) = serve(config).await;
    let mut c = listen(addr, HONEST, 42).await.unwrap();
    let mut text = String::new();
    loop {
        let chunk = c.chunk().await;
        if chunk.is_empty() {
            break;
        }
        text.push_str(&String::from_utf8(chunk).unwrap());
    }
    assert!(
        text.matches(": keep-alive\n\n").count() >= 3,
        "no keep-alive comments in {text:?}"
    );
    let events: Vec<Value> = sse(&text).into_iter().filter_map(|(_, d)| d).collect();
    assert_eq!(
        events,
        [json!({"jsonrpc": "2.0", "id": 42, "result": {
            "resultType": "complete",
            "_meta": {"io.modelcontextprotocol/subscriptionId": 42}
        }})]
    );
    // Its slot is back: a new stream is open at once.
    assert!(listen(addr, HONEST, 43).await.is_ok());
    let _ = stop.send(());
}

#[tokio::test]
async fn a_listen_with_nothing_to_carry_ends_at_once() {
    // No list changes announced, nothing subscribable: nothing could ever come.
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server = Server::builder("quiet", "1")
        .service(Arc::new(Kitchen))
        .build();
    let http = HttpServer::from_listener(server, listener, HttpConfig::new()).unwrap();
    let addr = http.local_addr().unwrap();
    let (stop, stopped) = oneshot::channel::<()>();
    tokio::spawn(http.run_until(async {
        let _ = stopped.await;
    }));
    let mut c = Client::connect_from(ip(HONEST), addr).await;
    let h = modern("subscriptions/listen", None);
    let r = post(&mut c, &borrowed(&h), &listen_request(7)).await;
    assert_eq!(r.status, 200);
    let events = r.events();
    assert_eq!(events.len(), 2);
    assert_eq!(events[0]["params"]["notifications"], json!({}));
    assert_eq!(
        events[1],
        json!({"jsonrpc": "2.0", "id": 7, "result": {
            "resultType": "complete",
            "_meta": {"io.modelcontextprotocol/subscriptionId": 7}
        }})
    );
    let _ = stop.send(());
}
