//! Telemetry by the OpenTelemetry semantic conventions for MCP (`docs/runtime.md`,
//! "Telemetry"): a `tracing` span per request, named `{mcp.method.name} {target}` with the
//! conventions' attributes as fields and `otel.kind = "server"`, which a
//! `tracing-opentelemetry` layer exports as a SERVER span; nothing is made when no
//! subscriber wants the span. With feature `otel`, the span continues the trace the request
//! carries (`params._meta`, SEP-414, else the HTTP request's headers), read with the
//! propagator the user installed, and each request records `mcp.server.operation.duration`.
//!
//! The connection starts a [`RequestSpan`] when it reads a request and finishes it with the
//! reply it sends, from which it reads the outcome (`rpc.response.status_code`,
//! `error.type`, `tool_error` for a tool result with `isError`).

use tracing::Span;
use tracing::field::Empty;

/// What the server records beyond the conventions' defaults
/// ([`ServerBuilder::telemetry`](crate::ServerBuilder::telemetry)).
#[derive(Clone, Debug, Default)]
pub struct Telemetry {
    /// Records a tool call's arguments and result (`gen_ai.tool.call.arguments`,
    /// `gen_ai.tool.call.result`), each cut to this many bytes.
    payloads: Option<usize>,
    /// Names `resources/read` and resource subscriptions' spans with the URI.
    uri_in_name: bool,
    #[cfg(feature = "otel")]
    meter: Option<opentelemetry::metrics::Meter>,
    #[cfg(feature = "otel")]
    histogram: std::sync::OnceLock<opentelemetry::metrics::Histogram<f64>>,
}

impl Telemetry {
    /// The conventions' defaults: no arguments or results recorded, resource URIs as an
    /// attribute but not in span names, the global meter.
    pub fn new() -> Self {
        Self::default()
    }

    /// Opts in to recording each tool call's arguments (`gen_ai.tool.call.arguments`) and
    /// result (`gen_ai.tool.call.result`) as JSON text on its span, each cut to at most
    /// `max_bytes` bytes (on a character boundary, with `…` after a cut). They may hold
    /// what the caller or the tool would rather not see in a trace store: off by default.
    pub fn record_payloads(mut self, max_bytes: usize) -> Self {
        self.payloads = Some(max_bytes);
        self
    }

    /// Names the spans of `resources/read`, `resources/subscribe` and
    /// `resources/unsubscribe` `{mcp.method.name} {mcp.resource.uri}` (default: the method
    /// alone, as the conventions advise, since URIs make span names of high cardinality).
    pub fn resource_uri_in_span_name(mut self, on: bool) -> Self {
        self.uri_in_name = on;
        self
    }

    /// The meter `mcp.server.operation.duration` is recorded with (default: the global
    /// meter provider's meter `toolidl-runtime`, looked up at the first request, so install
    /// the provider before serving).
    #[cfg(feature = "otel")]
    pub fn meter(mut self, meter: opentelemetry::metrics::Meter) -> Self {
        self.meter = Some(meter);
        self.histogram = std::sync::OnceLock::new();
        self
    }

    #[cfg(feature = "otel")]
    fn histogram(&self) -> &opentelemetry::metrics::Histogram<f64> {
        self.histogram.get_or_init(|| {
            let meter = match &self.meter {
                Some(m) => m.clone(),
                None => opentelemetry::global::meter("toolidl-runtime"),
            };
            meter
                .f64_histogram("mcp.server.operation.duration")
                .with_unit("s")
                .with_description(
                    "The duration of the MCP request or notification as observed on the receiver from the time it was received until the result or ack is sent.",
                )
                .with_boundaries(DURATION_BOUNDARIES.to_vec())
                .build()
        })
    }
}

/// The conventions' `ExplicitBucketBoundaries` for the operation durations, in seconds.
pub const DURATION_BOUNDARIES: [f64; 14] = [
    0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0,
];

