//! `client::HttpTransport` against the runtime's own Streamable HTTP server on a loopback
//! port: the revision negotiated, sessions kept and ended, event-stream replies, the
//! server's requests answered, and each way a call fails.
#![cfg(all(feature = "client", feature = "http"))]

use crate::common;

use std::sync::{Arc, Mutex};

use common::serve_kitchen;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use toolidl_runtime::client::{
    ClientError, HttpTransport, NotificationHandler, Progress, RequestHandler, Transport,
    call_tool, with_progress,
};
use toolidl_runtime::http::HttpConfig;
use toolidl_runtime::protocol::Revision;

/// The kitchen server on a loopback port: its endpoint URL, and what stops it.
async fn kitchen() -> (String, String, tokio::sync::oneshot::Sender<()>) {
    let (addr, stop) = serve_kitchen(HttpConfig::new()).await;
    (format!("http://{addr}/mcp"), addr, stop)
}

/// A raw HTTP/1.1 request naming `session`; the response's status code.
async fn raw_status(addr: &str, method: &str, session: &str, body: &str) -> u16 {
    let mut tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "{method} /mcp HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nAccept: application/json, text/event-stream\r\n\
         Content-Type: application/json\r\nMCP-Protocol-Version: 2025-11-25\r\nMcp-Session-Id: {session}\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    tcp.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    tcp.read_to_string(&mut response).await.unwrap();
    response
        .split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("no status in {response:?}"))
}

/// A session with the handshake revision 2025-11-25.
async fn in_session(url: &str) -> HttpTransport {
    let builder = HttpTransport::builder(url).revision(Revision::V2025_11_25);
    builder.connect().await.unwrap()
}

fn revision_seen(reply: &toolidl_runtime::client::ToolReply) -> String {
    let context: Value = reply.structured().unwrap();
    context["revision"].as_str().unwrap_or_default().to_owned()
}

#[tokio::test]
async fn a_server_speaking_2026_07_28_is_called_statelessly() {
    let (url, _, _stop) = kitchen().await;
    let server = HttpTransport::connect(&url).await.unwrap();
    assert_eq!(server.revision(), Revision::V2026_07_28);
    assert_eq!(server.session_id(), None);
    assert_eq!(server.server_info().unwrap()["name"], "kitchen");
    let reply = call_tool(&server, "context", json!({})).await.unwrap();
    assert_eq!(revision_seen(&reply), "2026-07-28");
    assert_eq!(reply.clone().into_json()["resultType"], "complete");
    // Without a session there is nothing to end.
    server.close().await.unwrap();
}

#[tokio::test]
async fn a_handshake_session_keeps_its_id_and_close_ends_it() {
    let (url, addr, _stop) = kitchen().await;
    let server = in_session(&url).await;
    assert_eq!(server.revision(), Revision::V2025_11_25);
    assert_eq!(server.opening_result()["protocolVersion"], "2025-11-25");
    assert_eq!(server.server_info().unwrap()["name"], "kitchen");
    let session = server.session_id().unwrap().to_owned();
    assert_eq!(session.len(), 32, "{session}");
    // Served in the session (without its id the server answers 400), under its revision.
    for _ in 0..2 {
        let reply = call_tool(&server, "context", json!({})).await.unwrap();
        assert_eq!(revision_seen(&reply), "2025-11-25");
    }
    let ping = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    assert_eq!(raw_status(&addr, "POST", &session, ping).await, 200);
    server.close().await.unwrap();
    assert_eq!(raw_status(&addr, "POST", &session, ping).await, 404);
}

#[tokio::test]
async fn a_session_the_server_ended_is_a_transport_error_saying_so() {
    let (url, addr, _stop) = kitchen().await;
    let server = in_session(&url).await;
    let session = server.session_id().unwrap().to_owned();
    assert_eq!(raw_status(&addr, "DELETE", &session, "").await, 204);
    match server.request("tools/list", json!({})).await {
        Err(ClientError::Transport(text)) => {
            assert!(text.contains(&url), "{text}");
            assert!(text.contains("HTTP 404"), "{text}");
            assert!(
                text.contains(&format!("session `{session}` is gone")),
                "{text}"
            );
        }
        other => panic!("expected a transport error, got {other:?}"),
    }
}

