//! OpenTelemetry by the semantic conventions for MCP (feature `otel`; `docs/telemetry.md`).
//!
//! Each request and notification the server receives is a `tracing` span (target
//! `toolidl_runtime::request`, level INFO) named `{mcp.method.name} {target}` with the
//! conventions' attributes as fields and `otel.kind = "server"`: a `tracing-opentelemetry`
//! layer (the user's, or [`Otlp::layer`]) exports it as a SERVER span, and the handler's own
//! `tracing` spans and events, entered while the call runs, nest under it. The span
//! continues the trace the request carries: `params._meta`'s `traceparent`, `tracestate`
//! and `baggage` (SEP-414), else the HTTP request's headers (and when both are there, the
//! headers' context is linked), read with the propagator installed in
//! `opentelemetry::global`. Each one records `mcp.server.operation.duration`, and each
//! session `mcp.server.session.duration` when it ends.
//!
//! The connection starts a request's span when it reads a request and finishes it with the
//! reply it sends, from which it reads the outcome (`rpc.response.status_code`, `error.type`,
//! `tool_error` for a tool result with `isError`). With feature `client`, the typed calls
//! ([`client::call_tool`](crate::client::call_tool) and the others) are CLIENT spans whose
//! context they inject into the request's `_meta`.
//!
//! Without the feature none of this is compiled: the request path is the same as before.

#[cfg(feature = "client")]
mod client;
#[cfg(feature = "otlp")]
mod otlp;

use std::borrow::Cow;
use std::cell::Cell;
use std::net::IpAddr;
use std::sync::OnceLock;
use std::time::Instant;

use opentelemetry::KeyValue;
use opentelemetry::metrics::{Histogram, Meter};
use opentelemetry::propagation::Extractor;
use opentelemetry::trace::TraceContextExt;
use tracing::Span;
use tracing::field::Empty;
use tracing_opentelemetry::OpenTelemetrySpanExt;

#[cfg(feature = "client")]
pub(crate) use client::{ClientSpan, Failure};
#[cfg(feature = "otlp")]
pub use otlp::{Otlp, OtlpBuilder, OtlpError};

/// The version of the semantic conventions for MCP this module follows: the
/// `docs/gen-ai/mcp.md` of `open-telemetry/semantic-conventions-genai` (status
/// Development), whose attribute registry links point at semantic conventions 1.41.1.
pub const CONVENTIONS: &str =
    "semantic-conventions-genai docs/gen-ai/mcp.md (Development), registry 1.41.1";

/// What the server records beyond the conventions' defaults, and where its metrics go
/// ([`ServerBuilder::telemetry`](crate::ServerBuilder::telemetry)).
#[derive(Clone, Debug, Default)]
pub struct Telemetry {
    /// Records a tool call's arguments and result, each cut to this many bytes.
    payloads: Option<usize>,
    /// Names `resources/read` and resource subscriptions' spans with the URI.
    uri_in_name: bool,
    meter: Option<Meter>,
    /// `None`: no meter provider records anything.
    instruments: OnceLock<Option<Instruments>>,
}

#[derive(Clone, Debug)]
struct Instruments {
    operation: Histogram<f64>,
    session: Histogram<f64>,
}

impl Telemetry {
    /// The conventions' defaults: no arguments or results recorded, resource URIs as an
    /// attribute but not in span names, the global meter provider's meter.
    pub fn new() -> Self {
        Self::default()
    }

    /// Opts in to recording each tool call's arguments (`gen_ai.tool.call.arguments`) and
    /// successful result (`gen_ai.tool.call.result`) as JSON text on its span, each cut to
    /// at most `max_bytes` bytes (on a character boundary, with `…` after a cut). They may
    /// hold what neither the caller nor the tool wants in a trace store: off by default.
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

