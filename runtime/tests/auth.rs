//! Authorization (feature `auth`) with a verifier of the embedding program's own
//! ([`TokenVerifier`]): the identity reaches handlers as `ctx.auth()` over HTTP and is absent
//! over stdio, `ToolDef::scopes` is enforced before the handler runs, and a verifier that
//! cannot check a token now answers 503. (Real JWTs from a real authorization server:
//! `examples/notes/tests/auth.rs`.)

#![cfg(feature = "auth")]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use toolidl_runtime::auth::{AuthInfo, TokenError, TokenVerifier, VerifyFuture};
use toolidl_runtime::codegen::{BoxFuture, RawValue, RequestContext, Service, ToolDef, ToolResult};
use toolidl_runtime::http::{AuthConfig, HttpConfig, HttpServer};
use toolidl_runtime::{Server, ToolOutput};

/// `whoami` (scope `notes:read`) answers what `ctx.auth()` says; counts its calls.
struct Whoami(AtomicUsize);

static TOOLS: [ToolDef; 1] = [ToolDef::new(
    "whoami",
    r#"{"name":"whoami","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#,
)
.scopes(&["notes:read"])];

impl Service for Whoami {
    fn tools(&self) -> &[ToolDef] {
        &TOOLS
    }

    fn call_tool(
        self: Arc<Self>,
        _: &str,
        _: &RawValue,
        ctx: RequestContext,
    ) -> BoxFuture<ToolResult> {
        self.0.fetch_add(1, Ordering::SeqCst);
        let who = match ctx.auth() {
            Some(a) => json!({"subject": a.subject, "client": a.client_id, "scopes": a.scopes}),
            None => Value::Null,
        };
        Box::pin(async move { Ok(ToolOutput::Json(who.to_string())) })
    }
}

/// Tokens of the form `subject:scope,scope`; `down` cannot be checked now.
struct Colon;

impl TokenVerifier for Colon {
    fn verify<'a>(&'a self, token: &'a str) -> VerifyFuture<'a> {
        Box::pin(async move {
            if token == "down" {
                return Err(TokenError::Unavailable("the checker is down".into()));
            }
            let (sub, scopes) = token
                .split_once(':')
                .ok_or_else(|| TokenError::Invalid("no colon".into()))?;
            Ok(AuthInfo::from_claims(json!({
                "sub": sub,
                "client_id": "test-client",
                "scp": scopes.split(',').filter(|s| !s.is_empty()).collect::<Vec<_>>(),
            })))
        })
    }
}

async fn post(addr: &str, token: &str) -> (u16, String) {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "whoami", "arguments": {},
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}})
    .to_string();
    let mut s = TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nAccept: application/json\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: whoami\r\nAuthorization: Bearer {token}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    s.read_to_string(&mut response).await.unwrap();
    let status = response[9..12].parse().unwrap();
    let body = response.split_once("\r\n\r\n").unwrap().1.to_owned();
    (status, body)
}

