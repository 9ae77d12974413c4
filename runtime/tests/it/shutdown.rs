//! Graceful shutdown: every request the server took is answered. Calls in flight finish
//! within the drain time; those still running at its end are cancelled (their handlers
//! dropped) and answered with -32000; requests that arrive during the shutdown are refused
//! (-32000 over stdio; 503 with `Retry-After` over HTTP); the transport then returns
//! without waiting for more input. Then the HTTP health checks.

use std::os::unix::net::UnixStream;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

use crate::common::tool;
use tokio::sync::oneshot;
use toolidl_runtime::Server;
use toolidl_runtime::codegen::{
    Arguments, BoxFuture, RequestContext, Service, ToolDef, ToolOutput, ToolResult,
};
use toolidl_runtime::stdio::StdioConfig;
use toolidl_runtime::transport::serve_io_until;

static TOOLS: [ToolDef; 2] = [tool!("hold"), tool!("sleepy")];

/// `hold` runs until the test releases it; `sleepy` for an hour. Counts the handlers
/// running and those dropped.
#[derive(Default)]
struct Gauges {
    running: AtomicUsize,
    dropped: AtomicUsize,
    release: tokio::sync::Notify,
}

struct Slow(Arc<Gauges>);

struct Running(Arc<Gauges>);

impl Drop for Running {
    fn drop(&mut self) {
        self.0.running.fetch_sub(1, Ordering::SeqCst);
        self.0.dropped.fetch_add(1, Ordering::SeqCst);
    }
}

impl Service for Slow {
    fn tools(&self) -> &[ToolDef] {
        &TOOLS
    }

    fn call_tool(
        self: Arc<Self>,
        name: &str,
        _: Arguments<'_>,
        _: RequestContext,
    ) -> BoxFuture<ToolResult> {
        let g = self.0.clone();
        let hold = name == "hold";
        Box::pin(async move {
            g.running.fetch_add(1, Ordering::SeqCst);
            let _running = Running(g.clone());
            if hold {
                g.release.notified().await;
                Ok(ToolOutput::text("held"))
            } else {
                tokio::time::sleep(Duration::from_secs(3600)).await;
                Ok(ToolOutput::text("woke up"))
            }
        })
    }
}

fn server(g: &Arc<Gauges>) -> Server {
    Server::builder("slow", "1")
        .service(Arc::new(Slow(g.clone())))
        .build()
}