/// `progress` sends progress notifications before its result: the reply is an event stream.
#[tokio::test]
async fn a_reply_in_an_event_stream_is_read_past_the_notifications() {
    let (url, _, _stop) = kitchen().await;
    let params = json!({"name": "progress", "arguments": {}, "_meta": {"progressToken": "p"}});
    let stateless = HttpTransport::connect(&url).await.unwrap();
    let session = in_session(&url).await;
    for server in [&stateless, &session] {
        let result = server.request("tools/call", params.clone()).await.unwrap();
        assert_eq!(result["content"], json!([]), "{result}");
        assert_eq!(result.get("isError"), None);
    }
}

/// The progress in a call's event stream goes to its `with_progress` handler, in both
/// modes; in a session, the log messages beside it go to the notification handler.
#[tokio::test]
async fn a_calls_progress_and_log_messages_reach_their_handlers() {
    let (url, _, _stop) = kitchen().await;
    let logged = Arc::new(Mutex::new(Vec::new()));
    let keep = Arc::clone(&logged);
    let on_notification: NotificationHandler = Arc::new(move |method: &str, params: &Value| {
        keep.lock()
            .unwrap()
            .push((method.to_owned(), params.clone()));
    });
    let stateless = HttpTransport::connect(&url).await.unwrap();
    let session = HttpTransport::builder(&url)
        .revision(Revision::V2025_11_25)
        .on_notification(on_notification)
        .connect()
        .await
        .unwrap();
    session
        .request("logging/setLevel", json!({"level": "info"}))
        .await
        .unwrap();
    for server in [&stateless, &session] {
        let reports = Arc::new(Mutex::new(Vec::new()));
        let keep = Arc::clone(&reports);
        let call = call_tool(server, "progress", json!({}));
        with_progress(move |p| keep.lock().unwrap().push(p), call)
            .await
            .unwrap();
        let expected = [
            Progress {
                progress: 1.0,
                total: Some(2.0),
                message: Some("half".into()),
            },
            Progress {
                progress: 2.0,
                total: Some(2.0),
                message: None,
            },
        ];
        assert_eq!(*reports.lock().unwrap(), expected);
    }
    let logged = logged.lock().unwrap().clone();
    assert_eq!(
        logged,
        [(
            "notifications/message".to_owned(),
            json!({"level": "info", "logger": "kitchen", "data": "info message"})
        )]
    );
}

/// What the server asked (method, message), and a handler that accepts every elicitation
/// with the name Ada.
type Asked = Arc<Mutex<Vec<(String, Value)>>>;

fn accepting_ada() -> (Asked, RequestHandler) {
    let asked = Asked::default();
    let seen = Arc::clone(&asked);
    let handler: RequestHandler = Arc::new(move |method, params| {
        seen.lock()
            .unwrap()
            .push((method.to_owned(), params["message"].clone()));
        Ok(json!({"action": "accept", "content": {"name": "Ada"}}))
    });
    (asked, handler)
}

#[tokio::test]
async fn an_elicitation_in_a_session_is_answered_by_the_handler() {
    let (url, _, _stop) = kitchen().await;
    let (asked, handler) = accepting_ada();
    let server = HttpTransport::builder(&url)
        .revision(Revision::V2025_11_25)
        .on_request(handler)
        .capabilities(json!({"elicitation": {}}))
        .connect()
        .await
        .unwrap();
    let reply = call_tool(&server, "elicit", json!({})).await.unwrap();
    assert_eq!(reply.text(), "Ada");
    assert_eq!(
        *asked.lock().unwrap(),
        [("elicitation/create".to_owned(), json!("Name?"))]
    );
}

