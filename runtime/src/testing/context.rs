//! A [`RequestContext`] for unit tests, recording what the handler sends through it.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use serde_json::Value;
use tokio::sync::Notify;

use crate::connection::{Connection, Outbox};
use crate::context::RequestContext;
use crate::peer::{CallState, Session, lock};
use crate::protocol::{LogLevel, Revision};
use crate::server::Server;

/// The context of one pretend request, for calling a handler method directly.
///
/// By default it is a 2025-11-25 request with a progress token, from a client that asked for
/// every log message and declared no capabilities, on a server with no services. The
/// handler's progress and log messages are recorded ([`progress`](TestContext::progress),
/// [`logs`](TestContext::logs)); [`cancel`](TestContext::cancel) cancels it as a client's
/// `notifications/cancelled` would.
///
/// Requests to the client (`ctx.elicit`, `ctx.create_message`, `ctx.list_roots`) fail at once
/// with -32021 (no capability declared) here; test those through [`Client`](super::Client),
/// whose [`on_request`](super::ClientBuilder::on_request) answers them.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")] async fn main() {
/// use toolidl_runtime::{LogLevel, testing::TestContext};
///
/// let ctx = TestContext::new();
/// // What a handler does with its context:
/// let handler_ctx = ctx.context();
/// handler_ctx.progress(1.0, Some(2.0), Some("half way"));
/// handler_ctx.log(LogLevel::Info, Some("import"), "3 notes read");
///
/// assert_eq!(ctx.progress()[0].total, Some(2.0));
/// assert_eq!(ctx.logs()[0].data, "3 notes read");
/// # }
/// ```
///
/// # Panics
///
/// [`TestContext::new`] and [`TestContextBuilder::build`] must run inside a Tokio runtime
/// (`#[tokio::test]`), like everything that spawns or times.
pub struct TestContext {
    ctx: RequestContext,
    outbox: Mutex<Outbox>,
    /// Every message the context sent so far, in order, parsed.
    sent: Mutex<Vec<Value>>,
}

/// One `notifications/progress` a handler sent.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    /// `progress`.
    pub progress: f64,
    /// `total`, when sent.
    pub total: Option<f64>,
    /// `message`, when sent (2025-03-26 and later).
    pub message: Option<String>,
}

/// One `notifications/message` (a log message) a handler sent.
#[derive(Debug, Clone, PartialEq)]
pub struct LogMessage {
    /// The level.
    pub level: LogLevel,
    /// `logger`, when sent.
    pub logger: Option<String>,
    /// `data`.
    pub data: Value,
}

impl TestContext {
    /// A context with the defaults described on [`TestContext`].
    pub fn new() -> TestContext {
        TestContext::builder().build()
    }

    /// A context with other settings.
    pub fn builder() -> TestContextBuilder {
        TestContextBuilder {
            revision: Revision::NEWEST_HANDSHAKE,
            server: None,
            client_info: serde_json::json!({"name": "toolidl-test", "version": "0"}),
            client_capabilities: serde_json::json!({}),
            log_level: Some(LogLevel::Debug),
            progress: true,
            input_responses: None,
            request_state: None,
            #[cfg(feature = "auth")]
            auth: None,
        }
    }

    /// The context to hand to the handler (a clone: give out as many as needed).
    pub fn context(&self) -> RequestContext {
        self.ctx.clone()
    }

    /// Cancels the request, as the client's `notifications/cancelled` would:
    /// `ctx.is_cancelled()` turns true and `ctx.cancelled()` completes.
    pub fn cancel(&self) {
        self.ctx.state.cancel();
    }

    /// Every message the handler sent through the context so far (notifications, requests
    /// to the client), as JSON-RPC messages.
    pub fn messages(&self) -> Vec<Value> {
        let mut sent = lock(&self.sent);
        let mut outbox = lock(&self.outbox);
        while let Ok(text) = outbox.try_recv() {
            sent.extend(text.lines().filter_map(|l| serde_json::from_str(l).ok()));
        }
        sent.clone()
    }

    /// The `params` of every message with `method`, in order.
    fn params_of(&self, method: &str) -> Vec<Value> {
        self.messages()
            .into_iter()
            .filter(|m| m["method"] == method)
            .map(|mut m| m["params"].take())
            .collect()
    }

    /// The progress notifications sent so far, in order.
    pub fn progress(&self) -> Vec<Progress> {
        self.params_of("notifications/progress")
            .into_iter()
            .map(|p| Progress {
                progress: p["progress"].as_f64().unwrap_or(f64::NAN),
                total: p["total"].as_f64(),
                message: p["message"].as_str().map(str::to_owned),
            })
            .collect()
    }

