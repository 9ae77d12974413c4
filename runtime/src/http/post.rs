//! POST: one JSON-RPC message, served in a session, or alone (2026-07-28, stateless mode).

use std::borrow::Cow;
use std::sync::Arc;

use hyper::http::request::Parts;
use hyper::{Response, StatusCode, header};
use serde::Deserialize;
use serde_json::value::RawValue;
use tokio::sync::mpsc;

use super::body::{self, Answer, BodyError, BodySlot, Guard, Out, Pulse, RequestBody, Resumable};
use super::config::HttpConfig;
use super::headers::{self, Mirrored};
use super::limits::{ClientKey, Refusal, Ticket};
use super::params;
use super::sessions::{Limits, Session, new_session_id, reject_long};
use super::state::State;
use crate::connection::Connection;
use crate::peer::Identity;
use crate::protocol::Revision;
use crate::protocol::{self, Incoming as Message, RpcError, code};
use crate::protocol::{Method, Named, Notification};
use crate::service::BoxFuture;

/// What the transport reads of a message before handing it to a connection.
struct Peek<'a> {
    kind: Kind,
    /// The request's id, raw JSON, when it is a string or an integer.
    id: Option<&'a str>,
    method: Option<Cow<'a, str>>,
    /// The method, when the server knows it: its name matched once, here.
    known: Option<Method>,
    /// `params._meta["io.modelcontextprotocol/protocolVersion"]`.
    version: Option<Cow<'a, str>>,
    /// `params.name`, `params.uri` or `params.taskId`, for the methods `Mcp-Name` mirrors.
    name: Option<Cow<'a, str>>,
    /// `params.arguments` of a `tools/call`, for its `Mcp-Param-*` headers.
    arguments: Option<&'a RawValue>,
    /// The message as parsed, handed on so that a connection does not parse it again.
    message: Option<Message<'a>>,
    /// The request's verified access token, handed to the connection with the message.
    #[cfg(feature = "auth")]
    auth: Option<Arc<crate::auth::AuthInfo>>,
    /// Whether the lists it asks for show only what the token's scopes allow.
    #[cfg(feature = "auth")]
    filter_listings: bool,
    /// The tools, prompts and resources the request acts on, whose scopes it needs.
    #[cfg(feature = "auth")]
    scoped: Vec<(super::authorize::Item, Cow<'a, str>)>,
    /// The address the request came from, handed to the connection (per-client limits).
    client: Option<std::net::IpAddr>,
    /// What the request's span reads of the HTTP request (feature `otel`).
    #[cfg(feature = "otel")]
    http: Option<Arc<crate::telemetry::HttpInfo>>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Request,
    Notification,
    Response,
    /// Not a readable message: the connection answers it with an error.
    Invalid,
}

#[derive(Deserialize, Default)]
struct PeekParams<'a> {
    #[serde(borrow, default, rename = "_meta")]
    meta: Option<PeekMeta<'a>>,
    #[serde(borrow, default)]
    name: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    uri: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    arguments: Option<&'a RawValue>,
    #[serde(borrow, default, rename = "taskId")]
    task_id: Option<Cow<'a, str>>,
    // Read for the scope checks only, and as the connection reads them (`Value`), so that
    // these params fail to parse only where the connection's fail too: a request cannot
    // slip past its check by a shape the connection would accept.
    #[cfg(feature = "auth")]
    #[serde(default, rename = "ref")]
    reference: Option<serde_json::Value>,
    #[cfg(feature = "auth")]
    #[serde(default)]
    notifications: Option<serde_json::Value>,
}

#[derive(Deserialize, Default)]
struct PeekMeta<'a> {
    #[serde(borrow, default, rename = "io.modelcontextprotocol/protocolVersion")]
    protocol_version: Option<Cow<'a, str>>,
}

