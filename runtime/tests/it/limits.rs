//! Per-tool limits (`ToolLimits`): the time limit ends a call with a tool error and drops its
//! handler; the concurrency limit queues, then refuses with -32000; the most specific
//! setting wins; tools without limits are not touched.

use crate::common::{self, tool};

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::{Value, json};
use toolidl_runtime::codegen::{
    Arguments, BoxFuture, RequestContext, Service, ToolDef, ToolOutput, ToolResult,
};
use toolidl_runtime::{Server, ToolLimits};

static TOOLS: [ToolDef; 5] = [
    tool!("sleepy"),
    tool!("hold"),
    tool!("quick"),
    ToolDef::new(
        "lookup",
        r#"{"name":"lookup","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true,"idempotentHint":true}}"#,
    ),
    ToolDef::new(
        "count",
        r#"{"name":"count","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}}"#,
    ),
];

/// `sleepy` sleeps an hour; `hold` waits for a permit the test hands out; `quick` answers at
/// once; `lookup` (read-only and idempotent) and `count` (read-only) answer with how many
/// times they have run. Counts how many handlers are running, the most at once, and
/// dropped futures.
struct Gauges {
    running: AtomicUsize,
    most: AtomicUsize,
    dropped: AtomicUsize,
    release: tokio::sync::Semaphore,
    runs: AtomicUsize,
}

impl Default for Gauges {
    fn default() -> Self {
        Gauges {
            running: AtomicUsize::new(0),
            most: AtomicUsize::new(0),
            dropped: AtomicUsize::new(0),
            release: tokio::sync::Semaphore::new(0),
            runs: AtomicUsize::new(0),
        }
    }
}

struct Limited(Arc<Gauges>);

/// Counts a handler as running while it lives; dropped (finished or not), it counts out.
struct Running(Arc<Gauges>);

impl Running {
    fn start(g: &Arc<Gauges>) -> Running {
        let now = g.running.fetch_add(1, Ordering::SeqCst) + 1;
        g.most.fetch_max(now, Ordering::SeqCst);
        Running(g.clone())
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.0.running.fetch_sub(1, Ordering::SeqCst);
        self.0.dropped.fetch_add(1, Ordering::SeqCst);
    }
}

impl Service for Limited {
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
        match name {
            "sleepy" => Box::pin(async move {
                let _running = Running::start(&g);
                tokio::time::sleep(Duration::from_secs(3600)).await;
                Ok(ToolOutput::text("woke up"))
            }),
            "hold" => Box::pin(async move {
                let _running = Running::start(&g);
                let permit = g.release.acquire().await;
                permit.map(|p| p.forget()).ok();
                Ok(ToolOutput::text("held"))
            }),
            "lookup" | "count" => {
                let run = g.runs.fetch_add(1, Ordering::SeqCst) + 1;
                Box::pin(std::future::ready(Ok(ToolOutput::text(format!(
                    "run {run}"
                )))))
            }
            _ => Box::pin(std::future::ready(Ok(ToolOutput::text("quick")))),
        }
    }
}

fn server(
    gauges: &Arc<Gauges>,
    limits: impl FnOnce(toolidl_runtime::ServerBuilder) -> toolidl_runtime::ServerBuilder,
) -> Server {
    limits(Server::builder("limited", "1.0.0"))
        .service(Arc::new(Limited(gauges.clone())))
        .build()
}

fn call(id: i64, name: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": name, "arguments": {}}})
}

/// A handler that outlives its time limit: the call ends with an error result naming the
/// tool and the limit, and the handler's future is dropped (not left running).
#[tokio::test(start_paused = true)]
async fn a_call_past_its_time_limit_ends_with_a_tool_error_and_its_handler_is_dropped() {
    let g = Arc::new(Gauges::default());
    let server = server(&g, |b| {
        b.tool_limits(ToolLimits::new().timeout(Duration::from_secs(2)))
    });
    let mut client = common::Client::new(&server);
    client.initialize("2025-06-18", json!({})).await;
    client.send(call(1, "sleepy"));
    let started = tokio::time::Instant::now();
    let reply = client.response(json!(1)).await;
    assert_eq!(reply["result"]["isError"], true, "{reply}");
    assert_eq!(
        common::text_of(&reply),
        "The tool 'sleepy' did not finish within its time limit of 2 s."
    );
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_secs(2) && waited < Duration::from_secs(60),
        "{waited:?}"
    );
    assert_eq!(
        g.dropped.load(Ordering::SeqCst),
        1,
        "the handler was dropped"
    );
    assert_eq!(g.running.load(Ordering::SeqCst), 0);
    // A tool that answers in time is not touched.
    let reply = client.call(2, "quick", json!({})).await;
    assert_eq!(common::text_of(&reply), "quick");
    assert!(reply["result"].get("isError").is_none(), "{reply}");
}

