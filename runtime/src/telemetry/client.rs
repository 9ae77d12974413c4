//! The client's side (feature `client`): a CLIENT span per typed call, whose context goes
//! into the request's `_meta` for the server to continue, and
//! `mcp.client.operation.duration`.

use std::sync::OnceLock;
use std::time::Instant;

use opentelemetry::KeyValue;
use opentelemetry::metrics::Histogram;
use opentelemetry::propagation::Injector;
use serde_json::{Map, Value};
use tracing::Span;
use tracing::field::Empty;
use tracing_opentelemetry::OpenTelemetrySpanExt;

use super::{SpanName, Target, cut, target_of};

/// How a call failed, as the client read its reply.
pub(crate) struct Failure {
    /// The JSON-RPC error code, if the server answered with an error.
    pub code: Option<i64>,
    /// `error.type`: the code, `tool_error`, or the kind of transport failure.
    pub kind: String,
    pub message: String,
}

/// One typed call's CLIENT span, from before it is sent until its reply is read.
pub(crate) struct ClientSpan {
    span: Span,
    started: Instant,
    attributes: Vec<KeyValue>,
}

/// `mcp.client.operation.duration`, on the global meter provider (`None` while it is the
/// no-op default).
fn histogram() -> Option<&'static Histogram<f64>> {
    static HISTOGRAM: OnceLock<Option<Histogram<f64>>> = OnceLock::new();
    HISTOGRAM
        .get_or_init(|| {
            Some(super::duration(
                &super::global_meter()?,
                "mcp.client.operation.duration",
                "The duration of the MCP request or notification as observed on the sender from the time it was sent until the response or ack is received.",
            ))
        })
        .as_ref()
}

impl ClientSpan {
    /// Starts the span of the request `method` with `params` (an object), and injects its
    /// context into `params._meta` with the propagator installed in
    /// `opentelemetry::global` (keys the caller set are kept).
    pub(crate) fn start(method: &str, params: &mut Value) -> ClientSpan {
        let target = target_of(method);
        let field = |key: &str| params.get(key).and_then(Value::as_str).map(str::to_owned);
        let (name, uri) = (field("name"), field("uri"));
        let span = tracing::info_span!(
            target: "toolidl_runtime::client",
            "mcp.client.request",
            otel.name = Empty,
            otel.kind = "client",
            otel.status_code = Empty,
            otel.status_description = Empty,
            mcp.method.name = method,
            gen_ai.tool.name = Empty,
            gen_ai.prompt.name = Empty,
            gen_ai.operation.name = Empty,
            mcp.resource.uri = Empty,
            rpc.response.status_code = Empty,
            error.type = Empty,
        );
        let mut attributes = vec![KeyValue::new("mcp.method.name", method.to_owned())];
        match (target, &name) {
            (Target::Tool, Some(n)) => {
                attributes.push(KeyValue::new("gen_ai.tool.name", n.clone()));
                attributes.push(KeyValue::new("gen_ai.operation.name", "execute_tool"));
            }
            (Target::Prompt, Some(n)) => {
                attributes.push(KeyValue::new("gen_ai.prompt.name", n.clone()));
            }
            _ => {}
        }
        if !span.is_disabled() {
            let named = match target {
                Target::Tool | Target::Prompt => name.as_deref(),
                _ => None,
            };
            span.record(
                "otel.name",
                tracing::field::display(SpanName(method, named)),
            );
            for kv in &attributes[1..] {
                span.record(kv.key.as_str(), kv.value.as_str().as_ref());
            }
            if let (Target::Resource, Some(uri)) = (target, &uri) {
                span.record("mcp.resource.uri", uri.as_str());
            }
            inject(&span, params);
        }
        ClientSpan {
            span,
            started: Instant::now(),
            attributes,
        }
    }

    /// The span, to run the request in.
    pub(crate) fn span(&self) -> &Span {
        &self.span
    }

    /// Ends the call: `failure`, or success.
    pub(crate) fn end(mut self, failure: Option<Failure>) {
        if let Some(f) = failure {
            if let Some(code) = f.code {
                self.span
                    .record("rpc.response.status_code", code.to_string());
                self.attributes
                    .push(KeyValue::new("rpc.response.status_code", code.to_string()));
            }
            self.span.record("error.type", f.kind.as_str());
            self.span.record("otel.status_code", "error");
            self.span
                .record("otel.status_description", &*cut(&f.message, 1024));
            self.attributes.push(KeyValue::new("error.type", f.kind));
        }
        if let Some(histogram) = histogram() {
            let seconds = self.started.elapsed().as_secs_f64();
            histogram.record(seconds, &self.attributes);
        }
    }
}

/// Writes the span's context into `params._meta`.
fn inject(span: &Span, params: &mut Value) {
    let Value::Object(params) = params else {
        return;
    };
    let meta = params
        .entry("_meta")
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(meta) = meta else { return };
    let cx = span.context();
    let mut fresh = Map::new();
    opentelemetry::global::get_text_map_propagator(|p| {
        p.inject_context(&cx, &mut MetaInjector(&mut fresh))
    });
    for (key, value) in fresh {
        meta.entry(key).or_insert(value);
    }
}

/// A JSON object (`_meta`) as an [`Injector`].
struct MetaInjector<'a>(pub &'a mut serde_json::Map<String, serde_json::Value>);

impl Injector for MetaInjector<'_> {
    fn set(&mut self, key: &str, value: String) {
        self.0.insert(key.to_owned(), value.into());
    }
}
