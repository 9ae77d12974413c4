//! Features `otlp`, `http` and `client`: a scripted session over stdio (real pipes) and one
//! over Streamable HTTP, their spans and metrics exported by `telemetry::Otlp` over
//! OTLP/HTTP to a receiver in this test, which decodes them with the official protobuf
//! definitions (`opentelemetry-proto`). Names, kinds, attributes and parent links follow the
//! OpenTelemetry semantic conventions for MCP (`docs/telemetry.md`).
#![cfg(all(feature = "otlp", feature = "http", feature = "client"))]

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::sync::{Arc, Mutex};

use http_body_util::BodyExt;
use hyper::service::service_fn;
use hyper_util::rt::{TokioExecutor, TokioIo};
use opentelemetry_proto::tonic::collector::metrics::v1::ExportMetricsServiceRequest;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::{AnyValue, KeyValue, any_value};
use opentelemetry_proto::tonic::metrics::v1::{HistogramDataPoint, metric};
use opentelemetry_proto::tonic::trace::v1::{Span, span, status};
use opentelemetry_sdk::propagation::TraceContextPropagator;
use prost::Message;
use serde_json::{Value, json};
use toolidl_runtime::Server;
use toolidl_runtime::client::{self, HttpTransport};
use toolidl_runtime::codegen::{
    Arguments, BoxFuture, RequestContext, Service, ToolDef, ToolError, ToolOutput, ToolResult,
};
use toolidl_runtime::http::{HttpConfig, HttpServer};
use toolidl_runtime::protocol::Revision;
use toolidl_runtime::stdio::{StdioConfig, serve_io};
use toolidl_runtime::telemetry::{DURATION_BOUNDARIES, Otlp, Telemetry};
use tracing_subscriber::layer::SubscriberExt;

static TOOLS: [ToolDef; 2] = [
    ToolDef::new(
        "lookup",
        r#"{"name":"lookup","inputSchema":{"type":"object","properties":{},"additionalProperties":true}}"#,
    ),
    ToolDef::new(
        "refuse",
        r#"{"name":"refuse","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#,
    ),
];

/// `lookup` runs a span of its own after an await (so its call is spawned, and its span
/// must nest under the request's in the task too); `refuse` answers with a tool error.
struct Traced;

impl Service for Traced {
    fn tools(&self) -> &[ToolDef] {
        &TOOLS
    }

    fn call_tool(
        self: Arc<Self>,
        name: &str,
        _: Arguments<'_>,
        _: RequestContext,
    ) -> BoxFuture<ToolResult> {
        match name {
            "lookup" => Box::pin(async {
                tokio::task::yield_now().await;
                let inner = tracing::info_span!("database.query");
                let _entered = inner.enter();
                Ok(ToolOutput::text("found"))
            }),
            _ => Box::pin(std::future::ready(Err(ToolError::message("No.")))),
        }
    }
}

/// What the receiver was sent.
#[derive(Default)]
struct Received {
    traces: Vec<ExportTraceServiceRequest>,
    metrics: Vec<ExportMetricsServiceRequest>,
}

/// An OTLP/HTTP receiver on a loopback port: `/v1/traces` and `/v1/metrics`, protobuf.
async fn receiver() -> (String, Arc<Mutex<Received>>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("address"));
    let received = Arc::new(Mutex::new(Received::default()));
    let store = received.clone();
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            let store = store.clone();
            let service = service_fn(move |req: hyper::Request<hyper::body::Incoming>| {
                let store = store.clone();
                async move {
                    let path = req.uri().path().to_owned();
                    let body = req.into_body().collect().await?.to_bytes();
                    let mut store = store.lock().unwrap_or_else(|e| e.into_inner());
                    match path.as_str() {
                        "/v1/traces" => store
                            .traces
                            .push(ExportTraceServiceRequest::decode(body).expect("a trace export")),
                        "/v1/metrics" => store.metrics.push(
                            ExportMetricsServiceRequest::decode(body).expect("a metrics export"),
                        ),
                        other => panic!("unexpected path {other}"),
                    }
                    let response = hyper::Response::builder()
                        .header("content-type", "application/x-protobuf")
                        .body(http_body_util::Full::new(hyper::body::Bytes::new()))
                        .expect("response");
                    Ok::<_, hyper::Error>(response)
                }
            });
            tokio::spawn(async move {
                let _ = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new())
                    .serve_connection(TokioIo::new(tcp), service)
                    .await;
            });
        }
    });
    (url, received)
}