    /// The meter the duration histograms are recorded with (default: the global meter
    /// provider's meter `toolidl-runtime`, looked up at the first request, so install the
    /// provider before serving; while the global provider is OpenTelemetry's no-op one,
    /// nothing is measured at all).
    pub fn meter(mut self, meter: Meter) -> Self {
        self.meter = Some(meter);
        self.instruments = OnceLock::new();
        self
    }

    /// Whether anything would record a request now: a subscriber wants its span, or a
    /// meter provider records (a transport reads what the spans want only then).
    pub(crate) fn active(&self) -> bool {
        self.instruments().is_some()
            || tracing::enabled!(target: "toolidl_runtime::request", tracing::Level::INFO)
    }

    fn instruments(&self) -> Option<&Instruments> {
        let instruments = self.instruments.get_or_init(|| {
            let meter = match &self.meter {
                Some(m) => m.clone(),
                None => global_meter()?,
            };
            Some(Instruments {
                operation: duration(
                    &meter,
                    "mcp.server.operation.duration",
                    "MCP request or notification duration as observed on the receiver from the time it was received until the result or ack is sent.",
                ),
                session: duration(
                    &meter,
                    "mcp.server.session.duration",
                    "The duration of the MCP session as observed on the MCP server.",
                ),
            })
        });
        instruments.as_ref()
    }
}

/// The global meter provider's meter `toolidl-runtime`; `None` while the provider is
/// OpenTelemetry's default, which records nothing: then the runtime does not even read the
/// clock or build attributes for it. The default (`NoopMeterProvider`) is the one provider
/// without state, which its size tells (an SDK's provider holds its pipeline).
pub(crate) fn global_meter() -> Option<Meter> {
    let provider = opentelemetry::global::meter_provider();
    (std::mem::size_of_val(&*provider) != 0).then(|| provider.meter("toolidl-runtime"))
}

/// A duration histogram in seconds with the conventions' buckets.
pub(crate) fn duration(meter: &Meter, name: &'static str, about: &'static str) -> Histogram<f64> {
    meter
        .f64_histogram(name)
        .with_unit("s")
        .with_description(about)
        .with_boundaries(DURATION_BOUNDARIES.to_vec())
        .build()
}

/// The conventions' `ExplicitBucketBoundaries` for the MCP duration histograms, in seconds.
pub const DURATION_BOUNDARIES: [f64; 14] = [
    0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0,
];

/// What the HTTP transport knows of the request that carried a message: handed to the
/// connection with it (in the message's `Identity`).
#[derive(Default, Clone, Debug)]
pub(crate) struct HttpInfo {
    /// The `traceparent`, `tracestate` and `baggage` headers.
    pub trace: [Option<String>; 3],
    /// `Mcp-Session-Id`.
    pub session: Option<String>,
    /// The client's address (behind the proxies the server trusts) and, when it is the
    /// connection's own peer, its port.
    pub client: Option<(IpAddr, Option<u16>)>,
    /// `network.protocol.version`: `1.1` or `2`.
    pub version: &'static str,
}

#[cfg(any(feature = "http", test))]
impl HttpInfo {
    /// `client`: the address requests count against; `peer`: the connection's.
    pub(crate) fn new(
        header: impl Fn(&str) -> Option<String>,
        client: Option<IpAddr>,
        peer: Option<std::net::SocketAddr>,
        http2: bool,
    ) -> HttpInfo {
        let client = match (client, peer) {
            (Some(ip), Some(peer)) if peer.ip() == ip => Some((ip, Some(peer.port()))),
            (Some(ip), _) => Some((ip, None)),
            (None, Some(peer)) => Some((peer.ip(), Some(peer.port()))),
            (None, None) => None,
        };
        HttpInfo {
            trace: KEYS.map(&header),
            session: header("mcp-session-id"),
            client,
            version: if http2 { "2" } else { "1.1" },
        }
    }
}

/// The connection's address as the runtime's listener accepted it, put in the request's
/// extensions for [`HttpInfo`].
#[cfg(feature = "http")]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Peer(pub std::net::SocketAddr);

