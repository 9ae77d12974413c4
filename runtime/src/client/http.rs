//! A server at an `http://` or `https://` URL, spoken to over Streamable HTTP (features
//! `client` and `http`): each message its own POST on a pooled connection, each reply JSON
//! or an event stream; in a handshake session, the session's GET stream and resumed
//! streams; under 2026-07-28, `subscriptions/listen`, `Mcp-Param-*` headers and tasks.
//!
//! See [`HttpTransport`] for how the revision is chosen and what each mode sends.

mod auth;
mod events;
mod exchange;
mod mirror;
mod params;
mod sse;

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use reqwest::{Method, Response, StatusCode, header};
use serde_json::{Value, json};
use tokio::task::JoinHandle;

use super::observe::{self, NotificationHandler, ProgressHandler};
use super::{ClientError, ReplyFuture, RequestHandler, Transport, input, meta, tasks};
use crate::peer::lock;
use crate::protocol::{Revision, code, reply_result};
pub(crate) use auth::{AuthFuture, Authorize, Authorizer, Refusal};
pub use events::Subscription;
use exchange::{Connection, read_all};
pub(crate) use exchange::{Endpoint, describe};

/// The longest reply body (a JSON reply, or one event of a stream) the transport buffers.
pub const MAX_REPLY_BYTES: usize = 64 * 1024 * 1024;

/// What a POST accepts: both, as the transport requires of clients.
const ACCEPT: &str = "application/json, text/event-stream";

/// A connection to an MCP server over Streamable HTTP, plain `http://` or `https://`.
///
/// The requests go through one pooled client: connections are kept alive and reused,
/// HTTP/2 is spoken where the server offers it (ALPN), certificates are checked against the
/// platform's roots, `SSL_CERT_FILE`/`SSL_CERT_DIR` and
/// [`root_certificates`](HttpTransportBuilder::root_certificates), and the proxies of
/// `HTTP_PROXY`, `HTTPS_PROXY`, `ALL_PROXY` and `NO_PROXY` are used. Redirects are not
/// followed.
///
/// [`connect`](HttpTransport::connect) chooses the revision:
///
/// 1. It sends `server/discover` as a 2026-07-28 request (its `_meta` and the
///    `MCP-Protocol-Version`, `Mcp-Method` headers). A result listing 2026-07-28 makes the
///    transport stateless: every later request carries the revision, the client's
///    capabilities and info in `_meta`, and the `MCP-Protocol-Version`, `Mcp-Method` and
///    (for `tools/call`, `prompts/get`, `resources/read`, `tasks/*`) `Mcp-Name` headers, and
///    a `tools/call` the `Mcp-Param-*` headers of its tool's `x-mcp-header` parameters.
/// 2. A modern refusal, "unsupported protocol version" (`-32022`), or a result that does
///    not list 2026-07-28, names the revisions the server speaks: the newest of them this
///    runtime knows is offered in `initialize`. Another modern error (`-32020`, `-32021`)
///    is returned as [`ClientError::Protocol`].
/// 3. Any other answer (a 4xx without a modern error, a legacy server's error) falls back
///    to the `initialize` handshake offering 2025-11-25; the server may answer an older
///    revision, accepted if this runtime knows it. The `Mcp-Session-Id` it returns is sent
///    on every later request, with `MCP-Protocol-Version`; then `notifications/initialized`,
///    and the session's GET stream is opened (see below).
///
/// A server that cannot be reached fails at once, without a fallback.
/// [`builder`](HttpTransport::builder) with [`revision`](HttpTransportBuilder::revision)
/// skips the negotiation: 2026-07-28 sends `server/discover` and requires its success; a
/// handshake revision sends `initialize` offering it and requires the server to answer it.
///
/// Replies come as `application/json` or `text/event-stream`. In an event stream, the
/// server's requests to the client (elicitation, sampling, roots; handshake revisions)
/// are answered by the [`RequestHandler`] (or "method not found" without one), each answer
/// POSTed back in the same session; the stream's notifications go to the progress handler of
/// [`with_progress`](super::with_progress) (the request's own progress) or to the
/// [`NotificationHandler`] (log messages and the rest). A session's event stream that ends
/// before its reply (the server polls, or the connection broke) is resumed with a `GET`
/// and `Last-Event-ID` after the `retry` delay the server gave. Under 2026-07-28 the server
/// asks for input with an `input_required` result instead (`tools/call`, `prompts/get`,
/// `resources/read`): its `inputRequests` go to the same handler, and the request is sent
/// again with their answers as `inputResponses` and the server's `requestState`, until the
/// result is another one; a request the handler does not answer ends the call with
/// [`ClientError::Input`]. A `tools/call` answered with a task is polled to its end
/// (`tasks/get`, its input through `tasks/update`) and its result returned; dropped
/// before, the call sends `tasks/cancel`. Every other 2026-07-28 result is returned as it
/// came (`resultType`, `_meta` and cache hints included), except that `tools/list` leaves
/// out the tools whose `x-mcp-header` annotations are invalid, as the specification asks
/// of clients.
///
/// Errors are [`ClientError::Transport`] naming the HTTP method, the URL and the status
/// (the server unreachable, a certificate that is not trusted, a status without a JSON-RPC
/// reply to the request, a body that is not JSON or is longer than [`MAX_REPLY_BYTES`], a
/// 404 in a session: the session is gone), [`ClientError::Authorization`] when the server
/// wants authorization the transport cannot give, and [`ClientError::Protocol`] for a
/// JSON-RPC error reply, whatever its status.
pub struct HttpTransport {
    peer: Arc<Peer>,
    revision: Revision,
    opening: Value,
    /// The session's GET stream, stopped with the transport.
    stream: Option<JoinHandle<()>>,
}