/// Waits (in real time, polling) until `n` handlers run.
async fn running(g: &Gauges, n: usize) {
    for _ in 0..1000 {
        if g.running.load(Ordering::SeqCst) >= n {
            return;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    panic!("{n} handlers never ran");
}

/// What the server wrote, kept for the test.
#[derive(Clone, Default)]
struct Output(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Output {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Output {
    fn messages(&self) -> Vec<Value> {
        let text = String::from_utf8(self.0.lock().unwrap().clone()).unwrap();
        text.lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }
}

fn call(id: u64, name: &str) -> String {
    let m = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                   "params": {"name": name, "arguments": {}}});
    format!("{m}\n")
}

fn initialize() -> String {
    let m = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                   "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                              "clientInfo": {"name": "t", "version": "1"}}});
    format!(
        "{m}\n{}\n",
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
    )
}

/// The answer to request `id` among `messages`.
fn answer(messages: &[Value], id: u64) -> &Value {
    let found: Vec<&Value> = messages.iter().filter(|m| m["id"] == id).collect();
    assert_eq!(
        found.len(),
        1,
        "request {id} answered {} times: {messages:?}",
        found.len()
    );
    found[0]
}

/// The client's end of a stdio server's input, its output, its shutdown trigger and the
/// task serving it.
type Stdio = (
    UnixStream,
    Output,
    oneshot::Sender<()>,
    tokio::task::JoinHandle<std::io::Result<()>>,
);

/// A stdio server whose input stays open (a client that does not hang up), shut down by
/// the test: `(the client's end of the input, the output, the shutdown trigger, the serve
/// task)`.
fn stdio(g: &Arc<Gauges>, drain: Duration) -> Stdio {
    stdio_of(server(g), drain)
}

/// [`stdio`] of `server`.
fn stdio_of(server: Server, drain: Duration) -> Stdio {
    let (client, input) = UnixStream::pair().unwrap();
    let out = Output::default();
    let (stop, stopped) = oneshot::channel::<()>();
    let serving = tokio::spawn(serve_io_until(
        server,
        input,
        out.clone(),
        StdioConfig::default(),
        async {
            let _ = stopped.await;
        },
        drain,
    ));
    (client, out, stop, serving)
}

/// Calls in flight at the shutdown finish and are answered; a request read after it is
/// refused; the server then returns although its input is still open.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stdio_shutdown_answers_every_call_in_flight_and_refuses_new_requests() {
    use std::io::Write;
    let g = Arc::new(Gauges::default());
    let (mut client, out, stop, serving) = stdio(&g, Duration::from_secs(30));
    let mut lines = initialize();
    for id in 1..=5 {
        lines.push_str(&call(id, "hold"));
    }
    client.write_all(lines.as_bytes()).unwrap();
    running(&g, 5).await;
    stop.send(()).unwrap();
    // The shutdown has begun (the drain flag is set right after the signal).
    tokio::time::sleep(Duration::from_millis(200)).await;
    client.write_all(call(6, "hold").as_bytes()).unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(!serving.is_finished(), "returned with calls in flight");
    g.release.notify_waiters();
    tokio::time::timeout(Duration::from_secs(10), serving)
        .await
        .expect("the server returned")
        .unwrap()
        .unwrap();
    let messages = out.messages();
    for id in 1..=5 {
        let a = answer(&messages, id);
        assert_eq!(a["result"]["content"][0]["text"], "held", "{a}");
    }
    let refused = answer(&messages, 6);
    assert_eq!(refused["error"]["code"], -32000, "{refused}");
    assert_eq!(
        refused["error"]["message"],
        "Server shutting down: no new requests are accepted; retry later."
    );
    assert_eq!(g.running.load(Ordering::SeqCst), 0);
}

/// Calls still running when the drain time is over are cancelled (their handlers dropped)
/// and each is answered with -32000.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stdio_shutdown_cancels_and_answers_the_calls_running_past_the_drain_time() {
    use std::io::Write;
    let g = Arc::new(Gauges::default());
    let (mut client, out, stop, serving) = stdio(&g, Duration::from_millis(300));
    let mut lines = initialize();
    for id in 1..=3 {
        lines.push_str(&call(id, "sleepy"));
    }
    client.write_all(lines.as_bytes()).unwrap();
    running(&g, 3).await;
    stop.send(()).unwrap();
    tokio::time::timeout(Duration::from_secs(10), serving)
        .await
        .expect("the server returned after the drain time")
        .unwrap()
        .unwrap();
    let messages = out.messages();
    for id in 1..=3 {
        let a = answer(&messages, id);
        assert_eq!(a["error"]["code"], -32000, "{a}");
        assert_eq!(
            a["error"]["message"],
            "Server shutting down: the call was cancelled before it finished."
        );
    }
    assert_eq!(g.dropped.load(Ordering::SeqCst), 3, "handlers left running");
}

/// A task still running at the end of the drain time is cancelled and failed in its
/// store, so that a client polling it learns it will not finish (rather than `working`
/// until it expires); the stdio connection's own calls are answered as ever.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stdio_shutdown_fails_the_tasks_still_running_at_the_drain_time() {
    use std::io::Write;
    use toolidl_runtime::tasks::{TASKS_EXTENSION, TaskInput, TaskSupport};
    let g = Arc::new(Gauges::default());
    let server = Server::builder("slow", "1")
        .service(Arc::new(Slow(g.clone())))
        .task_tool("sleepy", TaskSupport::Optional, TaskInput::InTask)
        .build();
    let (mut client, out, stop, serving) = stdio_of(server.clone(), Duration::from_millis(300));
    let meta = crate::common::modern_meta(json!({"extensions": {TASKS_EXTENSION: {}}}));
    let create = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                        "params": {"name": "sleepy", "arguments": {}, "_meta": meta}});
    writeln!(client, "{create}").unwrap();
    running(&g, 1).await;
    stop.send(()).unwrap();
    tokio::time::timeout(Duration::from_secs(10), serving)
        .await
        .expect("the server returned after the drain time")
        .unwrap()
        .unwrap();
    let messages = out.messages();
    let created = answer(&messages, 1);
    assert_eq!(created["result"]["resultType"], "task", "{created}");
    let id = created["result"]["taskId"].as_str().unwrap();
    assert_eq!(
        g.dropped.load(Ordering::SeqCst),
        1,
        "the task's handler was left running"
    );
    // What a client polling the store (here, this server's own) learns.
    let mut poll = crate::common::Client::new(&server);
    let got = poll
        .request(2, "tasks/get", json!({"taskId": id, "_meta": meta}))
        .await;
    assert_eq!(got["result"]["status"], "failed", "{got}");
    assert_eq!(
        got["result"]["error"],
        json!({"code": -32000, "message": "Server shutting down: the task was cancelled before it finished."})
    );
}

