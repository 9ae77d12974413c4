//! The request context a handler receives: cancellation, progress, logging to the client,
//! client identity, the revision, and requests to the client.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use serde_json::Value;

use crate::peer::CallState;
use crate::protocol::{LogLevel, Revision, RpcError, notification_message, push_json_string};
use crate::server::Server;

/// What a handler can see and do while it serves one request.
#[derive(Clone)]
pub struct RequestContext {
    pub(crate) state: Arc<CallState>,
    /// Held here, not by the connection, so that nothing below this layer knows the server.
    pub(crate) server: Server,
}

impl RequestContext {
    /// The revision this request is served under.
    pub fn revision(&self) -> Revision {
        self.state.revision
    }

    /// The server serving this request: to announce changes from a handler
    /// ([`Server::notify_resource_updated`], [`Server::add_service`]).
    pub fn server(&self) -> &Server {
        &self.server
    }

    /// The request id, as raw JSON text (`1`, `"abc"`).
    pub fn request_id(&self) -> &str {
        &self.state.request_id
    }

    /// The client's `Implementation` (`name`, `version`, …), when it sent one: in this
    /// request's `_meta` under 2026-07-28, in `initialize` before.
    pub fn client_info(&self) -> Option<&Value> {
        if self.state.revision.is_stateless() {
            return self.state.client_info.as_ref();
        }
        self.state
            .conn
            .session()
            .map(|s| &s.client_info)
            .filter(|v| !v.is_null())
    }

    /// The client's capabilities: per request under 2026-07-28 (never inferred from
    /// earlier requests), from `initialize` before.
    pub fn client_capabilities(&self) -> Option<&Value> {
        if self.state.revision.is_stateless() {
            return self.state.client_capabilities.as_ref();
        }
        self.state.conn.session().map(|s| &s.client_capabilities)
    }

    /// The verified access token of the request (HTTP with [`AuthConfig`](crate::http::AuthConfig)):
    /// its subject, client, scopes, expiry and claims. `None` over stdio and on servers
    /// without authorization.
    #[cfg(feature = "auth")]
    pub fn auth(&self) -> Option<&crate::auth::AuthInfo> {
        self.state.auth.as_deref()
    }

    /// Whom the request speaks for: its token's subject, else its client
    /// ([`AuthInfo::principal`](crate::auth::AuthInfo::principal)). The tasks and
    /// `requestState`s of the request are bound to it. `None` without a token.
    #[cfg(feature = "auth")]
    pub fn principal(&self) -> Option<&str> {
        self.state
            .auth
            .as_deref()
            .and_then(crate::auth::AuthInfo::principal)
    }

    /// Whether the client declared a capability (`"sampling"`, `"elicitation"`, `"roots"`).
    /// `elicitation` counts only from 2025-06-18, the first revision that defines it.
    pub fn client_supports(&self, capability: &str) -> bool {
        if capability == "elicitation" && !self.state.revision.has_elicitation() {
            return false;
        }
        self.client_capabilities()
            .and_then(|c| c.get(capability))
            .is_some_and(|v| !v.is_null())
    }

    /// The settings the client declared for the extension `id` (`capabilities.extensions`,
    /// SEP-2133: `{}` when it has none), if it declared it: per request under 2026-07-28,
    /// from `initialize` before.
    pub fn client_extension(&self, id: &str) -> Option<&Value> {
        self.client_capabilities()?
            .get("extensions")?
            .get(id)
            .filter(|settings| settings.is_object())
    }

    /// Whether the client renders MCP Apps views: it declares the extension
    /// [`APPS_EXTENSION`](crate::protocol::APPS_EXTENSION) with
    /// [`MCP_APP_MIME`](crate::protocol::MCP_APP_MIME) among its `mimeTypes`. A tool with a
    /// view (`@ui`) can send a text-only result to a client that does not (the spec asks
    /// for a meaningful `content` either way).
    pub fn client_renders_views(&self) -> bool {
        self.client_extension(crate::protocol::APPS_EXTENSION)
            .and_then(|ui| ui.get("mimeTypes")?.as_array())
            .is_some_and(|types| {
                types
                    .iter()
                    .any(|t| t.as_str() == Some(crate::protocol::MCP_APP_MIME))
            })
    }

    /// Whether the client cancelled this request. The runtime also drops the handler's future.
    pub fn is_cancelled(&self) -> bool {
        self.state.cancelled.load(Ordering::Acquire)
    }