/// Options for [`HttpTransport::builder`]: handlers for the server's requests and
/// notifications, the capabilities declared, authorization, timeouts, trusted roots, and a
/// revision to use instead of negotiating one.
pub struct HttpTransportBuilder {
    url: String,
    handler: Option<RequestHandler>,
    notifications: Option<NotificationHandler>,
    capabilities: Value,
    revision: Option<Revision>,
    connect_timeout: Duration,
    idle_timeout: Duration,
    request_timeout: Option<Duration>,
    roots: Vec<Vec<u8>>,
    auth: Option<Arc<dyn Authorize>>,
    session_stream: bool,
    tasks: bool,
}

impl HttpTransport {
    /// Connects to the MCP endpoint at `url`, choosing the revision as described above, with
    /// no handler for the server's requests.
    pub async fn connect(url: &str) -> Result<HttpTransport, ClientError> {
        HttpTransport::builder(url).connect().await
    }

    /// Connects to `url`, declares `capabilities` and routes the server's requests to the
    /// client (elicitation, sampling, roots) to `handler`, as
    /// [`StdioTransport::spawn_with`](super::StdioTransport::spawn_with) does.
    pub async fn connect_with(
        url: &str,
        handler: Option<RequestHandler>,
        capabilities: Value,
    ) -> Result<HttpTransport, ClientError> {
        let builder = HttpTransport::builder(url).capabilities(capabilities);
        match handler {
            Some(handler) => builder.on_request(handler),
            None => builder,
        }
        .connect()
        .await
    }

    /// A connection to `url` to configure before [`connect`](HttpTransportBuilder::connect).
    pub fn builder(url: &str) -> HttpTransportBuilder {
        HttpTransportBuilder {
            url: url.to_owned(),
            handler: None,
            notifications: None,
            capabilities: json!({}),
            revision: None,
            connect_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(90),
            request_timeout: None,
            roots: Vec::new(),
            auth: None,
            session_stream: true,
            tasks: true,
        }
    }

    /// The revision in use: 2026-07-28 (stateless), or the one `initialize` settled on.
    pub fn revision(&self) -> Revision {
        self.revision
    }

    /// The session's `Mcp-Session-Id`, when the server opened one.
    pub fn session_id(&self) -> Option<&str> {
        self.peer.session.as_deref()
    }

    /// The result that opened the connection: `initialize`'s, or under 2026-07-28
    /// `server/discover`'s.
    pub fn opening_result(&self) -> &Value {
        &self.opening
    }

    /// The server's name and version: `serverInfo` of `initialize`, or
    /// `_meta["io.modelcontextprotocol/serverInfo"]` of `server/discover`.
    pub fn server_info(&self) -> Option<&Value> {
        let info = match self.revision.is_stateless() {
            true => self.opening.get("_meta").and_then(|m| m.get(meta::SERVER)),
            false => self.opening.get("serverInfo"),
        };
        info.filter(|i| i.is_object())
    }

