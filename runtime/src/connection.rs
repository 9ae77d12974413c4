//! One client connection: reads messages, dispatches them, writes replies to an outbox.
//!
//! A handler's future is polled once in place; a call that completes at once (the common
//! case) is answered without spawning a task. Only pending calls become tasks, and only
//! they are registered for cancellation.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::task::{Context, Poll, Waker};

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;
use tokio::sync::{mpsc, oneshot};

use crate::context::{CallState, LogLevel, RequestContext};
use crate::jsonrpc::{self, Incoming, RpcError, code, error_message, result_message};
use crate::output::{self, Body, finish_result, render_tool_result};
use crate::revision::Revision;
use crate::server::{Kind, Registry, Server};
use crate::service::{BoxFuture, Completion, CompletionRequest};

/// The receiving end of a connection's outbox: one complete JSON message per item.
pub type Outbox = mpsc::UnboundedReceiver<String>;

/// What `initialize` established (handshake revisions only).
pub(crate) struct Session {
    pub revision: Revision,
    pub client_info: Value,
    pub client_capabilities: Value,
}

/// Connection state shared with handlers' contexts.
pub(crate) struct ConnShared {
    out: mpsc::UnboundedSender<String>,
    session: OnceLock<Session>,
    /// `logging/setLevel`: index into `LogLevel::ALL`, or `NO_LOGS`.
    log_level: AtomicU8,
    inflight: Mutex<HashMap<Box<str>, Arc<CallState>>>,
    pending: Mutex<HashMap<u64, oneshot::Sender<Result<Value, RpcError>>>>,
    next_request: AtomicU64,
    /// 2026-07-28 `subscriptions/listen` streams open on this connection.
    subscriptions: Mutex<Vec<Subscription>>,
    runtime: tokio::runtime::Handle,
}

/// An open `subscriptions/listen` request and the list changes it agreed to carry.
struct Subscription {
    /// The listen request's id, raw JSON.
    id: Box<str>,
    kinds: Vec<ListKind>,
}

/// A list whose changes can be announced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ListKind {
    Tools,
    Resources,
    Prompts,
}

impl ListKind {
    fn method(self) -> &'static str {
        match self {
            ListKind::Tools => "notifications/tools/list_changed",
            ListKind::Resources => "notifications/resources/list_changed",
            ListKind::Prompts => "notifications/prompts/list_changed",
        }
    }

    /// The `SubscriptionFilter` key that opts in to this kind.
    fn filter_key(self) -> &'static str {
        match self {
            ListKind::Tools => "toolsListChanged",
            ListKind::Resources => "resourcesListChanged",
            ListKind::Prompts => "promptsListChanged",
        }
    }
}

const NO_LOGS: u8 = u8::MAX;

impl ConnShared {
    pub fn send(&self, message: String) {
        // A closed outbox means the transport is gone; there is no one left to tell.
        let _ = self.out.send(message);
    }

    pub fn session(&self) -> Option<&Session> {
        self.session.get()
    }

    pub fn log_level(&self) -> Option<LogLevel> {
        LogLevel::ALL
            .get(usize::from(self.log_level.load(Ordering::Relaxed)))
            .copied()
    }

    /// Announces changed lists: to an initialized (handshake) session directly, and on each
    /// 2026-07-28 subscription that opted in, tagged with its id.
    pub fn list_changed(&self, kinds: &[ListKind]) {
        if self.session().is_some() {
            for k in kinds {
                self.send(jsonrpc::notification_message(k.method(), "{}"));
            }
        }
        for sub in lock(&self.subscriptions).iter() {
            for k in kinds.iter().filter(|k| sub.kinds.contains(k)) {
                let params = format!(
                    r#"{{"_meta":{{"io.modelcontextprotocol/subscriptionId":{}}}}}"#,
                    sub.id
                );
                self.send(jsonrpc::notification_message(k.method(), &params));
            }
        }
    }

