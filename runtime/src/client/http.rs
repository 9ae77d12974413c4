//! A server at an `http://` URL, spoken to over Streamable HTTP (features `client` and
//! `http`): each message its own POST, each reply JSON or an event stream.
//!
//! See [`HttpTransport`] for how the revision is chosen and what each mode sends.

mod exchange;
mod mirror;
mod sse;

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use hyper::body::Incoming;
use hyper::{Method, Response, StatusCode, header};
use serde_json::{Map, Value, json};

use super::observe::{self, NotificationHandler, ProgressHandler};
use super::{ClientError, ReplyFuture, RequestHandler, Transport, input};
use crate::protocol::{Revision, RpcError, code, reply_message, reply_result};
use exchange::{Endpoint, next_piece, read_all};
use sse::{EventReader, StreamError};

/// The longest reply body (a JSON reply, or one event of a stream) the transport buffers.
pub const MAX_REPLY_BYTES: usize = 64 * 1024 * 1024;

/// What a POST accepts: both, as the transport requires of clients.
const ACCEPT: &str = "application/json, text/event-stream";

/// The `_meta` keys of a 2026-07-28 request.
const META_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
const META_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
const META_CLIENT: &str = "io.modelcontextprotocol/clientInfo";
const META_SERVER: &str = "io.modelcontextprotocol/serverInfo";

/// A connection to an MCP server over Streamable HTTP (plain `http://`, HTTP/1.1; each
/// request on a TCP connection of its own).
///
/// [`connect`](HttpTransport::connect) chooses the revision:
///
/// 1. It sends `server/discover` as a 2026-07-28 request (its `_meta` and the
///    `MCP-Protocol-Version`, `Mcp-Method` headers). A result listing 2026-07-28 makes the
///    transport stateless: every later request carries the revision, the client's
///    capabilities and info in `_meta`, and the `MCP-Protocol-Version`, `Mcp-Method` and
///    (for `tools/call`, `prompts/get`, `resources/read`, `tasks/*`) `Mcp-Name` headers.
/// 2. A modern refusal, "unsupported protocol version" (`-32022`), or a result that does
///    not list 2026-07-28, names the revisions the server speaks: the newest of them this
///    runtime knows is offered in `initialize`. Another modern error (`-32020`, `-32021`)
///    is returned as [`ClientError::Protocol`].
/// 3. Any other answer (a 4xx without a modern error, a legacy server's error) falls back
///    to the `initialize` handshake offering 2025-11-25; the server may answer an older
///    revision, accepted if this runtime knows it. The `Mcp-Session-Id` it returns is sent
///    on every later request, with `MCP-Protocol-Version`; then `notifications/initialized`.
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
/// [`NotificationHandler`] (log messages and the rest). Under 2026-07-28 the server asks
/// for input with an `input_required` result instead (`tools/call`, `prompts/get`,
/// `resources/read`): its `inputRequests` go to the same handler, and the request is sent
/// again with their answers as `inputResponses` and the server's `requestState`, until the
/// result is another one; a request the handler does not answer ends the call with
/// [`ClientError::Input`]. Every other 2026-07-28 result is returned as it came
/// (`resultType`, `_meta` and cache hints included). Tool parameters marked
/// `x-mcp-header` are not mirrored into `Mcp-Param-*` headers, so a 2026-07-28 server
/// refuses calls that give them (`-32020`); a handshake revision
/// ([`HttpTransportBuilder::revision`]) calls such tools.
///
/// Errors are [`ClientError::Transport`] naming the HTTP method, the URL and the status
/// (the server unreachable, a status without a JSON-RPC reply to the request, a body that
/// is not JSON or is longer than [`MAX_REPLY_BYTES`], a 404 in a session: the session is
/// gone), and [`ClientError::Protocol`] for a JSON-RPC error reply, whatever its status.
pub struct HttpTransport {
    peer: Arc<Peer>,
    revision: Revision,
    opening: Value,
}

/// Options for [`HttpTransport::builder`]: a handler for the server's requests, the
/// capabilities declared, and a revision to use instead of negotiating one.
pub struct HttpTransportBuilder {
    url: String,
    handler: Option<RequestHandler>,
    notifications: Option<NotificationHandler>,
    capabilities: Value,
    revision: Option<Revision>,
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
            true => self.opening.get("_meta").and_then(|m| m.get(META_SERVER)),
            false => self.opening.get("serverInfo"),
        };
        info.filter(|i| i.is_object())
    }

    /// Ends the session: a `DELETE` with its id (a server that does not let clients end
    /// sessions answers 405, and one that ended it already 404: both are fine). Without a
    /// session there is nothing to end.
    pub async fn close(self) -> Result<(), ClientError> {
        let Some(session) = &self.peer.session else {
            return Ok(());
        };
        let endpoint = &self.peer.endpoint;
        let response = endpoint
            .send(Method::DELETE, &self.peer.headers(), None)
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
            endpoint.url
        )))
    }
}

