//! The peer: the outgoing half of a connection, which handlers' contexts share: the outbox
//! sender, the session, the log level, calls in flight, requests to the client and
//! subscriptions. It knows nothing of the server or the dispatcher above it.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::Value;
use tokio::sync::{Notify, mpsc, oneshot};

use crate::protocol::{self, LogLevel, Revision, RpcError};

/// What `initialize` established (handshake revisions only).
pub(crate) struct Session {
    pub revision: Revision,
    pub client_info: Value,
    pub client_capabilities: Value,
}

/// Requests to the client by number, each with the sender its answer goes to.
pub(crate) type Waiting = HashMap<u64, oneshot::Sender<Result<Value, RpcError>>>;

/// Per-call state shared by the handler's context and the runtime.
pub(crate) struct CallState {
    pub conn: Arc<ConnShared>,
    pub revision: Revision,
    /// The request id, raw JSON.
    pub request_id: Box<str>,
    /// `_meta.progressToken`, raw JSON.
    pub progress_token: Option<Box<str>>,
    /// 2026-07-28: the per-request `logLevel`; `None` means no log messages.
    pub log_level: Option<LogLevel>,
    /// 2026-07-28: per-request client info and capabilities (handshake revisions use the session's).
    pub client_info: Option<Value>,
    pub client_capabilities: Option<Value>,
    /// 2026-07-28 multi round-trip: `inputResponses` and the handler's own `requestState`
    /// (opened and checked) of a retry.
    pub input_responses: Option<Value>,
    pub request_state: Option<String>,
    /// 2026-07-28 `tools/call`, `prompts/get` and `resources/read`: the request, to which the
    /// `requestState` of an `input_required` result is bound when it is sealed.
    pub origin: Option<crate::seal::Origin>,
    pub cancelled: AtomicBool,
    pub cancel_signal: Notify,
    /// The request's own stream (HTTP), else the connection's outbox.
    pub route: Option<Route>,
    /// The request's verified access token (HTTP with authorization).
    #[cfg(feature = "auth")]
    pub auth: Option<Arc<crate::auth::AuthInfo>>,
}

impl CallState {
    /// Sends a message that belongs to this request (a notification, a request to the client).
    pub fn send(&self, message: String) {
        match &self.route {
            Some(route) => send_routed(route, message, false),
            None => self.conn.send(message),
        }
    }

    /// Sends this request's reply.
    pub fn send_reply(&self, message: String) {
        match &self.route {
            Some(route) => send_routed(route, message, true),
            None => self.conn.send(message),
        }
    }

    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Release);
        self.cancel_signal.notify_waiters();
    }

    pub async fn wait_cancelled(&self) {
        let notified = self.cancel_signal.notified();
        if self.cancelled.load(Ordering::Acquire) {
            return;
        }
        notified.await;
    }
}

/// Connection state shared with handlers' contexts.
pub(crate) struct ConnShared {
    pub(crate) out: mpsc::UnboundedSender<String>,
    pub(crate) session: OnceLock<Session>,
    /// `logging/setLevel`: index into `LogLevel::ALL`, or `NO_LOGS`.
    pub(crate) log_level: AtomicU8,
    pub(crate) inflight: Mutex<HashMap<Box<str>, Arc<CallState>>>,
    /// Signalled when a call leaves `inflight` (stdio waits on it at the limit).
    pub(crate) slot_freed: std::sync::Condvar,
    /// Requests to the client awaiting its response; `None` once the input has ended.
    pub(crate) pending: Mutex<Option<Waiting>>,
    pub(crate) next_request: AtomicU64,
    /// 2026-07-28 `subscriptions/listen` streams open on this connection.
    pub(crate) subscriptions: Mutex<Vec<Subscription>>,
    /// Handshake revisions: the resource URIs `resources/subscribe` named.
    pub(crate) resource_subscriptions: Mutex<HashSet<Box<str>>>,
    /// Served by at most one request (stateless HTTP): a `resources/subscribe` would outlive
    /// the connection, so it is not offered.
    pub(crate) ephemeral: std::sync::atomic::AtomicBool,
    /// Shutting down: requests are refused (notifications and responses still get through).
    pub(crate) draining: AtomicBool,
    /// Past the shutdown's deadline: a call cancelled now is answered with an error.
    pub(crate) aborting: AtomicBool,
    pub(crate) runtime: tokio::runtime::Handle,
}

