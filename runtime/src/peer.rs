//! State of a connection that handlers' contexts share: the outbox sender, the session,
//! the log level, calls in flight, requests to the client and subscriptions.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::Value;
use tokio::sync::{mpsc, oneshot};

use crate::context::{CallState, LogLevel};
use crate::jsonrpc::{self, RpcError};
use crate::revision::Revision;
use crate::server::Server;

/// What `initialize` established (handshake revisions only).
pub(crate) struct Session {
    pub revision: Revision,
    pub client_info: Value,
    pub client_capabilities: Value,
}

/// Requests to the client by number, each with the sender its answer goes to.
pub(super) type Waiting = HashMap<u64, oneshot::Sender<Result<Value, RpcError>>>;

/// Connection state shared with handlers' contexts.
pub(crate) struct ConnShared {
    pub(super) out: mpsc::UnboundedSender<String>,
    pub(super) session: OnceLock<Session>,
    /// `logging/setLevel`: index into `LogLevel::ALL`, or `NO_LOGS`.
    pub(super) log_level: AtomicU8,
    pub(super) inflight: Mutex<HashMap<Box<str>, Arc<CallState>>>,
    /// Signalled when a call leaves `inflight` (stdio waits on it at the limit).
    pub(super) slot_freed: std::sync::Condvar,
    /// Requests to the client awaiting its response; `None` once the input has ended.
    pub(super) pending: Mutex<Option<Waiting>>,
    pub(super) next_request: AtomicU64,
    /// 2026-07-28 `subscriptions/listen` streams open on this connection.
    pub(super) subscriptions: Mutex<Vec<Subscription>>,
    /// Handshake revisions: the resource URIs `resources/subscribe` named.
    pub(super) resource_subscriptions: Mutex<HashSet<Box<str>>>,
    /// Served by at most one request (stateless HTTP): a `resources/subscribe` would outlive
    /// the connection, so it is not offered.
    pub(super) ephemeral: std::sync::atomic::AtomicBool,
    pub(super) runtime: tokio::runtime::Handle,
    /// The server, for handlers (`RequestContext::server`). It holds connections weakly.
    pub(crate) server: Server,
}

/// An open `subscriptions/listen` request and the list changes it agreed to carry.
pub(super) struct Subscription {
    /// The listen request's id, raw JSON.
    pub(super) id: Box<str>,
    pub(super) kinds: Vec<ListKind>,
    /// The resource URIs of `resourceSubscriptions` it agreed to carry updates of.
    pub(super) resources: Vec<Box<str>>,
    /// Where the request's stream goes (HTTP: its response), else the outbox.
    pub(super) route: Option<Route>,
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

/// A list whose changes can be announced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ListKind {
    Tools,
    Resources,
    Prompts,
}

impl ListKind {
    pub(super) fn method(self) -> &'static str {
        match self {
            ListKind::Tools => "notifications/tools/list_changed",
            ListKind::Resources => "notifications/resources/list_changed",
            ListKind::Prompts => "notifications/prompts/list_changed",
        }
    }

    /// The `SubscriptionFilter` key that opts in to this kind.
    pub(super) fn filter_key(self) -> &'static str {
        match self {
            ListKind::Tools => "toolsListChanged",
            ListKind::Resources => "resourcesListChanged",
            ListKind::Prompts => "promptsListChanged",
        }
    }
}

pub(super) const NO_LOGS: u8 = u8::MAX;

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
                let message = jsonrpc::notification_message(k.method(), &params);
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
        jsonrpc::push_json_string(&mut params, uri);
        params.push('}');
        if self.session().is_some() && lock(&self.resource_subscriptions).contains(uri) {
            self.send(jsonrpc::notification_message(
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
            let message = jsonrpc::notification_message("notifications/resources/updated", &tagged);
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
        let message = jsonrpc::request_message(&format!("\"s{n}\""), method, params);
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

pub(super) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}