impl HttpTransportBuilder {
    /// Routes the server's requests to the client to `handler`.
    pub fn on_request(mut self, handler: RequestHandler) -> Self {
        self.handler = Some(handler);
        self
    }

    /// Routes the notifications in the server's event streams (log messages, and progress
    /// no [`with_progress`](super::with_progress) awaits) to `handler`; without one they
    /// are dropped.
    pub fn on_notification(mut self, handler: NotificationHandler) -> Self {
        self.notifications = Some(handler);
        self
    }

    /// The client capabilities declared (`initialize`'s `capabilities`, or every 2026-07-28
    /// request's `_meta`); `{}` by default.
    pub fn capabilities(mut self, capabilities: Value) -> Self {
        self.capabilities = capabilities;
        self
    }

    /// Uses `revision` without negotiating: 2026-07-28 requires `server/discover` to
    /// succeed, a handshake revision requires `initialize` to answer it.
    pub fn revision(mut self, revision: Revision) -> Self {
        self.revision = Some(revision);
        self
    }

    /// Connects (see [`HttpTransport`] for the negotiation).
    pub async fn connect(self) -> Result<HttpTransport, ClientError> {
        let mut peer = Peer {
            endpoint: Endpoint::parse(&self.url)?,
            revision: None,
            session: None,
            handler: self.handler,
            notifications: self.notifications,
            capabilities: self.capabilities,
            next_id: AtomicI64::new(1),
        };
        let (revision, opening) = match self.revision {
            Some(wanted) if wanted.is_stateless() => (wanted, peer.discover(wanted).await??),
            Some(wanted) => (wanted, peer.initialize(wanted, true).await?),
            None => peer.negotiate().await?,
        };
        peer.revision = Some(revision);
        Ok(HttpTransport {
            peer: Arc::new(peer),
            revision,
            opening,
        })
    }
}

impl HttpTransport {
    /// One request and its reply, whatever the result.
    async fn request_once(&self, method: &str, params: Value) -> Result<Value, ClientError> {
        let progress = observe::progress_handler();
        let id = self.peer.next_id();
        let params = match progress {
            Some(_) => observe::with_token(params, id),
            None => params,
        };
        let mut in_flight = InFlight {
            peer: &self.peer,
            id,
            // A 2026-07-28 request is cancelled by closing its connection, which
            // dropping the response does.
            cancel: method != "initialize" && !self.peer.stateless(),
        };
        let reply = async {
            let response = self.peer.send_request(id, method, params).await?;
            self.peer.reply_to(id, response, progress.as_ref()).await
        }
        .await;
        in_flight.cancel = false;
        Ok(reply_result(reply?)?)
    }
}

