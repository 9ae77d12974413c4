//! The Streamable HTTP transport over real TCP on 127.0.0.1 (port 0), with a small raw
//! HTTP/1.1 client: sessions, 2026-07-28 header checks, security checks, limits, shutdown.

#![cfg(feature = "http")]

use crate::common;

use std::net::SocketAddr;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;
use toolidl_runtime::http::{HttpConfig, HttpServer};

use common::raw::{Client, Reply, sse};
use common::{Kitchen, modern_meta, text_of};
use toolidl_runtime::codegen::{
    Arguments, BoxFuture, RequestContext, Service, ToolDef, ToolResult,
};
use toolidl_runtime::{Server, ToolOutput};

/// `hold` waits until cancelled; `pause` answers after 300 ms. Both tell when they start
/// and when their future is dropped.
struct Probe(tokio::sync::mpsc::UnboundedSender<&'static str>);

static PROBE_TOOLS: [ToolDef; 2] = [
    ToolDef::new(
        "hold",
        r#"{"name":"hold","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#,
    ),
    ToolDef::new(
        "pause",
        r#"{"name":"pause","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#,
    ),
];

struct Dropped(tokio::sync::mpsc::UnboundedSender<&'static str>);

impl Drop for Dropped {
    fn drop(&mut self) {
        let _ = self.0.send("dropped");
    }
}

impl Service for Probe {
    fn tools(&self) -> &[ToolDef] {
        &PROBE_TOOLS
    }

    fn call_tool(
        self: std::sync::Arc<Self>,
        name: &str,
        _: Arguments<'_>,
        _: RequestContext,
    ) -> BoxFuture<ToolResult> {
        let guard = Dropped(self.0.clone());
        let _ = self.0.send("started");
        let pause = name == "pause";
        Box::pin(async move {
            let _guard = guard;
            if pause {
                tokio::time::sleep(Duration::from_millis(300)).await;
                return Ok(ToolOutput::text("paused"));
            }
            std::future::pending::<()>().await;
            Ok(ToolOutput::Empty)
        })
    }
}

/// Tools with `x-mcp-header` parameters (SEP-2243); each answers with its arguments as text.
struct Headed(&'static [ToolDef]);

static HEADED_TOOLS: [ToolDef; 1] = [ToolDef::new(
    "route",
    r#"{"name":"route","inputSchema":{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"},"count":{"type":"integer","x-mcp-header":"Count"},"flag":{"type":"boolean","x-mcp-header":"Flag"},"target":{"type":"object","properties":{"zone":{"type":"string","x-mcp-header":"Zone"}}},"query":{"type":"string"}},"required":["region"]}}"#,
)];

static LATE_TOOLS: [ToolDef; 1] = [ToolDef::new(
    "late",
    r#"{"name":"late","inputSchema":{"type":"object","properties":{"tenant":{"type":"string","x-mcp-header":"Tenant"}}}}"#,
)];

impl Service for Headed {
    fn tools(&self) -> &[ToolDef] {
        self.0
    }

    fn call_tool(
        self: std::sync::Arc<Self>,
        _: &str,
        args: Arguments<'_>,
        _: RequestContext,
    ) -> BoxFuture<ToolResult> {
        let raw = args.raw();
        let text = raw.get().to_owned();
        Box::pin(async move { Ok(ToolOutput::text(text)) })
    }
}

fn test_server(probe: tokio::sync::mpsc::UnboundedSender<&'static str>) -> Server {
    Server::builder("http-test", "1.0.0")
        .list_changed(true)
        .subscribable("mem://readme")
        .service(std::sync::Arc::new(Kitchen))
        .service(std::sync::Arc::new(Probe(probe)))
        .service(std::sync::Arc::new(Headed(&HEADED_TOOLS)))
        .build()
}

/// A running server and what stops it.
struct Running {
    addr: SocketAddr,
    server: Server,
    /// What the `hold` tool reports.
    probe: tokio::sync::mpsc::UnboundedReceiver<&'static str>,
    stop: Option<oneshot::Sender<()>>,
    done: tokio::task::JoinHandle<std::io::Result<()>>,
}

async fn start(config: HttpConfig) -> Running {
    let (probe_tx, probe) = tokio::sync::mpsc::unbounded_channel();
    start_server(test_server(probe_tx), probe, config).await
}

async fn start_server(
    server: Server,
    probe: tokio::sync::mpsc::UnboundedReceiver<&'static str>,
    config: HttpConfig,
) -> Running {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let http = HttpServer::from_listener(server.clone(), listener, config).unwrap();
    let addr = http.local_addr().unwrap();
    let (tx, rx) = oneshot::channel::<()>();
    let done = tokio::spawn(http.run_until(async {
        let _ = rx.await;
    }));
    Running {
        addr,
        server,
        probe,
        stop: Some(tx),
        done,
    }
}

impl Running {
    async fn probe(&mut self) -> &'static str {
        tokio::time::timeout(Duration::from_secs(5), self.probe.recv())
            .await
            .expect("timed out waiting for the probe")
            .unwrap()
    }

    async fn client(&self) -> Client {
        Client::connect(self.addr).await
    }

    async fn shutdown(mut self) {
        let _ = self.stop.take().unwrap().send(());
        tokio::time::timeout(Duration::from_secs(10), self.done)
            .await
            .expect("shutdown timed out")
            .unwrap()
            .unwrap();
    }
}

/// The events of an event stream until it ends.
async fn rest_of_stream(c: &mut Client) -> Vec<(Option<String>, Option<Value>)> {
    let mut all = Vec::new();
    loop {
        let chunk = c.chunk().await;
        if chunk.is_empty() {
            return sse(&String::from_utf8(all).unwrap());
        }
        all.extend_from_slice(&chunk);
    }
}

/// The `<seq>` of an event id `<stream>-<seq>`.
fn seq_of(id: &str) -> (u64, u64) {
    let (stream, seq) = id.split_once('-').unwrap();
    (stream.parse().unwrap(), seq.parse().unwrap())
}

fn request(id: i64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

fn initialize(revision: &str) -> Value {
    request(
        0,
        "initialize",
        json!({"protocolVersion": revision, "capabilities": {"sampling": {}}, "clientInfo": {"name": "t", "version": "1"}}),
    )
}

/// Initializes a session; returns its id.
/// The headers of a request in session `sid` under 2025-11-25.
fn session_headers(sid: &str) -> [(&'static str, &str); 2] {
    [
        ("Mcp-Session-Id", sid),
        ("MCP-Protocol-Version", "2025-11-25"),
    ]
}

/// Subscribes the session of `headers` to `mem://readme`.
async fn subscribe_readme(c: &mut Client, headers: &[(&str, &str)]) {
    let r = c
        .post(
            headers,
            &request(1, "resources/subscribe", json!({"uri": "mem://readme"})),
        )
        .await;
    assert_eq!(r.json()["result"], json!({}));
}

async fn open_session(c: &mut Client) -> String {
    let r = c.post(&[], &initialize("2025-11-25")).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert_eq!(r.json()["result"]["protocolVersion"], "2025-11-25");
    let sid = r.header("mcp-session-id").expect("a session id").to_owned();
    let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let r = c
        .post(
            &[
                ("Mcp-Session-Id", &sid),
                ("MCP-Protocol-Version", "2025-11-25"),
            ],
            &note,
        )
        .await;
    assert_eq!(r.status, 202);
    assert!(r.body.is_empty());
    sid
}

fn modern_call(id: i64, name: &str, arguments: Value) -> Value {
    request(
        id,
        "tools/call",
        json!({"name": name, "arguments": arguments, "_meta": modern_meta(json!({}))}),
    )
}

fn modern_headers<'a>(method: &'a str, name: Option<&'a str>) -> Vec<(&'a str, &'a str)> {
    let mut h = vec![
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", method),
    ];
    if let Some(n) = name {
        h.push(("Mcp-Name", n));
    }
    h
}

#[tokio::test]
async fn sessions_initialize_call_and_end() {
    let server = start(HttpConfig::new()).await;
    let mut c = server.client().await;
    let sid = open_session(&mut c).await;
    assert_eq!(sid.len(), 32);
    assert!(sid.bytes().all(|b| b.is_ascii_hexdigit()));
    let h = session_headers(&sid);

    // A tools/call answered with one JSON reply.
    let r = c
        .post(&h, &request(1, "tools/call", json!({"name": "text"})))
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert_eq!(text_of(&r.json()), "hi \"there\"");
    // JSON-RPC errors of a readable request are 200 with the error.
    let r = c.post(&h, &request(2, "nope/nope", json!({}))).await;
    assert_eq!(
        (r.status, r.json()["error"]["code"].clone()),
        (200, json!(-32601))
    );
    assert_eq!(r.json()["id"], 2);

    // Missing session id: 400; unknown: 404.
    let r = c.post(&[], &request(3, "tools/list", json!({}))).await;
    assert_eq!(r.status, 400);
    assert_eq!(r.json()["id"], 3);
    let r = c
        .post(
            &[("Mcp-Session-Id", "0123456789abcdef0123456789abcdef")],
            &request(4, "tools/list", json!({})),
        )
        .await;
    assert_eq!(r.status, 404);
    assert_eq!(r.json()["id"], 4);

    // The protocol version header: absent means 2025-03-26 (served), unsupported is 400.
    let r = c
        .post(
            &[("Mcp-Session-Id", &sid)],
            &request(5, "tools/list", json!({})),
        )
        .await;
    assert_eq!(r.status, 200);
    let r = c
        .post(
            &[
                ("Mcp-Session-Id", &sid),
                ("MCP-Protocol-Version", "1999-01-01"),
            ],
            &request(6, "tools/list", json!({})),
        )
        .await;
    assert_eq!(r.status, 400);
    assert_eq!(r.json()["id"], 6);

    // GET (the session's stream) and other methods.
    let r = c.send("PUT", &h, b"").await;
    assert_eq!(r.status, 405);
    assert_eq!(r.header("allow"), Some("POST, GET, DELETE"));

    // DELETE ends the session; it is then unknown.
    let r = c.send("DELETE", &h, b"").await;
    assert_eq!(r.status, 204);
    let r = c.post(&h, &request(7, "tools/list", json!({}))).await;
    assert_eq!(r.status, 404);
    let r = c.send("DELETE", &h, b"").await;
    assert_eq!(r.status, 404);
    server.shutdown().await;
}

#[tokio::test]
async fn a_failed_initialize_opens_no_session() {
    let server = start(HttpConfig::new()).await;
    let mut c = server.client().await;
    let r = c.post(&[], &request(0, "initialize", json!(5))).await;
    assert!(r.json().get("error").is_some(), "{:?}", r.json());
    assert_eq!(r.header("mcp-session-id"), None);
    server.shutdown().await;
}

#[tokio::test]
async fn calls_that_notify_first_answer_with_an_event_stream() {
    let server = start(HttpConfig::new()).await;
    let mut c = server.client().await;
    let sid = open_session(&mut c).await;
    let h = session_headers(&sid);
    let r = c
        .post(
            &h,
            &request(1, "logging/setLevel", json!({"level": "info"})),
        )
        .await;
    assert_eq!(r.status, 200);
    let call = request(
        2,
        "tools/call",
        json!({"name": "progress", "_meta": {"progressToken": "p"}}),
    );
    let r = c.post(&h, &call).await;
    assert_eq!(r.status, 200);
    let events = r.events();
    let methods: Vec<&str> = events
        .iter()
        .map(|e| e["method"].as_str().unwrap_or("(reply)"))
        .collect();
    assert_eq!(
        methods,
        [
            "notifications/progress",
            "notifications/message",
            "notifications/progress",
            "(reply)"
        ]
    );
    assert_eq!(events[3]["id"], 2);
    // A client that accepts only JSON gets the reply alone.
    let r = c
        .send(
            "POST",
            &[("Mcp-Session-Id", &sid), ("Accept", "application/json")],
            call.to_string().as_bytes(),
        )
        .await;
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert_eq!(r.json()["id"], 2);

    // A request to the client goes out on the call's stream; its answer, POSTed, gets 202.
    let call = request(3, "tools/call", json!({"name": "sample"}));
    c.write(
        "POST",
        &[
            ("Mcp-Session-Id", &sid),
            ("Content-Type", "application/json"),
        ],
        call.to_string().as_bytes(),
    )
    .await;
    let head = c.read_head().await;
    assert_eq!(head.header("content-type"), Some("text/event-stream"));
    let chunk = String::from_utf8(c.chunk().await).unwrap();
    let data = chunk
        .lines()
        .find_map(|l| l.strip_prefix("data: ").filter(|d| !d.is_empty()))
        .unwrap();
    let sampling: Value = serde_json::from_str(data).unwrap();
    assert_eq!(sampling["method"], "sampling/createMessage");
    let mut other = server.client().await;
    let answer = json!({"jsonrpc": "2.0", "id": sampling["id"], "result": {"role": "assistant", "content": {"type": "text", "text": "sampled"}, "model": "m"}});
    let r = other.post(&[("Mcp-Session-Id", &sid)], &answer).await;
    assert_eq!(r.status, 202);
    let mut rest = Vec::new();
    loop {
        let c = c.chunk().await;
        if c.is_empty() {
            break;
        }
        rest.extend_from_slice(&c);
    }
    let rest = String::from_utf8(rest).unwrap();
    let reply: Value = serde_json::from_str(
        rest.lines()
            .find_map(|l| l.strip_prefix("data: ").filter(|d| !d.is_empty()))
            .unwrap(),
    )
    .unwrap();
    assert_eq!(text_of(&reply), "sampled");
    server.shutdown().await;
}

#[tokio::test]
async fn modern_requests_need_no_session_and_matching_headers() {
    let server = start(HttpConfig::new()).await;
    let mut c = server.client().await;
    let call = modern_call(1, "text", json!({}));
    let r = c
        .post(&modern_headers("tools/call", Some("text")), &call)
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("mcp-session-id"), None);
    assert_eq!(text_of(&r.json()), "hi \"there\"");
    assert_eq!(r.json()["result"]["resultType"], "complete");

    // Mismatched or missing mirrored headers: 400 with -32020 and the request's id.
    for headers in [
        modern_headers("tools/list", Some("text")),
        modern_headers("tools/call", Some("other")),
        modern_headers("tools/call", None),
        vec![("MCP-Protocol-Version", "2026-07-28")],
        vec![("Mcp-Method", "tools/call"), ("Mcp-Name", "text")],
    ] {
        let r = c.post(&headers, &call).await;
        assert_eq!(r.status, 400, "{headers:?}");
        assert_eq!(r.json()["error"]["code"], -32020, "{headers:?}");
        assert_eq!(r.json()["id"], 1);
    }
    // Base64-encoded Mcp-Name; whitespace around values.
    let r = c
        .post(
            &modern_headers("tools/call", Some(" =?base64?dGV4dA==?= ")),
            &call,
        )
        .await;
    assert_eq!(r.status, 200, "{:?}", r.json());

    // No _meta protocol version under a 2026-07-28 header: -32602, 400.
    let r = c
        .post(
            &modern_headers("server/discover", None),
            &request(2, "server/discover", json!({})),
        )
        .await;
    assert_eq!(
        (r.status, r.json()["error"]["code"].clone()),
        (400, json!(-32602))
    );
    // An unsupported version named in both: -32022, 400. An unknown method: 404.
    let mut meta = modern_meta(json!({}));
    meta["io.modelcontextprotocol/protocolVersion"] = json!("v999");
    let r = c
        .post(
            &[
                ("MCP-Protocol-Version", "v999"),
                ("Mcp-Method", "server/discover"),
            ],
            &request(3, "server/discover", json!({"_meta": meta})),
        )
        .await;
    assert_eq!(
        (r.status, r.json()["error"]["code"].clone()),
        (400, json!(-32022))
    );
    let r = c
        .post(
            &modern_headers("initialize", None),
            &request(4, "initialize", json!({"_meta": modern_meta(json!({}))})),
        )
        .await;
    assert_eq!(
        (r.status, r.json()["error"]["code"].clone()),
        (404, json!(-32601))
    );

    // GET and DELETE are not part of 2026-07-28.
    let h = [("MCP-Protocol-Version", "2026-07-28")];
    assert_eq!(c.send("GET", &h, b"").await.status, 405);
    assert_eq!(c.send("DELETE", &h, b"").await.status, 405);
    server.shutdown().await;
}

/// A 2026-07-28 `tools/call` of `name` with `Mcp-Method`, `Mcp-Name` and `params`.
async fn call_with_params(
    c: &mut Client,
    name: &str,
    arguments: Value,
    params: &[(&str, &str)],
) -> Reply {
    let mut h = modern_headers("tools/call", Some(name));
    h.extend_from_slice(params);
    c.post(&h, &modern_call(7, name, arguments)).await
}

fn mismatch(r: &Reply) -> String {
    assert_eq!(r.status, 400, "{:?}", String::from_utf8_lossy(&r.body));
    let j = r.json();
    assert_eq!(j["error"]["code"], -32020, "{j}");
    assert_eq!(j["id"], 7);
    j["error"]["message"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn mcp_param_headers_are_checked_against_x_mcp_header_arguments() {
    let server = start(HttpConfig::new()).await;
    let mut c = server.client().await;

    // The annotation is listed as written.
    let list = request(1, "tools/list", json!({"_meta": modern_meta(json!({}))}));
    let r = c.post(&modern_headers("tools/list", None), &list).await;
    let tools = r.json()["result"]["tools"].clone();
    let route = tools
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "route")
        .unwrap();
    assert_eq!(
        route["inputSchema"]["properties"]["region"]["x-mcp-header"],
        "Region"
    );

    // A matching header (the name in any case, the value trimmed) is accepted.
    for params in [
        [("Mcp-Param-Region", "us-west1")],
        [("mcp-param-region", " us-west1\t")],
        [("MCP-PARAM-REGION", "=?base64?dXMtd2VzdDE=?=")],
    ] {
        let r = call_with_params(&mut c, "route", json!({"region": "us-west1"}), &params).await;
        assert_eq!(r.status, 200, "{params:?}: {:?}", r.json());
        assert_eq!(text_of(&r.json()), r#"{"region":"us-west1"}"#);
    }
    // Base64 for what a plain header value cannot carry.
    let r = call_with_params(
        &mut c,
        "route",
        json!({"region": "Hello, 世界"}),
        &[("Mcp-Param-Region", "=?base64?SGVsbG8sIOS4lueVjA==?=")],
    )
    .await;
    assert_eq!(r.status, 200, "{:?}", r.json());
    // Integers numerically, booleans as true/false, nested properties by their path.
    let r = call_with_params(
        &mut c,
        "route",
        json!({"region": "eu", "count": 42, "flag": false, "target": {"zone": "z1"}, "query": "q"}),
        &[
            ("Mcp-Param-Region", "eu"),
            ("Mcp-Param-Count", "42.0"),
            ("Mcp-Param-Flag", "false"),
            ("Mcp-Param-Zone", "z1"),
        ],
    )
    .await;
    assert_eq!(r.status, 200, "{:?}", r.json());
    // An absent or null parameter needs no header.
    let r = call_with_params(
        &mut c,
        "route",
        json!({"region": "eu", "count": null}),
        &[("Mcp-Param-Region", "eu")],
    )
    .await;
    assert_eq!(r.status, 200, "{:?}", r.json());

    // A mismatch: 400, -32020, the request's id.
    let r = call_with_params(
        &mut c,
        "route",
        json!({"region": "us-west1"}),
        &[("Mcp-Param-Region", "us-east1")],
    )
    .await;
    assert_eq!(
        mismatch(&r),
        "Header mismatch: the Mcp-Param-Region header does not match arguments.region."
    );
    // A value in the body without its header.
    let r = call_with_params(&mut c, "route", json!({"region": "us-west1"}), &[]).await;
    assert_eq!(
        mismatch(&r),
        "Header mismatch: the Mcp-Param-Region header is required: arguments.region has a value."
    );
    let r = call_with_params(
        &mut c,
        "route",
        json!({"region": "eu", "target": {"zone": "z1"}}),
        &[("Mcp-Param-Region", "eu")],
    )
    .await;
    assert_eq!(
        mismatch(&r),
        "Header mismatch: the Mcp-Param-Zone header is required: arguments.target.zone has a value."
    );
    // A header for a parameter the body does not have.
    let r = call_with_params(
        &mut c,
        "route",
        json!({"region": "eu"}),
        &[("Mcp-Param-Region", "eu"), ("Mcp-Param-Count", "1")],
    )
    .await;
    assert_eq!(
        mismatch(&r),
        "Header mismatch: the Mcp-Param-Count header is present but arguments.count has no value."
    );
    // Bad Base64 (padding, alphabet); the sentinel only with its exact lowercase markers.
    for bad in ["=?base64?SGVsbG8?=", "=?base64?SGVs!!!bG8=?="] {
        let r = call_with_params(
            &mut c,
            "route",
            json!({"region": "Hello"}),
            &[("Mcp-Param-Region", bad)],
        )
        .await;
        assert_eq!(
            mismatch(&r),
            "Header mismatch: the Mcp-Param-Region header is not valid base64."
        );
    }
    for literal in ["SGVsbG8=", "=?base64?SGVsbG8=", "=?BASE64?SGVsbG8=?="] {
        let r = call_with_params(
            &mut c,
            "route",
            json!({"region": literal}),
            &[("Mcp-Param-Region", literal)],
        )
        .await;
        assert_eq!(r.status, 200, "{literal}: {:?}", r.json());
    }
    // Numbers and booleans compare by value, not loosely.
    for (args, header) in [
        (json!({"region": "eu", "count": 42}), "43"),
        (json!({"region": "eu", "flag": true}), "True"),
    ] {
        let name = if args.get("count").is_some() {
            "Mcp-Param-Count"
        } else {
            "Mcp-Param-Flag"
        };
        let r = call_with_params(
            &mut c,
            "route",
            args,
            &[("Mcp-Param-Region", "eu"), (name, header)],
        )
        .await;
        assert!(mismatch(&r).contains("does not match"));
    }

    // A tool without annotations is not affected, even by a stray Mcp-Param header.
    let r = call_with_params(&mut c, "text", json!({}), &[("Mcp-Param-Region", "x")]).await;
    assert_eq!(r.status, 200);
    assert_eq!(text_of(&r.json()), "hi \"there\"");

    // The handshake revisions do not mirror parameters into headers: not checked.
    let sid = open_session(&mut c).await;
    let r = c
        .post(
            &[
                ("Mcp-Session-Id", &sid),
                ("MCP-Protocol-Version", "2025-11-25"),
            ],
            &request(
                8,
                "tools/call",
                json!({"name": "route", "arguments": {"region": "eu"}}),
            ),
        )
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(text_of(&r.json()), r#"{"region":"eu"}"#);

    // A service added at run time: its annotations are read with the new registry.
    let r = call_with_params(&mut c, "late", json!({"tenant": "t1"}), &[]).await;
    assert_eq!(r.json()["error"]["code"], -32602, "unknown tool");
    server
        .server
        .add_service(std::sync::Arc::new(Headed(&LATE_TOOLS)));
    let r = call_with_params(&mut c, "late", json!({"tenant": "t1"}), &[]).await;
    assert_eq!(
        mismatch(&r),
        "Header mismatch: the Mcp-Param-Tenant header is required: arguments.tenant has a value."
    );
    let r = call_with_params(
        &mut c,
        "late",
        json!({"tenant": "t1"}),
        &[("Mcp-Param-Tenant", "t1")],
    )
    .await;
    assert_eq!(r.status, 200, "{:?}", r.json());
    server.shutdown().await;
}

#[tokio::test]
async fn closing_a_modern_response_cancels_the_call() {
    let mut server = start(HttpConfig::new()).await;
    let mut c = server.client().await;
    c.write(
        "POST",
        &modern_headers("tools/call", Some("hold")),
        modern_call(1, "hold", json!({})).to_string().as_bytes(),
    )
    .await;
    assert_eq!(server.probe().await, "started");
    drop(c);
    assert_eq!(server.probe().await, "dropped");

    // In a session, closing the response does not cancel; notifications/cancelled does.
    let mut c = server.client().await;
    let sid = open_session(&mut c).await;
    c.write(
        "POST",
        &[("Mcp-Session-Id", &sid)],
        request(2, "tools/call", json!({"name": "hold"}))
            .to_string()
            .as_bytes(),
    )
    .await;
    assert_eq!(server.probe().await, "started");
    drop(c);
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(
        server.probe.try_recv().is_err(),
        "cancelled by a closed response"
    );
    let mut c = server.client().await;
    let cancel =
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2}});
    assert_eq!(
        c.post(&[("Mcp-Session-Id", &sid)], &cancel).await.status,
        202
    );
    assert_eq!(server.probe().await, "dropped");
    server.shutdown().await;
}

#[tokio::test]
async fn host_and_origin_are_checked_and_the_connection_stays_usable() {
    let server = start(HttpConfig::new().allow_host("mcp.example.com")).await;
    let mut c = server.client().await;
    let body = request(1, "tools/list", json!({"_meta": modern_meta(json!({}))}));
    let good = modern_headers("tools/list", None);
    for (k, v) in [
        ("Host", "evil.example:80"),
        ("Origin", "http://evil.example"),
        ("Origin", "null"),
    ] {
        let mut h = good.clone();
        h.push((k, v));
        let r = c.post(&h, &body).await;
        assert_eq!(r.status, 403, "{k}: {v}");
        assert!(r.json()["error"].is_object());
        // The same connection serves the next request.
        let r = c.post(&good, &body).await;
        assert_eq!(r.status, 200, "after {k}: {v}");
        assert!(r.json()["result"]["tools"].is_array());
    }
    for (k, v) in [
        ("Host", "localhost:1234"),
        ("Host", "mcp.example.com"),
        ("Origin", "http://127.0.0.1:3000"),
    ] {
        let mut h = good.clone();
        h.push((k, v));
        assert_eq!(c.post(&h, &body).await.status, 200, "{k}: {v}");
    }
    server.shutdown().await;
}

#[tokio::test]
async fn over_limit_bodies_get_413_with_the_request_id() {
    let server = start(HttpConfig::new().max_body_bytes(1000)).await;
    let mut c = server.client().await;
    let big = request(
        7,
        "tools/call",
        json!({"name": "text", "arguments": {"pad": "x".repeat(5000)}, "_meta": modern_meta(json!({}))}),
    );
    let r = c
        .post(&modern_headers("tools/call", Some("text")), &big)
        .await;
    assert_eq!(r.status, 413);
    assert_eq!(r.json()["id"], 7);
    assert_eq!(r.json()["error"]["code"], -32600);
    // Without a readable id, the error has none; the connection goes on.
    let r = c
        .send(
            "POST",
            &[],
            format!("[{}]", "1,".repeat(1000) + "1").as_bytes(),
        )
        .await;
    assert_eq!(r.status, 413);
    assert!(r.json().get("id").is_none());
    let small = request(8, "tools/list", json!({"_meta": modern_meta(json!({}))}));
    let r = c.post(&modern_headers("tools/list", None), &small).await;
    assert_eq!(r.status, 200);

    // In a session, an over-long response from the client fails the request it answers
    // (as on stdio), and is itself answered without an id.
    let sid = open_session(&mut c).await;
    let call = request(9, "tools/call", json!({"name": "sample"}));
    c.write(
        "POST",
        &[("Mcp-Session-Id", &sid)],
        call.to_string().as_bytes(),
    )
    .await;
    let head = c.read_head().await;
    assert_eq!(head.header("content-type"), Some("text/event-stream"));
    let chunk = String::from_utf8(c.chunk().await).unwrap();
    let data = chunk
        .lines()
        .find_map(|l| l.strip_prefix("data: ").filter(|d| !d.is_empty()))
        .unwrap();
    let sampling: Value = serde_json::from_str(data).unwrap();
    let mut other = server.client().await;
    let answer =
        json!({"jsonrpc": "2.0", "id": sampling["id"], "result": {"pad": "x".repeat(5000)}});
    let r = other.post(&[("Mcp-Session-Id", &sid)], &answer).await;
    assert_eq!(r.status, 413);
    assert!(r.json().get("id").is_none());
    let rest = String::from_utf8(c.chunk().await).unwrap();
    let reply: Value = serde_json::from_str(
        rest.lines()
            .find_map(|l| l.strip_prefix("data: ").filter(|d| !d.is_empty()))
            .unwrap(),
    )
    .unwrap();
    assert_eq!(reply["id"], 9);
    assert_eq!(reply["error"]["code"], -32603, "{reply}");
    server.shutdown().await;
}

#[tokio::test]
async fn bearer_tokens_are_checked() {
    let server = start(
        HttpConfig::new()
            .bearer(|t| t == "good-token")
            .resource_metadata("http://127.0.0.1/.well-known/oauth-protected-resource"),
    )
    .await;
    let mut c = server.client().await;
    let body = request(1, "tools/list", json!({"_meta": modern_meta(json!({}))}));
    let mut h = modern_headers("tools/list", None);
    let r = c.post(&h, &body).await;
    assert_eq!(r.status, 401);
    let challenge = r.header("www-authenticate").unwrap();
    assert!(challenge.starts_with("Bearer"), "{challenge}");
    assert!(challenge.contains("resource_metadata="), "{challenge}");
    assert!(!challenge.contains("invalid_token"), "{challenge}");
    h.push(("Authorization", "Bearer bad-token"));
    let r = c.post(&h, &body).await;
    assert_eq!(r.status, 401);
    assert!(
        r.header("www-authenticate")
            .unwrap()
            .contains("error=\"invalid_token\"")
    );
    h.pop();
    h.push(("Authorization", "bearer good-token"));
    let r = c.post(&h, &body).await;
    assert_eq!(r.status, 200);
    server.shutdown().await;
}

#[tokio::test]
async fn requests_over_the_concurrency_limit_get_503() {
    let mut server = start(HttpConfig::new().max_in_flight(2).retry_after_secs(3)).await;
    let mut busy = Vec::new();
    for i in 0..2 {
        let mut c = server.client().await;
        c.write(
            "POST",
            &modern_headers("tools/call", Some("hold")),
            modern_call(i, "hold", json!({})).to_string().as_bytes(),
        )
        .await;
        assert_eq!(server.probe().await, "started");
        busy.push(c);
    }
    let mut c = server.client().await;
    let r = c
        .post(
            &modern_headers("tools/call", Some("text")),
            &modern_call(9, "text", json!({})),
        )
        .await;
    assert_eq!(r.status, 503);
    assert_eq!(r.header("retry-after"), Some("3"));
    // Those clients go away: their calls are cancelled and their permits freed.
    drop(busy);
    assert_eq!(server.probe().await, "dropped");
    assert_eq!(server.probe().await, "dropped");
    // Room again.
    let r = c
        .post(
            &modern_headers("tools/call", Some("text")),
            &modern_call(10, "text", json!({})),
        )
        .await;
    assert_eq!(r.status, 200);
    server.shutdown().await;
}

#[tokio::test]
async fn stateless_mode_keeps_no_session() {
    let server = start(HttpConfig::new().stateless(true)).await;
    let mut c = server.client().await;
    let r = c.post(&[], &initialize("2025-06-18")).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("mcp-session-id"), None);
    assert_eq!(r.json()["result"]["protocolVersion"], "2025-06-18");
    // Any later request is served alone, in the header's revision.
    let r = c
        .post(
            &[("MCP-Protocol-Version", "2025-06-18")],
            &request(1, "tools/call", json!({"name": "context"})),
        )
        .await;
    assert_eq!(r.status, 200);
    let result = &r.json()["result"]["structuredContent"];
    assert_eq!(result["revision"], "2025-06-18");
    assert_eq!(result["sampling"], false);
    // Without the header: 2025-03-26 (no structuredContent).
    let r = c
        .post(&[], &request(2, "tools/call", json!({"name": "context"})))
        .await;
    assert!(r.json()["result"].get("structuredContent").is_none());
    assert!(text_of(&r.json()).contains("2025-03-26"));
    // A session id header is ignored; GET and DELETE are not served.
    let r = c
        .post(
            &[("Mcp-Session-Id", "nope")],
            &request(3, "ping", json!({})),
        )
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(c.send("GET", &[], b"").await.status, 405);
    assert_eq!(
        c.send("DELETE", &[("Mcp-Session-Id", "x")], b"")
            .await
            .status,
        405
    );
    // 2026-07-28 as usual.
    let r = c
        .post(
            &modern_headers("tools/call", Some("text")),
            &modern_call(4, "text", json!({})),
        )
        .await;
    assert_eq!(text_of(&r.json()), "hi \"there\"");
    server.shutdown().await;
}

#[tokio::test]
async fn the_session_stream_carries_list_changes() {
    let server = start(HttpConfig::new()).await;
    let mut c = server.client().await;
    let sid = open_session(&mut c).await;
    let h = [("Mcp-Session-Id", sid.as_str())];
    c.write(
        "GET",
        &[("Mcp-Session-Id", &sid), ("Accept", "text/event-stream")],
        b"",
    )
    .await;
    let head = c.read_head().await;
    assert_eq!(head.status, 200);
    assert_eq!(head.header("content-type"), Some("text/event-stream"));
    // A second stream for the same session: 409.
    let mut other = server.client().await;
    assert_eq!(other.send("GET", &h, b"").await.status, 409);
    // A change of the tool list reaches the session on its stream.
    server.server.add_service(std::sync::Arc::new(common::Solo));
    let chunk = String::from_utf8(c.chunk().await).unwrap();
    let data = chunk
        .lines()
        .find_map(|l| l.strip_prefix("data: ").filter(|d| !d.is_empty()))
        .unwrap();
    let note: Value = serde_json::from_str(data).unwrap();
    assert_eq!(note["method"], "notifications/tools/list_changed");
    // Shutdown ends the stream, and the server returns.
    let stop = tokio::spawn(server.shutdown());
    assert!(c.chunk().await.is_empty());
    stop.await.unwrap();
}

/// The message of the next chunk of an event stream (one event per chunk).
async fn next_event(c: &mut Client) -> Value {
    let chunk = String::from_utf8(c.chunk().await).unwrap();
    let data = chunk
        .lines()
        .find_map(|l| l.strip_prefix("data: ").filter(|d| !d.is_empty()))
        .unwrap_or_else(|| panic!("no data in {chunk:?}"));
    serde_json::from_str(data).unwrap()
}

#[tokio::test]
async fn a_stateless_listen_stream_carries_list_changes_and_resource_updates() {
    // Stateless: every POST gets a connection of its own, and only a `subscriptions/listen`
    // one is kept for change notifications.
    let server = start(HttpConfig::new().stateless(true)).await;
    let mut c = server.client().await;
    for id in 0..20 {
        let r = c
            .post(
                &modern_headers("tools/call", Some("text")),
                &modern_call(id, "text", json!({})),
            )
            .await;
        assert_eq!(text_of(&r.json()), "hi \"there\"");
    }
    let mut l = server.client().await;
    let listen = request(
        5,
        "subscriptions/listen",
        json!({
            "notifications": {"toolsListChanged": true, "resourceSubscriptions": ["mem://readme"]},
            "_meta": modern_meta(json!({}))
        }),
    );
    l.write(
        "POST",
        &[
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "subscriptions/listen"),
        ],
        listen.to_string().as_bytes(),
    )
    .await;
    let head = l.read_head().await;
    assert_eq!(head.status, 200);
    assert_eq!(head.header("content-type"), Some("text/event-stream"));
    let ack = next_event(&mut l).await;
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
    // The calls before did not subscribe to anything; the listen stream did.
    server.server.add_service(std::sync::Arc::new(common::Solo));
    let note = next_event(&mut l).await;
    assert_eq!(note["method"], "notifications/tools/list_changed");
    assert_eq!(server.server.notify_resource_updated("mem://readme"), 1);
    let note = next_event(&mut l).await;
    assert_eq!(note["method"], "notifications/resources/updated");
    assert_eq!(note["params"]["uri"], "mem://readme");
    // Shutdown ends the stream gracefully: the listen request's completion result, then
    // the end of the stream.
    let stop = tokio::spawn(server.shutdown());
    assert_eq!(
        next_event(&mut l).await,
        json!({"jsonrpc": "2.0", "id": 5, "result": {
            "resultType": "complete",
            "_meta": {"io.modelcontextprotocol/subscriptionId": 5}
        }})
    );
    assert!(l.chunk().await.is_empty());
    stop.await.unwrap();
}

