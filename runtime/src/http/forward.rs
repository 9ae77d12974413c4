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

use std::sync::Arc;
use std::time::Duration;

use hyper::http::request::Parts;
use hyper::{Request, Response, StatusCode, header};
use hyper_util::rt::TokioIo;

use super::body::{self, BodyError, Out, RequestBody};
use super::headers;
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

/// A session's request that another instance holds: the response forwarding it there got.
/// `None`: this instance answers (no directory, not a session request, a session it holds,
/// one no instance holds, or a request forwarded to it already).
pub(crate) async fn elsewhere<B: RequestBody>(
    state: &Arc<State>,
    parts: &Parts,
    incoming: &mut B,
) -> Option<Response<Out>> {
    let directory = state.directory.as_ref()?;
    if state.config.stateless {
        return None;
    }
    let id = headers::value(parts, "mcp-session-id")??;
    if state.sessions.get(id).is_some() {
        directory.claim(id).await;
        return None;
    }
    if parts.headers.contains_key(FORWARDED) {
        return None;
    }
    let owner = match directory.owner(id).await {
        Ok(Some(owner)) if owner != directory.addr() => owner,
        Ok(_) => return None,
        Err(e) => {
            tracing::warn!(session = id, error = %e, "looking up a session in Redis failed");
            let r = body::error(
                StatusCode::SERVICE_UNAVAILABLE,
                "Service unavailable: the session store cannot be reached; retry later.",
            );
            return Some(retry_later(state, r));
        }
    };
    let limit = state.config.max_body_bytes;
    let declared = parts
        .headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse().ok());
    let bytes = match body::read(incoming, declared, limit).await {
        Ok(b) => b,
        Err(BodyError::TooLarge(..)) => {
            let r = body::error(
                StatusCode::PAYLOAD_TOO_LARGE,
                "Payload too large: the request body is over the limit.",
            );
            return Some(body::drained(r, incoming, limit).await);
        }
        Err(BodyError::Broken) => {
            return Some(body::error(
                StatusCode::BAD_REQUEST,
                "Bad request: the request body could not be read.",
            ));
        }
    };
    match forward(&owner, parts, bytes).await {
        Ok((head, incoming)) => {
            // A GET stream lasts: it ends when this instance shuts down, as its own do.
            let stop =
                (parts.method == hyper::Method::GET).then(|| super::post::stop_future(state));
            let body = Out::Forwarded(Box::new(body::Forwarded { incoming, stop }));
            Some(Response::from_parts(head, body))
        }
        Err(e) => {
            // Its holder is gone, and the session with it.
            tracing::info!(session = id, holder = %owner, error = %e, "the instance holding a session cannot be reached; the session is gone");
            directory.release(id).await;
            None
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

/// Sends the request to `owner` on a connection of its own and relays the response.
async fn forward(
    owner: &str,
    parts: &Parts,
    bytes: Vec<u8>,
) -> std::io::Result<(hyper::http::response::Parts, hyper::body::Incoming)> {
    let connect = tokio::net::TcpStream::connect(owner);
    let tcp = tokio::time::timeout(CONNECT_TIMEOUT, connect)
        .await
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::TimedOut, "connect timed out"))??;
    let _ = tcp.set_nodelay(true);
    let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(tcp))
        .await
        .map_err(std::io::Error::other)?;
    tokio::spawn(async move {
        if let Err(e) = conn.await {
            tracing::debug!(error = %e, "a forwarded session request's connection failed");
        }
    });
    let mut request = Request::builder()
        .method(parts.method.clone())
        .uri(parts.uri.path_and_query().map_or("/", |p| p.as_str()));
    for (name, value) in &parts.headers {
        if !HOP.contains(&name.as_str()) && name != header::CONTENT_LENGTH {
            request = request.header(name, value);
        }
    }
    let request = request
        .header(FORWARDED, "1")
        .body(if bytes.is_empty() {
            Out::Empty
        } else {
            Out::Full(Some(bytes.into()))
        })
        .map_err(std::io::Error::other)?;
    let response = sender
        .send_request(request)
        .await
        .map_err(std::io::Error::other)?;
    let (mut head, incoming) = response.into_parts();
    for name in HOP {
        head.headers.remove(name);
    }
    Ok((head, incoming))
}
