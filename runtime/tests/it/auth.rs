//! Authorization (feature `auth`) with a verifier of the embedding program's own
//! ([`TokenVerifier`]): the identity reaches handlers as `ctx.auth()` over HTTP and is absent
//! over stdio, `ToolDef::scopes` is enforced before the handler runs, and a verifier that
//! cannot check a token now answers 503. (Real JWTs from a real authorization server:
//! `examples/notes/tests/it/auth.rs`.)

#![cfg(feature = "auth")]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use toolidl_runtime::auth::{AuthInfo, TokenError, TokenVerifier, VerifyFuture};
use toolidl_runtime::codegen::{
    Arguments, BoxFuture, Completion, CompletionRequest, ListingDef, RequestContext, RpcError,
    Service, ToolDef, ToolResult,
};
use toolidl_runtime::http::{AuthConfig, HttpConfig, HttpServer};
use toolidl_runtime::tasks::{TaskInput, TaskSupport};
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
        _: Arguments<'_>,
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
    let headers =
        "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: whoami\r\n";
    let (status, _, body) = raw_post(addr, token, headers, &body).await;
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
    let (status, head, _) = exchange(addr, token, &session, body).await;
    (status, header(&head, "mcp-session-id"))
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

/// A prompt with completions, a subscribable resource template and a task tool, each
/// needing `vault:open`: every way to reach them is checked, not only the call.
struct Vault;

static VAULT_TOOLS: [ToolDef; 2] = [
    ToolDef::new(
        "open_later",
        r#"{"name":"open_later","inputSchema":{"type":"object","properties":{},"additionalProperties":false},"execution":{"taskSupport":"optional"}}"#,
    ),
    ToolDef::new(
        "peek",
        r#"{"name":"peek","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#,
    )
    .scopes(&["vault:open"]),
];
static VAULT_TEMPLATES: [ListingDef; 1] =
    [
        ListingDef::new(r#"{"uriTemplate":"vault://{item}","name":"item"}"#)
            .scopes(&["vault:open"]),
    ];
static VAULT_PROMPTS: [ListingDef; 1] =
    [
        ListingDef::new(r#"{"name":"recite","arguments":[{"name":"item","required":true}]}"#)
            .scopes(&["vault:open"]),
    ];
/// How many completions ran.
static COMPLETED: AtomicUsize = AtomicUsize::new(0);

impl Service for Vault {
    fn tools(&self) -> &[ToolDef] {
        &VAULT_TOOLS
    }

    fn call_tool(
        self: Arc<Self>,
        _: &str,
        _: Arguments<'_>,
        ctx: RequestContext,
    ) -> BoxFuture<ToolResult> {
        Box::pin(async move {
            ctx.cancelled().await;
            Ok(ToolOutput::text("stopped"))
        })
    }

    fn resource_templates(&self) -> &[ListingDef] {
        &VAULT_TEMPLATES
    }

    fn read_resource(
        self: Arc<Self>,
        uri: &str,
        _: RequestContext,
    ) -> Option<BoxFuture<Result<Value, RpcError>>> {
        let uri = uri.strip_prefix("vault://")?.to_owned();
        Some(Box::pin(async move {
            Ok(json!({"contents": [{"uri": format!("vault://{uri}"), "text": "gold"}]}))
        }))
    }

    fn has_subscriptions(&self) -> bool {
        true
    }

    fn subscribable(&self, uri: &str) -> bool {
        uri.starts_with("vault://")
    }

    fn prompts(&self) -> &[ListingDef] {
        &VAULT_PROMPTS
    }

    fn get_prompt(
        self: Arc<Self>,
        _: &str,
        _: Arguments<'_>,
        _: RequestContext,
    ) -> Option<BoxFuture<Result<Value, RpcError>>> {
        Some(Box::pin(async { Ok(json!({"messages": []})) }))
    }

    fn has_completions(&self) -> bool {
        true
    }

    fn complete(
        self: Arc<Self>,
        _: &CompletionRequest,
        _: RequestContext,
    ) -> Option<BoxFuture<Result<Completion, RpcError>>> {
        COMPLETED.fetch_add(1, Ordering::SeqCst);
        Some(Box::pin(async {
            Ok(Completion {
                values: vec!["gold".into()],
                total: None,
                has_more: false,
            })
        }))
    }
}

/// Serves [`Vault`] over HTTP with [`Colon`] tokens; the address.
async fn serve_vault() -> String {
    serve_vault_with(|auth| auth).await
}

/// The same, with `configure` applied to its [`AuthConfig`].
async fn serve_vault_with(configure: impl FnOnce(AuthConfig) -> AuthConfig) -> String {
    let server = Server::builder("vault", "1")
        .service(Arc::new(Vault))
        .task_tool("open_later", TaskSupport::Optional, TaskInput::InTask)
        .build();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let auth = AuthConfig::new(format!("http://{addr}/mcp"), Colon)
        .authorization_server("http://127.0.0.1:1");
    let config = HttpConfig::new().auth(configure(auth));
    let http = HttpServer::from_listener(server, listener, config).unwrap();
    tokio::spawn(http.run_until(std::future::pending::<()>()));
    addr
}

/// A POST with `token` and the extra header lines `headers`: the status line's code, the
/// `WWW-Authenticate` header and the body.
async fn raw_post(addr: &str, token: &str, headers: &str, body: &str) -> (u16, String, String) {
    let (status, head, body) = exchange(addr, token, headers, body).await;
    let challenge = header(&head, "www-authenticate").unwrap_or_default();
    (status, challenge, body)
}

/// The same, with the whole head: the body is read until the end, or for 2 s when the
/// response is a stream that stays open.
async fn exchange(addr: &str, token: &str, headers: &str, body: &str) -> (u16, String, String) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nAuthorization: Bearer {token}\r\n{headers}Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    let mut buf = [0u8; 4096];
    let read = async {
        loop {
            let n = s.read(&mut buf).await.unwrap();
            if n == 0 {
                break;
            }
            response.extend_from_slice(&buf[..n]);
        }
    };
    let _ = tokio::time::timeout(std::time::Duration::from_secs(2), read).await;
    let response = String::from_utf8_lossy(&response).into_owned();
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    (
        head[9..12].parse().unwrap(),
        head.to_owned(),
        body.to_owned(),
    )
}

/// The value of the header `name` (lower case, as hyper writes it) in a response head.
fn header(head: &str, name: &str) -> Option<String> {
    head.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(": "))
        .map(str::to_owned)
}

