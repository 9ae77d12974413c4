//! Sessions shared by instances on Redis (feature `redis`): a session stays on the instance
//! whose `initialize` opened it — its connection, calls, GET stream, replay buffer and the
//! requests its handlers sent to the client — and that instance records its address in the
//! server's session directory. A request of the session reaching another instance (an
//! ordinary round-robin balancer, no affinity) is forwarded there whole, and the answer,
//! JSON or event stream, relayed as it comes: a `POST` (a call, or the client's answer to
//! an elicitation or sampling request), a `GET` (the session's stream, or a resumption with
//! `Last-Event-ID`, which the holder replays from its buffer) and a `DELETE`.
//!
//! Faults: Redis unreachable → 503 with `Retry-After` for a session this instance does not
//! hold; the holder unreachable (it died, or shut down) → the session is gone: 404, and
//! the client initializes again.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use hyper::http::request::Parts;
use hyper::{Request, Response, StatusCode, header};
use hyper_util::rt::TokioIo;

use super::body::{self, Out};
use super::headers;
use super::limits::ClientKey;
use super::post::refused;
use super::state::State;

/// Marks a forwarded request: its receiver answers it itself, never forwards it again.
const FORWARDED: &str = "x-toolidl-forwarded";
/// How long connecting to the holder may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(1);
/// Hop-by-hop headers, not passed on either way.
const HOP: [&str; 6] = [
    "connection",
    "keep-alive",
    "transfer-encoding",
    "te",
    "upgrade",
    "proxy-connection",
];

/// A session's request that another instance holds: the response forwarding it there got
/// (`body`: the POST's, read already). `Err` gives the body back: this instance answers
/// (no directory, not a session request, a session it holds, one no instance holds, or a
/// request forwarded to it already). The relayed answer holds one of the client's slots
/// here, as if this instance served it: a request's for a `POST`, a stream's for a `GET`.
pub(crate) async fn elsewhere(
    state: &Arc<State>,
    parts: &Parts,
    body: Vec<u8>,
    client: &ClientKey,
    peer: Option<SocketAddr>,
) -> Result<Response<Out>, Vec<u8>> {
    let Some(directory) = state.directory.as_ref() else {
        return Err(body);
    };
    if state.config.stateless {
        return Err(body);
    }
    let Some(Some(id)) = headers::value(parts, "mcp-session-id") else {
        return Err(body);
    };
    if state.sessions.get(id).is_some() {
        directory.claim(id).await;
        return Err(body);
    }
    if parts.headers.contains_key(FORWARDED) {
        return Err(body);
    }
    let owner = match directory.owner(id).await {
        Ok(Some(owner)) if owner != directory.addr() => owner,
        Ok(_) => return Err(body),
        Err(e) => {
            tracing::warn!(session = id, error = %e, "looking up a session in Redis failed");
            let r = body::error(
                StatusCode::SERVICE_UNAVAILABLE,
                "Service unavailable: the session store cannot be reached; retry later.",
            );
            return Ok(retry_later(state, r));
        }
    };
    let ticket = match parts.method {
        hyper::Method::POST => Some(
            state
                .requests
                .try_take(client)
                .map_err(|r| (r, "requests in flight")),
        ),
        hyper::Method::GET => Some(
            state
                .streams
                .try_take(client)
                .map_err(|r| (r, "open streams")),
        ),
        _ => None,
    };
    let ticket = match ticket.transpose() {
        Ok(t) => t,
        Err((refusal, what)) => return Ok(refused(&state.config, refusal, "null", what)),
    };
    match forward(&owner, parts, body, peer).await {
        Ok((head, incoming)) => {
            // A GET stream lasts: it ends when this instance shuts down, as its own do.
            let stop =
                (parts.method == hyper::Method::GET).then(|| super::post::stop_future(state));
            let body = Out::Forwarded(Box::new(body::Forwarded {
                incoming,
                stop,
                _ticket: ticket,
            }));
            Ok(Response::from_parts(head, body))
        }
        Err((e, body)) => {
            // Its holder is gone, and the session with it.
            tracing::info!(session = id, holder = %owner, error = %e, "the instance holding a session cannot be reached; the session is gone");
            directory.release(id).await;
            Err(body)
        }
    }
}

fn retry_later(state: &State, mut r: Response<Out>) -> Response<Out> {
    r.headers_mut().insert(
        header::RETRY_AFTER,
        header::HeaderValue::from(state.config.retry_after_secs),
    );
    r
}

/// Sends the request to `owner` on a connection of its own and relays the response; the
/// body back with the error when the holder cannot be reached.
async fn forward(
    owner: &str,
    parts: &Parts,
    bytes: Vec<u8>,
    peer: Option<SocketAddr>,
) -> Result<(hyper::http::response::Parts, hyper::body::Incoming), (std::io::Error, Vec<u8>)> {
    let connect = tokio::net::TcpStream::connect(owner);
    let tcp = match tokio::time::timeout(CONNECT_TIMEOUT, connect).await {
        Ok(Ok(tcp)) => tcp,
        Ok(Err(e)) => return Err((e, bytes)),
        Err(_) => {
            let e = std::io::Error::new(std::io::ErrorKind::TimedOut, "connect timed out");
            return Err((e, bytes));
        }
    };
    let _ = tcp.set_nodelay(true);
    let (mut sender, conn) = match hyper::client::conn::http1::handshake(TokioIo::new(tcp)).await {
        Ok(pair) => pair,
        Err(e) => return Err((std::io::Error::other(e), bytes)),
    };
    tokio::spawn(async move {
        if let Err(e) = conn.await {
            tracing::debug!(error = %e, "a forwarded session request's connection failed");
        }
    });
    let mut request = Request::builder()
        .method(parts.method.clone())
        .uri(parts.uri.path_and_query().map_or("/", |p| p.as_str()));
    for (name, value) in &parts.headers {
        if !HOP.contains(&name.as_str())
            && name != header::CONTENT_LENGTH
            && name.as_str() != "x-forwarded-for"
        {
            request = request.header(name, value);
        }
    }
    // As a proxy: the address this request came from joins X-Forwarded-For, so that the
    // holder (trusting this instance) counts it against its client, not this instance.
    if let Some(forwarded) = peer.map(|peer| forwarded_for(parts, peer)) {
        request = request.header("x-forwarded-for", forwarded);
    }
    // Shared, not copied, until the request is sent: a refused connection hands it back
    // for this instance to answer.
    let bytes = hyper::body::Bytes::from(bytes);
    let body = if bytes.is_empty() {
        Out::Empty
    } else {
        Out::Full(Some(bytes.clone()))
    };
    let request = match request.header(FORWARDED, "1").body(body) {
        Ok(r) => r,
        Err(e) => return Err((std::io::Error::other(e), bytes.to_vec())),
    };
    let response = match sender.send_request(request).await {
        Ok(r) => r,
        Err(e) => return Err((std::io::Error::other(e), bytes.to_vec())),
    };
    let (mut head, incoming) = response.into_parts();
    for name in HOP {
        head.headers.remove(name);
    }
    Ok((head, incoming))
}

/// `X-Forwarded-For` with the address this instance got the request from added at the end.
fn forwarded_for(parts: &Parts, peer: SocketAddr) -> String {
    let mut list: Vec<&str> = parts
        .headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect();
    let peer = peer.ip().to_string();
    list.push(&peer);
    list.join(", ")
}