/// The request a span is started for, as the connection read it.
pub(crate) struct RequestInfo<'a> {
    /// The method as the client wrote it.
    pub method: &'a str,
    /// The request's id, raw JSON.
    pub id: &'a str,
    /// `params.name` (a tool or a prompt).
    pub name: Option<&'a str>,
    /// `params.uri` (a resource).
    pub uri: Option<&'a str>,
    /// `params.arguments` of a tool call, raw JSON.
    pub arguments: Option<&'a str>,
    /// Whether the request came over HTTP (else a pipe: stdio, or in process).
    pub http: bool,
    /// The trace context in `params._meta`.
    #[cfg(feature = "otel")]
    pub meta: TraceCarrier<'a>,
    /// The trace context in the HTTP request's headers.
    #[cfg(feature = "otel")]
    pub headers: Option<&'a TraceHeaders>,
}

/// What the target of a method's span name and its attributes is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Target {
    Tool,
    Prompt,
    Resource,
    None,
}

fn target_of(method: &str) -> Target {
    match method {
        "tools/call" => Target::Tool,
        "prompts/get" => Target::Prompt,
        "resources/read" | "resources/subscribe" | "resources/unsubscribe" => Target::Resource,
        _ => Target::None,
    }
}

/// One request's span, from when it is read until its reply is sent.
pub(crate) struct RequestSpan {
    span: Span,
    tool_call: bool,
    payloads: Option<usize>,
    #[cfg(feature = "otel")]
    started: std::time::Instant,
    #[cfg(feature = "otel")]
    histogram: opentelemetry::metrics::Histogram<f64>,
    #[cfg(feature = "otel")]
    attributes: Vec<opentelemetry::KeyValue>,
}

impl RequestSpan {
    /// The span of the request `info`; `None` when nothing would record it (no subscriber
    /// wants the span, and no metrics without feature `otel`).
    pub(crate) fn start(config: &Telemetry, info: RequestInfo<'_>) -> Option<RequestSpan> {
        let target = target_of(info.method);
        let span = tracing::info_span!(
            target: "toolidl_runtime::request",
            "mcp.request",
            otel.name = Empty,
            otel.kind = "server",
            otel.status_code = Empty,
            otel.status_description = Empty,
            mcp.method.name = info.method,
            gen_ai.tool.name = Empty,
            gen_ai.prompt.name = Empty,
            gen_ai.operation.name = Empty,
            mcp.resource.uri = Empty,
            jsonrpc.request.id = Empty,
            mcp.protocol.version = Empty,
            mcp.session.id = Empty,
            rpc.response.status_code = Empty,
            error.type = Empty,
            network.transport = Empty,
            network.protocol.name = Empty,
            gen_ai.tool.call.arguments = Empty,
            gen_ai.tool.call.result = Empty,
        );
        #[cfg(not(feature = "otel"))]
        if span.is_disabled() {
            return None;
        }
        let named = match target {
            Target::Tool | Target::Prompt => info.name,
            Target::Resource if config.uri_in_name => info.uri,
            _ => None,
        };
        if !span.is_disabled() {
            match named {
                Some(n) => span.record("otel.name", format!("{} {n}", info.method)),
                None => span.record("otel.name", info.method),
            };
            match (target, info.name, info.uri) {
                (Target::Tool, Some(n), _) => {
                    span.record("gen_ai.tool.name", n);
                    span.record("gen_ai.operation.name", "execute_tool");
                }
                (Target::Prompt, Some(n), _) => {
                    span.record("gen_ai.prompt.name", n);
                }
                (Target::Resource, _, Some(u)) => {
                    span.record("mcp.resource.uri", u);
                }
                _ => {}
            }
            span.record("jsonrpc.request.id", &*request_id(info.id));
            if info.http {
                span.record("network.transport", "tcp");
                span.record("network.protocol.name", "http");
            } else {
                span.record("network.transport", "pipe");
            }
            if target == Target::Tool
                && let (Some(max), Some(args)) = (config.payloads, info.arguments)
            {
                span.record("gen_ai.tool.call.arguments", &*cut(args, max));
            }
            #[cfg(feature = "otel")]
            otel::set_parent(&span, &info.meta, info.headers);
        }
        Some(RequestSpan {
            tool_call: target == Target::Tool,
            payloads: config.payloads,
            #[cfg(feature = "otel")]
            started: std::time::Instant::now(),
            #[cfg(feature = "otel")]
            histogram: config.histogram().clone(),
            #[cfg(feature = "otel")]
            attributes: otel::attributes(&info, target),
            span,
        })
    }