    /// The log messages sent so far, in order (those at or above the client's level; see
    /// [`TestContextBuilder::log_level`]).
    pub fn logs(&self) -> Vec<LogMessage> {
        self.params_of("notifications/message")
            .into_iter()
            .filter_map(|mut p| {
                Some(LogMessage {
                    level: LogLevel::parse(p["level"].as_str()?)?,
                    logger: p["logger"].as_str().map(str::to_owned),
                    data: p["data"].take(),
                })
            })
            .collect()
    }
}

impl Default for TestContext {
    fn default() -> Self {
        TestContext::new()
    }
}

/// Settings of a [`TestContext`]; from [`TestContext::builder`].
#[must_use]
pub struct TestContextBuilder {
    revision: Revision,
    server: Option<Server>,
    client_info: Value,
    client_capabilities: Value,
    log_level: Option<LogLevel>,
    progress: bool,
    input_responses: Option<Value>,
    request_state: Option<String>,
    #[cfg(feature = "auth")]
    auth: Option<crate::auth::AuthInfo>,
}

impl TestContextBuilder {
    /// The revision the request is served under (default 2025-11-25).
    pub fn revision(mut self, revision: Revision) -> Self {
        self.revision = revision;
        self
    }

    /// The server `ctx.server()` returns (default: one with no services), for handlers that
    /// announce changes or add services.
    pub fn server(mut self, server: &Server) -> Self {
        self.server = Some(server.clone());
        self
    }

    /// The client's `Implementation` (`ctx.client_info()`).
    pub fn client_info(mut self, info: Value) -> Self {
        self.client_info = info;
        self
    }

    /// The client's capabilities (`ctx.client_capabilities()`, `ctx.client_supports(…)`);
    /// default `{}`.
    pub fn client_capabilities(mut self, capabilities: Value) -> Self {
        self.client_capabilities = capabilities;
        self
    }

    /// The lowest level the client asked for (default `Some(LogLevel::Debug)`: every
    /// message is recorded); `None`: the client asked for none, so none is sent.
    pub fn log_level(mut self, level: Option<LogLevel>) -> Self {
        self.log_level = level;
        self
    }

    /// Whether the request carries a progress token (default true); without one,
    /// `ctx.progress(…)` sends nothing.
    pub fn progress_token(mut self, present: bool) -> Self {
        self.progress = present;
        self
    }

    /// 2026-07-28: the `inputResponses` of a retried request (`ctx.input_response(key)`).
    pub fn input_responses(mut self, responses: Value) -> Self {
        self.input_responses = Some(responses);
        self
    }

    /// 2026-07-28: the `requestState` of a retried request (`ctx.request_state()`): the
    /// handler's own plain state, as the runtime hands it over once it has opened and checked
    /// the sealed one the client sent back.
    pub fn request_state(mut self, state: impl Into<String>) -> Self {
        self.request_state = Some(state.into());
        self
    }

    /// The verified access token the request carried (`ctx.auth()`).
    #[cfg(feature = "auth")]
    pub fn auth(mut self, auth: crate::auth::AuthInfo) -> Self {
        self.auth = Some(auth);
        self
    }

    /// The context.
    ///
    /// # Panics
    ///
    /// Outside a Tokio runtime.
    pub fn build(self) -> TestContext {
        let server = self
            .server
            .unwrap_or_else(|| Server::builder("toolidl-test", "0").build());
        let (conn, outbox) = Connection::new(&server, tokio::runtime::Handle::current());
        let shared = Arc::clone(conn.shared());
        let stateless = self.revision.is_stateless();
        if !stateless {
            let _ = shared.session.set(Session {
                revision: self.revision,
                client_info: self.client_info.clone(),
                client_capabilities: self.client_capabilities.clone(),
            });
            shared.set_log_level(self.log_level);
        }
        let state = CallState {
            conn: shared,
            revision: self.revision,
            request_id: "1".into(),
            progress_token: self.progress.then(|| "\"test\"".into()),
            log_level: self.log_level.filter(|_| stateless),
            client_info: stateless.then_some(self.client_info),
            client_capabilities: stateless.then_some(self.client_capabilities),
            input_responses: self.input_responses,
            // The handler's own state, as the runtime hands it over once opened.
            request_state: self.request_state,
            origin: None,
            cancelled: AtomicBool::new(false),
            cancel_signal: Notify::new(),
            route: None,
            #[cfg(feature = "auth")]
            auth: self.auth.map(Arc::new),
        };
        // Nothing is read from the connection; its outbox is what the context sends to.
        // Closed, so that a request to the client fails at once instead of waiting forever.
        conn.close();
        TestContext {
            ctx: RequestContext {
                state: Arc::new(state),
                server,
            },
            outbox: Mutex::new(outbox),
            sent: Mutex::new(Vec::new()),
        }
    }
}