/// The request or notification a span is started for, as the connection read it.
pub(crate) struct RequestInfo<'a> {
    /// The method as the client wrote it.
    pub method: &'a str,
    /// The request's id, raw JSON (`None`: a notification).
    pub id: Option<&'a str>,
    /// `params.name` (a tool or a prompt).
    pub name: Option<&'a str>,
    /// `params.uri` (a resource).
    pub uri: Option<&'a str>,
    /// `params.arguments` of a tool call, raw JSON.
    pub arguments: Option<&'a str>,
    /// The trace context in `params._meta`.
    pub meta: [Option<&'a str>; 3],
    /// What the HTTP transport knows (else a pipe: stdio, or in process).
    pub http: Option<&'a HttpInfo>,
}

/// What the target of a method's span name and its attributes is.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Target {
    Tool,
    Prompt,
    Resource,
    None,
}

pub(crate) fn target_of(method: &str) -> Target {
    match method {
        "tools/call" => Target::Tool,
        "prompts/get" => Target::Prompt,
        "resources/read" | "resources/subscribe" | "resources/unsubscribe" => Target::Resource,
        _ => Target::None,
    }
}

/// A span's name, `{mcp.method.name} {target}` or the method alone, written only when a
/// subscriber records it.
pub(crate) struct SpanName<'a>(pub &'a str, pub Option<&'a str>);

impl std::fmt::Display for SpanName<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.1 {
            Some(target) => write!(f, "{} {target}", self.0),
            None => f.write_str(self.0),
        }
    }
}

/// `jsonrpc.request.id` of a raw id, written only when a subscriber records it.
struct RequestId<'a>(&'a str);

impl std::fmt::Display for RequestId<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&request_id(self.0))
    }
}

/// One request's (or notification's) span, from when it is read until its reply is sent.
///
/// The histogram's attributes are kept as their parts and written into an array on the
/// stack at the end: a call allocates only its tool's or prompt's name here.
pub(crate) struct RequestSpan {
    span: Span,
    target: Target,
    payloads: Option<usize>,
    started: Option<Instant>,
    /// `None`: no meter records the request.
    histogram: Option<Histogram<f64>>,
    /// `mcp.method.name`: static for the methods the runtime knows.
    method: opentelemetry::Value,
    /// `gen_ai.tool.name` or `gen_ai.prompt.name`.
    name: Option<String>,
    /// The length of the request's raw id, to find the outcome in the reply.
    id_len: Option<usize>,
    /// `network.protocol.version` over HTTP (`None`: a pipe).
    http: Option<&'static str>,
    revision: Option<&'static str>,
}