    /// Opens a `subscriptions/listen` stream (2026-07-28) asking for the notifications
    /// `filter` names (`{"toolsListChanged": true, "resourceSubscriptions": [uri, …]}`),
    /// and returns once the server acknowledged it. The stream's notifications, the
    /// acknowledgement included, go to the [`NotificationHandler`]; a stream that breaks
    /// without the server's final response is opened again (after 1 second, doubling up to
    /// 30 seconds while it keeps failing). Dropping the [`Subscription`] closes it.
    ///
    /// Under a handshake revision the session's GET stream carries these notifications
    /// instead (after `resources/subscribe` for updates), and this is an error.
    pub async fn listen(&self, filter: Value) -> Result<Subscription, ClientError> {
        if !self.revision.is_stateless() {
            return Err(ClientError::Transport(format!(
                "`subscriptions/listen` is a 2026-07-28 request, and {} speaks {}: its notifications come on the session's GET stream",
                self.peer.endpoint.url, self.revision
            )));
        }
        events::listen(Arc::clone(&self.peer), filter).await
    }

    /// Ends the session: a `DELETE` with its id (a server that does not let clients end
    /// sessions answers 405, and one that ended it already 404: both are fine). Without a
    /// session there is nothing to end.
    pub async fn close(self) -> Result<(), ClientError> {
        if let Some(stream) = &self.stream {
            stream.abort();
        }
        let Some(session) = &self.peer.session else {
            return Ok(());
        };
        let response = self
            .peer
            .send(Method::DELETE, self.peer.headers(), None)
            .await?;
        let status = response.status();
        if status.is_success()
            || status == StatusCode::METHOD_NOT_ALLOWED
            || status == StatusCode::NOT_FOUND
        {
            return Ok(());
        }
        Err(ClientError::Transport(format!(
            "DELETE {} (ending session `{session}`): HTTP {status}",
            self.peer.endpoint.url
        )))
    }
}

impl Drop for HttpTransport {
    fn drop(&mut self) {
        if let Some(stream) = &self.stream {
            stream.abort();
        }
    }
}

impl HttpTransportBuilder {
    /// Routes the server's requests to the client to `handler`.
    pub fn on_request(mut self, handler: RequestHandler) -> Self {
        self.handler = Some(handler);
        self
    }

    /// Routes the notifications in the server's event streams (the session's GET stream,
    /// `subscriptions/listen` streams, log messages, and progress no
    /// [`with_progress`](super::with_progress) awaits) to `handler`; without one they are
    /// dropped.
    pub fn on_notification(mut self, handler: NotificationHandler) -> Self {
        self.notifications = Some(handler);
        self
    }

    /// The client capabilities declared (`initialize`'s `capabilities`, or every 2026-07-28
    /// request's `_meta`); `{}` by default. Under 2026-07-28 the tasks extension is added
    /// (see [`tasks`](Self::tasks)).
    pub fn capabilities(mut self, capabilities: Value) -> Self {
        self.capabilities = capabilities;
        self
    }

    /// Whether 2026-07-28 requests declare the tasks extension
    /// (`extensions["io.modelcontextprotocol/tasks"]`), so a server may answer a tool call
    /// with a task, which the transport then waits for; `true` by default. Without it a
    /// task-only tool is refused (`-32021`).
    pub fn tasks(mut self, declare: bool) -> Self {
        self.tasks = declare;
        self
    }

    /// Uses `revision` without negotiating: 2026-07-28 requires `server/discover` to
    /// succeed, a handshake revision requires `initialize` to answer it.
    pub fn revision(mut self, revision: Revision) -> Self {
        self.revision = Some(revision);
        self
    }

    /// Whether a handshake session opens its GET stream, on which the server sends what
    /// belongs to no request (list changes, resource updates, requests of its own); `true`
    /// by default. A server that offers none answers 405, and the transport does without.
    pub fn session_stream(mut self, open: bool) -> Self {
        self.session_stream = open;
        self
    }