    /// Sends a request to the client and waits for its response.
    pub async fn request(&self, method: &str, params: &str) -> Result<Value, RpcError> {
        let n = self.next_request.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        lock(&self.pending).insert(n, tx);
        self.send(jsonrpc::request_message(
            &format!("\"s{n}\""),
            method,
            params,
        ));
        rx.await.unwrap_or_else(|_| {
            Err(RpcError::internal(
                "The connection closed before the client answered.",
            ))
        })
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// A connection to one client. Feed it lines with [`Connection::handle_line`]; read
/// replies from the [`Outbox`] returned by [`Connection::new`].
pub struct Connection {
    server: Server,
    shared: Arc<ConnShared>,
    /// Replies produced on the reading thread, joined by newlines, when batching is on.
    batch: Option<RefCell<String>>,
}

/// A batch is handed to the outbox once it holds this many bytes, even mid-input.
const BATCH_LIMIT: usize = 64 * 1024;

/// Request params, read once for whichever method they belong to.
#[derive(Deserialize, Default)]
struct Params<'a> {
    #[serde(borrow, default, rename = "_meta")]
    meta: Option<Meta<'a>>,
    #[serde(borrow, default)]
    name: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    arguments: Option<&'a RawValue>,
    #[serde(borrow, default)]
    uri: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    cursor: Option<Cow<'a, str>>,
    #[serde(borrow, default, rename = "protocolVersion")]
    protocol_version: Option<Cow<'a, str>>,
    #[serde(default)]
    capabilities: Option<Value>,
    #[serde(default, rename = "clientInfo")]
    client_info: Option<Value>,
    #[serde(borrow, default)]
    level: Option<Cow<'a, str>>,
    #[serde(default, rename = "ref")]
    reference: Option<Value>,
    #[serde(default)]
    argument: Option<Value>,
    #[serde(default)]
    context: Option<Value>,
    #[serde(default, rename = "inputResponses")]
    input_responses: Option<Value>,
    #[serde(default, rename = "requestState")]
    request_state: Option<String>,
    #[serde(borrow, default, rename = "requestId")]
    request_id: Option<&'a RawValue>,
    #[serde(default)]
    notifications: Option<Value>,
}

#[derive(Deserialize, Default)]
struct Meta<'a> {
    #[serde(borrow, default, rename = "progressToken")]
    progress_token: Option<&'a RawValue>,
    #[serde(borrow, default, rename = "io.modelcontextprotocol/protocolVersion")]
    protocol_version: Option<Cow<'a, str>>,
    #[serde(default, rename = "io.modelcontextprotocol/clientCapabilities")]
    client_capabilities: Option<Value>,
    #[serde(default, rename = "io.modelcontextprotocol/clientInfo")]
    client_info: Option<Value>,
    #[serde(borrow, default, rename = "io.modelcontextprotocol/logLevel")]
    log_level: Option<Cow<'a, str>>,
}

/// The revisions a request may name in `_meta` (the stateless ones).
const PER_REQUEST_REVISIONS: [&str; 1] = [Revision::V2026_07_28.as_str()];

/// `{}`, the arguments of a call that sent none.
fn empty_object() -> &'static RawValue {
    static EMPTY: OnceLock<Box<RawValue>> = OnceLock::new();
    // "{}" always parses; the default (`null`) is never used.
    EMPTY.get_or_init(|| RawValue::from_string("{}".to_owned()).unwrap_or_default())
}

impl Connection {
    /// A new connection to `server`. Spawned handler tasks run on `runtime`.
    pub fn new(server: &Server, runtime: tokio::runtime::Handle) -> (Connection, Outbox) {
        let (tx, rx) = mpsc::unbounded_channel();
        let shared = Arc::new(ConnShared {
            out: tx,
            session: OnceLock::new(),
            log_level: AtomicU8::new(NO_LOGS),
            inflight: Mutex::new(HashMap::new()),
            pending: Mutex::new(HashMap::new()),
            next_request: AtomicU64::new(1),
            subscriptions: Mutex::new(Vec::new()),
            runtime,
        });
        server.track(&shared);
        (
            Connection {
                server: server.clone(),
                shared,
                batch: None,
            },
            rx,
        )
    }

    /// Collects the replies produced while handling lines into one outbox item (messages
    /// joined by `\n`) until [`Connection::flush`]. Transports that read in chunks use it
    /// to write one batch per chunk; replies from spawned calls still go out on their own.
    pub fn with_batching(mut self) -> Self {
        self.batch = Some(RefCell::new(String::new()));
        self
    }

    /// Hands the collected replies to the outbox (no-op without batching).
    pub fn flush(&self) {
        if let Some(batch) = &self.batch {
            let mut b = batch.borrow_mut();
            if !b.is_empty() {
                let capacity = b.capacity();
                self.shared
                    .send(std::mem::replace(&mut *b, String::with_capacity(capacity)));
            }
        }
    }

    /// Sends a reply produced on this thread: into the batch, or straight to the outbox.
    fn emit(&self, message: String) {
        let Some(batch) = &self.batch else {
            return self.shared.send(message);
        };
        let full = {
            let mut b = batch.borrow_mut();
            if !b.is_empty() {
                b.push('\n');
            }
            b.push_str(&message);
            b.len() >= BATCH_LIMIT
        };
        if full {
            self.flush();
        }
    }

    /// The revision `initialize` negotiated, if it ran.
    pub fn negotiated_revision(&self) -> Option<Revision> {
        self.shared.session().map(|s| s.revision)
    }