/// An open `subscriptions/listen` request and the list changes it agreed to carry.
pub(crate) struct Subscription {
    /// The listen request's id, raw JSON.
    pub(crate) id: Box<str>,
    pub(crate) kinds: Vec<ListKind>,
    /// The resource URIs of `resourceSubscriptions` it agreed to carry updates of.
    pub(crate) resources: Vec<Box<str>>,
    /// Where the request's stream goes (HTTP: its response), else the outbox.
    pub(crate) route: Option<Route>,
}

/// A message for one request's own stream (an HTTP response), and whether it is the
/// request's final reply.
#[cfg_attr(not(feature = "http"), allow(dead_code))]
pub(crate) struct Routed {
    pub text: String,
    pub reply: bool,
}

/// The sender of one request's stream. A transport that answers each request on its own
/// stream (HTTP) sets it while it hands the connection that request; the request's reply,
/// and everything its handler sends (progress, log messages, requests to the client), go
/// there instead of to the outbox.
pub(crate) type Route = mpsc::UnboundedSender<Routed>;

/// Who sent the message a connection is handling, as the transport verified it (HTTP with
/// authorization): handed over with the message, then copied into each call's state, so
/// that handlers see it on their [`RequestContext`](crate::RequestContext) and the tasks
/// and `requestState`s a request creates are bound to its principal. Empty over stdio and
/// without the `auth` feature.
#[derive(Clone, Default)]
pub(crate) struct Identity {
    /// The request's verified access token.
    #[cfg(feature = "auth")]
    pub auth: Option<Arc<crate::auth::AuthInfo>>,
    /// Whether the lists the request asks for show only the items its scopes allow.
    #[cfg(feature = "auth")]
    pub filter_listings: bool,
    /// The address the request came from (HTTP; behind a trusted proxy, the client's).
    pub client: Option<std::net::IpAddr>,
    /// What the HTTP request that carried the message tells its span (feature `otel`).
    #[cfg(feature = "otel")]
    pub http: Option<Arc<crate::telemetry::HttpInfo>>,
}

impl Identity {
    /// The principal the request speaks for (the token's subject, else its client).
    pub fn principal(&self) -> Option<String> {
        #[cfg(feature = "auth")]
        return self
            .auth
            .as_ref()
            .and_then(|a| a.principal().map(str::to_owned));
        #[cfg(not(feature = "auth"))]
        None
    }

    /// Whom a per-client limit counts the request against: its principal when it has a
    /// verified token, else its address, else `local` (stdio: the one client of the process;
    /// a mounted endpoint given no `ClientAddr`: all clients as one).
    pub fn client_key(&self) -> String {
        if let Some(principal) = self.principal() {
            return format!("principal:{principal}");
        }
        match self.client {
            Some(addr) => format!("addr:{addr}"),
            None => "local".to_owned(),
        }
    }

    /// The token whose scopes filter the lists the request asks for, if the transport asked
    /// for filtered lists.
    #[cfg(feature = "auth")]
    pub fn listing_filter(&self) -> Option<&crate::auth::AuthInfo> {
        self.auth.as_deref().filter(|_| self.filter_listings)
    }
}

/// A list whose changes can be announced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ListKind {
    Tools,
    Resources,
    Prompts,
}

impl ListKind {
    pub(crate) fn method(self) -> &'static str {
        match self {
            ListKind::Tools => "notifications/tools/list_changed",
            ListKind::Resources => "notifications/resources/list_changed",
            ListKind::Prompts => "notifications/prompts/list_changed",
        }
    }

    /// The `SubscriptionFilter` key that opts in to this kind.
    pub(crate) fn filter_key(self) -> &'static str {
        match self {
            ListKind::Tools => "toolsListChanged",
            ListKind::Resources => "resourcesListChanged",
            ListKind::Prompts => "promptsListChanged",
        }
    }
}

pub(crate) const NO_LOGS: u8 = u8::MAX;

impl ConnShared {
    pub fn send(&self, message: String) {
        // A closed outbox means the transport is gone; there is no one left to tell.
        let _ = self.out.send(message);
    }

    /// Starts shutting down: requests from now on are refused.
    pub fn drain(&self) {
        self.draining.store(true, Ordering::Relaxed);
    }

    /// How many calls are running (pending: spawned, not answered yet).
    pub fn calls_in_flight(&self) -> usize {
        lock(&self.inflight).len()
    }