impl Transport for HttpTransport {
    fn request<'a>(&'a self, method: &'a str, params: Value) -> ReplyFuture<'a> {
        Box::pin(async move {
            if !self.peer.stateless() {
                return self.request_once(method, params).await;
            }
            let handler = self.peer.handler.as_deref();
            input::answering(method, params, handler, |params| {
                self.request_once(method, params)
            })
            .await
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

/// What every request needs: where to send it and the state the server gave.
struct Peer {
    endpoint: Endpoint,
    /// `None` until the revision is settled (`initialize` goes without the header).
    revision: Option<Revision>,
    session: Option<String>,
    handler: Option<RequestHandler>,
    notifications: Option<NotificationHandler>,
    capabilities: Value,
    next_id: AtomicI64,
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
            "clientInfo": client_info(),
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

    /// POSTs a message: under 2026-07-28 its params carry `_meta` and its method and item
    /// are mirrored in headers.
    async fn post(&self, mut message: Value) -> Result<Response<Incoming>, ClientError> {
        let mut headers = self.headers();
        if let (true, Some(method)) = (
            self.stateless(),
            message.get("method").and_then(Value::as_str),
        ) {
            let method = method.to_owned();
            let params = self.with_meta(message["params"].take());
            headers.extend(mirror::standard(&method, &params));
            message["params"] = params;
        }
        let body = message.to_string().into_bytes();
        self.endpoint.send(Method::POST, &headers, Some(body)).await
    }

    /// POSTs the request `method` as request `id`; the response as it starts.
    async fn send_request(
        &self,
        id: i64,
        method: &str,
        params: Value,
    ) -> Result<Response<Incoming>, ClientError> {
        let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.post(message).await
    }

    /// The id of the next request.
    fn next_id(&self) -> i64 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    /// POSTs a notification, or the client's answer to a request of the server.
    async fn send_message(&self, message: Value) -> Result<(), ClientError> {
        let response = self.post(message).await?;
        let (head, mut body) = response.into_parts();
        let bytes = read_all(&mut body, MAX_REPLY_BYTES)
            .await
            .unwrap_or_default();
        if head.status.is_success() {
            return Ok(());
        }
        Err(self
            .refused(head.status, &bytes, None)
            .err()
            .unwrap_or_else(|| self.failed(format!("HTTP {}", head.status))))
    }

    async fn notify(&self, method: &str, params: Value) -> Result<(), ClientError> {
        self.send_message(json!({"jsonrpc": "2.0", "method": method, "params": params}))
            .await
    }

    /// `params` with the 2026-07-28 `_meta` keys (the revision always; capabilities and
    /// client info unless the caller gave its own).
    fn with_meta(&self, params: Value) -> Value {
        let mut params = match params {
            Value::Object(params) => params,
            Value::Null => Map::new(),
            other => return other,
        };
        let meta = params.entry("_meta").or_insert_with(|| json!({}));
        if let (Value::Object(meta), Some(revision)) = (meta, self.revision) {
            meta.insert(META_VERSION.into(), revision.as_str().into());
            meta.entry(META_CAPABILITIES)
                .or_insert_with(|| self.capabilities.clone());
            meta.entry(META_CLIENT).or_insert_with(client_info);
        }
        Value::Object(params)
    }

    /// The JSON-RPC response to request `id`, from a JSON body or an event stream.
    async fn reply_to(
        &self,
        id: i64,
        response: Response<Incoming>,
        progress: Option<&ProgressHandler>,
    ) -> Result<Value, ClientError> {
        let (head, mut body) = response.into_parts();
        let content_type = head
            .headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .map(|v| v.trim().to_ascii_lowercase())
            .unwrap_or_default();
        if !head.status.is_success() {
            let bytes = read_all(&mut body, MAX_REPLY_BYTES)
                .await
                .unwrap_or_default();
            return self.refused(head.status, &bytes, Some(id));
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
            "text/event-stream" => self.read_events(id, &mut body, progress).await,
            other => Err(self.failed(format!(
                "HTTP {} with Content-Type `{other}`, neither JSON nor an event stream",
                head.status
            ))),
        }
    }

    /// Reads an event stream up to the response to `id`, answering the server's requests.
    async fn read_events(
        &self,
        id: i64,
        body: &mut Incoming,
        progress: Option<&ProgressHandler>,
    ) -> Result<Value, ClientError> {
        let mut reader = EventReader::default();
        while let Some(piece) = next_piece(body).await.map_err(|e| self.failed(e))? {
            let events = reader.feed(&piece, MAX_REPLY_BYTES).map_err(|e| match e {
                StreamError::TooLong => {
                    self.failed(format!("an event is longer than {MAX_REPLY_BYTES} bytes"))
                }
                StreamError::NotUtf8 => self.failed("the event stream is not UTF-8".into()),
            })?;
            for data in events.iter().filter(|d| !d.is_empty()) {
                let Ok(message) = serde_json::from_str::<Value>(data) else {
                    tracing::debug!("skipping an event that is not JSON");
                    continue;
                };
                match (
                    message.get("method").and_then(Value::as_str),
                    message.get("id"),
                ) {
                    (Some(method), Some(request)) => {
                        let params = message.get("params").unwrap_or(&Value::Null);
                        let answer = self.answer(method, params);
                        self.send_message(reply_message(request.clone(), answer))
                            .await?;
                    }
                    (None, Some(answered)) if *answered == json!(id) => return Ok(message),
                    (Some(method), None) => {
                        let params = message.get("params").unwrap_or(&Value::Null);
                        self.notified(id, method, params, progress);
                    }
                    _ => {}
                }
            }
        }
        Err(self.failed("the event stream ended before the reply".into()))
    }

    /// A notification in the stream of request `id`: its own progress to `progress`,
    /// anything else to the notification handler.
    fn notified(&self, id: i64, method: &str, params: &Value, progress: Option<&ProgressHandler>) {
        if let (true, Some(handler), Some((token, report))) = (
            method == "notifications/progress",
            progress,
            observe::progress_of(params),
        ) && token == id
        {
            return handler(report);
        }
        if let Some(handler) = &self.notifications {
            handler(method, params);
        }
    }

    /// The handler's answer to a request of the server.
    fn answer(&self, method: &str, params: &Value) -> Result<Value, RpcError> {
        input::ask(self.handler.as_deref(), method, params)
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
        Err(self.failed(format!("HTTP {status}{said}")))
    }

    fn failed(&self, what: String) -> ClientError {
        ClientError::Transport(format!("POST {}: {what}", self.endpoint.url))
    }
}

/// The newest revision this runtime knows among a list of revision names.
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

fn newest_known(supported: Option<&Value>) -> Option<Revision> {
    supported?
        .as_array()?
        .iter()
        .filter_map(|v| Revision::parse(v.as_str()?))
        .max()
}

fn client_info() -> Value {
    json!({"name": "toolidl-client", "version": env!("CARGO_PKG_VERSION")})
}
