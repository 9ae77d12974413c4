//! Feature `otel`: a scripted session's spans and metrics, collected by the SDK's in-memory
//! exporters behind the `tracing-opentelemetry` layer as a user's binary installs them.
//! Names, kinds, attributes and parent links follow the OpenTelemetry semantic conventions
//! for MCP (`docs/runtime.md`, "Telemetry").
#![cfg(feature = "otel")]

use std::collections::HashMap;
use std::sync::Arc;

use opentelemetry::trace::{SpanId, SpanKind, Status, TraceId, TracerProvider as _};
use opentelemetry::{KeyValue, Value as OtelValue};
use opentelemetry_sdk::metrics::data::{AggregatedMetrics, MetricData};
use opentelemetry_sdk::metrics::{InMemoryMetricExporter, SdkMeterProvider};
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider, SpanData};
use serde_json::{Value, json};
use toolidl_runtime::codegen::{
    Arguments, BoxFuture, RequestContext, Service, ToolDef, ToolError, ToolOutput, ToolResult,
};
use toolidl_runtime::telemetry::{DURATION_BOUNDARIES, Telemetry};
use toolidl_runtime::testing::Client;
use toolidl_runtime::{RpcError, Server};
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

/// `lookup` runs a span of its own across an await (so its call is spawned, and its span
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

struct Collected {
    spans: InMemorySpanExporter,
    metrics: InMemoryMetricExporter,
    tracer: SdkTracerProvider,
    meter: SdkMeterProvider,
}

fn collect() -> (Collected, impl tracing::Subscriber + Send + Sync) {
    opentelemetry::global::set_text_map_propagator(TraceContextPropagator::new());
    let spans = InMemorySpanExporter::default();
    let tracer = SdkTracerProvider::builder()
        .with_simple_exporter(spans.clone())
        .build();
    let metrics = InMemoryMetricExporter::default();
    let meter = SdkMeterProvider::builder()
        .with_periodic_exporter(metrics.clone())
        .build();
    let layer = tracing_opentelemetry::layer().with_tracer(tracer.tracer("otel-test"));
    let subscriber = tracing_subscriber::registry().with(layer);
    (
        Collected {
            spans,
            metrics,
            tracer,
            meter,
        },
        subscriber,
    )
}

fn attributes(span: &SpanData) -> HashMap<String, String> {
    span.attributes
        .iter()
        .map(|kv| (kv.key.to_string(), kv.value.to_string()))
        .collect()
}

fn named<'a>(spans: &'a [SpanData], name: &str) -> &'a SpanData {
    spans
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no span {name}: {:?}", names(spans)))
}

fn names(spans: &[SpanData]) -> Vec<String> {
    spans.iter().map(|s| s.name.to_string()).collect()
}

const TRACE: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT: &str = "00f067aa0ba902b7";

async fn session(collected: &Collected) -> Vec<SpanData> {
    let server = Server::builder("otel", "1.0.0")
        .service(Arc::new(Traced))
        .telemetry(
            Telemetry::new()
                .meter(opentelemetry::metrics::MeterProvider::meter(
                    &collected.meter,
                    "toolidl-test",
                ))
                .record_payloads(8),
        )
        .build();
    let client = Client::connect(&server).await.expect("initialize");
    let traceparent = format!("00-{TRACE}-{PARENT}-01");
    let found = client
        .request(
            "tools/call",
            json!({
                "name": "lookup",
                "arguments": {"city": "Oslo, Norway"},
                "_meta": {"traceparent": traceparent, "tracestate": "rojo=00f067aa0ba902b7"}
            }),
        )
        .await
        .expect("lookup answers");
    assert_eq!(found["content"][0]["text"], "found");
    let refused = client
        .call_tool("refuse", json!({}))
        .await
        .expect("a result");
    assert!(refused.is_error());
    let unknown: Result<Value, RpcError> =
        client.request("tools/call", json!({"name": "nope"})).await;
    assert!(unknown.is_err());
    client.close().await;
    let _ = collected.tracer.force_flush();
    collected.spans.get_finished_spans().expect("spans")
}