    /// How long opening a connection may take (TCP and TLS); 10 seconds by default.
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }

    /// How long one request may wait for its reply, its event stream included (not the
    /// session's GET stream, nor a `subscriptions/listen` stream, nor the whole of a task);
    /// none by default: a call lasts as long as the tool works, and a caller stops waiting
    /// by dropping it.
    pub fn request_timeout(mut self, timeout: Duration) -> Self {
        self.request_timeout = Some(timeout);
        self
    }

    /// How long an idle connection is kept in the pool for the next request; 90 seconds
    /// by default.
    pub fn idle_timeout(mut self, timeout: Duration) -> Self {
        self.idle_timeout = timeout;
        self
    }

    /// Trusts the certificates of the PEM bundle `pem` as roots, besides the platform's
    /// (and those of `SSL_CERT_FILE`/`SSL_CERT_DIR`): for a server whose certificate a
    /// private CA signed. A bundle that holds no certificate fails [`connect`](Self::connect).
    pub fn root_certificates(mut self, pem: impl Into<Vec<u8>>) -> Self {
        self.roots.push(pem.into());
        self
    }

    /// Sends `Authorization: Bearer <token>` with every request to the endpoint (and to
    /// nothing else): a token the caller got elsewhere. A 401 is then an
    /// [`ClientError::Authorization`] error.
    pub fn bearer(mut self, token: impl Into<String>) -> Self {
        self.auth = Some(Arc::new(auth::Bearer::new(token.into())));
        self
    }

    /// Authorizes with OAuth 2.1 as the MCP authorization specification has it: see
    /// [`OAuth`](super::OAuth).
    pub fn oauth(mut self, oauth: super::OAuth) -> Self {
        self.auth = Some(Arc::new(oauth));
        self
    }

    /// Connects (see [`HttpTransport`] for the negotiation).
    pub async fn connect(self) -> Result<HttpTransport, ClientError> {
        let connection = Connection {
            connect_timeout: self.connect_timeout,
            idle_timeout: self.idle_timeout,
            roots: self.roots,
        };
        let endpoint = Endpoint::new(&self.url, &connection)?;
        let authorizer = match self.auth {
            Some(auth) => Some(auth.bind(&endpoint)?),
            None => None,
        };
        let mut peer = Peer {
            endpoint,
            revision: None,
            session: None,
            handler: self.handler,
            notifications: self.notifications,
            capabilities: self.capabilities.clone(),
            modern_capabilities: match self.tasks {
                true => meta::with_tasks(self.capabilities),
                false => self.capabilities,
            },
            next_id: AtomicI64::new(1),
            auth: authorizer,
            request_timeout: self.request_timeout,
            tool_params: Mutex::new(None),
        };
        let (revision, opening) = match self.revision {
            Some(wanted) if wanted.is_stateless() => (wanted, peer.discover(wanted).await??),
            Some(wanted) => (wanted, peer.initialize(wanted, true).await?),
            None => peer.negotiate().await?,
        };
        peer.revision = Some(revision);
        let peer = Arc::new(peer);
        let stream = (self.session_stream && peer.session.is_some())
            .then(|| tokio::spawn(events::session_stream(Arc::clone(&peer))));
        Ok(HttpTransport {
            peer,
            revision,
            opening,
            stream,
        })
    }
}

impl Transport for HttpTransport {
    fn request<'a>(&'a self, method: &'a str, params: Value) -> ReplyFuture<'a> {
        Box::pin(async move {
            let peer = &self.peer;
            if !peer.stateless() {
                return peer.request_once(method, params).await;
            }
            let handler = peer.handler.as_deref();
            let result = input::answering(method, params, handler, |params| {
                peer.modern_request(method, params)
            })
            .await?;
            if method == "tools/call" && tasks::is_task(&result) {
                let cancel = cancel_task(peer);
                let poll = |method, params| peer.request_once(method, params);
                return tasks::awaiting(result, handler, poll, cancel).await;
            }
            Ok(result)
        })
    }

    fn notify(&self, method: &str, params: Value) -> Result<(), ClientError> {
        let peer = Arc::clone(&self.peer);
        let method = method.to_owned();
        // Not awaited, as on stdio; a failure is logged.
        tokio::spawn(async move {
            if let Err(e) = peer.notify(&method, params).await {
                tracing::debug!(error = %e, method, "an MCP notification was not delivered");
            }
        });
        Ok(())
    }
}