impl RequestSpan {
    /// The span of the request `info`; `None` when nothing records it (no subscriber
    /// wants the span, and no meter provider records).
    pub(crate) fn start(config: &Telemetry, info: RequestInfo<'_>) -> Option<RequestSpan> {
        let target = target_of(info.method);
        let name = match target {
            Target::Tool | Target::Prompt => info.name,
            _ => None,
        };
        let tool = name.filter(|_| target == Target::Tool);
        let named = match target {
            Target::Resource if config.uri_in_name => info.uri,
            _ => name,
        };
        let http = info.http;
        let client = http.and_then(|h| h.client);
        // What is known now is given to the span as it is made (one call into the
        // subscriber, nothing formatted unless it records).
        let span = tracing::info_span!(
            target: "toolidl_runtime::request",
            "mcp.request",
            otel.name = tracing::field::display(SpanName(info.method, named)),
            otel.kind = "server",
            otel.status_code = Empty,
            otel.status_description = Empty,
            mcp.method.name = info.method,
            gen_ai.tool.name = tool,
            gen_ai.prompt.name = name.filter(|_| target == Target::Prompt),
            gen_ai.operation.name = tool.map(|_| "execute_tool"),
            mcp.resource.uri = info.uri.filter(|_| target == Target::Resource),
            jsonrpc.request.id = info.id.map(|id| tracing::field::display(RequestId(id))),
            mcp.protocol.version = Empty,
            mcp.session.id = http.and_then(|h| h.session.as_deref()),
            rpc.response.status_code = Empty,
            error.type = Empty,
            network.transport = if http.is_some() { "tcp" } else { "pipe" },
            network.protocol.name = http.map(|_| "http"),
            network.protocol.version = http.map(|h| h.version),
            client.address = client.map(|(ip, _)| tracing::field::display(ip)),
            client.port = client.and_then(|(_, port)| port).map(i64::from),
            gen_ai.tool.call.arguments = Empty,
            gen_ai.tool.call.result = Empty,
        );
        let histogram = config.instruments().map(|i| i.operation.clone());
        if histogram.is_none() && span.is_disabled() {
            return None;
        }
        if !span.is_disabled() {
            if target == Target::Tool
                && let (Some(max), Some(args)) = (config.payloads, info.arguments)
            {
                span.record("gen_ai.tool.call.arguments", &*cut(args, max));
            }
            set_parent(&span, info.meta, info.http.map(|h| &h.trace));
        }
        let measured = histogram.is_some();
        Some(RequestSpan {
            target,
            payloads: config.payloads,
            started: measured.then(Instant::now),
            histogram,
            method: match known_method(info.method) {
                Some(m) => m.into(),
                None if measured => info.method.to_owned().into(),
                None => "".into(),
            },
            name: name.filter(|_| measured).map(str::to_owned),
            id_len: info.id.map(str::len),
            http: info.http.map(|h| h.version),
            revision: None,
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
        self.revision = Some(revision);
    }

    /// Ends the request with `reply`, the JSON-RPC message sent for it (`None`: a
    /// notification, or a request answered by no message of its own).
    pub(crate) fn finish(self, reply: Option<&str>) {
        let (outcome, result) = match reply {
            Some(reply) => Outcome::of(reply, self.id_len, self.target == Target::Tool),
            None => (Outcome::Ok, None),
        };
        self.end(outcome, result);
    }

    /// Ends the request that was cancelled before it answered.
    pub(crate) fn cancelled(self) {
        let outcome = Outcome::Failed {
            code: None,
            kind: "cancelled".into(),
            message: Some("Cancelled by the client.".into()),
        };
        self.end(outcome, None);
    }

    /// `result`: a successful reply's `result`, raw JSON.
    fn end(self, outcome: Outcome, result: Option<&str>) {
        let span = &self.span;
        if let Outcome::Ok = outcome
            && let (Some(max), Target::Tool, Some(result)) = (self.payloads, self.target, result)
            && !span.is_disabled()
        {
            span.record("gen_ai.tool.call.result", &*cut(result, max));
        }
        if let Outcome::Failed {
            code,
            kind,
            message,
        } = &outcome
        {
            if let Some(code) = code {
                span.record("rpc.response.status_code", code.as_str());
            }
            span.record("error.type", kind.as_str());
            span.record("otel.status_code", "error");
            if let Some(m) = message {
                span.record("otel.status_description", m.as_str());
            }
        }
        let (Some(histogram), Some(started)) = (&self.histogram, self.started) else {
            return;
        };
        let seconds = started.elapsed().as_secs_f64();
        // The attributes: the first `n` of a fixed array.
        let mut kv: [KeyValue; 11] = std::array::from_fn(|_| KeyValue::new("", false));
        let mut n = 0;
        let mut put = |key: &'static str, value: opentelemetry::Value| {
            kv[n] = KeyValue::new(key, value);
            n += 1;
        };
        put("mcp.method.name", self.method);
        match (self.target, self.name) {
            (Target::Tool, Some(name)) => {
                put("gen_ai.tool.name", name.into());
                put("gen_ai.operation.name", "execute_tool".into());
            }
            (Target::Prompt, Some(name)) => put("gen_ai.prompt.name", name.into()),
            _ => {}
        }
        match self.http {
            Some(version) => {
                put("network.transport", "tcp".into());
                put("network.protocol.name", "http".into());
                put("network.protocol.version", version.into());
            }
            None => put("network.transport", "pipe".into()),
        }
        if let Some(revision) = self.revision {
            put("mcp.protocol.version", revision.into());
        }
        if let Outcome::Failed { code, kind, .. } = outcome {
            if let Some(code) = code {
                put("rpc.response.status_code", code.into());
            }
            put("error.type", kind.into());
        }
        histogram.record(seconds, &kv[..n]);
    }
}

/// The static name of a method the runtime knows (its attribute allocates nothing).
fn known_method(method: &str) -> Option<&'static str> {
    Some(match method {
        "initialize" => "initialize",
        "ping" => "ping",
        "tools/call" => "tools/call",
        "tools/list" => "tools/list",
        "resources/list" => "resources/list",
        "resources/read" => "resources/read",
        "resources/templates/list" => "resources/templates/list",
        "resources/subscribe" => "resources/subscribe",
        "resources/unsubscribe" => "resources/unsubscribe",
        "prompts/list" => "prompts/list",
        "prompts/get" => "prompts/get",
        "completion/complete" => "completion/complete",
        "logging/setLevel" => "logging/setLevel",
        "server/discover" => "server/discover",
        "subscriptions/listen" => "subscriptions/listen",
        "tasks/get" => "tasks/get",
        "tasks/update" => "tasks/update",
        "tasks/cancel" => "tasks/cancel",
        "notifications/initialized" => "notifications/initialized",
        "notifications/cancelled" => "notifications/cancelled",
        "notifications/progress" => "notifications/progress",
        "notifications/roots/list_changed" => "notifications/roots/list_changed",
        _ => return None,
    })
}