    /// The span, to enter while the request is served.
    pub(crate) fn span(&self) -> &Span {
        &self.span
    }

    /// The revision the request is served under (`mcp.protocol.version`).
    pub(crate) fn revision(&mut self, revision: &'static str) {
        self.span.record("mcp.protocol.version", revision);
        #[cfg(feature = "otel")]
        self.attributes.push(opentelemetry::KeyValue::new(
            "mcp.protocol.version",
            revision,
        ));
    }

    /// The HTTP session the request belongs to (`mcp.session.id`).
    #[allow(dead_code)]
    pub(crate) fn session(&self, id: &str) {
        self.span.record("mcp.session.id", id);
    }

    /// Ends the request with `reply`, the JSON-RPC message sent for it.
    pub(crate) fn finish(self, reply: &str) {
        let outcome = Outcome::of(reply, self.tool_call && self.recording());
        self.end(outcome, reply);
    }

    /// Ends the request that was cancelled before it answered.
    pub(crate) fn cancelled(self) {
        self.end(
            Outcome::Failed {
                code: None,
                kind: "cancelled".into(),
                message: None,
            },
            "",
        );
    }

    /// Whether a tool result's `isError` is worth looking for: something records it.
    fn recording(&self) -> bool {
        cfg!(feature = "otel") || !self.span.is_disabled()
    }

    #[cfg_attr(not(feature = "otel"), allow(unused_mut))]
    fn end(mut self, outcome: Outcome, reply: &str) {
        let span = &self.span;
        match &outcome {
            Outcome::Ok => {
                if let Some(max) = self.payloads
                    && self.tool_call
                    && let Some(result) = result_of(reply)
                {
                    span.record("gen_ai.tool.call.result", &*cut(result, max));
                }
            }
            Outcome::Failed {
                code,
                kind,
                message,
            } => {
                if let Some(code) = code {
                    span.record("rpc.response.status_code", code.as_str());
                }
                span.record("error.type", kind.as_str());
                span.record("otel.status_code", "error");
                if let Some(m) = message {
                    span.record("otel.status_description", m.as_str());
                }
            }
        }
        #[cfg(feature = "otel")]
        {
            use opentelemetry::KeyValue;
            if let Outcome::Failed { code, kind, .. } = outcome {
                if let Some(code) = code {
                    self.attributes
                        .push(KeyValue::new("rpc.response.status_code", code));
                }
                self.attributes.push(KeyValue::new("error.type", kind));
            }
            let seconds = self.started.elapsed().as_secs_f64();
            self.histogram.record(seconds, &self.attributes);
        }
    }
}

/// How a request ended, read from its reply.
enum Outcome {
    Ok,
    Failed {
        /// The JSON-RPC error code, as text.
        code: Option<String>,
        /// `error.type`: the code, or `tool_error`.
        kind: String,
        /// The error's message.
        message: Option<String>,
    },
}