fn peek(text: &str) -> Peek<'_> {
    let invalid = Peek {
        kind: Kind::Invalid,
        id: None,
        method: None,
        known: None,
        version: None,
        name: None,
        arguments: None,
        message: None,
        #[cfg(feature = "auth")]
        auth: None,
        #[cfg(feature = "auth")]
        filter_listings: false,
        #[cfg(feature = "auth")]
        scoped: Vec::new(),
        client: None,
        #[cfg(feature = "otel")]
        http: None,
    };
    let Ok(msg) = serde_json::from_str::<Message>(text) else {
        return invalid;
    };
    let id = msg
        .id
        .filter(|id| protocol::valid_id(id))
        .map(RawValue::get);
    let kind = match (&msg.method, msg.id) {
        (Some(_), Some(_)) if id.is_some() => Kind::Request,
        (Some(_), None) => Kind::Notification,
        (None, Some(_)) if msg.result.is_some() || msg.error.is_some() => Kind::Response,
        _ => Kind::Invalid,
    };
    let params = msg
        .params
        .filter(|p| p.get().starts_with('{'))
        .and_then(|p| serde_json::from_str::<PeekParams>(p.get()).ok())
        .unwrap_or_default();
    let known = msg.method.as_deref().and_then(Method::parse);
    #[cfg(feature = "auth")]
    let scoped = scoped_items(known, &params);
    let name = match known.and_then(Method::named_by) {
        Some(Named::Name) => params.name,
        Some(Named::Uri) => params.uri,
        Some(Named::TaskId) => params.task_id,
        None => None,
    };
    let arguments = match known {
        Some(Method::CallTool) => params.arguments,
        _ => None,
    };
    Peek {
        kind,
        id,
        method: msg.method.clone(),
        known,
        version: params.meta.and_then(|m| m.protocol_version),
        name,
        arguments,
        message: Some(msg),
        #[cfg(feature = "auth")]
        auth: None,
        #[cfg(feature = "auth")]
        filter_listings: false,
        #[cfg(feature = "auth")]
        scoped,
        client: None,
        #[cfg(feature = "otel")]
        http: None,
    }
}

/// The items a request acts on, each needing its declared scopes: the tool of `tools/call`,
/// the prompt of `prompts/get`, the resource of `resources/read` and `resources/subscribe`,
/// the prompt or resource template a `completion/complete` completes, and every URI of a
/// `subscriptions/listen`'s `resourceSubscriptions`.
#[cfg(feature = "auth")]
fn scoped_items<'a>(
    method: Option<Method>,
    params: &PeekParams<'a>,
) -> Vec<(super::authorize::Item, Cow<'a, str>)> {
    use super::authorize::Item;
    let text = |v: &serde_json::Value, key: &str| {
        v.get(key)
            .and_then(serde_json::Value::as_str)
            .map(|s| Cow::Owned(s.to_owned()))
    };
    let one = |item: Item, name: &Option<Cow<'a, str>>| name.clone().map(|n| vec![(item, n)]);
    match method {
        Some(Method::CallTool) => one(Item::Tool, &params.name),
        Some(Method::GetPrompt) => one(Item::Prompt, &params.name),
        Some(Method::ReadResource | Method::Subscribe) => one(Item::Resource, &params.uri),
        Some(Method::Complete) => params.reference.as_ref().and_then(|r| {
            match r.get("type").and_then(serde_json::Value::as_str)? {
                "ref/prompt" => Some(vec![(Item::Prompt, text(r, "name")?)]),
                "ref/resource" => Some(vec![(Item::Resource, text(r, "uri")?)]),
                _ => None,
            }
        }),
        Some(Method::Listen) => params
            .notifications
            .as_ref()
            .and_then(|n| n.get("resourceSubscriptions")?.as_array())
            .map(|uris| {
                uris.iter()
                    .filter_map(serde_json::Value::as_str)
                    .map(|u| (Item::Resource, Cow::Owned(u.to_owned())))
                    .collect()
            }),
        _ => None,
    }
    .unwrap_or_default()
}

/// Who sent `p`'s message, as this transport verified it: handed to the connection with
/// the message.
fn identity(p: &Peek<'_>) -> Identity {
    Identity {
        #[cfg(feature = "auth")]
        auth: p.auth.clone(),
        #[cfg(feature = "auth")]
        filter_listings: p.filter_listings,
        client: p.client,
        #[cfg(feature = "otel")]
        http: p.http.clone(),
    }
}

/// What the spans of a POST's message read of it: its trace context headers, session, the
/// client's address and the HTTP version.
#[cfg(feature = "otel")]
fn http_info(parts: &Parts, client: &ClientKey) -> Arc<crate::telemetry::HttpInfo> {
    let header = |name: &str| match headers::value(parts, name) {
        Some(Some(v)) => Some(v.to_owned()),
        _ => None,
    };
    let address = match client {
        ClientKey::Addr(ip) => Some(*ip),
        _ => None,
    };
    let peer = parts
        .extensions
        .get::<crate::telemetry::Peer>()
        .map(|p| p.0)
        .or_else(|| super::limits::peer_of(parts, None));
    let http2 = parts.version == hyper::Version::HTTP_2;
    Arc::new(crate::telemetry::HttpInfo::new(
        header, address, peer, http2,
    ))
}