    /// Handles one line of input that is not valid UTF-8 or is over the size limit.
    pub fn reject_line(&self, reason: LineProblem) {
        let error = match reason {
            LineProblem::InvalidUtf8 => RpcError::new(
                code::PARSE_ERROR,
                "Parse error: the line is not valid UTF-8.",
            ),
            LineProblem::TooLong(limit) => RpcError::new(
                code::INVALID_REQUEST,
                format!("Invalid request: the message is longer than {limit} bytes."),
            ),
        };
        self.emit(error_message("null", &error));
    }

    /// Handles one line of input given as bytes.
    pub fn handle_bytes(&self, line: &[u8]) {
        match std::str::from_utf8(line) {
            Ok(text) => self.handle_line(text),
            Err(_) => self.reject_line(LineProblem::InvalidUtf8),
        }
    }

    /// Handles one JSON-RPC message (without its newline).
    pub fn handle_line(&self, line: &str) {
        let msg: Incoming = match serde_json::from_str(line) {
            Ok(m) => m,
            Err(e) => return self.reply_error("null", &unreadable(line, &e)),
        };
        let id_text = msg.id.filter(|id| jsonrpc::valid_id(id)).map(RawValue::get);
        if msg.jsonrpc.as_deref() != Some("2.0") {
            let e = RpcError::new(
                code::INVALID_REQUEST,
                "Invalid request: jsonrpc must be \"2.0\".",
            );
            return self.reply_error(id_text.unwrap_or("null"), &e);
        }
        match (msg.method, msg.id) {
            (Some(method), Some(_)) => match id_text {
                Some(id) => self.request(id, &method, msg.params),
                None => {
                    let e = RpcError::new(
                        code::INVALID_REQUEST,
                        "Invalid request: id must be a string or an integer.",
                    );
                    self.reply_error("null", &e)
                }
            },
            (Some(method), None) => self.notification(&method, msg.params),
            (None, Some(id)) if msg.result.is_some() || msg.error.is_some() => {
                self.client_response(id, msg.result, msg.error)
            }
            _ => self.reply_error(
                id_text.unwrap_or("null"),
                &RpcError::new(code::INVALID_REQUEST, "Invalid request: no method."),
            ),
        }
    }

    /// Ends the connection's input: requests waiting for the client fail; calls in flight
    /// finish and the outbox closes once the last one has answered.
    pub fn close(self) {
        self.flush();
        lock(&self.shared.pending).clear();
    }

    fn reply_error(&self, id: &str, error: &RpcError) {
        self.emit(error_message(id, error));
    }

    fn reply(&self, id: &str, body: Body, rev: Revision, cacheable: bool) {
        let cache = cacheable.then_some(&self.server.shared.cache);
        let result = finish_result(body, rev, cache, &self.server.shared.info_json);
        self.emit(result_message(id, &result));
    }

    fn notification(&self, method: &str, params: Option<&RawValue>) {
        let Ok(p) = parse_params(params) else {
            tracing::debug!(method, "notification with unreadable params ignored");
            return;
        };
        match method {
            "notifications/cancelled" => {
                let Some(target) = p.request_id else { return };
                let state = lock(&self.shared.inflight).get(target.get()).cloned();
                if let Some(state) = state {
                    state.cancel();
                }
                // Cancelling a `subscriptions/listen` request closes that stream.
                lock(&self.shared.subscriptions).retain(|s| *s.id != *target.get());
            }
            "notifications/initialized" => tracing::debug!("client initialized"),
            _ => tracing::debug!(method, "notification ignored"),
        }
    }

    fn client_response(&self, id: &RawValue, result: Option<&RawValue>, error: Option<&RawValue>) {
        let n = id
            .get()
            .strip_prefix("\"s")
            .and_then(|s| s.strip_suffix('"'))
            .and_then(|s| s.parse::<u64>().ok());
        let Some(tx) = n.and_then(|n| lock(&self.shared.pending).remove(&n)) else {
            tracing::debug!(id = id.get(), "response to an unknown request ignored");
            return;
        };
        let outcome = match (result, error) {
            (Some(r), _) => {
                serde_json::from_str(r.get()).map_err(|_| RpcError::internal("Unreadable result."))
            }
            (None, Some(e)) => Err(read_error(e)),
            (None, None) => Err(RpcError::internal("Empty response.")),
        };
        let _ = tx.send(outcome);
    }