const MODERN: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}"#;

/// A 2026-07-28 request `method` with `params` (an object's members, `_meta` added).
async fn modern(
    addr: &str,
    token: &str,
    method: &str,
    name: Option<&str>,
    params: &str,
) -> (u16, String, String) {
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":7,"method":"{method}","params":{{{params}{}{MODERN}}}}}"#,
        if params.is_empty() { "" } else { "," }
    );
    let name = name.map_or(String::new(), |n| format!("Mcp-Name: {n}\r\n"));
    let headers = format!("MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: {method}\r\n{name}");
    raw_post(addr, token, &headers, &body).await
}

fn assert_insufficient(status: u16, challenge: &str, body: &str) {
    assert_eq!(status, 403, "{body}");
    assert!(
        challenge.contains(r#"error="insufficient_scope""#),
        "{challenge}"
    );
    assert!(challenge.contains(r#"scope="vault:open""#), "{challenge}");
    let reply: Value = serde_json::from_str(body).unwrap();
    assert_eq!(reply["id"], 7, "{body}");
}

#[tokio::test]
async fn completion_needs_the_scopes_of_what_it_completes() {
    let addr = serve_vault().await;
    let prompt =
        r#""ref":{"type":"ref/prompt","name":"recite"},"argument":{"name":"item","value":"g"}"#;
    let template = r#""ref":{"type":"ref/resource","uri":"vault://{item}"},"argument":{"name":"item","value":"g"}"#;
    for params in [prompt, template] {
        let before = COMPLETED.load(Ordering::SeqCst);
        let (status, challenge, body) =
            modern(&addr, "eve:other", "completion/complete", None, params).await;
        assert_insufficient(status, &challenge, &body);
        assert_eq!(
            COMPLETED.load(Ordering::SeqCst),
            before,
            "a refused completion ran"
        );
        let (status, _, body) =
            modern(&addr, "ann:vault:open", "completion/complete", None, params).await;
        assert_eq!(status, 200, "{body}");
        assert!(body.contains(r#""values":["gold"]"#), "{body}");
        assert_eq!(COMPLETED.load(Ordering::SeqCst), before + 1);
    }
}

#[tokio::test]
async fn resources_subscribe_needs_the_resources_scopes() {
    let addr = serve_vault().await;
    let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
    let subscribe = r#"{"jsonrpc":"2.0","id":7,"method":"resources/subscribe","params":{"uri":"vault://crown"}}"#;
    for (token, expected) in [("eve:other", 403), ("ann:vault:open", 200)] {
        let (status, sid) = session_post(&addr, token, None, init).await;
        assert_eq!(status, 200);
        let session = format!(
            "Mcp-Session-Id: {}\r\nMCP-Protocol-Version: 2025-06-18\r\n",
            sid.unwrap()
        );
        let (status, challenge, body) = raw_post(&addr, token, &session, subscribe).await;
        assert_eq!(status, expected, "{token}: {body}");
        if expected == 403 {
            assert_insufficient(status, &challenge, &body);
        }
    }
}

#[tokio::test]
async fn listen_needs_the_scopes_of_every_resource_it_names() {
    let addr = serve_vault().await;
    let listen = r#""notifications":{"resourceSubscriptions":["vault://crown"]}"#;
    let (status, challenge, body) =
        modern(&addr, "eve:other", "subscriptions/listen", None, listen).await;
    assert_insufficient(status, &challenge, &body);
    // With the scope the stream opens and acknowledges the URI.
    let (status, _, body) = modern(
        &addr,
        "ann:vault:open",
        "subscriptions/listen",
        None,
        listen,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert!(
        body.contains(r#""resourceSubscriptions":["vault://crown"]"#),
        "{body}"
    );
}

#[tokio::test]
async fn a_task_is_its_creators_only() {
    let addr = serve_vault().await;
    let (status, _, body) = modern(
        &addr,
        "ann:",
        "tools/call",
        Some("open_later"),
        r#""name":"open_later","arguments":{}"#,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let created: Value = serde_json::from_str(&body).unwrap();
    let task = created["result"]["taskId"]
        .as_str()
        .expect("a task")
        .to_owned();
    let params = format!(r#""taskId":"{task}""#);
    // Another subject is answered exactly as for an unknown task, and the task goes on.
    let unknown = "f".repeat(task.len());
    for method in ["tasks/get", "tasks/cancel", "tasks/update"] {
        let params = |id: &str| match method {
            "tasks/update" => format!(r#""taskId":"{id}","inputResponses":{{"x":{{}}}}"#),
            _ => format!(r#""taskId":"{id}""#),
        };
        let (status, _, body) = modern(&addr, "eve:", method, Some(&task), &params(&task)).await;
        let reply: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(reply["error"]["code"], -32602, "{method}: {body}");
        let (unknown_status, _, unknown_body) =
            modern(&addr, "ann:", method, Some(&unknown), &params(&unknown)).await;
        assert_eq!(status, unknown_status, "{method}");
        assert_eq!(body.replace(&task, &unknown), unknown_body, "{method}");
    }
    let (_, _, body) = modern(&addr, "ann:", "tasks/get", Some(&task), &params).await;
    let reply: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(reply["result"]["status"], "working", "{body}");
    let (_, _, body) = modern(&addr, "ann:", "tasks/cancel", Some(&task), &params).await;
    let reply: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(reply["result"]["resultType"], "complete", "{body}");
    let (_, _, body) = modern(&addr, "ann:", "tasks/get", Some(&task), &params).await;
    let reply: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(reply["result"]["status"], "cancelled", "{body}");
}

/// The names (or template URIs) a list request answers with `token`.
async fn listed(addr: &str, token: &str, method: &str) -> Vec<String> {
    let (status, _, body) = modern(addr, token, method, None, "").await;
    assert_eq!(status, 200, "{body}");
    let reply: Value = serde_json::from_str(&body).unwrap();
    let key = match method {
        "tools/list" => "tools",
        "prompts/list" => "prompts",
        _ => "resourceTemplates",
    };
    reply["result"][key]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["name"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn lists_can_show_only_what_the_token_may_use() {
    let lists = ["tools/list", "prompts/list", "resources/templates/list"];
    // By default every item is listed, whatever the token.
    let addr = serve_vault().await;
    for method in lists {
        assert!(!listed(&addr, "eve:", method).await.is_empty(), "{method}");
    }
    let addr = serve_vault_with(|auth| auth.filter_listings(true)).await;
    assert_eq!(listed(&addr, "eve:", "tools/list").await, ["open_later"]);
    assert!(listed(&addr, "eve:", "prompts/list").await.is_empty());
    assert!(
        listed(&addr, "eve:", "resources/templates/list")
            .await
            .is_empty()
    );
    assert_eq!(
        listed(&addr, "ann:vault:open", "tools/list").await,
        ["open_later", "peek"]
    );
    assert_eq!(
        listed(&addr, "ann:vault:open", "prompts/list").await,
        ["recite"]
    );
    assert_eq!(
        listed(&addr, "ann:vault:open", "resources/templates/list").await,
        ["item"]
    );
}