/// `network.*` of a message that came over HTTP (`http`) or a pipe.
fn network(attributes: &mut Vec<KeyValue>, http: Option<&HttpInfo>) {
    match http {
        Some(http) => {
            attributes.push(KeyValue::new("network.transport", "tcp"));
            attributes.push(KeyValue::new("network.protocol.name", "http"));
            attributes.push(KeyValue::new("network.protocol.version", http.version));
        }
        None => attributes.push(KeyValue::new("network.transport", "pipe")),
    }
}

/// A connection's session, from its start to its end: `mcp.server.session.duration`.
pub(crate) struct SessionClock {
    opened: Instant,
    /// `network.protocol.version` of the last HTTP message (`None`: a pipe).
    http: Cell<Option<&'static str>>,
}

impl SessionClock {
    pub(crate) fn new() -> SessionClock {
        SessionClock {
            opened: Instant::now(),
            http: Cell::new(None),
        }
    }

    /// Notes the transport of a message of the session.
    pub(crate) fn saw(&self, http: Option<&HttpInfo>) {
        if let Some(http) = http {
            self.http.set(Some(http.version));
        }
    }

    /// Records the session, which negotiated `revision`, as ended now.
    pub(crate) fn end(&self, config: &Telemetry, revision: &'static str) {
        let mut attributes = vec![KeyValue::new("mcp.protocol.version", revision)];
        let http = self.http.get().map(|version| HttpInfo {
            version,
            ..HttpInfo::default()
        });
        network(&mut attributes, http.as_ref());
        let seconds = self.opened.elapsed().as_secs_f64();
        if let Some(instruments) = config.instruments() {
            instruments.session.record(seconds, &attributes);
        }
    }
}

/// How a request ended, read from its reply.
#[derive(Debug)]
enum Outcome {
    Ok,
    Failed {
        /// The JSON-RPC error code, as text.
        code: Option<String>,
        /// `error.type`: the code, `tool_error`, `cancelled` or `_OTHER`.
        kind: String,
        /// The error's message.
        message: Option<String>,
    },
}