/// Completes when the server starts shutting down.
pub(crate) fn stop_future(state: &State) -> BoxFuture<()> {
    let mut rx = state.shutdown.clone();
    Box::pin(async move {
        let _ = rx.wait_for(|stopping| *stopping).await;
    })
}

/// The JSON-RPC method of a POST's message, for the transport's log line.
#[derive(Clone)]
pub(crate) struct McpMethod(pub Option<String>);

/// Reads a POST's body, whole within [`HttpConfig::body_timeout`]; one that has to be
/// waited for holds one of the client's body slots meanwhile. The response that refuses it
/// otherwise (without reading the rest, when the client has too many bodies on their way
/// already).
pub(crate) async fn read_body<B: RequestBody>(
    state: &Arc<State>,
    parts: &Parts,
    incoming: &mut B,
    client: &ClientKey,
) -> Result<Vec<u8>, Response<Out>> {
    let limit = state.config.max_body_bytes;
    let declared = parts
        .headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    let deadline = tokio::time::Instant::now() + state.config.body_timeout;
    let mut slot = BodySlot::new(&state.bodies, client);
    let read = body::read(incoming, declared, limit, deadline, &mut slot).await;
    drop(slot);
    match read {
        Ok(bytes) => Ok(bytes),
        Err(BodyError::Refused(refusal)) => {
            // Refused unread: the rest of the body is never waited for.
            let r = refused(
                &state.config,
                refusal,
                "null",
                "request bodies on their way",
            );
            Err(closing(r))
        }
        Err(BodyError::Broken) => Err(closing(body::error(
            StatusCode::BAD_REQUEST,
            "Bad request: the body could not be read.",
        ))),
        Err(BodyError::TimedOut) => Err(closing(body::error(
            StatusCode::REQUEST_TIMEOUT,
            "Request timeout: the body did not arrive in time.",
        ))),
        Err(BodyError::TooLarge(scanned, complete)) => {
            // Answered by the session's connection when there is one, so that an over-long
            // response from the client fails the request it answers, as on stdio.
            let session = match state.config.stateless {
                true => None,
                false => headers::value(parts, "mcp-session-id")
                    .flatten()
                    .and_then(|id| state.sessions.get(id)),
            };
            let scanned = Box::new(scanned);
            let reply = match session {
                Some(s) => s.reject_long(limit, scanned),
                None => Err(scanned),
            }
            .unwrap_or_else(|scanned| {
                let (conn, _outbox) = Connection::one_request(&state.server, state.runtime.clone());
                reject_long(&conn, limit, *scanned)
            });
            let r = body::json(StatusCode::PAYLOAD_TOO_LARGE, reply);
            Err(if complete { r } else { closing(r) })
        }
    }
}

/// `r` with `Connection: close`: the connection ends once it is sent.
fn closing(mut r: Response<Out>) -> Response<Out> {
    r.headers_mut().insert(
        header::CONNECTION,
        header::HeaderValue::from_static("close"),
    );
    r
}

/// The answer to a request a budget refused: 429 when the client holds its share of
/// `what`, 503 when the endpoint is full; with `Retry-After` and the request's `id`.
pub(crate) fn refused(
    config: &HttpConfig,
    refusal: Refusal,
    id: &str,
    what: &str,
) -> Response<Out> {
    let (status, text) = match refusal {
        Refusal::Client => (
            StatusCode::TOO_MANY_REQUESTS,
            format!("Too many requests: this client has too many {what}; retry later."),
        ),
        Refusal::Total => (
            StatusCode::SERVICE_UNAVAILABLE,
            format!("Service unavailable: too many {what}; retry later."),
        ),
    };
    retry_later(
        config,
        body::rpc_error(status, id, &RpcError::internal(text)),
    )
}

/// The answer to a POST that arrives while the endpoint shuts down: 503 with
/// `Retry-After`, and the connection closed, so that the client retries elsewhere.
pub(crate) fn shutting_down(config: &HttpConfig) -> Response<Out> {
    let e = crate::connection::shutting_down();
    closing(retry_later(
        config,
        body::rpc_error(StatusCode::SERVICE_UNAVAILABLE, "null", &e),
    ))
}

