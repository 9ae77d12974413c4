//! GET and DELETE on a session of the handshake revisions: the stream of its server
//! messages (resumable with `Last-Event-ID`), and ending it.

use std::sync::Arc;
use std::time::Duration;

use hyper::http::request::Parts;
use hyper::{Response, StatusCode};

use super::body::{self, Guard, Out, Pulse};
use super::headers;
use super::limits::ClientKey;
use super::post::{owned, refused, stop_future};
use super::replay::Resume;
use super::sessions::{OutboxLease, Session, lock};
use super::state::State;
use crate::protocol::Revision;

/// Whether a request names a stateless revision in `MCP-Protocol-Version`.
fn modern_header(parts: &Parts) -> bool {
    matches!(
        headers::value(parts, "mcp-protocol-version"),
        Some(Some(v)) if Revision::parse(v).is_some_and(Revision::is_stateless)
    )
}

/// The session a GET or DELETE names, or the response that refuses it.
fn named_session(state: &State, parts: &Parts) -> Result<Arc<Session>, Box<Response<Out>>> {
    if state.config.stateless || modern_header(parts) {
        return Err(Box::new(body::not_allowed(&state.config)));
    }
    match headers::value(parts, "mcp-session-id") {
        None => Err(Box::new(body::error(
            StatusCode::BAD_REQUEST,
            "Bad request: the Mcp-Session-Id header is required.",
        ))),
        Some(id) => id
            .and_then(|id| state.sessions.get(id))
            .filter(|s| owned(s, parts))
            .ok_or_else(|| {
                Box::new(body::error(
                    StatusCode::NOT_FOUND,
                    "Not found: no session has this Mcp-Session-Id (it ended, or never existed).",
                ))
            }),
    }
}

/// GET: the session's stream of messages tied to no request (list changes), as SSE. One
/// at a time (409 otherwise); it ends at shutdown or when the session ends. With
/// `Last-Event-ID`, first the events after that id on the stream it names: the GET
/// stream's, or a POST stream's (then the rest of that call's messages, up to its reply).
pub(crate) async fn get(state: &Arc<State>, parts: &Parts, client: &ClientKey) -> Response<Out> {
    let session = match named_session(state, parts) {
        Ok(s) => s,
        Err(r) => return *r,
    };
    // A stream holds one of the client's stream slots while it is open, whichever it is.
    let ticket = match state.streams.try_take(client) {
        Ok(t) => t,
        Err(refusal) => return refused(&state.config, refusal, "null", "open streams"),
    };
    let mut replay = Vec::new();
    let last_event_id = headers::value(parts, "last-event-id").flatten();
    if let Some(last) = last_event_id {
        // A POST stream the client just dropped may take a moment to be let go of.
        let mut tries = 0;
        let resumed = loop {
            match session.replay().resume(last) {
                Resume::Busy if tries < 40 => {}
                other => break other,
            }
            tries += 1;
            tokio::time::sleep(Duration::from_millis(25)).await;
        };
        match resumed {
            Resume::Busy => {
                return body::error(
                    StatusCode::CONFLICT,
                    "Conflict: the stream of this Last-Event-ID is still open.",
                );
            }
            Resume::Request {
                stream,
                replay,
                rest,
            } => {
                session.touch();
                let guard = Guard {
                    _ticket: Some(ticket),
                    own_connection: None,
                    session: Some(session),
                    stream: true,
                };
                let pulse = Pulse::request(&state.config);
                return body::resumed_request(stream, replay, rest, pulse, guard);
            }
            Resume::Session(_) => {}
        }
    }
    // A resuming client's previous stream may not have been let go of yet.
    let mut tries = if last_event_id.is_some() { 0 } else { 40 };
    let taken = loop {
        let taken = lock(&session.outbox).take();
        if taken.is_some() || tries >= 40 {
            break taken;
        }
        tries += 1;
        tokio::time::sleep(Duration::from_millis(25)).await;
    };
    let Some(rx) = taken else {
        return body::error(
            StatusCode::CONFLICT,
            "Conflict: this session's stream is already open.",
        );
    };
    // Read the replay once the previous stream has let go: it sends nothing more.
    if let Some(last) = last_event_id
        && let Resume::Session(r) = session.replay().resume(last)
    {
        replay = r;
    }
    session.touch();
    let lease = OutboxLease {
        session: session.clone(),
        rx: Some(rx),
    };
    let guard = Guard {
        _ticket: Some(ticket),
        own_connection: None,
        session: Some(session),
        stream: true,
    };
    let pulse = Pulse::long_lived(&state.config, None);
    body::session_stream(lease, replay, stop_future(state), pulse, guard)
}

/// DELETE: ends the session (204).
pub(crate) fn delete(state: &Arc<State>, parts: &Parts) -> Response<Out> {
    let session = match named_session(state, parts) {
        Ok(s) => s,
        Err(r) => return *r,
    };
    if let Some(s) = state.sessions.remove(&session.id) {
        s.end();
    }
    #[cfg(feature = "redis")]
    if state.directory.is_some() {
        // Answered at once; Redis forgets the session meanwhile.
        let state = state.clone();
        let id = session.id.clone();
        tokio::spawn(async move {
            if let Some(directory) = &state.directory {
                directory.release(&id).await;
            }
        });
    }
    body::empty(StatusCode::NO_CONTENT)
}