#[cfg(feature = "http")]
mod http {
    use super::*;

    use std::net::SocketAddr;

    use tokio::net::TcpListener;
    use toolidl_runtime::http::{HttpConfig, HttpServer, McpService};

    use crate::common::modern_meta;
    use crate::common::raw::{Client, Reply};

    async fn serve(
        g: &Arc<Gauges>,
        config: HttpConfig,
    ) -> (
        SocketAddr,
        oneshot::Sender<()>,
        tokio::task::JoinHandle<std::io::Result<()>>,
    ) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let http = HttpServer::from_listener(server(g), listener, config).unwrap();
        let addr = http.local_addr().unwrap();
        let (stop, stopped) = oneshot::channel::<()>();
        let serving = tokio::spawn(http.run_until(async {
            let _ = stopped.await;
        }));
        (addr, stop, serving)
    }

    fn modern_call(id: u64, name: &str) -> Value {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
               "params": {"name": name, "arguments": {}, "_meta": modern_meta(json!({}))}})
    }

    /// A 2026-07-28 call of `name` on a connection of its own.
    async fn post_call(addr: SocketAddr, id: u64, name: &'static str) -> Reply {
        let mut c = Client::connect(addr).await;
        let h = [
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "tools/call"),
            ("Mcp-Name", name),
        ];
        c.post(&h, &modern_call(id, name)).await
    }

    /// The calls in flight at the shutdown are answered with their results; the listener
    /// is closed; `run_until` returns once they are.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_http_shutdown_answers_every_call_in_flight() {
        let g = Arc::new(Gauges::default());
        let (addr, stop, serving) = serve(&g, HttpConfig::new()).await;
        let calls: Vec<_> = (1..=5)
            .map(|id| tokio::spawn(post_call(addr, id, "hold")))
            .collect();
        running(&g, 5).await;
        stop.send(()).unwrap();
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert!(
            tokio::net::TcpStream::connect(addr).await.is_err(),
            "still accepting connections while shutting down"
        );
        assert!(!serving.is_finished(), "returned with calls in flight");
        g.release.notify_waiters();
        for (id, call) in (1..=5).zip(calls) {
            let reply = tokio::time::timeout(Duration::from_secs(10), call)
                .await
                .expect("the call was answered")
                .unwrap();
            assert_eq!(reply.status, 200);
            let body = reply.json();
            assert_eq!(body["id"], id);
            assert_eq!(body["result"]["content"][0]["text"], "held", "{body}");
        }
        tokio::time::timeout(Duration::from_secs(10), serving)
            .await
            .expect("run_until returned")
            .unwrap()
            .unwrap();
    }

    /// Past `drain_timeout`, the calls still running are cancelled and each is answered
    /// with -32000 on its own response.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_http_shutdown_cancels_and_answers_the_calls_running_past_the_drain_time() {
        let g = Arc::new(Gauges::default());
        let config = HttpConfig::new().drain_timeout(Duration::from_millis(300));
        let (addr, stop, serving) = serve(&g, config).await;
        let calls: Vec<_> = (1..=3)
            .map(|id| tokio::spawn(post_call(addr, id, "sleepy")))
            .collect();
        running(&g, 3).await;
        stop.send(()).unwrap();
        for (id, call) in (1..=3).zip(calls) {
            let reply = tokio::time::timeout(Duration::from_secs(10), call)
                .await
                .expect("the call was answered")
                .unwrap();
            let body = reply.json();
            assert_eq!(body["id"], id);
            assert_eq!(body["error"]["code"], -32000, "{body}");
            assert_eq!(
                body["error"]["message"],
                "Server shutting down: the call was cancelled before it finished."
            );
        }
        tokio::time::timeout(Duration::from_secs(10), serving)
            .await
            .expect("run_until returned")
            .unwrap()
            .unwrap();
        assert_eq!(g.dropped.load(Ordering::SeqCst), 3, "handlers left running");
    }

    /// A mounted endpoint being shut down answers POSTs with 503 and `Retry-After`.
    #[tokio::test]
    async fn a_mounted_endpoint_refuses_posts_once_its_shutdown_started() {
        let g = Arc::new(Gauges::default());
        let mcp = McpService::new(server(&g), HttpConfig::new());
        let post = |mcp: &McpService| {
            let req = hyper::Request::post("/mcp")
                .header("host", "localhost")
                .header("content-type", "application/json")
                .header("accept", "application/json, text/event-stream")
                .header("mcp-protocol-version", "2026-07-28")
                .header("mcp-method", "tools/list")
                .body(
                    json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list",
                           "params": {"_meta": modern_meta(json!({}))}})
                    .to_string(),
                )
                .unwrap();
            let mut svc = mcp.clone();
            async move { tower_service::Service::call(&mut svc, req).await.unwrap() }
        };
        assert_eq!(post(&mcp).await.status(), 200);
        mcp.shutdown();
        let refused = post(&mcp).await;
        assert_eq!(refused.status(), 503);
        assert_eq!(refused.headers()["retry-after"], "1");
        assert_eq!(refused.headers()["connection"], "close");
    }

    async fn get(addr: SocketAddr, path: &str, host: &str) -> Reply {
        let mut c = Client::connect(addr).await;
        let head = format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
        tokio::io::AsyncWriteExt::write_all(&mut c.stream, head.as_bytes())
            .await
            .unwrap();
        c.read_reply().await
    }

    /// The health checks answer on their paths, whatever the `Host` (a probe names the
    /// pod's address); without `health`, those paths are not served.
    #[tokio::test]
    async fn health_checks_answer_off_the_endpoint_and_only_when_configured() {
        let g = Arc::new(Gauges::default());
        let (addr, _stop, _serving) =
            serve(&g, HttpConfig::new().health("/healthz", "/readyz")).await;
        for path in ["/healthz", "/readyz"] {
            let r = get(addr, path, "10.1.2.3:8080").await;
            assert_eq!(r.status, 200, "{path}");
            assert_eq!(r.json(), json!({"status": "ok"}));
            assert_eq!(r.header("cache-control"), Some("no-store"));
        }
        let (plain, _stop2, _serving2) = serve(&g, HttpConfig::new()).await;
        assert_eq!(get(plain, "/readyz", "localhost").await.status, 404);
    }

    /// A mounted endpoint's readiness turns 503 `draining` when its shutdown starts; its
    /// liveness stays 200.
    #[tokio::test]
    async fn mounted_readiness_is_false_while_draining() {
        let g = Arc::new(Gauges::default());
        let mcp = McpService::new(server(&g), HttpConfig::new());
        async fn probe(mut check: toolidl_runtime::http::HealthCheck) -> (u16, Value) {
            let req = hyper::Request::get("/readyz").body(()).unwrap();
            let r = tower_service::Service::call(&mut check, req).await.unwrap();
            let status = r.status().as_u16();
            let mut body = std::pin::pin!(r.into_body());
            let mut bytes = Vec::new();
            while let Some(frame) =
                std::future::poll_fn(|cx| hyper::body::Body::poll_frame(body.as_mut(), cx)).await
            {
                if let Ok(data) = frame.unwrap().into_data() {
                    bytes.extend_from_slice(&data);
                }
            }
            (status, serde_json::from_slice(&bytes).unwrap())
        }
        assert_eq!(probe(mcp.readiness()).await, (200, json!({"status": "ok"})));
        mcp.shutdown();
        assert_eq!(
            probe(mcp.readiness()).await,
            (503, json!({"status": "draining"}))
        );
        assert_eq!(probe(mcp.liveness()).await, (200, json!({"status": "ok"})));
    }

    /// With Redis configured and not answering, readiness is 503 `redis unreachable`.
    #[cfg(feature = "redis")]
    #[tokio::test]
    async fn readiness_is_false_while_redis_does_not_answer() {
        // Nothing listens on port 1.
        let redis = toolidl_runtime::cluster::Redis::open("redis://127.0.0.1:1/").unwrap();
        let g = Arc::new(Gauges::default());
        let server = Server::builder("slow", "1")
            .redis(&redis)
            .service(Arc::new(Slow(g.clone())))
            .build();
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let config = HttpConfig::new().health("/healthz", "/readyz");
        let http = HttpServer::from_listener(server, listener, config).unwrap();
        let addr = http.local_addr().unwrap();
        tokio::spawn(http.run_until(std::future::pending()));
        let r = get(addr, "/readyz", "localhost").await;
        assert_eq!(r.status, 503);
        assert_eq!(r.json(), json!({"status": "redis unreachable"}));
        assert_eq!(get(addr, "/healthz", "localhost").await.status, 200);
    }
}