const TRACE: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT: &str = "00f067aa0ba902b7";
const HEADER_TRACE: &str = "0af7651916cd43dd8448eb211c80319c";
const HEADER_PARENT: &str = "b7ad6b7169203331";

fn server(otlp: &Otlp) -> Server {
    Server::builder("otel", "1.0.0")
        .service(Arc::new(Traced))
        .telemetry(Telemetry::new().meter(otlp.meter()).record_payloads(8))
        .build()
}

/// The stdio session: over a socket pair, line by line, as a client process would write it.
fn stdio_script(mut pipe: UnixStream) -> Vec<Value> {
    let traceparent = format!("00-{TRACE}-{PARENT}-01");
    let lines = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "script", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "lookup", "arguments": {"city": "Oslo, Norway"},
            "_meta": {"traceparent": traceparent, "tracestate": "rojo=00f067aa0ba902b7"}}}),
        json!({"jsonrpc": "2.0", "id": "r-3", "method": "tools/call", "params": {
            "name": "refuse", "arguments": {}}}),
        json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "nope"}}),
    ];
    let reader = BufReader::new(pipe.try_clone().expect("clone"));
    for line in &lines {
        writeln!(pipe, "{line}").expect("write");
    }
    let replies: Vec<Value> = reader
        .lines()
        .take(4)
        .map(|l| serde_json::from_str(&l.expect("read")).expect("JSON"))
        .collect();
    pipe.shutdown(std::net::Shutdown::Both).expect("close");
    replies
}

/// Two raw 2026-07-28 POSTs: trace context in the headers only, and in both the headers and
/// `_meta` (whose context is the parent; the headers' is linked).
async fn raw_posts(url: &str) {
    let header = format!("00-{HEADER_TRACE}-{HEADER_PARENT}-01");
    let meta = |traceparent: Option<String>| {
        let mut meta = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"}
        });
        if let Some(tp) = traceparent {
            meta["traceparent"] = tp.into();
        }
        meta
    };
    let http = reqwest::Client::new();
    for (id, traceparent) in [(10, None), (11, Some(format!("00-{TRACE}-{PARENT}-01")))] {
        let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
            "name": "refuse", "arguments": {}, "_meta": meta(traceparent)}});
        let response = http
            .post(url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", "tools/call")
            .header("mcp-name", "refuse")
            .header("traceparent", &header)
            .body(body.to_string())
            .send()
            .await
            .expect("POST");
        assert_eq!(response.status(), 200);
        let text = response.text().await.expect("body");
        assert!(text.contains("\"isError\":true"), "{text}");
    }
}