/// Serves one POST, its body read.
pub(crate) async fn post(
    state: &Arc<State>,
    parts: Parts,
    bytes: Vec<u8>,
    client: ClientKey,
) -> Response<Out> {
    let Ok(text) = String::from_utf8(bytes) else {
        let e = RpcError::new(
            code::PARSE_ERROR,
            "Parse error: the body is not valid UTF-8.",
        );
        return body::rpc_error(StatusCode::BAD_REQUEST, "null", &e);
    };
    let mut p = peek(&text);
    if let ClientKey::Addr(addr) = &client {
        p.client = Some(*addr);
    }
    #[cfg(feature = "auth")]
    {
        p.auth = super::authorize::identity(&parts);
        p.filter_listings = state
            .config
            .auth
            .as_ref()
            .is_some_and(|a| a.filter_listings);
    }
    #[cfg(feature = "otel")]
    if state.server.shared.telemetry.active() {
        p.http = Some(http_info(&parts, &client));
    }
    let mcp_method = McpMethod(p.method.as_deref().map(str::to_owned));
    // `return` in the block answers the request; the transport's log names its method.
    let mut response = async {
        let events_ok = accepts_events(&parts);
        let id = p.id.unwrap_or("null");
        let header_version = headers::value(&parts, "mcp-protocol-version");
        let header_modern = matches!(
            header_version,
            Some(Some(v)) if Revision::parse(v).is_some_and(Revision::is_stateless)
        );
        // A request holds a slot until it is answered: a long-lived stream one of the
        // streams' budget, any other one of the requests'. Notifications and responses
        // hold none, so that a cancellation or an answer always gets through.
        let listen = p.known == Some(Method::Listen) && (p.version.is_some() || header_modern);
        let ticket = match p.kind {
            Kind::Request if listen => match state.streams.try_take(&client) {
                Ok(t) => Some(t),
                Err(r) => return refused(&state.config, r, id, "open streams"),
            },
            Kind::Request => match state.requests.try_take(&client) {
                Ok(t) => Some(t),
                Err(r) => return refused(&state.config, r, id, "requests in flight"),
            },
            _ => None,
        };
        if p.version.is_some() || header_modern {
            if let (Kind::Request, Some(method)) = (p.kind, p.method.as_deref()) {
                let mirrored = Mirrored {
                    method,
                    version: p.version.as_deref(),
                    name: p.name.as_deref(),
                };
                if let Err(e) = headers::check_mirrored(&parts, &mirrored) {
                    return body::rpc_error(StatusCode::BAD_REQUEST, id, &e);
                }
                if let (Some(Method::CallTool), Some(tool)) = (p.known, p.name.as_deref()) {
                    let index = state.params.index(&state.server);
                    if let Some(annotated) = index.tool(tool)
                        && let Err(e) = params::check(&parts, annotated, p.arguments)
                    {
                        return body::rpc_error(StatusCode::BAD_REQUEST, id, &e);
                    }
                }
            }
            // The item is the one `Mcp-Method`/`Mcp-Name` name (checked equal to the body's).
            if let Some(refused) = refuse_scopes(state, &parts, &p, id) {
                return refused;
            }
            return alone(state, &text, &p, ticket, None, events_ok, true).await;
        }
        // The handshake revisions.
        let revision = match header_version {
            None => Revision::V2025_03_26,
            Some(v) => match v.and_then(Revision::parse).filter(|r| !r.is_stateless()) {
                Some(r) => r,
                None => {
                    let e = RpcError::new(
                        code::INVALID_REQUEST,
                        "Bad request: unsupported MCP-Protocol-Version header.",
                    );
                    return body::rpc_error(StatusCode::BAD_REQUEST, id, &e);
                }
            },
        };
        if let Some(refused) = refuse_scopes(state, &parts, &p, id) {
            return refused;
        }
        let initialize = p.kind == Kind::Request && p.known == Some(Method::Initialize);
        if state.config.stateless {
            let assume = (!initialize).then_some(revision);
            return alone(state, &text, &p, ticket, assume, events_ok, false).await;
        }
        match headers::value(&parts, "mcp-session-id") {
            None if initialize => open_session(state, &text, &p, &parts, client).await,
            None => {
                let e = RpcError::new(
                    code::INVALID_REQUEST,
                    "Bad request: the Mcp-Session-Id header is required (initialize first).",
                );
                body::rpc_error(StatusCode::BAD_REQUEST, id, &e)
            }
            Some(sid) => match sid
                .and_then(|sid| state.sessions.get(sid))
                .filter(|s| owned(s, &parts))
            {
                Some(session) => {
                    in_session(&state.config, session, &text, &p, ticket, events_ok).await
                }
                None => session_not_found(id),
            },
        }
    }
    .await;
    response.extensions_mut().insert(mcp_method);
    response
}