    /// The shutdown's deadline passed: every call in flight is cancelled (its handler's
    /// future dropped) and answered with an error, so that no request the server took is
    /// left without an answer; every request to the client still waiting is withdrawn with
    /// `notifications/cancelled` and fails, and later ones fail at once.
    pub fn abort_calls(&self) {
        self.draining.store(true, Ordering::Relaxed);
        self.aborting.store(true, Ordering::Release);
        let calls: Vec<Arc<CallState>> = lock(&self.inflight).values().cloned().collect();
        for call in calls {
            call.cancel();
        }
        let waiting = lock(&self.pending).take().unwrap_or_default();
        for (n, tx) in waiting {
            let params =
                format!(r#"{{"requestId":"s{n}","reason":"The server is shutting down."}}"#);
            self.send(protocol::notification_message(
                "notifications/cancelled",
                &params,
            ));
            let _ = tx.send(Err(RpcError::internal(
                "The server shut down before the client answered.",
            )));
        }
    }

    pub fn session(&self) -> Option<&Session> {
        self.session.get()
    }

    /// What `logging/setLevel` sets: the lowest level sent, or `None` for no log messages.
    pub fn set_log_level(&self, level: Option<LogLevel>) {
        let index = level
            .and_then(|level| LogLevel::ALL.iter().position(|l| *l == level))
            .map_or(NO_LOGS, |i| i as u8);
        self.log_level.store(index, Ordering::Relaxed);
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
                self.send(protocol::notification_message(k.method(), "{}"));
            }
        }
        for sub in lock(&self.subscriptions).iter() {
            for k in kinds.iter().filter(|k| sub.kinds.contains(k)) {
                let params = format!(
                    r#"{{"_meta":{{"io.modelcontextprotocol/subscriptionId":{}}}}}"#,
                    sub.id
                );
                let message = protocol::notification_message(k.method(), &params);
                match &sub.route {
                    Some(route) => send_routed(route, message, false),
                    None => self.send(message),
                }
            }
        }
    }

    /// Sends `notifications/resources/updated` for `uri` if this connection subscribed to
    /// it: once for a handshake `resources/subscribe`, once per `subscriptions/listen` that
    /// named it. Returns how many were sent.
    pub fn resource_updated(&self, uri: &str) -> usize {
        let mut sent = 0;
        let mut params = String::with_capacity(uri.len() + 16);
        params.push_str(r#"{"uri":"#);
        protocol::push_json_string(&mut params, uri);
        params.push('}');
        if self.session().is_some() && lock(&self.resource_subscriptions).contains(uri) {
            self.send(protocol::notification_message(
                "notifications/resources/updated",
                &params,
            ));
            sent += 1;
        }
        for sub in lock(&self.subscriptions).iter() {
            if !sub.resources.iter().any(|r| **r == *uri) {
                continue;
            }
            let mut tagged = String::with_capacity(params.len() + 64);
            tagged.push_str(r#"{"_meta":{"io.modelcontextprotocol/subscriptionId":"#);
            tagged.push_str(&sub.id);
            tagged.push_str("},");
            tagged.push_str(&params[1..]);
            let message =
                protocol::notification_message("notifications/resources/updated", &tagged);
            match &sub.route {
                Some(route) => send_routed(route, message, false),
                None => self.send(message),
            }
            sent += 1;
        }
        sent
    }

    /// Sends a request to the client (on `route`, the calling request's stream, when set)
    /// and waits for its response.
    pub async fn request(
        &self,
        route: Option<&Route>,
        method: &str,
        params: &str,
    ) -> Result<Value, RpcError> {
        let n = self.next_request.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        // After the end of input no answer can come: fail now instead of waiting forever
        // (which would also keep the connection, and so the server, from finishing).
        match lock(&self.pending).as_mut() {
            Some(pending) => pending.insert(n, tx),
            None => return Err(closed()),
        };
        let message = protocol::request_message(&format!("\"s{n}\""), method, params);
        match route {
            Some(route) => send_routed(route, message, false),
            None => self.send(message),
        }
        rx.await.unwrap_or_else(|_| Err(closed()))
    }
}

/// Sends on a request's stream; a closed stream means its reader (the HTTP response) is gone.
pub(crate) fn send_routed(route: &Route, text: String, reply: bool) {
    let _ = route.send(Routed { text, reply });
}

fn closed() -> RpcError {
    RpcError::internal("The connection closed before the client answered.")
}

pub(crate) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}