/// What cancels a task the caller stopped waiting for: `tasks/cancel`, sent from a task of
/// its own (the caller's future is gone).
fn cancel_task(peer: &Arc<Peer>) -> tasks::Cancel {
    let peer = Arc::clone(peer);
    Box::new(move |id| {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        runtime.spawn(async move {
            let params = json!({"taskId": id});
            if let Err(e) = peer.request_once("tasks/cancel", params).await {
                tracing::debug!(error = %e, "a task's cancellation was not delivered");
            }
        });
    })
}

/// What every request needs: where to send it and the state the server gave.
pub(crate) struct Peer {
    endpoint: Endpoint,
    /// `None` until the revision is settled (`initialize` goes without the header).
    revision: Option<Revision>,
    session: Option<String>,
    handler: Option<RequestHandler>,
    notifications: Option<NotificationHandler>,
    /// As given: what `initialize` declares.
    capabilities: Value,
    /// What 2026-07-28 requests declare: the same, with the tasks extension unless the
    /// builder said not to.
    modern_capabilities: Value,
    next_id: AtomicI64,
    auth: Option<Arc<dyn auth::Authorizer>>,
    request_timeout: Option<Duration>,
    /// The `x-mcp-header` parameters of the tools (2026-07-28), once `tools/list` was read.
    tool_params: Mutex<Option<params::ToolParams>>,
}

impl Peer {
    /// Tries 2026-07-28, then the handshake (see [`HttpTransport`]).
    async fn negotiate(&mut self) -> Result<(Revision, Value), ClientError> {
        let modern = Revision::V2026_07_28;
        let offer = match self.discover(modern).await? {
            Ok(result) => match newest_known(result.get("supportedVersions")) {
                Some(revision) if revision.is_stateless() => return Ok((revision, result)),
                Some(revision) => revision,
                None => return Err(self.speaks_none(result.get("supportedVersions"))),
            },
            Err(ClientError::Protocol(e)) if e.code == code::UNSUPPORTED_PROTOCOL_VERSION => {
                let supported = e.data.as_ref().and_then(|d| d.get("supported"));
                match newest_known(supported) {
                    Some(revision) if !revision.is_stateless() => revision,
                    _ => return Err(self.speaks_none(supported)),
                }
            }
            Err(ClientError::Protocol(e))
                if [
                    code::HEADER_MISMATCH,
                    code::MISSING_REQUIRED_CLIENT_CAPABILITY,
                ]
                .contains(&e.code) =>
            {
                return Err(ClientError::Protocol(e));
            }
            Err(e @ ClientError::Authorization(_)) => return Err(e),
            Err(e) => {
                tracing::debug!(error = %e, "no 2026-07-28 answer; trying the initialize handshake");
                Revision::NEWEST_HANDSHAKE
            }
        };
        self.revision = None;
        let opening = self.initialize(offer, false).await?;
        Ok((self.revision.unwrap_or(offer), opening))
    }

    /// `server/discover` under `revision`: the outer error when the server cannot be
    /// reached, the inner one for what it answered.
    async fn discover(
        &mut self,
        revision: Revision,
    ) -> Result<Result<Value, ClientError>, ClientError> {
        self.revision = Some(revision);
        let id = self.next_id();
        let response = self.send_request(id, "server/discover", json!({})).await?;
        Ok(self
            .reply_to(id, response, None)
            .await
            .and_then(|reply| Ok(reply_result(reply)?)))
    }

    /// The `initialize` handshake offering `offered` (required back when `exact`), and
    /// `notifications/initialized`; keeps the session id and the revision.
    async fn initialize(&mut self, offered: Revision, exact: bool) -> Result<Value, ClientError> {
        let params = json!({
            "protocolVersion": offered.as_str(),
            "capabilities": self.capabilities,
            "clientInfo": meta::client_info(),
        });
        let id = self.next_id();
        let response = self.send_request(id, "initialize", params).await?;
        let session = response
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let result = reply_result(self.reply_to(id, response, None).await?)?;
        let answered = result.get("protocolVersion").and_then(Value::as_str);
        let revision = answered
            .and_then(Revision::parse)
            .filter(|r| !r.is_stateless() && (!exact || *r == offered))
            .ok_or_else(|| {
                ClientError::Transport(format!(
                    "POST {}: the server answered `initialize` offering {offered} with protocol version {answered:?}, which this client does not accept",
                    self.endpoint.url
                ))
            })?;
        self.revision = Some(revision);
        self.session = session;
        self.notify("notifications/initialized", json!({})).await?;
        Ok(result)
    }