/// The 403 that refuses a request whose token lacks a scope its item needs (feature `auth`).
fn refuse_scopes(state: &State, parts: &Parts, p: &Peek<'_>, id: &str) -> Option<Response<Out>> {
    #[cfg(feature = "auth")]
    if let (Kind::Request, Some(method)) = (p.kind, p.method.as_deref()) {
        let items: Vec<_> = p.scoped.iter().map(|(k, n)| (*k, &**n)).collect();
        return super::authorize::refuse_scopes(state.protected()?, parts, method, &items, id);
    }
    let _ = (state, parts, p, id);
    None
}

/// Whether the request may use `session`: with authorization, only its subject's tokens may.
pub(crate) fn owned(session: &Session, parts: &Parts) -> bool {
    #[cfg(feature = "auth")]
    return super::authorize::owns(session, parts);
    #[cfg(not(feature = "auth"))]
    {
        let _ = (session, parts);
        true
    }
}

/// A 503 with the configured `Retry-After`.
fn retry_later(config: &HttpConfig, mut r: Response<Out>) -> Response<Out> {
    r.headers_mut().insert(
        header::RETRY_AFTER,
        header::HeaderValue::from(config.retry_after_secs),
    );
    r
}

fn session_not_found(id: &str) -> Response<Out> {
    let e = RpcError::new(
        code::INVALID_REQUEST,
        "Not found: no session has this Mcp-Session-Id (it ended, or never existed); initialize again.",
    );
    body::rpc_error(StatusCode::NOT_FOUND, id, &e)
}

/// Whether the client accepts an event stream (it must, but one that says it takes only
/// `application/json` gets JSON, without the messages sent before the reply).
fn accepts_events(parts: &Parts) -> bool {
    match headers::value(parts, header::ACCEPT.as_str()) {
        Some(Some(accept)) => {
            let accept = accept.to_ascii_lowercase();
            accept.contains("text/event-stream") || accept.contains("*/*")
        }
        _ => true,
    }
}

/// Serves a message on a connection of its own: a 2026-07-28 request, or any message in
/// stateless mode (`assume`: the revision to serve a handshake-revision request in).
/// Dropping the response (the client went away) cancels the call.
async fn alone(
    state: &Arc<State>,
    text: &str,
    p: &Peek<'_>,
    ticket: Option<Ticket>,
    assume: Option<Revision>,
    events_ok: bool,
    modern: bool,
) -> Response<Out> {
    let (conn, _outbox) = Connection::one_request(&state.server, state.runtime.clone());
    if let Some(revision) = assume {
        conn.assume_session(revision);
    }
    let (tx, rx) = mpsc::unbounded_channel();
    match &p.message {
        Some(message) => conn.handle_routed_message(message.clone(), tx, identity(p)),
        None => conn.handle_routed(text, tx, identity(p)),
    }
    let listen = modern && p.known == Some(Method::Listen);
    let pulse = match (listen, p.id) {
        (true, Some(id)) => {
            Pulse::long_lived(&state.config, Some(protocol::listen_complete_message(id)))
        }
        _ => Pulse::request(&state.config),
    };
    body::answer(Answer {
        rx,
        guard: Guard {
            _ticket: ticket,
            own_connection: Some(conn),
            session: None,
            stream: false,
        },
        modern,
        request: p.kind == Kind::Request,
        events_ok,
        stream_results: state.config.stream_results,
        stop: listen.then(|| stop_future(state)),
        pulse,
        resumable: Resumable::default(),
    })
    .await
}