#[tokio::test]
async fn handlers_see_the_token_and_scopes_are_enforced() {
    let service = Arc::new(Whoami(AtomicUsize::new(0)));
    let server = Server::builder("whoami", "1")
        .service(service.clone())
        .build();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let auth = AuthConfig::new(format!("http://{addr}/mcp"), Colon)
        .authorization_server("http://127.0.0.1:1");
    let http = HttpServer::from_listener(server, listener, HttpConfig::new().auth(auth)).unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(http.run_until(async {
        let _ = stopped.await;
    }));

    let (status, body) = post(&addr, "alice:notes:read,other").await;
    assert_eq!(status, 200, "{body}");
    let reply: Value = serde_json::from_str(&body).unwrap();
    let who: Value =
        serde_json::from_str(reply["result"]["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(
        who,
        json!({"subject": "alice", "client": "test-client", "scopes": ["notes:read", "other"]})
    );
    assert_eq!(service.0.load(Ordering::SeqCst), 1);

    // Without the scope: 403, and the handler never runs.
    let (status, body) = post(&addr, "bob:other").await;
    assert_eq!(status, 403, "{body}");
    assert_eq!(service.0.load(Ordering::SeqCst), 1);
    let (status, _) = post(&addr, "no-colon").await;
    assert_eq!(status, 401);
    let (status, body) = post(&addr, "down").await;
    assert_eq!(status, 503, "{body}");
    assert_eq!(service.0.load(Ordering::SeqCst), 1);

    let _ = stop.send(());
    running.await.unwrap().unwrap();

    // Over stdio there is no token: `ctx.auth()` is None.
    let server = Server::builder("whoami", "1")
        .service(service.clone())
        .build();
    let (conn, mut outbox) =
        toolidl_runtime::transport::Connection::new(&server, tokio::runtime::Handle::current());
    conn.handle_line(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#);
    conn.handle_line(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    conn.handle_line(r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"whoami","arguments":{}}}"#);
    let mut last = String::new();
    while let Ok(Some(m)) =
        tokio::time::timeout(std::time::Duration::from_secs(5), outbox.recv()).await
    {
        if m.contains("\"id\":2") {
            last = m;
            break;
        }
    }
    let reply: Value = serde_json::from_str(&last).unwrap();
    assert_eq!(reply["result"]["content"][0]["text"], "null", "{last}");
}

/// A handshake-revision POST with `token`, in session `sid` (or `initialize` without one):
/// the status and the session id the response names.
async fn session_post(
    addr: &str,
    token: &str,
    sid: Option<&str>,
    body: &str,
) -> (u16, Option<String>) {
    let session = sid.map_or(String::new(), |s| {
        format!("Mcp-Session-Id: {s}\r\nMCP-Protocol-Version: 2025-06-18\r\n")
    });
    let mut s = TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nAccept: application/json\r\nAuthorization: Bearer {token}\r\n{session}Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    s.read_to_string(&mut response).await.unwrap();
    let sid = response
        .lines()
        .take_while(|l| !l.is_empty())
        .find_map(|l| l.strip_prefix("mcp-session-id: "))
        .map(str::to_owned);
    (response[9..12].parse().unwrap(), sid)
}

#[tokio::test]
async fn each_subject_has_its_own_session_cap() {
    let server = Server::builder("whoami", "1")
        .service(Arc::new(Whoami(AtomicUsize::new(0))))
        .build();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let auth = AuthConfig::new(format!("http://{addr}/mcp"), Colon)
        .authorization_server("http://127.0.0.1:1")
        .max_sessions_per_subject(2);
    let config = HttpConfig::new().auth(auth).max_sessions(8);
    let http = HttpServer::from_listener(server, listener, config).unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(http.run_until(async {
        let _ = stopped.await;
    }));
    let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
    let ping = r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#;
    let open = |token: &'static str| {
        let addr = addr.clone();
        async move {
            let (status, sid) = session_post(&addr, token, None, init).await;
            assert_eq!(status, 200);
            sid.expect("a session id")
        }
    };
    let bob = open("bob:").await;
    let alice: Vec<String> = vec![
        open("alice:").await,
        open("alice:").await,
        open("alice:").await,
    ];
    // Alice's third session ended her first (idle longest); Bob's is untouched.
    let status = |token: &'static str, sid: String| {
        let addr = addr.clone();
        async move { session_post(&addr, token, Some(&sid), ping).await.0 }
    };
    assert_eq!(status("alice:", alice[0].clone()).await, 404);
    assert_eq!(status("alice:", alice[1].clone()).await, 200);
    assert_eq!(status("alice:", alice[2].clone()).await, 200);
    assert_eq!(status("bob:", bob.clone()).await, 200);
    // A session answers only its own subject.
    assert_eq!(status("alice:", bob).await, 404);
    let _ = stop.send(());
}