    fn speaks_none(&self, supported: Option<&Value>) -> ClientError {
        let supported = supported.map_or("nothing".into(), Value::to_string);
        ClientError::Transport(format!(
            "POST {}: the server speaks {supported}, none of the revisions this client does",
            self.endpoint.url
        ))
    }

    /// The headers of every request: `Accept`, and the session's id and revision.
    fn headers(&self) -> Vec<(&'static str, String)> {
        let mut headers = vec![("accept", ACCEPT.to_owned())];
        if let Some(revision) = self.revision {
            headers.push(("mcp-protocol-version", revision.as_str().to_owned()));
        }
        if let Some(session) = &self.session {
            headers.push(("mcp-session-id", session.clone()));
        }
        headers
    }

    fn stateless(&self) -> bool {
        self.revision.is_some_and(Revision::is_stateless)
    }

    /// Sends a request to the endpoint with the authorization the transport has; a 401 or
    /// a 403 for a missing scope that the authorizer can answer (a new token) is sent again
    /// with it, at most twice.
    async fn send(
        &self,
        method: Method,
        headers: Vec<(&str, String)>,
        body: Option<Vec<u8>>,
    ) -> Result<Response, ClientError> {
        let Some(auth) = &self.auth else {
            return self.endpoint.send(method, &headers, body).await;
        };
        let mut attempt = 0;
        loop {
            let credential = auth.credential().await?;
            let mut with = headers.clone();
            if let Some(credential) = &credential {
                with.push(("authorization", credential.clone()));
            }
            let response = self
                .endpoint
                .send(method.clone(), &with, body.clone())
                .await?;
            let status = response.status();
            if status != StatusCode::UNAUTHORIZED && status != StatusCode::FORBIDDEN {
                return Ok(response);
            }
            let challenge = response
                .headers()
                .get_all(header::WWW_AUTHENTICATE)
                .iter()
                .filter_map(|v| v.to_str().ok())
                .collect::<Vec<_>>()
                .join(", ");
            let refusal = auth::Refusal {
                status: status.as_u16(),
                challenge: &challenge,
                sent: credential.as_deref(),
                attempt,
            };
            if !auth.refused(refusal).await? {
                return Ok(response);
            }
            attempt += 1;
        }
    }

    /// POSTs a message: under 2026-07-28 its params carry `_meta` and its method, item and
    /// (`tools/call`) annotated arguments are mirrored in headers.
    async fn post(&self, mut message: Value) -> Result<Response, ClientError> {
        let mut headers = self.headers();
        let mut owned = Vec::new();
        if let (true, Some(method), Some(revision)) = (
            self.stateless(),
            message.get("method").and_then(Value::as_str),
            self.revision,
        ) {
            let method = method.to_owned();
            let params = meta::with_meta(
                message["params"].take(),
                revision,
                &self.modern_capabilities,
            );
            headers.extend(mirror::standard(&method, &params));
            if method == "tools/call" {
                owned = self.param_headers(&params);
            }
            message["params"] = params;
        }
        headers.extend(owned.iter().map(|(n, v)| (n.as_str(), v.clone())));
        let body = message.to_string().into_bytes();
        self.send(Method::POST, headers, Some(body)).await
    }

    /// The `Mcp-Param-*` headers of a `tools/call` with `params`, from the listing read.
    fn param_headers(&self, params: &Value) -> Vec<(String, String)> {
        let name = params.get("name").and_then(Value::as_str).unwrap_or("");
        let known = lock(&self.tool_params);
        match known.as_ref().and_then(|tools| tools.get(name)) {
            Some(annotated) => params::headers(annotated, params::arguments(params)),
            None => Vec::new(),
        }
    }

    /// POSTs the request `method` as request `id`; the response as it starts.
    async fn send_request(
        &self,
        id: i64,
        method: &str,
        params: Value,
    ) -> Result<Response, ClientError> {
        let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.post(message).await
    }