impl Outcome {
    /// The outcome `reply` reports; a tool result's `isError` is looked for when
    /// `tool_result` (the reply is read only then, and only to its error or `isError`).
    fn of(reply: &str, tool_result: bool) -> Outcome {
        #[derive(serde::Deserialize)]
        struct Reply {
            error: Option<Error>,
        }
        #[derive(serde::Deserialize)]
        struct Error {
            code: i64,
            #[serde(default)]
            message: Option<String>,
        }
        if let Some(body) = after_id(reply)
            && body.starts_with(r#""error":"#)
        {
            return match serde_json::from_str::<Reply>(reply) {
                Ok(Reply {
                    error: Some(Error { code, message }),
                }) => Outcome::Failed {
                    code: Some(code.to_string()),
                    kind: code.to_string(),
                    message,
                },
                _ => Outcome::Failed {
                    code: None,
                    kind: "_OTHER".into(),
                    message: None,
                },
            };
        }
        // The runtime writes a tool error's result as `{"content":[…],"isError":true}`.
        if tool_result && result_of(reply).is_some_and(|r| r.contains(r#""isError":true"#)) {
            return Outcome::Failed {
                code: None,
                kind: "tool_error".into(),
                message: None,
            };
        }
        Outcome::Ok
    }
}

/// What follows `"id":…,` in a reply the runtime wrote (`{"jsonrpc":"2.0","id":…,`).
fn after_id(reply: &str) -> Option<&str> {
    let rest = reply.strip_prefix(r#"{"jsonrpc":"2.0","#)?;
    if rest.starts_with(r#""error":"#) {
        return Some(rest);
    }
    let rest = rest.strip_prefix(r#""id":"#)?;
    // The id is an integer or a string (the runtime refuses other ids before this).
    let end = if let Some(s) = rest.strip_prefix('"') {
        let mut escaped = false;
        let close = s.char_indices().find(|&(_, c)| {
            let done = c == '"' && !escaped;
            escaped = c == '\\' && !escaped;
            done
        })?;
        close.0 + 2
    } else {
        rest.find(',')?
    };
    rest.get(end..)?.strip_prefix(',')
}

/// The `result` of a reply the runtime wrote, raw JSON.
fn result_of(reply: &str) -> Option<&str> {
    after_id(reply)?
        .strip_prefix(r#""result":"#)?
        .strip_suffix('}')
}

/// `jsonrpc.request.id`: the id as text (a string id without its quotes).
fn request_id(raw: &str) -> std::borrow::Cow<'_, str> {
    match serde_json::from_str::<std::borrow::Cow<'_, str>>(raw) {
        Ok(s) => s,
        Err(_) => raw.into(),
    }
}

/// `text` cut to at most `max` bytes on a character boundary, with `…` after a cut.
fn cut(text: &str, max: usize) -> std::borrow::Cow<'_, str> {
    if text.len() <= max {
        return text.into();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end]).into()
}

/// The trace context fields of a request's `params._meta` (SEP-414: unprefixed keys).
#[cfg(feature = "otel")]
#[derive(Default, Clone, Copy)]
pub(crate) struct TraceCarrier<'a> {
    pub traceparent: Option<&'a str>,
    pub tracestate: Option<&'a str>,
    pub baggage: Option<&'a str>,
}

/// The trace context headers of an HTTP request (`traceparent`, `tracestate`, `baggage`).
#[cfg(feature = "otel")]
#[derive(Default, Clone, Debug)]
pub(crate) struct TraceHeaders {
    pub traceparent: Option<String>,
    pub tracestate: Option<String>,
    pub baggage: Option<String>,
}

#[cfg(feature = "otel")]
mod otel {
    use opentelemetry::KeyValue;
    use opentelemetry::propagation::Extractor;
    use opentelemetry::trace::TraceContextExt;
    use tracing_opentelemetry::OpenTelemetrySpanExt;

    use super::{RequestInfo, Target, TraceCarrier, TraceHeaders};