#[tokio::test]
async fn shutdown_lets_calls_in_flight_finish() {
    let mut server = start(HttpConfig::new()).await;
    let mut c = server.client().await;
    let sid = open_session(&mut c).await;
    let call = request(1, "tools/call", json!({"name": "pause"}));
    c.write(
        "POST",
        &[("Mcp-Session-Id", &sid)],
        call.to_string().as_bytes(),
    )
    .await;
    let mut idle = server.client().await;
    assert_eq!(server.probe().await, "started");
    let addr = server.addr;
    let stop = tokio::spawn(server.shutdown());
    let r = c.read_reply().await;
    assert_eq!(text_of(&r.json()), "paused");
    assert!(c.closed().await);
    assert!(idle.closed().await);
    stop.await.unwrap();
    // No longer accepting.
    assert!(TcpStream::connect(addr).await.is_err());
}

#[tokio::test]
async fn resource_updates_reach_subscribed_sessions_on_their_stream() {
    let server = start(HttpConfig::new()).await;
    let mut c = server.client().await;
    let sid = open_session(&mut c).await;
    let h = session_headers(&sid);
    subscribe_readme(&mut c, &h).await;
    // A second session that did not subscribe.
    let mut d = server.client().await;
    let other = open_session(&mut d).await;
    c.write(
        "GET",
        &[("Mcp-Session-Id", &sid), ("Accept", "text/event-stream")],
        b"",
    )
    .await;
    assert_eq!(c.read_head().await.status, 200);
    assert_eq!(server.server.notify_resource_updated("mem://readme"), 1);
    let chunk = String::from_utf8(c.chunk().await).unwrap();
    let data = chunk
        .lines()
        .find_map(|l| l.strip_prefix("data: ").filter(|d| !d.is_empty()))
        .unwrap();
    let note: Value = serde_json::from_str(data).unwrap();
    assert_eq!(
        note,
        json!({"jsonrpc": "2.0", "method": "notifications/resources/updated", "params": {"uri": "mem://readme"}})
    );
    // Ending the session ends its subscription.
    let r = d
        .send("DELETE", &[("Mcp-Session-Id", sid.as_str())], b"")
        .await;
    assert_eq!(r.status, 204);
    assert_eq!(server.server.notify_resource_updated("mem://readme"), 0);
    drop(other);
    server.shutdown().await;

    // Stateless mode: no connection outlives its request, so no subscriptions.
    let server = start(HttpConfig::new().stateless(true)).await;
    let mut c = server.client().await;
    let r = c.post(&[], &initialize("2025-11-25")).await;
    assert_eq!(
        r.json()["result"]["capabilities"]["resources"],
        json!({"listChanged": true})
    );
    let r = c
        .post(
            &[("MCP-Protocol-Version", "2025-11-25")],
            &request(1, "resources/subscribe", json!({"uri": "mem://readme"})),
        )
        .await;
    assert_eq!(r.json()["error"]["code"], -32601);
    server.shutdown().await;
}