    fn request(&self, id: &str, method: &str, params: Option<&RawValue>) {
        let p = match parse_params(params) {
            Ok(p) => p,
            Err(e) => return self.reply_error(id, &e),
        };
        let rev = match self.revision_for(method, &p) {
            Ok(r) => r,
            Err(e) => return self.reply_error(id, &e),
        };
        let registry = self.server.registry();
        if let Err(e) = method_allowed(method, rev, &registry) {
            return self.reply_error(id, &e);
        }
        let outcome = match method {
            "initialize" => self.initialize(&p, &registry),
            "ping" => Ok(Reply(plain("{}"), false)),
            "server/discover" => Ok(self.discover(&registry)),
            "logging/setLevel" => self.set_level(&p),
            "tools/list" => listing_page(
                registry.tool_listings(rev),
                p.cursor.as_deref(),
                self.page_size(),
                "tools",
            ),
            "resources/list" => self.list(&registry, Kind::Resources, &p, "resources"),
            "resources/templates/list" => {
                self.list(&registry, Kind::Templates, &p, "resourceTemplates")
            }
            "prompts/list" => self.list(&registry, Kind::Prompts, &p, "prompts"),
            "tools/call" => return self.call_tool(id, rev, p, &registry),
            "resources/read" => return self.read_resource(id, rev, p, &registry),
            "prompts/get" => return self.get_prompt(id, rev, p, &registry),
            "completion/complete" => return self.complete(id, rev, p, &registry),
            "subscriptions/listen" => return self.listen(id, &p, &registry),
            _ => Err(RpcError::new(
                code::METHOD_NOT_FOUND,
                format!("Method not found: {method}"),
            )),
        };
        match outcome {
            Ok(Reply(body, cacheable)) => {
                // `initialize` is answered in the revision it negotiated.
                let rev = self.revision_after(method, rev);
                self.reply(id, body, rev, cacheable)
            }
            Err(e) => self.reply_error(id, &e),
        }
    }

    fn revision_after(&self, method: &str, rev: Revision) -> Revision {
        if method == "initialize" {
            self.negotiated_revision().unwrap_or(rev)
        } else {
            rev
        }
    }

    fn page_size(&self) -> usize {
        self.server.shared.page_size
    }