#[test]
fn a_session_s_spans_and_metrics_reach_an_otlp_receiver_by_the_conventions() {
    opentelemetry::global::set_text_map_propagator(TraceContextPropagator::new());
    // The receiver runs on a runtime of its own: the exporter's blocking client waits on it.
    let receiving = tokio::runtime::Runtime::new().expect("runtime");
    let (base, received) = receiving.block_on(receiver());
    let otlp = Otlp::builder()
        .endpoint(base)
        .service_name("otel-test")
        .build()
        .expect("exporter");
    let dispatch = tracing::Dispatch::new(tracing_subscriber::registry().with(otlp.layer()));
    // Every thread of the served runtime (workers, and the blocking threads stdio reads
    // and writes on) records into this exporter; the other tests of the binary do not.
    let thread_dispatch = dispatch.clone();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .on_thread_start(move || {
            std::mem::forget(tracing::dispatcher::set_default(&thread_dispatch));
        })
        .build()
        .expect("runtime");
    let _main = tracing::dispatcher::set_default(&dispatch);

    // Over stdio.
    let (ours, theirs) = UnixStream::pair().expect("pipes");
    let served = runtime.spawn(serve_io(
        server(&otlp),
        theirs.try_clone().expect("clone"),
        theirs,
        StdioConfig::default(),
    ));
    let replies = runtime
        .block_on(runtime.spawn_blocking(move || stdio_script(ours)))
        .expect("the script");
    let by_id = |id: Value| {
        replies
            .iter()
            .find(|r| r["id"] == id)
            .unwrap_or_else(|| panic!("no reply {id}: {replies:?}"))
    };
    assert_eq!(by_id(json!(2))["result"]["content"][0]["text"], "found");
    assert_eq!(by_id(json!("r-3"))["result"]["isError"], true);
    assert_eq!(by_id(json!(4))["error"]["code"], -32602);
    runtime
        .block_on(served)
        .expect("served")
        .expect("the stdio session ends");

    // Over Streamable HTTP: a session of the typed client, called inside an agent's span,
    // then raw POSTs with trace context headers.
    let (url, agent_ids) = runtime.block_on(async {
        let config = HttpConfig::new().bind(([127, 0, 0, 1], 0).into());
        let listening = HttpServer::bind(server(&otlp), config).await.expect("bind");
        let url = format!("http://{}/mcp", listening.local_addr().expect("address"));
        tokio::spawn(listening.run());
        let agent = tracing::info_span!("agent.turn");
        let transport = HttpTransport::builder(&url)
            .revision(Revision::V2025_11_25)
            .connect()
            .await
            .expect("a session");
        let found = tracing::Instrument::instrument(
            client::call_tool(&transport, "lookup", json!({"city": "Bergen"})),
            agent.clone(),
        )
        .await
        .expect("lookup answers");
        assert_eq!(found.text(), "found");
        let refused = client::call_tool(&transport, "refuse", json!({})).await;
        assert!(matches!(refused, Err(client::ClientError::Tool { .. })));
        transport.close().await.expect("the session ends");
        raw_posts(&url).await;
        (url, agent)
    });
    drop(agent_ids);
    let _ = url;
    otlp.flush().expect("flushed");

    let received = received.lock().expect("received");
    let spans: Vec<&Span> = received
        .traces
        .iter()
        .flat_map(|t| &t.resource_spans)
        .flat_map(|r| &r.scope_spans)
        .flat_map(|s| &s.spans)
        .collect();
    let resource = received
        .traces
        .first()
        .and_then(|t| t.resource_spans.first())
        .and_then(|r| r.resource.as_ref())
        .expect("a resource");
    assert_eq!(
        attributes(&resource.attributes)["service.name"],
        "otel-test"
    );
    check_stdio_spans(&spans);
    check_http_spans(&spans);
    check_metrics(&received.metrics);
}