/// The tool's own setting wins over the server's; a tool with none set inherits.
#[tokio::test(start_paused = true)]
async fn the_tool_s_own_time_limit_wins_over_the_server_s() {
    let g = Arc::new(Gauges::default());
    let server = server(&g, |b| {
        b.tool_limits(ToolLimits::new().timeout(Duration::from_secs(3600 * 2)))
            .tool_limit(
                "sleepy",
                ToolLimits::new().timeout(Duration::from_millis(1500)),
            )
    });
    let mut client = common::Client::new(&server);
    client.initialize("2025-11-25", json!({})).await;
    let reply = client.call(1, "sleepy", json!({})).await;
    assert_eq!(
        common::text_of(&reply),
        "The tool 'sleepy' did not finish within its time limit of 1.5 s."
    );
}

/// N+1 calls against a limit of N with no queue: N run, the one more is refused at once with
/// -32000 (its id, the tool and the limit named), and no more than N handlers ever run.
/// With a queue of 1, the next one waits and runs once a slot frees.
#[tokio::test]
async fn calls_beyond_the_concurrency_limit_wait_in_a_bounded_queue_then_are_refused() {
    let g = Arc::new(Gauges::default());
    let server = server(&g, |b| {
        b.tool_limit("hold", ToolLimits::new().max_concurrent(2, 1))
    });
    let mut client = common::Client::new(&server);
    client.initialize("2025-06-18", json!({})).await;
    for id in 1..=3 {
        client.send(call(id, "hold"));
    }
    // Two run, one waits; the fourth is refused at once, before any is released.
    client.send(call(4, "hold"));
    let refused = client.response(json!(4)).await;
    assert_eq!(refused["error"]["code"], -32000, "{refused}");
    assert_eq!(
        refused["error"]["message"],
        "Server busy: the tool 'hold' is at its limit of 2 concurrent calls and 1 waiting; retry later."
    );
    assert_eq!(
        refused["error"]["data"],
        json!({"tool": "hold", "maxConcurrent": 2, "maxQueued": 1})
    );
    assert_eq!(g.running.load(Ordering::SeqCst), 2, "the queued call waits");
    // Other tools are not limited by it.
    assert_eq!(
        common::text_of(&client.call(5, "quick", json!({})).await),
        "quick"
    );
    g.release.add_permits(3);
    for id in 1..=3 {
        let reply = client.response(json!(id)).await;
        assert_eq!(common::text_of(&reply), "held", "{reply}");
    }
    assert_eq!(
        g.most.load(Ordering::SeqCst),
        2,
        "never more than 2 at once"
    );
    // Slots and queue places were all given back.
    for id in 6..=8 {
        client.send(call(id, "hold"));
    }
    g.release.add_permits(3);
    for id in 6..=8 {
        assert_eq!(common::text_of(&client.response(json!(id)).await), "held");
    }
}

/// The limit counts calls of all connections, and a queued call that is cancelled gives its
/// place back.
#[tokio::test]
async fn the_concurrency_limit_is_shared_by_connections_and_a_cancelled_call_frees_its_place() {
    let g = Arc::new(Gauges::default());
    // A service's limits apply to each of its tools.
    let server = Server::builder("limited", "1.0.0")
        .limited_service(
            Arc::new(Limited(g.clone())),
            ToolLimits::new().max_concurrent(1, 1),
        )
        .build();
    let mut a = common::Client::new(&server);
    let mut b = common::Client::new(&server);
    a.initialize("2025-06-18", json!({})).await;
    b.initialize("2025-06-18", json!({})).await;
    a.send(call(1, "hold")); // runs
    b.send(call(1, "hold")); // waits
    let refused = a.call(2, "hold", json!({})).await;
    assert_eq!(refused["error"]["code"], -32000, "{refused}");
    b.send(
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}}),
    );
    tokio::time::sleep(Duration::from_millis(50)).await;
    a.send(call(3, "hold")); // the freed place
    g.release.add_permits(2);
    assert_eq!(common::text_of(&a.response(json!(1)).await), "held");
    assert_eq!(common::text_of(&a.response(json!(3)).await), "held");
}

/// A rate limit of N calls per period: the first N calls of a client run, the next is
/// refused before its handler starts, with -32000, the tool, the limit and the wait named.
#[cfg(feature = "rate-limit")]
#[tokio::test]
async fn calls_beyond_the_rate_limit_are_refused_with_the_time_to_wait() {
    let g = Arc::new(Gauges::default());
    let server = server(&g, |b| {
        b.tool_limit(
            "quick",
            ToolLimits::new().rate(2, Duration::from_secs(3600)),
        )
    });
    let mut client = common::Client::new(&server);
    client.initialize("2025-06-18", json!({})).await;
    for id in 1..=2 {
        let reply = client.call(id, "quick", json!({})).await;
        assert_eq!(common::text_of(&reply), "quick");
    }
    let refused = client.call(3, "quick", json!({})).await;
    assert_eq!(refused["error"]["code"], -32000, "{refused}");
    assert_eq!(
        refused["error"]["message"],
        "Too many requests: the tool 'quick' allows 2 calls per 3600 s for each client; retry in 1800 s."
    );
    assert_eq!(
        refused["error"]["data"],
        json!({"tool": "quick", "calls": 2, "periodSeconds": 3600.0, "retryAfter": 1800})
    );
}

