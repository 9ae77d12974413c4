//! One client connection: reads messages, dispatches them, writes replies to an outbox.
//!
//! A handler's future is polled once in place; a call that completes at once (the common
//! case) is answered without spawning a task. Only pending calls become tasks, and only
//! they are registered for cancellation.

mod drive;
mod methods;
mod mrtr;
mod params;
pub(crate) mod shutdown;
pub(crate) mod tasks;

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64};
use std::sync::{Arc, Mutex, OnceLock};

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;
use tokio::sync::{mpsc, oneshot};

use crate::output::{Body, finish_result};
use crate::peer::{ConnShared, Identity, NO_LOGS, Route, lock, send_routed};
use crate::protocol::LogLevel;
use crate::protocol::Revision;
use crate::protocol::{self, Incoming, RpcError, code, error_message, result_message};
use crate::protocol::{Method, Needs, Notification};
use crate::server::{Kind, Registry, Server};
#[cfg(feature = "otel")]
use crate::telemetry::{RequestInfo, RequestSpan, SessionClock};
use params::{Params, parse_params};

/// The receiving end of a connection's outbox: one JSON message per item (several, joined by
/// `\n`, when batching is on).
pub type Outbox = mpsc::UnboundedReceiver<String>;

/// A connection to one client. Feed it lines with [`Connection::handle_line`]; read
/// replies from the [`Outbox`] returned by [`Connection::new`].
pub struct Connection {
    server: Server,
    shared: Arc<ConnShared>,
    /// Replies produced on the reading thread, joined by newlines, when batching is on.
    batch: Option<RefCell<String>>,
    /// The stream of the message being handled, when the transport gives each request its
    /// own (HTTP); see [`Route`].
    route: RefCell<Option<Route>>,
    /// Who sent the message being handled, as its transport handed it over (see
    /// [`Identity`]).
    identity: RefCell<Identity>,
    /// The span of the request being handled, until its reply is emitted or a pending call
    /// takes it along (see [`crate::telemetry`]).
    #[cfg(feature = "otel")]
    telemetry: RefCell<Option<Box<RequestSpan>>>,
    /// When the connection opened, for `mcp.server.session.duration`.
    #[cfg(feature = "otel")]
    clock: SessionClock,
}

/// A batch is handed to the outbox once it holds this many bytes, even mid-input.
const BATCH_LIMIT: usize = 64 * 1024;

/// The revisions a request may name in `_meta` (the stateless ones).
const PER_REQUEST_REVISIONS: [&str; 1] = [Revision::V2026_07_28.as_str()];

impl Connection {
    /// A new connection to `server`. Spawned handler tasks run on `runtime`.
    pub fn new(server: &Server, runtime: tokio::runtime::Handle) -> (Connection, Outbox) {
        let (conn, outbox) = Connection::untracked(server, runtime);
        server.track(&conn.shared);
        (conn, outbox)
    }

    /// A connection that serves one request only (stateless HTTP). It offers no
    /// `resources/subscribe`, whose subscription would outlive it, and the server tracks it
    /// for change notifications only once it serves `subscriptions/listen`: a plain call
    /// takes no server-wide lock.
    #[cfg(feature = "http")]
    pub(crate) fn one_request(
        server: &Server,
        runtime: tokio::runtime::Handle,
    ) -> (Connection, Outbox) {
        let (conn, outbox) = Connection::untracked(server, runtime);
        conn.shared
            .ephemeral
            .store(true, std::sync::atomic::Ordering::Relaxed);
        (conn, outbox)
    }

    fn untracked(server: &Server, runtime: tokio::runtime::Handle) -> (Connection, Outbox) {
        let (tx, rx) = mpsc::unbounded_channel();
        let shared = Arc::new(ConnShared {
            out: tx,
            session: OnceLock::new(),
            log_level: AtomicU8::new(NO_LOGS),
            inflight: Mutex::new(HashMap::new()),
            slot_freed: std::sync::Condvar::new(),
            pending: Mutex::new(Some(HashMap::new())),
            next_request: AtomicU64::new(1),
            subscriptions: Mutex::new(Vec::new()),
            resource_subscriptions: Mutex::new(HashSet::new()),
            ephemeral: AtomicBool::new(false),
            draining: AtomicBool::new(false),
            aborting: AtomicBool::new(false),
            runtime,
        });
        (
            Connection {
                server: server.clone(),
                shared,
                batch: None,
                route: RefCell::new(None),
                identity: RefCell::new(Identity::default()),
                #[cfg(feature = "otel")]
                telemetry: RefCell::new(None),
                #[cfg(feature = "otel")]
                clock: SessionClock::new(),
            },
            rx,
        )
    }