fn check_stdio_spans(spans: &[&Span]) {
    let pipe =
        |s: &&&Span| attributes(&s.attributes).get("network.transport") == Some(&"pipe".into());
    let stdio: Vec<&Span> = spans.iter().filter(pipe).copied().collect();

    let init = named(&stdio, "initialize");
    assert_eq!(init.kind, span::SpanKind::Server as i32);
    let a = attributes(&init.attributes);
    assert_eq!(a["mcp.method.name"], "initialize");
    assert_eq!(a["jsonrpc.request.id"], "1");
    assert!(!a.contains_key("gen_ai.operation.name"));
    assert!(!a.contains_key("error.type"));

    let initialized = named(&stdio, "notifications/initialized");
    assert_eq!(initialized.kind, span::SpanKind::Server as i32);
    assert!(!attributes(&initialized.attributes).contains_key("jsonrpc.request.id"));

    let lookup = named(&stdio, "tools/call lookup");
    assert_eq!(lookup.kind, span::SpanKind::Server as i32);
    let a = attributes(&lookup.attributes);
    assert_eq!(a["mcp.method.name"], "tools/call");
    assert_eq!(a["gen_ai.tool.name"], "lookup");
    assert_eq!(a["gen_ai.operation.name"], "execute_tool");
    assert_eq!(a["mcp.protocol.version"], "2025-11-25");
    assert_eq!(a["jsonrpc.request.id"], "2");
    // Opted in, and cut to 8 bytes.
    assert_eq!(a["gen_ai.tool.call.arguments"], r#"{"city":…"#);
    assert_eq!(a["gen_ai.tool.call.result"], r#"{"conten…"#);
    assert!(!a.contains_key("error.type"));
    assert_ne!(status_code(lookup), status::StatusCode::Error as i32);
    // The trace continued from `_meta.traceparent`: its trace, the remote span as parent.
    assert_eq!(hex(&lookup.trace_id), TRACE);
    assert_eq!(hex(&lookup.parent_span_id), PARENT);
    assert_eq!(lookup.trace_state, "rojo=00f067aa0ba902b7");

    // The handler's own span, entered after an await in the spawned call, nests under it.
    let query = spans
        .iter()
        .find(|s| s.name == "database.query" && s.trace_id == lookup.trace_id)
        .expect("the handler's span in the continued trace");
    assert_eq!(query.parent_span_id, lookup.span_id);
    assert_eq!(query.kind, span::SpanKind::Internal as i32);

    // A tool result with isError.
    let refuse = named(&stdio, "tools/call refuse");
    let a = attributes(&refuse.attributes);
    assert_eq!(a["error.type"], "tool_error");
    assert_eq!(a["jsonrpc.request.id"], "r-3");
    assert!(!a.contains_key("rpc.response.status_code"));
    assert_eq!(status_code(refuse), status::StatusCode::Error as i32);
    // Without a traceparent: a root of its own trace.
    assert_ne!(hex(&refuse.trace_id), TRACE);
    assert!(refuse.parent_span_id.is_empty());

    // A JSON-RPC error: its code, and its message as the status description.
    let nope = named(&stdio, "tools/call nope");
    let a = attributes(&nope.attributes);
    assert_eq!(a["rpc.response.status_code"], "-32602");
    assert_eq!(a["error.type"], "-32602");
    let status = nope.status.as_ref().expect("a status");
    assert_eq!(status.code, status::StatusCode::Error as i32);
    assert!(status.message.contains("nope"), "{}", status.message);
}

fn check_http_spans(spans: &[&Span]) {
    let tcp =
        |s: &&&Span| attributes(&s.attributes).get("network.transport") == Some(&"tcp".into());
    let http: Vec<&Span> = spans.iter().filter(tcp).copied().collect();

    // The typed client's CLIENT span, under the agent's span, is the parent of the
    // server's SERVER span: one trace.
    let agent = spans
        .iter()
        .find(|s| s.name == "agent.turn")
        .expect("the agent's span");
    let client_span = spans
        .iter()
        .find(|s| s.name == "tools/call lookup" && s.kind == span::SpanKind::Client as i32)
        .expect("the client's span");
    assert_eq!(client_span.parent_span_id, agent.span_id);
    assert_eq!(client_span.trace_id, agent.trace_id);
    let a = attributes(&client_span.attributes);
    assert_eq!(a["mcp.method.name"], "tools/call");
    assert_eq!(a["gen_ai.tool.name"], "lookup");
    assert_eq!(a["gen_ai.operation.name"], "execute_tool");
    let served = named(&http, "tools/call lookup");
    assert_eq!(served.kind, span::SpanKind::Server as i32);
    assert_eq!(served.parent_span_id, client_span.span_id);
    assert_eq!(served.trace_id, agent.trace_id);
    let a = attributes(&served.attributes);
    assert_eq!(a["network.protocol.name"], "http");
    assert_eq!(a["network.protocol.version"], "1.1");
    assert_eq!(a["mcp.protocol.version"], "2025-11-25");
    assert_eq!(a["client.address"], "127.0.0.1");
    assert!(a.contains_key("client.port"), "{a:?}");
    assert_eq!(a["mcp.session.id"].len(), 32, "{a:?}");
    let refused = spans
        .iter()
        .find(|s| s.name == "tools/call refuse" && s.kind == span::SpanKind::Client as i32)
        .expect("the client's span of a tool error");
    assert_eq!(attributes(&refused.attributes)["error.type"], "tool_error");
    assert_eq!(status_code(refused), status::StatusCode::Error as i32);

    // Raw POSTs: the headers' context is the parent when `_meta` has none…
    let posted: Vec<&&Span> = http
        .iter()
        .filter(|s| {
            attributes(&s.attributes).get("mcp.protocol.version") == Some(&"2026-07-28".into())
        })
        .collect();
    let by_id = |id: &str| {
        posted
            .iter()
            .find(|s| attributes(&s.attributes)["jsonrpc.request.id"] == id)
            .unwrap_or_else(|| panic!("no span of request {id}"))
    };
    let headers_only = by_id("10");
    assert_eq!(hex(&headers_only.trace_id), HEADER_TRACE);
    assert_eq!(hex(&headers_only.parent_span_id), HEADER_PARENT);
    assert!(headers_only.links.is_empty());
    // … and linked when `_meta` has one, which is the parent.
    let both = by_id("11");
    assert_eq!(hex(&both.trace_id), TRACE);
    assert_eq!(hex(&both.parent_span_id), PARENT);
    assert_eq!(both.links.len(), 1);
    assert_eq!(hex(&both.links[0].trace_id), HEADER_TRACE);
    assert_eq!(hex(&both.links[0].span_id), HEADER_PARENT);
}

fn check_metrics(exports: &[ExportMetricsServiceRequest]) {
    let metrics: Vec<_> = exports
        .iter()
        .flat_map(|e| &e.resource_metrics)
        .flat_map(|r| &r.scope_metrics)
        .flat_map(|s| &s.metrics)
        .collect();
    let points = |name: &str| -> Vec<&HistogramDataPoint> {
        let metric = metrics
            .iter()
            .rev()
            .find(|m| m.name == name)
            .unwrap_or_else(|| panic!("no metric {name}"));
        assert_eq!(metric.unit, "s");
        let Some(metric::Data::Histogram(histogram)) = &metric.data else {
            panic!("{name} is not a histogram");
        };
        for point in &histogram.data_points {
            assert_eq!(point.explicit_bounds, DURATION_BOUNDARIES.to_vec());
        }
        histogram.data_points.iter().collect()
    };
    let operations = points("mcp.server.operation.duration");
    let find = |tool: &str, transport: &str| {
        operations
            .iter()
            .map(|p| attributes(&p.attributes))
            .find(|a| {
                a.get("gen_ai.tool.name").map(String::as_str) == Some(tool)
                    && a["network.transport"] == transport
                    && a.get("mcp.protocol.version").map(String::as_str) == Some("2025-11-25")
            })
            .unwrap_or_else(|| panic!("no point for {tool} over {transport}"))
    };
    let lookup = find("lookup", "pipe");
    assert_eq!(lookup["mcp.method.name"], "tools/call");
    assert_eq!(lookup["gen_ai.operation.name"], "execute_tool");
    assert!(!lookup.contains_key("error.type"));
    assert_eq!(find("refuse", "pipe")["error.type"], "tool_error");
    let over_http = find("lookup", "tcp");
    assert_eq!(over_http["network.protocol.name"], "http");
    assert_eq!(over_http["network.protocol.version"], "1.1");
    let nope = operations
        .iter()
        .map(|p| attributes(&p.attributes))
        .find(|a| a.get("gen_ai.tool.name").map(String::as_str) == Some("nope"))
        .expect("a point for the unknown tool");
    assert_eq!(nope["error.type"], "-32602");
    assert_eq!(nope["rpc.response.status_code"], "-32602");
    assert!(
        operations
            .iter()
            .any(|p| attributes(&p.attributes)["mcp.method.name"] == "notifications/initialized")
    );

    // The stdio session ended when its input did.
    let sessions = points("mcp.server.session.duration");
    let stdio = sessions
        .iter()
        .find(|p| attributes(&p.attributes)["network.transport"] == "pipe")
        .expect("the stdio session's duration");
    assert_eq!(stdio.count, 1);
    assert_eq!(
        attributes(&stdio.attributes)["mcp.protocol.version"],
        "2025-11-25"
    );
}

fn named<'a>(spans: &[&'a Span], name: &str) -> &'a Span {
    spans
        .iter()
        .find(|s| s.name == name && s.kind == span::SpanKind::Server as i32)
        .copied()
        .unwrap_or_else(|| {
            let names: Vec<_> = spans.iter().map(|s| &s.name).collect();
            panic!("no SERVER span {name}: {names:?}")
        })
}

fn status_code(span: &Span) -> i32 {
    span.status.as_ref().map_or(0, |s| s.code)
}

/// Attributes as text (ints as their digits).
fn attributes(attributes: &[KeyValue]) -> HashMap<String, String> {
    attributes
        .iter()
        .map(|kv| (kv.key.clone(), text(kv.value.as_ref())))
        .collect()
}

fn text(value: Option<&AnyValue>) -> String {
    match value.and_then(|v| v.value.as_ref()) {
        Some(any_value::Value::StringValue(s)) => s.clone(),
        Some(any_value::Value::IntValue(i)) => i.to_string(),
        Some(any_value::Value::BoolValue(b)) => b.to_string(),
        Some(any_value::Value::DoubleValue(d)) => d.to_string(),
        other => format!("{other:?}"),
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