/// The bucket refills: one call per 200 ms, a second at once is refused, one after the
/// period runs.
#[cfg(feature = "rate-limit")]
#[tokio::test]
async fn a_rate_limited_client_is_served_again_once_its_bucket_refills() {
    let g = Arc::new(Gauges::default());
    let server = server(&g, |b| {
        b.tool_limits(ToolLimits::new().rate(1, Duration::from_millis(200)))
    });
    let mut client = common::Client::new(&server);
    client.initialize("2025-06-18", json!({})).await;
    assert_eq!(
        common::text_of(&client.call(1, "quick", json!({})).await),
        "quick"
    );
    let refused = client.call(2, "quick", json!({})).await;
    assert_eq!(refused["error"]["code"], -32000, "{refused}");
    assert_eq!(refused["error"]["data"]["retryAfter"], 1);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        common::text_of(&client.call(3, "quick", json!({})).await),
        "quick"
    );
}

/// Over HTTP the limit is per client address: one client over its rate gets 429 with
/// `Retry-After` and the JSON-RPC error; another client is still served.
#[cfg(all(feature = "rate-limit", feature = "http"))]
#[tokio::test]
async fn over_http_a_rate_limited_client_gets_429_and_others_are_served() {
    use common::raw::Client;
    let g = Arc::new(Gauges::default());
    let server = server(&g, |b| {
        b.tool_limit("quick", ToolLimits::new().rate(2, Duration::from_secs(60)))
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let http = toolidl_runtime::http::HttpServer::from_listener(
        server,
        listener,
        toolidl_runtime::http::HttpConfig::new(),
    )
    .unwrap();
    let addr = http.local_addr().unwrap();
    tokio::spawn(http.run_until(std::future::pending()));
    let headers = [
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", "tools/call"),
        ("Mcp-Name", "quick"),
    ];
    let message = |id: u64| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
               "params": {"name": "quick", "arguments": {},
                          "_meta": common::modern_meta(json!({}))}})
    };
    let mut greedy = Client::connect_from([127, 0, 0, 2].into(), addr).await;
    for id in 1..=2 {
        assert_eq!(greedy.post(&headers, &message(id)).await.status, 200);
    }
    let refused = greedy.post(&headers, &message(3)).await;
    assert_eq!(refused.status, 429);
    assert_eq!(refused.header("retry-after"), Some("30"));
    let body = refused.json();
    assert_eq!(body["id"], 3);
    assert_eq!(body["error"]["code"], -32000, "{body}");
    let mut other = Client::connect_from([127, 0, 0, 3].into(), addr).await;
    let served = other.post(&headers, &message(4)).await;
    assert_eq!(served.status, 200);
    assert_eq!(served.json()["result"]["content"][0]["text"], "quick");
}

/// A read-only, idempotent tool's result is kept by arguments for its time: the same call
/// again is answered with it and the handler does not run; other arguments run it; once the
/// time has passed it runs again.
#[tokio::test(start_paused = true)]
async fn a_read_only_tool_s_result_is_kept_for_its_time_by_arguments() {
    let g = Arc::new(Gauges::default());
    let server = server(&g, |b| {
        b.tool_limits(ToolLimits::new().cache(Duration::from_secs(60), 100))
    });
    let mut client = common::Client::new(&server);
    client.initialize("2025-06-18", json!({})).await;
    let text = |reply: Value| common::text_of(&reply).to_owned();
    assert_eq!(
        text(client.call(1, "lookup", json!({"q": 1})).await),
        "run 1"
    );
    assert_eq!(
        text(client.call(2, "lookup", json!({"q": 1})).await),
        "run 1"
    );
    assert_eq!(
        g.runs.load(Ordering::SeqCst),
        1,
        "the kept result was not used"
    );
    assert_eq!(
        text(client.call(3, "lookup", json!({"q": 2})).await),
        "run 2"
    );
    tokio::time::advance(Duration::from_secs(61)).await;
    assert_eq!(
        text(client.call(4, "lookup", json!({"q": 1})).await),
        "run 3"
    );
    // Not both read-only and idempotent: never kept, even when asked.
    assert_eq!(text(client.call(5, "count", json!({})).await), "run 4");
    assert_eq!(text(client.call(6, "count", json!({})).await), "run 5");
}