/// `initialize` without a session: a new connection; on success it becomes a session and
/// its id goes out in `Mcp-Session-Id`.
async fn open_session(
    state: &Arc<State>,
    text: &str,
    p: &Peek<'_>,
    parts: &Parts,
    client: ClientKey,
) -> Response<Out> {
    let (conn, outbox) = Connection::new(&state.server, state.runtime.clone());
    let (tx, mut rx) = mpsc::unbounded_channel();
    conn.handle_routed(text, tx, identity(p));
    // `initialize` is answered at once.
    let Ok(reply) = rx.try_recv() else {
        let e = RpcError::internal("Internal error.");
        return body::rpc_error(StatusCode::INTERNAL_SERVER_ERROR, "null", &e);
    };
    let status = body::status_of(&reply.text, false);
    if body::reply_error(&reply.text).is_some() {
        return body::json(status, reply.text);
    }
    let Some(id) = new_session_id() else {
        tracing::error!("the operating system's random number generator failed");
        let e = RpcError::internal("Internal error.");
        return body::rpc_error(StatusCode::INTERNAL_SERVER_ERROR, "null", &e);
    };
    let config = &state.config;
    let per_client = match &client {
        #[cfg(feature = "auth")]
        ClientKey::Principal(_) => Some(
            config
                .auth
                .as_ref()
                .map_or(config.max_sessions_per_client, |a| {
                    a.max_sessions_per_subject
                }),
        ),
        ClientKey::Unknown => None,
        _ => Some(config.max_sessions_per_client),
    };
    let session = Session::new(id.clone(), conn, outbox, config, client);
    #[cfg(feature = "auth")]
    super::authorize::bind(&session, parts);
    #[cfg(not(feature = "auth"))]
    let _ = parts;
    let limits = Limits {
        max: config.max_sessions,
        idle: config.session_idle,
        handshake: config.handshake_timeout,
        grace: config.session_grace,
        max_half_open: config.max_half_open_sessions,
        per_client,
    };
    if let Err(refusal) = state.sessions.insert(session, limits) {
        return refused(config, refusal, p.id.unwrap_or("null"), "sessions");
    }
    #[cfg(feature = "redis")]
    if let Some(directory) = &state.directory {
        // Before the client has the id: its next request may reach another instance.
        directory.claim(&id).await;
    }
    let mut r = body::json(status, reply.text);
    if let Ok(v) = header::HeaderValue::from_str(&id) {
        r.headers_mut().insert("mcp-session-id", v);
    }
    r
}

/// Serves a message in its session. The reply, and what the call sends before it, go to
/// this POST's response; closing it does not cancel the call (the client cancels with
/// `notifications/cancelled`).
async fn in_session(
    config: &HttpConfig,
    session: Arc<Session>,
    text: &str,
    p: &Peek<'_>,
    ticket: Option<Ticket>,
    events_ok: bool,
) -> Response<Out> {
    // Only requests count: a notification (a cancellation) or a response must get through
    // to free what the session holds.
    if p.kind != Kind::Request {
        session.acquire();
    } else if !session.try_acquire(config.max_in_flight_per_session) {
        let e = RpcError::internal(
            "Service unavailable: too many requests of this session in flight; retry later.",
        );
        let r = body::rpc_error(StatusCode::SERVICE_UNAVAILABLE, p.id.unwrap_or("null"), &e);
        return retry_later(config, r);
    }
    // 2025-11-25 event streams start with a priming event (SEP-1699).
    let prime = session
        .revision()
        .is_some_and(|r| r >= Revision::V2025_11_25)
        .then(|| u64::try_from(config.sse_retry.as_millis()).unwrap_or(u64::MAX));
    let close_early = p.known == Some(Method::CallTool)
        && p.name
            .as_deref()
            .is_some_and(|n| config.poll_tools.iter().any(|t| t == n));
    let notification = p.method.as_deref().and_then(Notification::parse);
    if notification == Some(Notification::Initialized) {
        session.settle();
    }
    let (tx, rx) = mpsc::unbounded_channel();
    let handled = session.handle(text, p.message.clone(), tx, identity(p));
    let guard = Guard {
        _ticket: ticket,
        own_connection: None,
        session: Some(session),
        stream: false,
    };
    if !handled {
        drop(guard);
        return session_not_found(p.id.unwrap_or("null"));
    }
    body::answer(Answer {
        rx,
        guard,
        modern: false,
        request: p.kind == Kind::Request,
        events_ok,
        stream_results: config.stream_results,
        stop: None,
        pulse: Pulse::request(config),
        resumable: Resumable { prime, close_early },
    })
    .await
}