    /// The state shared with handlers' contexts (the testing module builds contexts on it).
    pub(crate) fn shared(&self) -> &Arc<ConnShared> {
        &self.shared
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

    /// Sends a reply produced on this thread: to the request's route, into the batch, or
    /// straight to the outbox.
    fn emit(&self, message: String) {
        #[cfg(feature = "otel")]
        if let Some(span) = self.telemetry.borrow_mut().take() {
            span.finish(Some(&message));
        }
        if let Some(route) = &*self.route.borrow() {
            return send_routed(route, message, true);
        }
        let draining = self
            .shared
            .draining
            .load(std::sync::atomic::Ordering::Relaxed);
        let Some(batch) = self.batch.as_ref().filter(|_| !draining) else {
            self.flush();
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

    /// Handles one message whose reply and request-scoped messages go to `route` (HTTP:
    /// the POST's response) rather than to the outbox.
    #[cfg(feature = "http")]
    pub(crate) fn handle_routed(&self, message: &str, route: Route, identity: Identity) {
        self.with_route(route, identity, |c| c.handle_line(message))
    }

    /// Runs `f` with `route` as the stream of what it handles (see [`Route`]) and
    /// `identity` as who sent it (see [`Identity`]).
    #[cfg(feature = "http")]
    pub(crate) fn with_route<T>(
        &self,
        route: Route,
        identity: Identity,
        f: impl FnOnce(&Connection) -> T,
    ) -> T {
        *self.route.borrow_mut() = Some(route);
        *self.identity.borrow_mut() = identity;
        let out = f(self);
        *self.route.borrow_mut() = None;
        *self.identity.borrow_mut() = Identity::default();
        out
    }

    /// Who sent the message being handled.
    fn identity(&self) -> Identity {
        self.identity.borrow().clone()
    }

    /// Serves handshake-revision requests without `initialize` (stateless HTTP): as if
    /// `initialize` had negotiated `revision` with a client that declared no capabilities.
    #[cfg(feature = "http")]
    pub(crate) fn assume_session(&self, revision: Revision) {
        let _ = self.shared.session.set(crate::peer::Session {
            revision,
            client_info: Value::Null,
            client_capabilities: Value::Object(Default::default()),
        });
    }

    /// Cancels every call in flight and closes every `subscriptions/listen` stream and
    /// resource subscription (the client went away, or its session ended).
    #[cfg(feature = "http")]
    pub(crate) fn cancel_all(&self) {
        let calls: Vec<_> = lock(&self.shared.inflight).values().cloned().collect();
        for call in calls {
            call.cancel();
        }
        lock(&self.shared.subscriptions).clear();
        lock(&self.shared.resource_subscriptions).clear();
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
            LineProblem::TooLong(limit) => too_long(limit),
        };
        self.emit(error_message("null", &error));
    }

    /// Answers a message that was over the transport's size limit and skipped, from what
    /// `scanned` read of it as it went by: `-32600` with the request's id when it has a
    /// readable one, else without an id (as [`Connection::reject_line`] does).
    ///
    /// A response from the client (`result` or `error`, no `method`) is not answered with
    /// its id, which names the server's own request: that request fails with `-32603` now
    /// instead of waiting for an answer that will not come, and the client gets the error
    /// without an id.
    pub(crate) fn reject_long_message(&self, limit: usize, scanned: protocol::IdScanner) {
        let response = scanned.is_response();
        let id = scanned.finish();
        if response {
            if let Some(tx) = id.as_deref().and_then(|id| self.take_pending(id)) {
                let _ = tx.send(Err(RpcError::internal(format!(
                    "The client's response is longer than {limit} bytes."
                ))));
            }
            return self.reply_error("null", &too_long(limit));
        }
        self.reply_error(id.as_deref().unwrap_or("null"), &too_long(limit));
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
        match serde_json::from_str::<Incoming>(line) {
            Ok(msg) => self.handle_message(msg),
            Err(_) => {
                let (id, error) = unreadable(line);
                self.reply_error(id.as_deref().unwrap_or("null"), &error)
            }
        }
    }

    /// Handles one message the transport has parsed already (HTTP reads each body once).
    #[cfg(feature = "http")]
    pub(crate) fn handle_routed_message(
        &self,
        msg: Incoming<'_>,
        route: Route,
        identity: Identity,
    ) {
        self.with_route(route, identity, |c| c.handle_message(msg))
    }

    fn handle_message(&self, msg: Incoming<'_>) {
        let id_text = msg
            .id
            .filter(|id| protocol::valid_id(id))
            .map(RawValue::get);
        if msg.jsonrpc.as_deref() != Some("2.0") {
            let e = RpcError::new(
                code::INVALID_REQUEST,
                "Invalid request: jsonrpc must be \"2.0\".",
            );
            return self.reply_error(id_text.unwrap_or("null"), &e);
        }
        match (msg.method, msg.id) {
            (Some(method), Some(_)) => match id_text {
                Some(id) => {
                    // Last line of defence: a panic that escapes a method (a service's
                    // listing or lookup, say) must not end the reading loop or lose the reply.
                    let served =
                        catch_unwind(AssertUnwindSafe(|| self.request(id, &method, msg.params)));
                    if let Err(payload) = served {
                        drive::report_panic(id, payload.as_ref());
                        self.reply_error(id, &RpcError::internal("Internal error."));
                    }
                }
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

    /// What a transport holds to end this connection's calls at a shutdown without keeping
    /// the connection alive (its outbox closes once the connection and its calls are gone).
    pub(crate) fn downgrade(&self) -> std::sync::Weak<ConnShared> {
        Arc::downgrade(&self.shared)
    }

    /// Ends the connection's input: requests waiting for the client fail; calls in flight
    /// finish and the outbox closes once the last one has answered.
    pub fn close(self) {
        self.flush();
        lock(&self.shared.pending).take();
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
        #[cfg(feature = "otel")]
        if let Some(span) = self.start_span(None, method, Some(&p)) {
            span.span().in_scope(|| self.serve_notification(method, &p));
            return span.finish(None);
        }
        self.serve_notification(method, &p);
    }

    fn serve_notification(&self, method: &str, p: &Params<'_>) {
        match Notification::parse(method) {
            Some(Notification::Cancelled) => {
                let Some(target) = p.request_id else { return };
                let state = lock(&self.shared.inflight).get(target.get()).cloned();
                if let Some(state) = state {
                    state.cancel();
                }
                // Cancelling a `subscriptions/listen` request closes that stream.
                lock(&self.shared.subscriptions).retain(|s| *s.id != *target.get());
            }
            Some(Notification::Initialized) => tracing::debug!("client initialized"),
            None => tracing::debug!(method, "notification ignored"),
        }
    }

    /// The waiting server request whose id (`"s<n>"`) is `id`, taken out of the table.
    fn take_pending(&self, id: &str) -> Option<oneshot::Sender<Result<Value, RpcError>>> {
        let n = id
            .strip_prefix("\"s")
            .and_then(|s| s.strip_suffix('"'))
            .and_then(|s| s.parse::<u64>().ok())?;
        lock(&self.shared.pending).as_mut()?.remove(&n)
    }

    fn client_response(&self, id: &RawValue, result: Option<&RawValue>, error: Option<&RawValue>) {
        let Some(tx) = self.take_pending(id.get()) else {
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

    fn request(&self, id: &str, name: &str, params: Option<&RawValue>) {
        let p = parse_params(params);
        #[cfg(feature = "otel")]
        if let Some(span) = self.start_span(Some(id), name, p.as_ref().ok()) {
            let entered = span.span().clone();
            *self.telemetry.borrow_mut() = Some(Box::new(span));
            {
                let _in = entered.enter();
                self.serve(id, name, p);
            }
            // A request answered by no reply of its own (a `subscriptions/listen` stream).
            if let Some(span) = self.telemetry.borrow_mut().take() {
                span.finish(None);
            }
            return;
        }
        self.serve(id, name, p)
    }

    /// The span of a request (`id`) or notification, started as it is read; `None` when
    /// nothing would record it.
    #[cfg(feature = "otel")]
    fn start_span(
        &self,
        id: Option<&str>,
        method: &str,
        p: Option<&Params<'_>>,
    ) -> Option<RequestSpan> {
        let telemetry = &self.server.shared.telemetry;
        if !telemetry.active() {
            return None;
        }
        let meta = p.and_then(|p| p.meta.as_ref());
        let http = self.identity.borrow().http.clone();
        self.clock.saw(http.as_deref());
        RequestSpan::start(
            telemetry,
            RequestInfo {
                method,
                id,
                name: p.and_then(|p| p.name.as_deref()),
                uri: p.and_then(|p| p.uri.as_deref()),
                arguments: p.and_then(|p| p.arguments).map(RawValue::get),
                meta: [
                    meta.and_then(|m| m.traceparent.as_deref()),
                    meta.and_then(|m| m.tracestate.as_deref()),
                    meta.and_then(|m| m.baggage.as_deref()),
                ],
                http: http.as_deref(),
            },
        )
    }

    fn serve(&self, id: &str, name: &str, p: Result<Params<'_>, RpcError>) {
        if self
            .shared
            .draining
            .load(std::sync::atomic::Ordering::Relaxed)
        {
            return self.reply_error(id, &shutting_down());
        }
        // The one place a method's name is matched.
        let method = Method::parse(name);
        let p = match p {
            Ok(p) => p,
            Err(e) => return self.reply_error(id, &e),
        };
        let rev = match self.revision_for(method, &p) {
            Ok(r) => r,
            Err(e) => return self.reply_error(id, &e),
        };
        #[cfg(feature = "otel")]
        if let Some(span) = &mut *self.telemetry.borrow_mut() {
            span.revision(rev.as_str());
        }
        let registry = self.server.registry();
        let ephemeral = self
            .shared
            .ephemeral
            .load(std::sync::atomic::Ordering::Relaxed);
        let exists = |m: &Method| method_exists(*m, rev, &registry, &self.server, ephemeral);
        let Some(method) = method.filter(exists) else {
            let e = RpcError::new(code::METHOD_NOT_FOUND, format!("Method not found: {name}"));
            return self.reply_error(id, &e);
        };
        if method.calls_handler() && self.busy() {
            return self.reply_error(id, &busy());
        }
        let outcome = match method {
            Method::Initialize => self.initialize(&p, &registry),
            Method::Ping => Ok(Reply(plain("{}"), false)),
            Method::Discover => Ok(self.discover(&registry)),
            Method::SetLevel => self.set_level(&p),
            Method::ListTools => self.listing_page(
                registry.tool_listings(rev),
                registry.tool_scopes(),
                p.cursor.as_deref(),
                "tools",
            ),
            Method::ListResources => self.list(&registry, Kind::Resources, rev, &p, "resources"),
            Method::ListTemplates => {
                self.list(&registry, Kind::Templates, rev, &p, "resourceTemplates")
            }
            Method::ListPrompts => self.list(&registry, Kind::Prompts, rev, &p, "prompts"),
            Method::CallTool => return self.call_tool(id, rev, p, &registry),
            Method::ReadResource => return self.read_resource(id, rev, p, &registry),
            Method::GetPrompt => return self.get_prompt(id, rev, p, &registry),
            Method::Complete => return self.complete(id, rev, p, &registry),
            Method::Listen => return self.listen(id, &p, &registry),
            Method::Subscribe => self.subscribe(&p, &registry),
            Method::Unsubscribe => self.unsubscribe(&p),
            Method::GetTask | Method::UpdateTask | Method::CancelTask => {
                return self.task_method(id, rev, method, p);
            }
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

    /// Backpressure for a transport that can wait (stdio): while the connection runs as
    /// many calls as the server allows, blocks (after flushing what is batched) until one
    /// ends, for at most `patience`; then the next message is handled anyway (a request
    /// gets `-32000`), so a client whose calls all wait on its own answers is still read.
    pub(crate) fn wait_for_slot(&self, patience: std::time::Duration) {
        let max = self.server.shared.max_pending_calls;
        if lock(&self.shared.inflight).len() < max {
            return;
        }
        self.flush();
        let calls = lock(&self.shared.inflight);
        let _ = self
            .shared
            .slot_freed
            .wait_timeout_while(calls, patience, |calls| calls.len() >= max);
    }

    /// Whether the connection already runs as many pending calls as the server allows.
    fn busy(&self) -> bool {
        lock(&self.shared.inflight).len() >= self.server.shared.max_pending_calls
    }

    fn revision_after(&self, method: Method, rev: Revision) -> Revision {
        if method == Method::Initialize {
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
    fn revision_for(&self, method: Option<Method>, p: &Params<'_>) -> Result<Revision, RpcError> {
        if let Some(meta) = &p.meta
            && let Some(requested) = &meta.protocol_version
        {
            return match Revision::parse(requested).filter(|r| r.is_stateless()) {
                // `ClientCapabilities` is an object; `logLevel`, when sent, a `LoggingLevel`.
                Some(_) if !meta.client_capabilities.as_ref().is_some_and(|c| c.is_object()) => {
                    Err(RpcError::invalid_params(
                        "Invalid params: _meta must carry io.modelcontextprotocol/clientCapabilities.",
                    ))
                }
                Some(_)
                    if meta
                        .log_level
                        .as_deref()
                        .is_some_and(|l| LogLevel::parse(l).is_none()) =>
                {
                    Err(RpcError::invalid_params(
                        "Invalid params: unknown _meta logLevel.",
                    ))
                }
                Some(r) => Ok(r),
                None => Err(RpcError::new(code::UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version")
                    .with_data(serde_json::json!({ "supported": PER_REQUEST_REVISIONS, "requested": requested }))),
            };
        }
        match (self.shared.session(), method) {
            (_, Some(Method::Discover)) => Ok(Revision::V2026_07_28),
            (Some(s), _) => Ok(s.revision),
            (None, Some(m)) if m.before_session() => Ok(Revision::NEWEST_HANDSHAKE),
            (None, _) => Err(RpcError::new(
                code::INVALID_REQUEST,
                "Invalid request: send initialize first, or name protocol version 2026-07-28 in the request's _meta.",
            )),
        }
    }
}

/// A session ends with its connection: `mcp.server.session.duration` (not for a connection
/// that serves one request only, or whose client never initialized).
#[cfg(feature = "otel")]
impl Drop for Connection {
    fn drop(&mut self) {
        let ephemeral = self
            .shared
            .ephemeral
            .load(std::sync::atomic::Ordering::Relaxed);
        if let (false, Some(session)) = (ephemeral, self.shared.session()) {
            self.clock
                .end(&self.server.shared.telemetry, session.revision.as_str());
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

fn busy() -> RpcError {
    RpcError::new(
        code::SERVER_BUSY,
        "Server busy: too many calls in flight on this connection; retry later.",
    )
}

/// -32000 for a request that arrives while the server shuts down.
pub(crate) fn shutting_down() -> RpcError {
    RpcError::new(
        code::SERVER_BUSY,
        "Server shutting down: no new requests are accepted; retry later.",
    )
}

/// -32000 for a call still running at the shutdown's deadline, cancelled.
pub(crate) fn cancelled_by_shutdown() -> RpcError {
    RpcError::new(
        code::SERVER_BUSY,
        "Server shutting down: the call was cancelled before it finished.",
    )
}

/// `-32600` for a message over a transport's size limit.
fn too_long(limit: usize) -> RpcError {
    RpcError::new(
        code::INVALID_REQUEST,
        format!("Invalid request: the message is longer than {limit} bytes."),
    )
}

/// Why a line could not be read as a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineProblem {
    /// Not UTF-8.
    InvalidUtf8,
    /// Longer than this many bytes.
    TooLong(usize),
}

/// -32700 for text that is not JSON, -32600 for JSON that is not a readable request object,
/// with the request's id when the line has a usable one (serde_json gives up at the first
/// member of the wrong type, `"method": 5`, before it may have seen the id).
fn unreadable(line: &str) -> (Option<String>, RpcError) {
    let id = match protocol::scan(line) {
        protocol::Scanned::NotJson => {
            return (None, RpcError::new(code::PARSE_ERROR, "Parse error."));
        }
        protocol::Scanned::Array => {
            let e = RpcError::new(
                code::INVALID_REQUEST,
                "Invalid request: batches are not supported.",
            );
            return (None, e);
        }
        protocol::Scanned::Json { id } => id,
    };
    let e = RpcError::new(
        code::INVALID_REQUEST,
        "Invalid request: expected a JSON-RPC message object.",
    );
    (id, e)
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

/// Whether `method` exists on this request: its revision has it, and the services (or the
/// server) provide what it needs.
fn method_exists(
    method: Method,
    rev: Revision,
    registry: &Registry,
    server: &Server,
    ephemeral: bool,
) -> bool {
    method.in_revision(rev)
        && match method.needs() {
            Needs::Nothing => true,
            Needs::Tools => registry.has_tools(),
            Needs::Resources => registry.has_resources(),
            Needs::Prompts => registry.has_prompts(),
            Needs::Completions => registry.has_completions(),
            Needs::Subscriptions => !ephemeral && server.has_subscriptions(registry),
            Needs::TaskTools => server.has_task_tools(registry),
        }
}