#[tokio::test]
async fn each_request_is_a_server_span_named_and_attributed_by_the_conventions() {
    let (collected, subscriber) = collect();
    let _default = tracing::subscriber::set_default(subscriber);
    let spans = session(&collected).await;

    let init = named(&spans, "initialize");
    assert_eq!(init.span_kind, SpanKind::Server);
    let a = attributes(init);
    assert_eq!(a["mcp.method.name"], "initialize");
    assert_eq!(a["network.transport"], "pipe");
    assert_eq!(a["jsonrpc.request.id"], "1");
    assert!(!a.contains_key("gen_ai.operation.name"));

    let lookup = named(&spans, "tools/call lookup");
    assert_eq!(lookup.span_kind, SpanKind::Server);
    let a = attributes(lookup);
    assert_eq!(a["mcp.method.name"], "tools/call");
    assert_eq!(a["gen_ai.tool.name"], "lookup");
    assert_eq!(a["gen_ai.operation.name"], "execute_tool");
    assert_eq!(a["mcp.protocol.version"], "2025-11-25");
    assert!(a.contains_key("jsonrpc.request.id"));
    // Opted in, and cut to 8 bytes.
    assert_eq!(a["gen_ai.tool.call.arguments"], r#"{"city":…"#);
    assert!(a["gen_ai.tool.call.result"].ends_with('…'));
    assert!(!a.contains_key("error.type"));
    assert_eq!(lookup.status, Status::Unset);

    // The trace continued from `_meta.traceparent`: same trace, the remote span as parent.
    assert_eq!(
        lookup.span_context.trace_id(),
        TraceId::from_hex(TRACE).expect("hex")
    );
    assert_eq!(
        lookup.parent_span_id,
        SpanId::from_hex(PARENT).expect("hex")
    );
    assert_eq!(
        lookup.span_context.trace_state().header(),
        "rojo=00f067aa0ba902b7"
    );

    // The handler's own span, entered after an await in the spawned call, nests under it.
    let query = named(&spans, "database.query");
    assert_eq!(query.parent_span_id, lookup.span_context.span_id());
    assert_eq!(
        query.span_context.trace_id(),
        lookup.span_context.trace_id()
    );

    // A tool result with isError.
    let refuse = named(&spans, "tools/call refuse");
    let a = attributes(refuse);
    assert_eq!(a["error.type"], "tool_error");
    assert!(matches!(refuse.status, Status::Error { .. }));
    assert!(!a.contains_key("rpc.response.status_code"));
    // Without a traceparent, a root of its own trace.
    assert_ne!(
        refuse.span_context.trace_id(),
        TraceId::from_hex(TRACE).expect("hex")
    );

    // A JSON-RPC error: its code, and its message as the status description.
    let nope = named(&spans, "tools/call nope");
    let a = attributes(nope);
    assert_eq!(a["rpc.response.status_code"], "-32602");
    assert_eq!(a["error.type"], "-32602");
    match &nope.status {
        Status::Error { description } => assert!(description.contains("nope"), "{description}"),
        other => panic!("expected an error status, got {other:?}"),
    }
}

#[tokio::test]
async fn each_request_records_the_operation_duration_histogram() {
    let (collected, subscriber) = collect();
    let _default = tracing::subscriber::set_default(subscriber);
    session(&collected).await;
    collected.meter.force_flush().expect("flush");
    let exported = collected.metrics.get_finished_metrics().expect("metrics");
    let metric = exported
        .iter()
        .flat_map(|r| r.scope_metrics())
        .flat_map(|s| s.metrics())
        .find(|m| m.name() == "mcp.server.operation.duration")
        .expect("the histogram");
    assert_eq!(metric.unit(), "s");
    let AggregatedMetrics::F64(MetricData::Histogram(histogram)) = metric.data() else {
        panic!("a histogram of f64 seconds");
    };
    let points: Vec<HashMap<String, OtelValue>> = histogram
        .data_points()
        .map(|p| {
            assert_eq!(p.bounds().collect::<Vec<_>>(), DURATION_BOUNDARIES.to_vec());
            p.attributes()
                .map(|kv: &KeyValue| (kv.key.to_string(), kv.value.clone()))
                .collect()
        })
        .collect();
    let find = |tool: &str| {
        points
            .iter()
            .find(|p| p.get("gen_ai.tool.name").map(|v| v.to_string()).as_deref() == Some(tool))
            .unwrap_or_else(|| panic!("no point for {tool}: {points:?}"))
    };
    let lookup = find("lookup");
    assert_eq!(lookup["mcp.method.name"].to_string(), "tools/call");
    assert_eq!(lookup["gen_ai.operation.name"].to_string(), "execute_tool");
    assert_eq!(lookup["mcp.protocol.version"].to_string(), "2025-11-25");
    assert_eq!(lookup["network.transport"].to_string(), "pipe");
    assert!(!lookup.contains_key("error.type"));
    assert_eq!(find("refuse")["error.type"].to_string(), "tool_error");
    let nope = find("nope");
    assert_eq!(nope["error.type"].to_string(), "-32602");
    assert_eq!(nope["rpc.response.status_code"].to_string(), "-32602");
    assert!(
        points
            .iter()
            .any(|p| p["mcp.method.name"].to_string() == "initialize")
    );
}