    /// The revision a request is served under: its `_meta` protocol version (2026-07-28),
    /// else the session's; `initialize`, `ping` and `server/discover` work before a session.
    fn revision_for(&self, method: &str, p: &Params<'_>) -> Result<Revision, RpcError> {
        if let Some(meta) = &p.meta
            && let Some(requested) = &meta.protocol_version
        {
            return match Revision::parse(requested).filter(|r| r.is_stateless()) {
                Some(r) if meta.client_capabilities.is_some() => Ok(r),
                Some(_) => Err(RpcError::invalid_params(
                    "Invalid params: _meta must carry io.modelcontextprotocol/clientCapabilities.",
                )),
                None => Err(RpcError::new(code::UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version")
                    .with_data(serde_json::json!({ "supported": PER_REQUEST_REVISIONS, "requested": requested }))),
            };
        }
        match (self.shared.session(), method) {
            (_, "server/discover") => Ok(Revision::V2026_07_28),
            (Some(s), _) => Ok(s.revision),
            (None, "initialize" | "ping") => Ok(Revision::NEWEST_HANDSHAKE),
            (None, _) => Err(RpcError::new(
                code::INVALID_REQUEST,
                "Invalid request: send initialize first, or name protocol version 2026-07-28 in the request's _meta.",
            )),
        }
    }

    fn initialize(&self, p: &Params<'_>, registry: &Registry) -> Result<Reply, RpcError> {
        let requested = p.protocol_version.as_deref().and_then(Revision::parse);
        let revision = requested
            .filter(|r| !r.is_stateless())
            .unwrap_or(Revision::NEWEST_HANDSHAKE);
        let session = Session {
            revision,
            client_info: p.client_info.clone().unwrap_or(Value::Null),
            client_capabilities: p
                .capabilities
                .clone()
                .unwrap_or_else(|| Value::Object(Default::default())),
        };
        if self.shared.session.set(session).is_err() {
            return Err(RpcError::new(
                code::INVALID_REQUEST,
                "Invalid request: already initialized.",
            ));
        }
        let mut out = String::with_capacity(256);
        out.push_str(r#"{"protocolVersion":""#);
        out.push_str(revision.as_str());
        out.push_str(r#"","capabilities":"#);
        out.push_str(&self.capabilities(registry, revision));
        out.push_str(r#","serverInfo":"#);
        // `Implementation.title` exists from 2025-06-18.
        let info = if revision >= Revision::V2025_06_18 {
            &self.server.shared.info_json
        } else {
            &self.server.shared.info_json_untitled
        };
        out.push_str(info);
        self.push_instructions(&mut out);
        out.push('}');
        Ok(Reply(
            Body {
                json: out,
                has_meta: false,
            },
            false,
        ))
    }

    fn discover(&self, registry: &Registry) -> Reply {
        let mut out = String::with_capacity(256);
        out.push_str(r#"{"supportedVersions":"#);
        out.push_str(&serde_json::json!(PER_REQUEST_REVISIONS).to_string());
        out.push_str(r#","capabilities":"#);
        out.push_str(&self.capabilities(registry, Revision::V2026_07_28));
        self.push_instructions(&mut out);
        out.push('}');
        Reply(
            Body {
                json: out,
                has_meta: false,
            },
            true,
        )
    }

    fn push_instructions(&self, out: &mut String) {
        if let Some(text) = &self.server.shared.instructions {
            out.push_str(r#","instructions":"#);
            jsonrpc::push_json_string(out, text);
        }
    }

    /// Capabilities for what the services have; `listChanged` only when run-time changes are on.
    fn capabilities(&self, registry: &Registry, rev: Revision) -> String {
        let changes = if self.server.shared.list_changed {
            r#"{"listChanged":true}"#
        } else {
            "{}"
        };
        let mut parts = vec![r#""logging":{}"#.to_owned()];
        if registry.has_completions() && rev >= Revision::V2025_03_26 {
            parts.push(r#""completions":{}"#.to_owned());
        }
        if registry.has_prompts() {
            parts.push(format!(r#""prompts":{changes}"#));
        }
        if registry.has_resources() {
            parts.push(format!(r#""resources":{changes}"#));
        }
        if registry.has_tools() {
            parts.push(format!(r#""tools":{changes}"#));
        }
        format!("{{{}}}", parts.join(","))
    }

    /// 2026-07-28 `subscriptions/listen`: acknowledges the list changes this server can
    /// announce (only with `list_changed(true)`, only for lists it has) and keeps the request
    /// open; it ends when the client cancels it or the connection closes.
    fn listen(&self, id: &str, p: &Params<'_>, registry: &Registry) {
        let Some(filter) = p.notifications.as_ref().filter(|f| f.is_object()) else {
            return self.reply_error(
                id,
                &RpcError::invalid_params("Invalid params: notifications is required."),
            );
        };
        let available = [
            (ListKind::Tools, registry.has_tools()),
            (ListKind::Resources, registry.has_resources()),
            (ListKind::Prompts, registry.has_prompts()),
        ];
        let kinds: Vec<ListKind> = available
            .into_iter()
            .filter(|&(k, has)| {
                has && self.server.shared.list_changed && filter[k.filter_key()] == true
            })
            .map(|(k, _)| k)
            .collect();
        let mut honored = serde_json::Map::new();
        for k in &kinds {
            honored.insert(k.filter_key().into(), true.into());
        }
        let params = format!(
            r#"{{"_meta":{{"io.modelcontextprotocol/subscriptionId":{id}}},"notifications":{}}}"#,
            Value::Object(honored)
        );
        lock(&self.shared.subscriptions).push(Subscription {
            id: id.into(),
            kinds,
        });
        self.shared.send(jsonrpc::notification_message(
            "notifications/subscriptions/acknowledged",
            &params,
        ));
    }

    fn set_level(&self, p: &Params<'_>) -> Result<Reply, RpcError> {
        let level = p
            .level
            .as_deref()
            .and_then(LogLevel::parse)
            .ok_or_else(|| {
                RpcError::invalid_params("Invalid params: level must be a logging level.")
            })?;
        let index = LogLevel::ALL.iter().position(|l| *l == level).unwrap_or(0);
        self.shared.log_level.store(index as u8, Ordering::Relaxed);
        Ok(Reply(plain("{}"), false))
    }

    fn list(
        &self,
        registry: &Registry,
        kind: Kind,
        p: &Params<'_>,
        key: &str,
    ) -> Result<Reply, RpcError> {
        listing_page(
            &registry.listing_jsons(kind),
            p.cursor.as_deref(),
            self.page_size(),
            key,
        )
    }

    fn context(
        &self,
        id: &str,
        rev: Revision,
        p: &mut Params<'_>,
    ) -> Result<RequestContext, RpcError> {
        let meta = p.meta.take().unwrap_or_default();
        let log_level = match meta.log_level.as_deref() {
            Some(l) => Some(LogLevel::parse(l).ok_or_else(|| {
                RpcError::invalid_params("Invalid params: unknown _meta logLevel.")
            })?),
            None => None,
        };
        Ok(RequestContext {
            state: Arc::new(CallState {
                conn: self.shared.clone(),
                revision: rev,
                request_id: id.into(),
                progress_token: meta.progress_token.map(|t| t.get().into()),
                log_level,
                client_info: meta.client_info,
                client_capabilities: meta.client_capabilities,
                input_responses: p.input_responses.take(),
                request_state: p.request_state.take(),
                cancelled: Default::default(),
                cancel_signal: Default::default(),
            }),
        })
    }

    fn call_tool(&self, id: &str, rev: Revision, mut p: Params<'_>, registry: &Registry) {
        let Some(name) = p.name.take() else {
            return self.reply_error(
                id,
                &RpcError::invalid_params("Invalid params: name is required."),
            );
        };
        let Some(service) = registry.tool_service(&name) else {
            return self.reply_error(
                id,
                &RpcError::invalid_params(format!("Unknown tool: {name}")),
            );
        };
        let args = match p.arguments {
            None => empty_object(),
            Some(a) if a.get() == "null" => empty_object(),
            Some(a) if a.get().starts_with('{') => a,
            Some(_) => {
                return self.reply_error(
                    id,
                    &RpcError::invalid_params("Invalid params: arguments must be an object."),
                );
            }
        };
        let ctx = match self.context(id, rev, &mut p) {
            Ok(c) => c,
            Err(e) => return self.reply_error(id, &e),
        };
        let state = ctx.state.clone();
        let started = catch_unwind(AssertUnwindSafe(|| {
            service.clone().call_tool(&name, args, ctx)
        }));
        let server = self.server.clone();
        let finish = move |outcome: Result<_, Panicked>, state: &CallState| {
            let rendered = match outcome {
                Ok(result) => render_tool_result(result, state.revision, &state.request_id),
                Err(Panicked) => Ok(output::failed_result()),
            };
            match rendered {
                Ok(body) => {
                    let r = finish_result(body, state.revision, None, &server.shared.info_json);
                    result_message(&state.request_id, &r)
                }
                Err(e) => error_message(&state.request_id, &e),
            }
        };
        match started {
            Ok(fut) => self.drive(state, fut, finish),
            Err(payload) => {
                report_panic(&state.request_id, payload.as_ref());
                self.emit(finish(Err(Panicked), &state));
            }
        }
    }

    fn read_resource(&self, id: &str, rev: Revision, mut p: Params<'_>, registry: &Registry) {
        let Some(uri) = p.uri.take() else {
            return self.reply_error(
                id,
                &RpcError::invalid_params("Invalid params: uri is required."),
            );
        };
        let ctx = match self.context(id, rev, &mut p) {
            Ok(c) => c,
            Err(e) => return self.reply_error(id, &e),
        };
        let found = registry
            .services
            .iter()
            .find_map(|s| s.clone().read_resource(&uri, ctx.clone()));
        let Some(fut) = found else {
            let code = if rev.is_stateless() {
                code::INVALID_PARAMS
            } else {
                code::RESOURCE_NOT_FOUND
            };
            let e = RpcError::new(code, "Resource not found")
                .with_data(serde_json::json!({ "uri": uri }));
            return self.reply_error(id, &e);
        };
        self.drive_value(ctx, fut, true);
    }

    fn get_prompt(&self, id: &str, rev: Revision, mut p: Params<'_>, registry: &Registry) {
        let Some(name) = p.name.take() else {
            return self.reply_error(
                id,
                &RpcError::invalid_params("Invalid params: name is required."),
            );
        };
        let args = match p.arguments {
            None => empty_object(),
            Some(a) if a.get().starts_with('{') => a,
            Some(_) => {
                return self.reply_error(
                    id,
                    &RpcError::invalid_params("Invalid params: arguments must be an object."),
                );
            }
        };
        let ctx = match self.context(id, rev, &mut p) {
            Ok(c) => c,
            Err(e) => return self.reply_error(id, &e),
        };
        let found = registry
            .services
            .iter()
            .find_map(|s| s.clone().get_prompt(&name, args, ctx.clone()));
        match found {
            Some(fut) => self.drive_value(ctx, fut, false),
            None => self.reply_error(
                id,
                &RpcError::invalid_params(format!("Unknown prompt: {name}")),
            ),
        }
    }

    fn complete(&self, id: &str, rev: Revision, mut p: Params<'_>, registry: &Registry) {
        let request = match completion_request(&p) {
            Ok(r) => r,
            Err(e) => return self.reply_error(id, &e),
        };
        let ctx = match self.context(id, rev, &mut p) {
            Ok(c) => c,
            Err(e) => return self.reply_error(id, &e),
        };
        let found = registry
            .services
            .iter()
            .find_map(|s| s.clone().complete(&request, ctx.clone()));
        let fut: BoxFuture<Result<Value, RpcError>> = match found {
            Some(fut) => Box::pin(async move { fut.await.map(completion_json) }),
            None => Box::pin(async { Ok(completion_json(Completion::default())) }),
        };
        self.drive_value(ctx, fut, false);
    }

    /// Runs a future that yields a whole result object.
    fn drive_value(
        &self,
        ctx: RequestContext,
        fut: BoxFuture<Result<Value, RpcError>>,
        cacheable: bool,
    ) {
        let server = self.server.clone();
        let state = ctx.state.clone();
        drop(ctx);
        self.drive(state, fut, move |outcome, state: &CallState| {
            let outcome = match outcome {
                Ok(r) => r,
                Err(Panicked) => Err(RpcError::internal("Internal error.")),
            };
            match outcome {
                Ok(value) => {
                    let has_meta = value.get("_meta").is_some();
                    let body = Body {
                        json: value.to_string(),
                        has_meta,
                    };
                    let cache = cacheable.then_some(&server.shared.cache);
                    let r = finish_result(body, state.revision, cache, &server.shared.info_json);
                    result_message(&state.request_id, &r)
                }
                Err(e) => error_message(&state.request_id, &e),
            }
        });
    }

    /// Polls `fut` once here; if it is not done, spawns it (cancellable) and answers later.
    fn drive<T, F>(&self, state: Arc<CallState>, mut fut: BoxFuture<T>, finish: F)
    where
        T: Send + 'static,
        F: FnOnce(Result<T, Panicked>, &CallState) -> String + Send + 'static,
    {
        let mut cx = Context::from_waker(Waker::noop());
        match catch_unwind(AssertUnwindSafe(|| fut.as_mut().poll(&mut cx))) {
            Ok(Poll::Ready(value)) => self.emit(finish(Ok(value), &state)),
            Err(payload) => {
                report_panic(&state.request_id, payload.as_ref());
                self.emit(finish(Err(Panicked), &state));
            }
            Ok(Poll::Pending) => {
                let conn = self.shared.clone();
                let key = state.request_id.clone();
                lock(&conn.inflight).insert(key.clone(), state.clone());
                self.shared.runtime.spawn(async move {
                    let outcome = tokio::select! {
                        biased;
                        _ = state.wait_cancelled() => None,
                        r = CatchUnwind(fut) => Some(r),
                    };
                    lock(&conn.inflight).remove(&key);
                    match outcome {
                        Some(Ok(v)) => conn.send(finish(Ok(v), &state)),
                        Some(Err(payload)) => {
                            report_panic(&state.request_id, payload.as_ref());
                            conn.send(finish(Err(Panicked), &state));
                        }
                        None => tracing::debug!(request = %state.request_id, "cancelled"),
                    }
                });
            }
        }
    }
}

/// A result body, and whether it is cacheable (2026-07-28 `ttlMs`/`cacheScope`).
struct Reply(Body, bool);

fn plain(json: &str) -> Body {
    Body {
        json: json.to_owned(),
        has_meta: false,
    }
}

/// Why a line could not be read as a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineProblem {
    InvalidUtf8,
    /// Longer than this many bytes.
    TooLong(usize),
}

/// A handler panicked; its payload went to `tracing`.
pub(crate) struct Panicked;

fn report_panic(request: &str, payload: &(dyn std::any::Any + Send)) {
    let text = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("(no message)");
    tracing::error!(request, panic = text, "handler panicked");
}

/// Polls a future, turning a panic into an `Err` with its payload.
struct CatchUnwind<T>(BoxFuture<T>);

impl<T> Future for CatchUnwind<T> {
    type Output = Result<T, Box<dyn std::any::Any + Send>>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let fut = &mut self.0;
        match catch_unwind(AssertUnwindSafe(|| fut.as_mut().poll(cx))) {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(v)) => Poll::Ready(Ok(v)),
            Err(payload) => Poll::Ready(Err(payload)),
        }
    }
}

fn parse_params(params: Option<&RawValue>) -> Result<Params<'_>, RpcError> {
    match params {
        None => Ok(Params::default()),
        Some(raw) if raw.get().starts_with('{') => serde_json::from_str(raw.get())
            .map_err(|e| RpcError::invalid_params(format!("Invalid params: {e}"))),
        Some(_) => Err(RpcError::invalid_params(
            "Invalid params: params must be an object.",
        )),
    }
}

/// -32700 for text that is not JSON, -32600 for JSON that is not a request object.
fn unreadable(line: &str, e: &serde_json::Error) -> RpcError {
    use serde_json::error::Category;
    match e.classify() {
        Category::Data if line.trim_start().starts_with('[') => RpcError::new(
            code::INVALID_REQUEST,
            "Invalid request: batches are not supported.",
        ),
        Category::Data => RpcError::new(
            code::INVALID_REQUEST,
            "Invalid request: expected a JSON-RPC message object.",
        ),
        _ => RpcError::new(code::PARSE_ERROR, "Parse error."),
    }
}

fn read_error(raw: &RawValue) -> RpcError {
    #[derive(Deserialize)]
    struct E {
        code: i64,
        message: String,
        #[serde(default)]
        data: Option<Value>,
    }
    match serde_json::from_str::<E>(raw.get()) {
        Ok(e) => RpcError {
            code: e.code,
            message: e.message,
            data: e.data,
        },
        Err(_) => RpcError::internal("Unreadable error."),
    }
}

/// Which methods a revision has, and whether the services provide the feature.
fn method_allowed(method: &str, rev: Revision, registry: &Registry) -> Result<(), RpcError> {
    let not_found = || {
        Err(RpcError::new(
            code::METHOD_NOT_FOUND,
            format!("Method not found: {method}"),
        ))
    };
    let known_here = match method {
        "initialize" | "ping" | "logging/setLevel" => !rev.is_stateless(),
        "server/discover" => true,
        "subscriptions/listen" => rev.is_stateless(),
        "tools/list" | "tools/call" => registry.has_tools(),
        "resources/list" | "resources/templates/list" | "resources/read" => {
            registry.has_resources()
        }
        "prompts/list" | "prompts/get" => registry.has_prompts(),
        "completion/complete" => registry.has_completions(),
        _ => false,
    };
    if known_here { Ok(()) } else { not_found() }
}

/// One page of a listing: `{"<key>":[…],"nextCursor":"…"}`. Cursors are opaque offsets.
fn listing_page<S: AsRef<str>>(
    items: &[S],
    cursor: Option<&str>,
    size: usize,
    key: &str,
) -> Result<Reply, RpcError> {
    let start = match cursor {
        None => 0,
        Some(c) => c
            .parse::<usize>()
            .ok()
            .filter(|&n| n <= items.len())
            .ok_or_else(|| RpcError::invalid_params("Invalid params: unknown cursor."))?,
    };
    let end = items.len().min(start.saturating_add(size));
    let mut out = String::with_capacity(
        64 + items[start..end]
            .iter()
            .map(|s| s.as_ref().len() + 1)
            .sum::<usize>(),
    );
    out.push_str("{\"");
    out.push_str(key);
    out.push_str("\":[");
    for (i, item) in items[start..end].iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(item.as_ref());
    }
    out.push(']');
    if end < items.len() {
        out.push_str(&format!(r#","nextCursor":"{end}""#));
    }
    out.push('}');
    Ok(Reply(
        Body {
            json: out,
            has_meta: false,
        },
        true,
    ))
}

fn completion_request(p: &Params<'_>) -> Result<CompletionRequest, RpcError> {
    let bad = |what: &str| RpcError::invalid_params(format!("Invalid params: {what}."));
    let reference = p.reference.as_ref().ok_or_else(|| bad("ref is required"))?;
    let ref_type = reference
        .get("type")
        .and_then(Value::as_str)
        .ok_or_else(|| bad("ref.type is required"))?;
    let ref_name = match ref_type {
        "ref/prompt" => reference.get("name"),
        "ref/resource" => reference.get("uri"),
        _ => return Err(bad("ref.type must be ref/prompt or ref/resource")),
    }
    .and_then(Value::as_str)
    .ok_or_else(|| bad("ref needs a name or uri"))?;
    let argument = p
        .argument
        .as_ref()
        .ok_or_else(|| bad("argument is required"))?;
    let arg = |k: &str| argument.get(k).and_then(Value::as_str).map(str::to_owned);
    Ok(CompletionRequest {
        ref_type: ref_type.to_owned(),
        ref_name: ref_name.to_owned(),
        argument_name: arg("name").ok_or_else(|| bad("argument.name is required"))?,
        argument_value: arg("value").ok_or_else(|| bad("argument.value is required"))?,
        context_arguments: p
            .context
            .as_ref()
            .and_then(|c| c.get("arguments"))
            .and_then(Value::as_object)
            .cloned(),
    })
}

/// `{"completion":{"values":[…],"total":n,"hasMore":b}}`, at most 100 values.
fn completion_json(c: Completion) -> Value {
    let truncated = c.values.len() > 100;
    let values: Vec<String> = c.values.into_iter().take(100).collect();
    let mut completion = serde_json::Map::new();
    completion.insert("values".into(), values.into());
    if let Some(t) = c.total {
        completion.insert("total".into(), t.into());
    }
    if c.has_more || truncated {
        completion.insert("hasMore".into(), true.into());
    }
    serde_json::json!({ "completion": completion })
}