    /// Completes when the client cancels this request.
    pub async fn cancelled(&self) {
        self.state.wait_cancelled().await
    }

    /// Sends `notifications/progress` if the request carried a `progressToken`.
    pub fn progress(&self, progress: f64, total: Option<f64>, message: Option<&str>) {
        let Some(token) = &self.state.progress_token else {
            return;
        };
        if self.is_cancelled() {
            return;
        }
        let mut params = String::with_capacity(96);
        params.push_str(r#"{"progressToken":"#);
        params.push_str(token);
        params.push_str(r#","progress":"#);
        params.push_str(&Value::from(progress).to_string());
        if let Some(t) = total {
            params.push_str(r#","total":"#);
            params.push_str(&Value::from(t).to_string());
        }
        if let (Some(m), true) = (message, self.state.revision.has_progress_message()) {
            params.push_str(r#","message":"#);
            push_json_string(&mut params, m);
        }
        params.push('}');
        self.state
            .send(notification_message("notifications/progress", &params));
    }

    /// The level at and above which log messages reach the client, if any.
    pub fn log_level(&self) -> Option<LogLevel> {
        if self.state.revision.is_stateless() {
            self.state.log_level
        } else {
            self.state.conn.log_level()
        }
    }

    /// Sends `notifications/message` when the client asked for this level
    /// (`logging/setLevel` before 2026-07-28, the request's `_meta` logLevel after).
    pub fn log(&self, level: LogLevel, logger: Option<&str>, data: impl Into<Value>) {
        if self.log_level().is_none_or(|min| level < min) || self.is_cancelled() {
            return;
        }
        let mut params = String::with_capacity(64);
        params.push_str(r#"{"level":""#);
        params.push_str(level.as_str());
        params.push('"');
        if let Some(l) = logger {
            params.push_str(r#","logger":"#);
            push_json_string(&mut params, l);
        }
        params.push_str(r#","data":"#);
        params.push_str(&data.into().to_string());
        params.push('}');
        self.state
            .send(notification_message("notifications/message", &params));
    }

    /// 2026-07-28: the client's answer to an `inputRequests` key, on a retried request
    /// (with a `requestState`, only keys its round asked reach the handler).
    pub fn input_response(&self, key: &str) -> Option<&Value> {
        self.state.input_responses.as_ref()?.get(key)
    }

    /// 2026-07-28: the state this handler returned with its last `input_required`
    /// ([`ToolOutput::InputRequired`](crate::ToolOutput::InputRequired)), on the retry that
    /// carries it back: plain, as the handler wrote it. The runtime sealed it on its way to
    /// the client and opened and checked it (integrity, request, arguments, principal,
    /// expiry) before this handler ran; `None` without one, and under the handshake
    /// revisions.
    pub fn request_state(&self) -> Option<&str> {
        self.state.request_state.as_deref()
    }

    /// Asks the client's model for a completion (`sampling/createMessage`). Handshake
    /// revisions only; under 2026-07-28 return [`crate::ToolOutput::InputRequired`] instead.
    pub async fn create_message(&self, params: Value) -> Result<Value, RpcError> {
        self.client_request("sampling/createMessage", "sampling", params)
            .await
    }

    /// Asks the user for input (`elicitation/create`). Handshake revisions only.
    pub async fn elicit(&self, params: Value) -> Result<Value, RpcError> {
        self.client_request("elicitation/create", "elicitation", params)
            .await
    }

    /// Asks the client for its roots (`roots/list`). Handshake revisions only.
    pub async fn list_roots(&self) -> Result<Value, RpcError> {
        self.client_request("roots/list", "roots", serde_json::json!({}))
            .await
    }

    async fn client_request(
        &self,
        method: &str,
        capability: &str,
        params: Value,
    ) -> Result<Value, RpcError> {
        if self.state.revision.is_stateless() {
            return Err(RpcError::internal(format!(
                "{method} is not sent as a request under 2026-07-28; return an input_required result"
            )));
        }
        if !self.client_supports(capability) {
            return Err(RpcError::missing_client_capability(
                format!("The client does not support {capability}"),
                serde_json::json!({ capability: {} }),
            ));
        }
        self.state
            .conn
            .request(self.state.route.as_ref(), method, &params.to_string())
            .await
    }
}