#[tokio::test]
async fn without_a_handler_the_servers_request_is_refused() {
    let (url, _, _stop) = kitchen().await;
    let server = HttpTransport::builder(&url)
        .revision(Revision::V2025_11_25)
        .capabilities(json!({"elicitation": {}}))
        .connect()
        .await
        .unwrap();
    // The tool's elicitation fails with "method not found", and so does the call.
    let outcome = call_tool(&server, "elicit", json!({})).await;
    assert!(
        matches!(
            outcome,
            Err(ClientError::Tool { .. } | ClientError::Protocol(_))
        ),
        "{outcome:?}"
    );
}

/// Under 2026-07-28 the kitchen's `input_required` tool asks for a login with
/// `inputRequests` and `requestState: "s1"`; the transport answers through the handler and
/// retries, so the caller sees the final result.
#[tokio::test]
async fn an_input_required_result_is_answered_by_the_handler_and_retried() {
    let (url, _, _stop) = kitchen().await;
    let (asked, handler) = accepting_ada();
    let server = HttpTransport::builder(&url)
        .on_request(handler)
        .capabilities(json!({"elicitation": {}}))
        .connect()
        .await
        .unwrap();
    assert_eq!(server.revision(), Revision::V2026_07_28);
    let reply = call_tool(&server, "input_required", json!({}))
        .await
        .unwrap();
    assert_eq!(reply.text(), "hello Ada, state s1");
    assert_eq!(
        *asked.lock().unwrap(),
        [("elicitation/create".to_owned(), json!("Login?"))]
    );
}

#[tokio::test]
async fn an_input_request_without_a_handler_ends_the_call_naming_it() {
    let (url, _, _stop) = kitchen().await;
    let server = HttpTransport::connect(&url).await.unwrap();
    let outcome = call_tool(&server, "input_required", json!({})).await;
    let Err(error @ ClientError::Input { .. }) = outcome else {
        panic!("{outcome:?}");
    };
    assert_eq!(
        error.to_string(),
        "the server asked for `elicitation/create` (input `login`), which the client did not answer: this client does not handle `elicitation/create` (-32601)"
    );
}

#[tokio::test]
async fn a_server_that_is_not_there_is_a_transport_error_naming_the_url() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    drop(listener);
    match HttpTransport::connect(&url).await {
        Err(ClientError::Transport(text)) => {
            assert!(text.contains(&url), "{text}");
            assert!(text.contains("cannot connect"), "{text}");
        }
        other => panic!("expected a transport error, got {:?}", other.err()),
    }
}

#[tokio::test]
async fn a_json_rpc_error_reply_is_a_protocol_error_in_both_modes() {
    let (url, _, _stop) = kitchen().await;
    let stateless = HttpTransport::connect(&url).await.unwrap();
    let session = in_session(&url).await;
    for server in [&stateless, &session] {
        match call_tool(server, "no_such_tool", json!({})).await {
            Err(ClientError::Protocol(error)) => assert_eq!(error.code, -32602),
            other => panic!("expected a protocol error, got {other:?}"),
        }
    }
    // 2026-07-28 answers an unknown method with HTTP 404 and -32601: a refusal too.
    match stateless.request("no/such_method", json!({})).await {
        Err(ClientError::Protocol(error)) => assert_eq!(error.code, -32601),
        other => panic!("expected a protocol error, got {other:?}"),
    }
}

#[tokio::test]
async fn a_path_that_is_not_the_endpoint_is_a_transport_error_with_the_status() {
    let (_, addr, _stop) = kitchen().await;
    let url = format!("http://{addr}/elsewhere");
    match HttpTransport::connect(&url).await {
        Err(ClientError::Transport(text)) => {
            assert!(text.contains(&url), "{text}");
            assert!(text.contains("HTTP 404"), "{text}");
        }
        other => panic!("expected a transport error, got {:?}", other.err()),
    }
}