#[tokio::test]
async fn tasks_are_polled_across_stateless_posts_with_mcp_name_checked() {
    let tasks = Server::builder("tasks", "1")
        .service(std::sync::Arc::new(Kitchen))
        .task_tool(
            "text",
            toolidl_runtime::tasks::TaskSupport::Optional,
            toolidl_runtime::tasks::TaskInput::InTask,
        )
        .build();
    let (_tx, probe) = tokio::sync::mpsc::unbounded_channel();
    let server = start_server(tasks, probe, HttpConfig::new().stateless(true)).await;
    let mut c = server.client().await;
    let meta = modern_meta(json!({"extensions": {toolidl_runtime::tasks::TASKS_EXTENSION: {}}}));
    let call = request(
        1,
        "tools/call",
        json!({"name": "text", "arguments": {}, "_meta": meta}),
    );
    let r = c
        .post(&modern_headers("tools/call", Some("text")), &call)
        .await;
    assert_eq!(r.status, 200);
    let created = r.json()["result"].clone();
    assert_eq!(created["resultType"], "task", "{created}");
    let id = created["taskId"].as_str().unwrap().to_owned();
    let get = request(2, "tasks/get", json!({"taskId": id, "_meta": meta}));
    let mut done = Value::Null;
    for _ in 0..100 {
        let r = c.post(&modern_headers("tasks/get", Some(&id)), &get).await;
        assert_eq!(r.status, 200, "{:?}", r.json());
        done = r.json()["result"].clone();
        if done["status"] == "completed" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!(
        done["result"]["content"][0]["text"], "hi \"there\"",
        "{done}"
    );
    // Mcp-Name mirrors taskId on the tasks methods: a wrong or missing one is -32020.
    for name in [Some("other-task"), None] {
        let r = c.post(&modern_headers("tasks/get", name), &get).await;
        assert_eq!(r.status, 400, "{name:?}");
        assert_eq!(r.json()["error"]["code"], -32020, "{name:?}");
    }
    // Without the extension: -32021 (HTTP 400).
    let bare = request(
        3,
        "tasks/get",
        json!({"taskId": id, "_meta": modern_meta(json!({}))}),
    );
    let r = c.post(&modern_headers("tasks/get", Some(&id)), &bare).await;
    assert_eq!(
        (r.status, r.json()["error"]["code"].clone()),
        (400, json!(-32021))
    );
    server.shutdown().await;
}

/// `slow` sends a progress notification, then answers after 300 ms.
struct Slow;

static SLOW_TOOLS: [ToolDef; 1] = [ToolDef::new(
    "slow",
    r#"{"name":"slow","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#,
)];

impl Service for Slow {
    fn tools(&self) -> &[ToolDef] {
        &SLOW_TOOLS
    }

    fn call_tool(
        self: std::sync::Arc<Self>,
        _: &str,
        _: Arguments<'_>,
        ctx: RequestContext,
    ) -> BoxFuture<ToolResult> {
        Box::pin(async move {
            ctx.progress(1.0, Some(2.0), Some("half"));
            tokio::time::sleep(Duration::from_millis(300)).await;
            Ok(ToolOutput::text("slow done"))
        })
    }
}

async fn start_slow(config: HttpConfig) -> Running {
    let (_probe_tx, probe) = tokio::sync::mpsc::unbounded_channel();
    let server = Server::builder("http-test", "1.0.0")
        .service(std::sync::Arc::new(Slow))
        .build();
    start_server(server, probe, config).await
}

fn slow_call(id: i64) -> Value {
    request(
        id,
        "tools/call",
        json!({"name": "slow", "arguments": {}, "_meta": {"progressToken": "p"}}),
    )
}

#[tokio::test]
async fn a_dropped_get_stream_resumes_with_exactly_the_missed_events() {
    let server = start(HttpConfig::new()).await;
    let mut c = server.client().await;
    let sid = open_session(&mut c).await;
    let h = session_headers(&sid);
    subscribe_readme(&mut c, &h).await;
    let get = [
        ("Mcp-Session-Id", sid.as_str()),
        ("Accept", "text/event-stream"),
    ];
    let mut g = server.client().await;
    g.write("GET", &get, b"").await;
    assert_eq!(g.read_head().await.status, 200);
    // Ids on the GET stream: stream 0, increasing.
    let mut seen = Vec::new();
    for _ in 0..2 {
        assert_eq!(server.server.notify_resource_updated("mem://readme"), 1);
        let chunk = String::from_utf8(g.chunk().await).unwrap();
        seen.extend(sse(&chunk));
    }
    let ids: Vec<(u64, u64)> = seen
        .iter()
        .map(|(id, _)| seq_of(id.as_deref().unwrap()))
        .collect();
    assert_eq!(ids, [(0, 1), (0, 2)]);
    assert!(
        seen.iter()
            .all(|(_, d)| d.as_ref().unwrap()["method"] == "notifications/resources/updated")
    );
    // The client drops the stream; a list change and two updates happen meanwhile.
    drop(g);
    server.server.add_service(std::sync::Arc::new(common::Solo));
    assert_eq!(server.server.notify_resource_updated("mem://readme"), 1);
    assert_eq!(server.server.notify_resource_updated("mem://readme"), 1);
    tokio::time::sleep(Duration::from_millis(100)).await;
    // Reconnecting with the last id seen delivers exactly those, in order, with later ids.
    let mut g = server.client().await;
    g.write(
        "GET",
        &[
            ("Mcp-Session-Id", sid.as_str()),
            ("Accept", "text/event-stream"),
            ("Last-Event-ID", "0-2"),
        ],
        b"",
    )
    .await;
    assert_eq!(g.read_head().await.status, 200);
    let mut missed = Vec::new();
    while missed.len() < 3 {
        missed.extend(sse(&String::from_utf8(g.chunk().await).unwrap()));
    }
    let methods: Vec<&str> = missed
        .iter()
        .map(|(_, d)| d.as_ref().unwrap()["method"].as_str().unwrap())
        .collect();
    assert_eq!(
        methods,
        [
            "notifications/tools/list_changed",
            "notifications/resources/updated",
            "notifications/resources/updated"
        ]
    );
    let ids: Vec<(u64, u64)> = missed
        .iter()
        .map(|(id, _)| seq_of(id.as_deref().unwrap()))
        .collect();
    assert_eq!(ids, [(0, 3), (0, 4), (0, 5)]);
    // Nothing else arrives; the stream goes on live.
    assert_eq!(server.server.notify_resource_updated("mem://readme"), 1);
    let next = sse(&String::from_utf8(g.chunk().await).unwrap());
    assert_eq!(next.len(), 1);
    assert_eq!(next[0].0.as_deref(), Some("0-6"));
    drop(g);
    // An unknown id replays nothing: the stream starts live.
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut g = server.client().await;
    g.write(
        "GET",
        &[
            ("Mcp-Session-Id", sid.as_str()),
            ("Accept", "text/event-stream"),
            ("Last-Event-ID", "0-999"),
        ],
        b"",
    )
    .await;
    assert_eq!(g.read_head().await.status, 200);
    assert_eq!(server.server.notify_resource_updated("mem://readme"), 1);
    let next = sse(&String::from_utf8(g.chunk().await).unwrap());
    assert_eq!(next.len(), 1, "{next:?}");
    assert_eq!(next[0].0.as_deref(), Some("0-7"));
    drop(g);
    server.shutdown().await;
}

#[tokio::test]
async fn an_interrupted_post_stream_s_result_is_recovered_with_last_event_id() {
    let server = start_slow(HttpConfig::new()).await;
    let mut c = server.client().await;
    let sid = open_session(&mut c).await;
    let mut p = server.client().await;
    p.write(
        "POST",
        &[
            ("Mcp-Session-Id", sid.as_str()),
            ("MCP-Protocol-Version", "2025-11-25"),
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
        ],
        slow_call(7).to_string().as_bytes(),
    )
    .await;
    let head = p.read_head().await;
    assert_eq!(head.header("content-type"), Some("text/event-stream"));
    // The priming event (2025-11-25: id, retry, empty data), then the progress notification.
    let mut events = Vec::new();
    let mut raw = String::new();
    while events.len() < 2 {
        let chunk = String::from_utf8(p.chunk().await).unwrap();
        raw.push_str(&chunk);
        events = sse(&raw);
    }
    assert!(raw.starts_with("id: 1-1\nretry: 1000\ndata: \n\n"), "{raw}");
    assert_eq!(events[0], (Some("1-1".to_owned()), None));
    assert_eq!(events[1].0.as_deref(), Some("1-2"));
    assert_eq!(
        events[1].1.as_ref().unwrap()["method"],
        "notifications/progress"
    );
    // The client goes away before the result; the call still answers, into the buffer.
    drop(p);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let mut g = server.client().await;
    g.write(
        "GET",
        &[
            ("Mcp-Session-Id", sid.as_str()),
            ("Accept", "text/event-stream"),
            ("Last-Event-ID", "1-2"),
        ],
        b"",
    )
    .await;
    assert_eq!(g.read_head().await.status, 200);
    let rest = rest_of_stream(&mut g).await;
    assert_eq!(rest.len(), 1, "{rest:?}");
    assert_eq!(rest[0].0.as_deref(), Some("1-3"));
    let reply = rest[0].1.as_ref().unwrap();
    assert_eq!(reply["id"], 7);
    assert_eq!(text_of(reply), "slow done");
    // The session's own GET stream was not involved: it can still be opened.
    let mut s = server.client().await;
    s.write(
        "GET",
        &[
            ("Mcp-Session-Id", sid.as_str()),
            ("Accept", "text/event-stream"),
        ],
        b"",
    )
    .await;
    assert_eq!(s.read_head().await.status, 200);
    drop(s);
    server.shutdown().await;
}

#[tokio::test]
async fn a_polled_tool_s_stream_closes_after_priming_and_the_get_gets_the_rest() {
    let config = HttpConfig::new()
        .poll_tool("slow")
        .sse_retry(Duration::from_millis(250));
    let server = start_slow(config).await;
    let mut c = server.client().await;
    let sid = open_session(&mut c).await;
    let h = session_headers(&sid);
    let r = c.post(&h, &slow_call(3)).await;
    assert_eq!(r.header("content-type"), Some("text/event-stream"));
    let body = String::from_utf8(r.body.clone()).unwrap();
    assert_eq!(body, "id: 1-1\nretry: 250\ndata: \n\n");
    // The same kept-alive connection resumes the call's stream.
    c.write(
        "GET",
        &[
            ("Mcp-Session-Id", sid.as_str()),
            ("Accept", "text/event-stream"),
            ("Last-Event-ID", "1-1"),
        ],
        b"",
    )
    .await;
    assert_eq!(c.read_head().await.status, 200);
    let rest = rest_of_stream(&mut c).await;
    let ids: Vec<&str> = rest.iter().map(|(id, _)| id.as_deref().unwrap()).collect();
    assert_eq!(ids, ["1-2", "1-3"]);
    assert_eq!(
        rest[0].1.as_ref().unwrap()["method"],
        "notifications/progress"
    );
    assert_eq!(rest[1].1.as_ref().unwrap()["id"], 3);
    // Resuming a finished stream again replays from the buffer.
    c.write(
        "GET",
        &[
            ("Mcp-Session-Id", sid.as_str()),
            ("Accept", "text/event-stream"),
            ("Last-Event-ID", "1-2"),
        ],
        b"",
    )
    .await;
    assert_eq!(c.read_head().await.status, 200);
    let again = rest_of_stream(&mut c).await;
    assert_eq!(again.len(), 1);
    assert_eq!(again[0].1.as_ref().unwrap()["id"], 3);
    // 2025-06-18 sessions get ids but no priming event, and no early close.
    let mut d = server.client().await;
    let r = d.post(&[], &initialize("2025-06-18")).await;
    let old = r.header("mcp-session-id").unwrap().to_owned();
    let r = d
        .post(
            &[
                ("Mcp-Session-Id", &old),
                ("MCP-Protocol-Version", "2025-06-18"),
            ],
            &slow_call(4),
        )
        .await;
    let events = sse(&String::from_utf8(r.body.clone()).unwrap());
    let ids: Vec<&str> = events
        .iter()
        .map(|(id, _)| id.as_deref().unwrap())
        .collect();
    assert_eq!(ids, ["1-1", "1-2"]);
    assert_eq!(events[1].1.as_ref().unwrap()["id"], 4);
    server.shutdown().await;
}

#[tokio::test]
async fn one_session_cannot_take_more_than_its_share() {
    let mut server = start(
        HttpConfig::new()
            .max_in_flight_per_session(2)
            .retry_after_secs(4),
    )
    .await;
    let mut c = server.client().await;
    let sid = open_session(&mut c).await;
    let headers = session_headers(&sid);
    let mut busy = Vec::new();
    for i in 0..2 {
        let mut h = server.client().await;
        let call = request(i, "tools/call", json!({"name": "hold", "arguments": {}}));
        h.write("POST", &headers, call.to_string().as_bytes()).await;
        assert_eq!(server.probe().await, "started");
        busy.push(h);
    }
    let call = request(7, "tools/call", json!({"name": "text", "arguments": {}}));
    let r = c.post(&headers, &call).await;
    assert_eq!(r.status, 503);
    assert_eq!(r.header("retry-after"), Some("4"));
    assert_eq!(r.json()["id"], 7, "the refusal names the request");
    // Another session is not affected.
    let mut other = server.client().await;
    let sid2 = open_session(&mut other).await;
    let r = other.post(&session_headers(&sid2), &call).await;
    assert_eq!(r.status, 200);
    // The session's calls end (cancelled by the client): room again.
    for i in 0..2 {
        let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": i}});
        assert_eq!(c.post(&headers, &cancel).await.status, 202);
    }
    drop(busy);
    let mut room = false;
    for _ in 0..100 {
        if c.post(&headers, &call).await.status == 200 {
            room = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(room, "the session never got its slots back");
    server.shutdown().await;
}

#[tokio::test]
async fn results_go_on_an_event_stream_when_asked_and_errors_stay_json() {
    let server = start(HttpConfig::new().stream_results(true)).await;
    let mut c = server.client().await;
    let r = c
        .post(
            &modern_headers("tools/call", Some("text")),
            &modern_call(1, "text", json!({})),
        )
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("text/event-stream"));
    let events = r.events();
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0]["id"], 1);
    assert!(events[0].get("result").is_some(), "{events:?}");
    // An error keeps its status and its JSON body.
    let r = c
        .post(
            &modern_headers("tools/call", Some("nope")),
            &modern_call(2, "nope", json!({})),
        )
        .await;
    assert_eq!(r.status, 400);
    assert_eq!(r.header("content-type"), Some("application/json"));
    // A client that accepts only JSON gets JSON.
    let mut h = modern_headers("tools/call", Some("text"));
    h.extend([
        ("Content-Type", "application/json"),
        ("Accept", "application/json"),
    ]);
    let call = modern_call(3, "text", json!({})).to_string();
    let r = c.send("POST", &h, call.as_bytes()).await;
    assert_eq!(r.header("content-type"), Some("application/json"));
    server.shutdown().await;
}