impl Outcome {
    /// The outcome `reply` (as the runtime writes it) reports, and a successful reply's
    /// `result`; `id_len`: the length of the request's raw id, which the reply repeats. A
    /// tool result's `isError` is looked for when `tool_result`; a successful reply is not
    /// read further.
    fn of(reply: &str, id_len: Option<usize>, tool_result: bool) -> (Outcome, Option<&str>) {
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
        let Some(body) = after_id(reply, id_len) else {
            return (Outcome::Ok, None);
        };
        if body.starts_with(r#""error":"#) {
            let outcome = match serde_json::from_str::<Reply>(reply) {
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
            return (outcome, None);
        }
        let result = body
            .strip_prefix(r#""result":"#)
            .and_then(|r| r.strip_suffix('}'));
        if tool_result && result.is_some_and(is_tool_error) {
            let failed = Outcome::Failed {
                code: None,
                kind: "tool_error".into(),
                message: None,
            };
            return (failed, None);
        }
        (Outcome::Ok, result)
    }
}

/// Whether a `CallToolResult` (raw JSON) has `isError: true`: looked for as text first, then
/// read (a `structuredContent` may hold the same member).
fn is_tool_error(result: &str) -> bool {
    #[derive(serde::Deserialize)]
    struct Result {
        #[serde(default, rename = "isError")]
        is_error: Option<serde_json::Value>,
    }
    result.contains(r#""isError":true"#)
        && serde_json::from_str::<Result>(result)
            .is_ok_and(|r| r.is_error == Some(serde_json::Value::Bool(true)))
}

/// What follows `"id":…,` in a reply the runtime wrote (`{"jsonrpc":"2.0","id":…,`); an
/// error without an id follows `{"jsonrpc":"2.0",` directly. `id_len`: the length of the id
/// the reply repeats, when known (else the id is read).
fn after_id(reply: &str, id_len: Option<usize>) -> Option<&str> {
    let rest = reply.strip_prefix(r#"{"jsonrpc":"2.0","#)?;
    if rest.starts_with(r#""error":"#) {
        return Some(rest);
    }
    let rest = rest.strip_prefix(r#""id":"#)?;
    if let Some(body) = id_len
        .and_then(|n| rest.get(n..))
        .and_then(|r| r.strip_prefix(','))
        .filter(|r| r.starts_with(r#""result":"#) || r.starts_with(r#""error":"#))
    {
        return Some(body);
    }
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

/// `jsonrpc.request.id`: the id as text (a string id without its quotes).
pub(crate) fn request_id(raw: &str) -> Cow<'_, str> {
    if !raw.starts_with('"') {
        return raw.into();
    }
    match serde_json::from_str::<Cow<'_, str>>(raw) {
        Ok(s) => s,
        Err(_) => raw.into(),
    }
}

/// `text` cut to at most `max` bytes on a character boundary, with `…` after a cut.
pub(crate) fn cut(text: &str, max: usize) -> Cow<'_, str> {
    if text.len() <= max {
        return text.into();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end]).into()
}

/// The keys of the trace context in `_meta` (SEP-414: unprefixed) and in HTTP headers.
pub(crate) const KEYS: [&str; 3] = ["traceparent", "tracestate", "baggage"];

/// `traceparent`, `tracestate` and `baggage`, as an [`Extractor`].
struct Carrier<'a>([Option<&'a str>; 3]);

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

/// Makes the remote context of `params._meta` the span's parent (the conventions: the MCP
/// context is the parent, the transport's is linked); without one, the HTTP headers'.
fn set_parent(span: &Span, meta: [Option<&str>; 3], headers: Option<&[Option<String>; 3]>) {
    let from_meta = extract(Carrier(meta));
    let from_headers = headers.and_then(|h| extract(Carrier([0, 1, 2].map(|i| h[i].as_deref()))));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_outcomes_from_replies() {
        let ok = r#"{"jsonrpc":"2.0","id":"a\"b","result":{"content":[]}}"#;
        for id_len in [None, Some(6)] {
            let (outcome, result) = Outcome::of(ok, id_len, true);
            assert!(matches!(outcome, Outcome::Ok));
            assert_eq!(result, Some(r#"{"content":[]}"#));
        }
        let tool = r#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"x"}],"isError":true}}"#;
        let (outcome, _) = Outcome::of(tool, Some(1), true);
        assert!(matches!(outcome, Outcome::Failed { ref kind, .. } if kind == "tool_error"));
        assert!(matches!(Outcome::of(tool, Some(1), false).0, Outcome::Ok));
        // `isError` inside the structured content is not the result's.
        let nested = r#"{"jsonrpc":"2.0","id":7,"result":{"content":[],"structuredContent":{"isError":true}}}"#;
        assert!(matches!(Outcome::of(nested, Some(1), true).0, Outcome::Ok));
        let error =
            r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Invalid params: x"}}"#;
        // A wrong length falls back to reading the id.
        for id_len in [None, Some(1), Some(3)] {
            match Outcome::of(error, id_len, true).0 {
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
        }
        let anonymous = r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error."}}"#;
        assert!(
            matches!(Outcome::of(anonymous, None, false).0, Outcome::Failed { ref kind, .. } if kind == "-32700")
        );
        // A text that looks like an error is not one.
        let quoted = r#"{"jsonrpc":"2.0","id":"\"error\":","result":{}}"#;
        assert!(matches!(Outcome::of(quoted, None, true).0, Outcome::Ok));
        assert!(matches!(Outcome::of(quoted, Some(11), true).0, Outcome::Ok));
    }

    #[test]
    fn ids_names_and_cuts() {
        assert_eq!(request_id("12"), "12");
        assert_eq!(request_id(r#""req-7""#), "req-7");
        assert_eq!(cut("héllo", 2), "h…");
        assert_eq!(cut("abc", 3), "abc");
        assert_eq!(
            SpanName("tools/call", Some("get-weather")).to_string(),
            "tools/call get-weather"
        );
        assert_eq!(SpanName("tools/list", None).to_string(), "tools/list");
        assert!(target_of("resources/subscribe") == Target::Resource);
    }

    #[test]
    fn the_default_global_meter_provider_measures_nothing() {
        // Nothing in these tests installs a global provider.
        assert!(global_meter().is_none());
        assert!(Telemetry::new().instruments().is_none());
        #[cfg(feature = "otlp")]
        {
            let provider = opentelemetry_sdk::metrics::SdkMeterProvider::builder().build();
            assert_ne!(std::mem::size_of_val(&provider), 0);
            let measured = Telemetry::new().meter(opentelemetry::metrics::MeterProvider::meter(
                &provider, "test",
            ));
            assert!(measured.instruments().is_some());
        }
    }

    #[test]
    fn the_client_address_keeps_the_port_of_its_own_connection() {
        use std::net::SocketAddr;
        let ip: IpAddr = [10, 0, 0, 7].into();
        let peer = SocketAddr::from(([10, 0, 0, 7], 5123));
        let proxy = SocketAddr::from(([10, 0, 0, 1], 443));
        let header = |name: &str| (name == "traceparent").then(|| "x".to_owned());
        let direct = HttpInfo::new(header, Some(ip), Some(peer), false);
        assert_eq!(direct.client, Some((ip, Some(5123))));
        assert_eq!(direct.trace[0].as_deref(), Some("x"));
        assert_eq!(direct.version, "1.1");
        let proxied = HttpInfo::new(header, Some(ip), Some(proxy), true);
        assert_eq!(proxied.client, Some((ip, None)));
        assert_eq!(proxied.version, "2");
    }
}