    /// The id of the next request.
    fn next_id(&self) -> i64 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    /// POSTs a notification, or the client's answer to a request of the server.
    async fn send_message(&self, message: Value) -> Result<(), ClientError> {
        let mut body = self.post(message).await?;
        let status = body.status();
        let bytes = read_all(&mut body, MAX_REPLY_BYTES)
            .await
            .unwrap_or_default();
        if status.is_success() {
            return Ok(());
        }
        Err(self
            .refused(status, &bytes, None)
            .err()
            .unwrap_or_else(|| self.failed(format!("HTTP {status}"))))
    }

    async fn notify(&self, method: &str, params: Value) -> Result<(), ClientError> {
        self.send_message(json!({"jsonrpc": "2.0", "method": method, "params": params}))
            .await
    }

    /// One request and its reply, whatever the result; within the request timeout.
    async fn request_once(
        self: &Arc<Self>,
        method: &str,
        params: Value,
    ) -> Result<Value, ClientError> {
        let exchange = self.exchange(method, params);
        let Some(timeout) = self.request_timeout else {
            return exchange.await;
        };
        match tokio::time::timeout(timeout, exchange).await {
            Ok(reply) => reply,
            Err(_) => Err(self.failed(format!(
                "no reply to `{method}` within {} ms",
                timeout.as_millis()
            ))),
        }
    }

    async fn exchange(self: &Arc<Self>, method: &str, params: Value) -> Result<Value, ClientError> {
        let progress = observe::progress_handler();
        let id = self.next_id();
        let params = match progress {
            Some(_) => observe::with_token(params, id),
            None => params,
        };
        let mut in_flight = InFlight {
            peer: self,
            id,
            // A 2026-07-28 request is cancelled by closing its connection, which
            // dropping the response does.
            cancel: method != "initialize" && !self.stateless(),
        };
        let reply = async {
            let response = self.send_request(id, method, params).await?;
            self.reply_to(id, response, progress.as_ref()).await
        }
        .await;
        in_flight.cancel = false;
        Ok(reply_result(reply?)?)
    }

    /// A 2026-07-28 request: `tools/list` read (the invalid tools left out, the annotated
    /// parameters kept), a `tools/call` sent with its tool's `Mcp-Param-*` headers (the
    /// listing read first when it never was) and, refused for a header mismatch, sent
    /// once more after reading the listing again.
    async fn modern_request(
        self: &Arc<Self>,
        method: &str,
        params: Value,
    ) -> Result<Value, ClientError> {
        match method {
            "tools/list" => {
                let mut result = self.request_once(method, params).await?;
                let found = params::screen(&mut result);
                lock(&self.tool_params)
                    .get_or_insert_with(Default::default)
                    .extend(found);
                Ok(result)
            }
            "tools/call" => {
                if lock(&self.tool_params).is_none() {
                    self.read_tool_params().await?;
                }
                match self.request_once(method, params.clone()).await {
                    Err(ClientError::Protocol(e)) if e.code == code::HEADER_MISMATCH => {
                        tracing::debug!(error = %e, "a header mismatch; reading the tools' listing again");
                        self.read_tool_params().await?;
                        self.request_once(method, params).await
                    }
                    other => other,
                }
            }
            _ => self.request_once(method, params).await,
        }
    }

    /// Reads every page of `tools/list` for the tools' `x-mcp-header` parameters. A server
    /// that lists no tools (or refuses to) has none.
    async fn read_tool_params(self: &Arc<Self>) -> Result<(), ClientError> {
        let mut found = params::ToolParams::new();
        let mut cursor: Option<String> = None;
        for _ in 0..1000 {
            let params = match &cursor {
                Some(cursor) => json!({"cursor": cursor}),
                None => json!({}),
            };
            let mut page = match self.request_once("tools/list", params).await {
                Ok(page) => page,
                Err(ClientError::Protocol(e)) => {
                    tracing::debug!(error = %e, "no tools/list; no x-mcp-header parameters");
                    break;
                }
                Err(e) => return Err(e),
            };
            found.extend(params::screen(&mut page));
            cursor = page
                .get("nextCursor")
                .and_then(Value::as_str)
                .map(str::to_owned);
            if cursor.is_none() {
                break;
            }
        }
        *lock(&self.tool_params) = Some(found);
        Ok(())
    }