    struct Carrier<'a>([Option<&'a str>; 3]);

    const KEYS: [&str; 3] = ["traceparent", "tracestate", "baggage"];

    impl Extractor for Carrier<'_> {
        fn get(&self, key: &str) -> Option<&str> {
            let i = KEYS.iter().position(|k| k.eq_ignore_ascii_case(key))?;
            self.0[i]
        }

        fn keys(&self) -> Vec<&str> {
            KEYS.iter()
                .zip(self.0)
                .filter(|(_, v)| v.is_some())
                .map(|(k, _)| *k)
                .collect()
        }
    }

    /// The context a carrier names, with the propagator the user installed; `None` when it
    /// names no valid remote span.
    fn extract(carrier: Carrier<'_>) -> Option<opentelemetry::Context> {
        if carrier.0.iter().all(Option::is_none) {
            return None;
        }
        let cx = opentelemetry::global::get_text_map_propagator(|p| p.extract(&carrier));
        cx.span().span_context().is_valid().then_some(cx)
    }

    /// Makes the remote context of `params._meta` the span's parent (the conventions: the
    /// MCP context is the parent, the transport's is linked); without one, the HTTP
    /// headers' context.
    pub(super) fn set_parent(
        span: &tracing::Span,
        meta: &TraceCarrier<'_>,
        headers: Option<&TraceHeaders>,
    ) {
        let from_meta = extract(Carrier([meta.traceparent, meta.tracestate, meta.baggage]));
        let from_headers = headers.and_then(|h| {
            extract(Carrier([
                h.traceparent.as_deref(),
                h.tracestate.as_deref(),
                h.baggage.as_deref(),
            ]))
        });
        match (from_meta, from_headers) {
            (Some(parent), Some(transport)) => {
                let link = transport.span().span_context().clone();
                if link != *parent.span().span_context() {
                    span.add_link(link);
                }
                let _ = span.set_parent(parent);
            }
            (Some(parent), None) | (None, Some(parent)) => {
                let _ = span.set_parent(parent);
            }
            (None, None) => {}
        }
    }

    /// The histogram's attributes known when the request is read.
    pub(super) fn attributes(info: &RequestInfo<'_>, target: Target) -> Vec<KeyValue> {
        let mut out = Vec::with_capacity(8);
        out.push(KeyValue::new("mcp.method.name", info.method.to_owned()));
        match (target, info.name) {
            (Target::Tool, Some(n)) => {
                out.push(KeyValue::new("gen_ai.tool.name", n.to_owned()));
                out.push(KeyValue::new("gen_ai.operation.name", "execute_tool"));
            }
            (Target::Prompt, Some(n)) => {
                out.push(KeyValue::new("gen_ai.prompt.name", n.to_owned()))
            }
            _ => {}
        }
        if info.http {
            out.push(KeyValue::new("network.transport", "tcp"));
            out.push(KeyValue::new("network.protocol.name", "http"));
        } else {
            out.push(KeyValue::new("network.transport", "pipe"));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_outcomes_from_replies() {
        let ok = r#"{"jsonrpc":"2.0","id":"a\"b","result":{"content":[]}}"#;
        assert!(matches!(Outcome::of(ok, true), Outcome::Ok));
        assert_eq!(result_of(ok), Some(r#"{"content":[]}"#));
        let tool = r#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"x"}],"isError":true}}"#;
        assert!(
            matches!(Outcome::of(tool, true), Outcome::Failed { ref kind, .. } if kind == "tool_error")
        );
        assert!(matches!(Outcome::of(tool, false), Outcome::Ok));
        let error =
            r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Invalid params: x"}}"#;
        match Outcome::of(error, true) {
            Outcome::Failed {
                code,
                kind,
                message,
            } => {
                assert_eq!(code.as_deref(), Some("-32602"));
                assert_eq!(kind, "-32602");
                assert_eq!(message.as_deref(), Some("Invalid params: x"));
            }
            Outcome::Ok => panic!("an error reply is a failure"),
        }
        // A text that looks like an error is not one.
        let quoted = r#"{"jsonrpc":"2.0","id":"\"error\":","result":{}}"#;
        assert!(matches!(Outcome::of(quoted, true), Outcome::Ok));
    }

    #[test]
    fn ids_and_cuts() {
        assert_eq!(request_id("12"), "12");
        assert_eq!(request_id(r#""req-7""#), "req-7");
        assert_eq!(cut("héllo", 2), "h…");
        assert_eq!(cut("abc", 3), "abc");
    }
}