    /// The JSON-RPC response to request `id`, from a JSON body or an event stream.
    async fn reply_to(
        &self,
        id: i64,
        response: Response,
        progress: Option<&ProgressHandler>,
    ) -> Result<Value, ClientError> {
        let mut body = response;
        let status = body.status();
        let content_type = content_type(&body);
        if !status.is_success() {
            let bytes = read_all(&mut body, MAX_REPLY_BYTES)
                .await
                .unwrap_or_default();
            return self.refused(status, &bytes, Some(id));
        }
        match content_type.as_str() {
            "application/json" => {
                let bytes = read_all(&mut body, MAX_REPLY_BYTES)
                    .await
                    .map_err(|e| self.failed(e))?;
                let reply: Value = serde_json::from_slice(&bytes)
                    .map_err(|e| self.failed(format!("the reply is not JSON: {e}")))?;
                match reply.get("id") == Some(&json!(id)) {
                    true => Ok(reply),
                    false => {
                        Err(self.failed(format!("the reply is not a response to request {id}")))
                    }
                }
            }
            "text/event-stream" => self.read_reply_events(id, body, progress).await,
            other => Err(self.failed(format!(
                "HTTP {status} with Content-Type `{other}`, neither JSON nor an event stream"
            ))),
        }
    }

    /// A notification in the stream of request `id`: its own progress to `progress`,
    /// anything else to the notification handler.
    fn notified(
        &self,
        id: Option<i64>,
        method: &str,
        params: &Value,
        progress: Option<&ProgressHandler>,
    ) {
        if let (true, Some(handler), Some((token, report))) = (
            method == "notifications/progress",
            progress,
            observe::progress_of(params),
        ) && Some(token) == id
        {
            return handler(report);
        }
        if let Some(handler) = &self.notifications {
            handler(method, params);
        }
    }

    /// A status that is not success: the JSON-RPC error response to `id` when the body is
    /// one (a refusal, as 2026-07-28 sends with 400 and 404), else a transport error
    /// naming the status (and, for a 404 in a session, that the session is gone).
    fn refused(
        &self,
        status: StatusCode,
        body: &[u8],
        id: Option<i64>,
    ) -> Result<Value, ClientError> {
        let reply = serde_json::from_slice::<Value>(body).ok();
        if let Some(session) = self
            .session
            .as_ref()
            .filter(|_| status == StatusCode::NOT_FOUND)
        {
            return Err(self.failed(format!(
                "HTTP 404: the session `{session}` is gone (the server ended it, or restarted); connect again"
            )));
        }
        if let Some(reply) = reply.as_ref().filter(|r| {
            r.get("error").is_some() && id.is_some_and(|id| r.get("id") == Some(&json!(id)))
        }) {
            return Ok(reply.clone());
        }
        let said = reply
            .as_ref()
            .and_then(|r| r.pointer("/error/message"))
            .and_then(Value::as_str)
            .map(str::to_owned)
            .unwrap_or_else(|| String::from_utf8_lossy(&body[..body.len().min(200)]).into_owned());
        let said = match said.trim() {
            "" => String::new(),
            text => format!(": {text}"),
        };
        if status == StatusCode::UNAUTHORIZED || status == StatusCode::FORBIDDEN {
            return Err(ClientError::Authorization(format!(
                "{} answered HTTP {status}{said}",
                self.endpoint.url
            )));
        }
        Err(self.failed(format!("HTTP {status}{said}")))
    }

    fn failed(&self, what: String) -> ClientError {
        ClientError::Transport(format!("POST {}: {what}", self.endpoint.url))
    }
}

/// The media type of a response, lowercased, without parameters.
fn content_type(response: &Response) -> String {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(|v| v.trim().to_ascii_lowercase())
        .unwrap_or_default()
}

/// A request awaiting its reply; dropped before it (the caller stopped waiting), it tells
/// the server with `notifications/cancelled`.
struct InFlight<'a> {
    peer: &'a Arc<Peer>,
    id: i64,
    cancel: bool,
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        if self.cancel {
            let peer = Arc::clone(self.peer);
            let params = observe::cancelled(self.id);
            runtime.spawn(async move {
                if let Err(e) = peer.notify("notifications/cancelled", params).await {
                    tracing::debug!(error = %e, "a cancellation was not delivered");
                }
            });
        }
    }
}

/// The newest revision this runtime knows among a list of revision names.
fn newest_known(supported: Option<&Value>) -> Option<Revision> {
    supported?
        .as_array()?
        .iter()
        .filter_map(|v| Revision::parse(v.as_str()?))
        .max()
}
