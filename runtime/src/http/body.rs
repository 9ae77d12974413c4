//! Response bodies (one JSON message, an event stream, nothing) and reading request bodies.

use std::convert::Infallible;
use std::future::poll_fn;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use hyper::body::{Body, Bytes, Frame, SizeHint};
use hyper::{Response, StatusCode, header};
use serde_json::value::RawValue;
use tokio::sync::mpsc;
use tokio::time::Instant;

use super::config::HttpConfig;
use super::limits::{Budget, ClientKey, Refusal, Ticket};
use crate::connection::Connection;
use crate::peer::Routed;
use crate::protocol::{RpcError, code, error_message};
use crate::service::BoxFuture;

/// A response body: nothing, one buffer, or an event stream.
pub(crate) enum Out {
    Empty,
    Full(Option<Bytes>),
    Events(Box<Events>),
    /// The response of the instance holding the session, relayed as it comes.
    #[cfg(feature = "redis")]
    Forwarded(Box<Forwarded>),
}

/// A relayed response body, and (for a long-lived GET stream) what ends it at shutdown.
#[cfg(feature = "redis")]
pub(crate) struct Forwarded {
    pub incoming: hyper::body::Incoming,
    pub stop: Option<BoxFuture<()>>,
    /// The client's request or stream slot, held while the holder's answer is relayed.
    pub _ticket: Option<Ticket>,
}

impl Body for Out {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        match self.get_mut() {
            Out::Empty => Poll::Ready(None),
            Out::Full(data) => Poll::Ready(data.take().map(|d| Ok(Frame::data(d)))),
            Out::Events(events) => events.poll(cx).map(|d| d.map(|d| Ok(Frame::data(d)))),
            // The holder's connection failing ends the relayed body.
            #[cfg(feature = "redis")]
            Out::Forwarded(f) => {
                if let Some(stop) = &mut f.stop
                    && stop.as_mut().poll(cx).is_ready()
                {
                    return Poll::Ready(None);
                }
                Pin::new(&mut f.incoming)
                    .poll_frame(cx)
                    .map(|f| f.and_then(Result::ok).map(Ok))
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        match self {
            Out::Empty => true,
            Out::Full(data) => data.is_none(),
            Out::Events(_) => false,
            #[cfg(feature = "redis")]
            Out::Forwarded(f) => f.incoming.is_end_stream(),
        }
    }

    fn size_hint(&self) -> SizeHint {
        match self {
            Out::Empty => SizeHint::with_exact(0),
            Out::Full(data) => SizeHint::with_exact(data.as_ref().map_or(0, |d| d.len() as u64)),
            Out::Events(_) => SizeHint::default(),
            #[cfg(feature = "redis")]
            Out::Forwarded(f) => f.incoming.size_hint(),
        }
    }
}

/// What a response keeps alive until it has been sent: its slot (a request's, or a
/// long-lived stream's), and the connection that serves only this request (its calls are
/// cancelled when the response is dropped, that is, when the client goes away).
pub(crate) struct Guard {
    pub _ticket: Option<Ticket>,
    pub own_connection: Option<Connection>,
    pub session: Option<std::sync::Arc<super::sessions::Session>>,
    /// The session's use is a stream (`GET`), which does not count as a request of it.
    pub stream: bool,
}

impl Drop for Guard {
    fn drop(&mut self) {
        if let Some(conn) = self.own_connection.take() {
            conn.cancel_all();
            conn.close();
        }
        if let Some(session) = self.session.take()
            && !self.stream
        {
            session.release();
        }
    }
}

/// An event stream: server messages as SSE `message` events.
pub(crate) struct Events {
    first: Option<Bytes>,
    source: Source,
    done: bool,
    /// The stream's number in its session (event ids `<stream>-<seq>`, recorded in the
    /// session's replay buffer); `None` outside sessions (no ids).
    stream: Option<u64>,
    /// The call's reply was sent, or its messages ended: nothing to hand on.
    finished: bool,
    /// Ends after `first` (the priming event), leaving the call to a GET with
    /// `Last-Event-ID` ([`HttpConfig::poll_tool`]).
    close_early: bool,
    /// Completes when the server shuts down; ends a stream that has no reply to wait for.
    stop: Option<BoxFuture<()>>,
    /// Keep-alive comments, and the end of a long-lived stream left idle.
    pulse: Pulse,
    guard: Guard,
}

/// The rhythm of a stream with nothing to send: an SSE comment every `every`, and, for a
/// long-lived stream, its end after `idle` without a message.
pub(crate) struct Pulse {
    every: Duration,
    idle: Option<Duration>,
    /// Sent when the stream ends on the server's initiative (idle, shutdown): the result
    /// that closes a `subscriptions/listen` gracefully.
    farewell: Option<String>,
    last_message: Instant,
    last_write: Instant,
    /// Armed the first time the stream has nothing to send.
    timer: Option<Pin<Box<tokio::time::Sleep>>>,
}

enum Beat {
    Wait,
    KeepAlive,
    Idle,
}

impl Pulse {
    /// A request's stream: keep-alive comments, no idle end (its call decides).
    pub(crate) fn request(config: &HttpConfig) -> Pulse {
        Pulse::new(config.stream_keepalive, None, None)
    }

    /// A long-lived stream: keep-alive comments, and its end after the configured idle
    /// time, with `farewell` as its last event.
    pub(crate) fn long_lived(config: &HttpConfig, farewell: Option<String>) -> Pulse {
        Pulse::new(config.stream_keepalive, Some(config.stream_idle), farewell)
    }

    fn new(every: Duration, idle: Option<Duration>, farewell: Option<String>) -> Pulse {
        let now = Instant::now();
        Pulse {
            every,
            idle,
            farewell,
            last_message: now,
            last_write: now,
            timer: None,
        }
    }

    fn sent_message(&mut self) {
        let now = Instant::now();
        self.last_message = now;
        self.last_write = now;
    }

    fn next_deadline(&self) -> Instant {
        let beat = self.last_write + self.every;
        match self.idle {
            Some(idle) => beat.min(self.last_message + idle),
            None => beat,
        }
    }

    fn poll(&mut self, cx: &mut Context<'_>) -> Beat {
        loop {
            let deadline = self.next_deadline();
            let timer = self
                .timer
                .get_or_insert_with(|| Box::pin(tokio::time::sleep_until(deadline)));
            if timer.deadline() != deadline {
                timer.as_mut().reset(deadline);
            }
            if timer.as_mut().poll(cx).is_pending() {
                return Beat::Wait;
            }
            let now = Instant::now();
            if self
                .idle
                .is_some_and(|idle| now >= self.last_message + idle)
            {
                return Beat::Idle;
            }
            if now >= self.last_write + self.every {
                self.last_write = now;
                return Beat::KeepAlive;
            }
        }
    }

    /// The last event of a stream the server ends.
    fn farewell(&mut self) -> Option<Bytes> {
        let text = self.farewell.take()?;
        let mut out = String::new();
        push_event(&mut out, None, &text);
        Some(Bytes::from(out))
    }
}

enum Source {
    /// A request's stream: ends after its reply.
    Request(mpsc::UnboundedReceiver<Routed>),
    /// A session's stream (GET): messages not tied to a request.
    Session(super::sessions::OutboxLease),
}

impl Events {
    fn poll(&mut self, cx: &mut Context<'_>) -> Poll<Option<Bytes>> {
        if let Some(first) = self.first.take() {
            self.pulse.sent_message();
            return Poll::Ready(Some(first));
        }
        if self.close_early && !self.done {
            // Hand the call on before the stream ends, so the client's GET finds it.
            self.hand_off();
            self.done = true;
        }
        if self.done {
            return Poll::Ready(None);
        }
        if let Some(stop) = &mut self.stop
            && stop.as_mut().poll(cx).is_ready()
        {
            self.done = true;
            return Poll::Ready(self.pulse.farewell());
        }
        let mut out = String::new();
        // Take every message already waiting, so a burst leaves in one write.
        loop {
            let next = match &mut self.source {
                Source::Request(rx) => rx.poll_recv(cx).map(|m| m.map(|m| (m.text, m.reply))),
                Source::Session(lease) => lease.poll_recv(cx).map(|m| m.map(|t| (t, false))),
            };
            match next {
                Poll::Ready(Some((text, reply))) => {
                    if reply {
                        self.done = true;
                        self.finished = true;
                    }
                    self.push(&mut out, &text, reply);
                    if self.done || out.len() >= 64 * 1024 {
                        break;
                    }
                }
                Poll::Ready(None) => {
                    self.done = true;
                    if !self.finished && matches!(self.source, Source::Request(_)) {
                        self.finished = true;
                        if let (Some(stream), Some(session)) = (self.stream, &self.guard.session) {
                            session.replay().ended(stream);
                        }
                    }
                    break;
                }
                Poll::Pending => break,
            }
        }
        if !out.is_empty() {
            self.pulse.sent_message();
            return Poll::Ready(Some(Bytes::from(out)));
        }
        if self.done {
            return Poll::Ready(None);
        }
        match self.pulse.poll(cx) {
            Beat::Wait => Poll::Pending,
            Beat::KeepAlive => Poll::Ready(Some(Bytes::from_static(b": keep-alive\n\n"))),
            Beat::Idle => {
                self.done = true;
                Poll::Ready(self.pulse.farewell())
            }
        }
    }

    /// Writes one message as an event, with its id when the stream has one.
    fn push(&self, out: &mut String, text: &str, reply: bool) {
        match (self.stream, &self.guard.session) {
            (Some(stream), Some(session)) => {
                let id = session.replay().record(stream, text, reply);
                push_event(out, Some(&id), text);
            }
            _ => push_event(out, None, text),
        }
    }

    /// A request's stream that ends before the reply leaves the rest of the call's
    /// messages to its session, for a GET with `Last-Event-ID`.
    fn hand_off(&mut self) {
        if self.finished {
            return;
        }
        self.finished = true;
        if let (Source::Request(rx), Some(stream), Some(session)) =
            (&mut self.source, self.stream, &self.guard.session)
        {
            let rest = std::mem::replace(rx, mpsc::unbounded_channel().1);
            session.replay().orphan(stream, rest);
        }
    }
}

impl Drop for Events {
    fn drop(&mut self) {
        self.hand_off();
    }
}

/// One SSE event carrying a one-line JSON message, with its id when it has one.
fn push_event(out: &mut String, id: Option<&str>, json: &str) {
    if let Some(id) = id {
        out.push_str("id: ");
        out.push_str(id);
        out.push('\n');
    }
    out.push_str("event: message\ndata: ");
    out.push_str(json);
    out.push_str("\n\n");
}

/// The 2025-11-25 priming event: an id, the reconnection delay, and no message.
fn push_priming(out: &mut String, id: &str, retry_ms: u64) {
    out.push_str("id: ");
    out.push_str(id);
    out.push_str("\nretry: ");
    out.push_str(&retry_ms.to_string());
    out.push_str("\ndata: \n\n");
}

fn sse_response(events: Events) -> Response<Out> {
    let mut r = Response::new(Out::Events(Box::new(events)));
    let h = r.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("text/event-stream"),
    );
    h.insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-cache"),
    );
    h.insert("x-accel-buffering", header::HeaderValue::from_static("no"));
    r
}

/// A `200 text/event-stream` response for a session's GET stream, starting with the
/// events a `Last-Event-ID` replays.
pub(crate) fn session_stream(
    lease: super::sessions::OutboxLease,
    replay: Vec<(String, String)>,
    stop: BoxFuture<()>,
    pulse: Pulse,
    guard: Guard,
) -> Response<Out> {
    sse_response(Events {
        first: replayed(&replay),
        source: Source::Session(lease),
        done: false,
        stream: Some(super::replay::SESSION_STREAM),
        finished: false,
        close_early: false,
        stop: Some(stop),
        pulse,
        guard,
    })
}

/// A POST stream resumed by a GET with `Last-Event-ID`: the events after that id, then the
/// rest of the call's messages (`rest`, when it has not answered yet) up to its reply.
pub(crate) fn resumed_request(
    stream: u64,
    replay: Vec<(String, String)>,
    rest: Option<mpsc::UnboundedReceiver<Routed>>,
    pulse: Pulse,
    guard: Guard,
) -> Response<Out> {
    let finished = rest.is_none();
    sse_response(Events {
        first: replayed(&replay),
        source: Source::Request(rest.unwrap_or_else(|| mpsc::unbounded_channel().1)),
        done: finished,
        stream: Some(stream),
        finished,
        close_early: false,
        stop: None,
        pulse,
        guard,
    })
}

fn replayed(replay: &[(String, String)]) -> Option<Bytes> {
    if replay.is_empty() {
        return None;
    }
    let mut out = String::new();
    for (id, text) in replay {
        push_event(&mut out, Some(id), text);
    }
    Some(Bytes::from(out))
}

/// A response carrying one JSON message.
pub(crate) fn json(status: StatusCode, message: String) -> Response<Out> {
    let mut r = Response::new(Out::Full(Some(Bytes::from(message))));
    *r.status_mut() = status;
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("application/json"),
    );
    r
}

/// A JSON-RPC error without an id, with this HTTP status: what a request refused before
/// its body was read gets.
pub(crate) fn error(status: StatusCode, message: &str) -> Response<Out> {
    let code = if status == StatusCode::SERVICE_UNAVAILABLE {
        code::INTERNAL_ERROR
    } else {
        code::INVALID_REQUEST
    };
    json(status, error_message("null", &RpcError::new(code, message)))
}

/// A JSON-RPC error for the request `id` (raw JSON, `null` when unknown).
pub(crate) fn rpc_error(status: StatusCode, id: &str, error: &RpcError) -> Response<Out> {
    json(status, error_message(id, error))
}

/// A response without a body.
pub(crate) fn empty(status: StatusCode) -> Response<Out> {
    let mut r = Response::new(Out::Empty);
    *r.status_mut() = status;
    r
}

/// 405, with the methods this endpoint answers.
pub(crate) fn not_allowed(config: &HttpConfig) -> Response<Out> {
    let mut r = error(
        StatusCode::METHOD_NOT_ALLOWED,
        "Method not allowed on the MCP endpoint.",
    );
    let allow = if config.stateless {
        "POST"
    } else {
        "POST, GET, DELETE"
    };
    r.headers_mut()
        .insert(header::ALLOW, header::HeaderValue::from_static(allow));
    r
}

/// `response` after reading and discarding the request body, so that the connection can
/// serve the next request; a body over `limit` is not read, and the connection closes.
pub(crate) async fn drained<B: RequestBody>(
    mut response: Response<Out>,
    body: &mut B,
    limit: usize,
) -> Response<Out> {
    let mut read = 0usize;
    let complete = loop {
        match next_frame(body, Instant::now() + DRAIN_TIMEOUT, None).await {
            None => break true,
            Some(Ok(frame)) => {
                read += frame.data_ref().map_or(0, |d| d.len());
                if read > limit {
                    break false;
                }
            }
            Some(Err(_)) => break false,
        }
    };
    if !complete {
        response.headers_mut().insert(
            header::CONNECTION,
            header::HeaderValue::from_static("close"),
        );
    }
    response
}

/// A request body the transport can read: hyper's own when the runtime owns the listener,
/// or whatever the host application's router hands a mounted [`McpService`](super::McpService)
/// (boxed, so that it is `Unpin`).
pub(crate) trait RequestBody: Body<Data = Bytes> + Send + Unpin {}

impl<B: Body<Data = Bytes> + Send + Unpin> RequestBody for B {}

/// How long each piece of a body being drained after a refusal may take.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(30);

/// Why the next piece of a body did not come.
#[derive(Clone, Copy, PartialEq, Eq)]
enum FrameError {
    Broken,
    TimedOut,
    /// It would have to wait, and the client has no body slot left.
    Refused(Refusal),
}

/// One of a client's slots for a body it has to wait for (see [`read`]).
pub(crate) struct BodySlot<'a> {
    pub budget: &'a Arc<Budget>,
    pub client: &'a ClientKey,
    held: Option<Ticket>,
}

impl<'a> BodySlot<'a> {
    pub(crate) fn new(budget: &'a Arc<Budget>, client: &'a ClientKey) -> Self {
        BodySlot {
            budget,
            client,
            held: None,
        }
    }

    fn hold(&mut self) -> Result<(), Refusal> {
        if self.held.is_none() {
            self.held = Some(self.budget.try_take(self.client)?);
        }
        Ok(())
    }
}

/// The next piece of a body, unless `deadline` passes first. A piece that is there already
/// is taken at once; waiting for one first takes `slot` (when given), or fails with its
/// refusal.
async fn next_frame<B: RequestBody>(
    body: &mut B,
    deadline: Instant,
    slot: Option<&mut BodySlot<'_>>,
) -> Option<Result<Frame<Bytes>, FrameError>> {
    // B::Error need not be Send: it never lives across an await.
    let broken = |f: Result<Frame<Bytes>, B::Error>| f.map_err(|_| FrameError::Broken);
    let ready = poll_fn(|cx| match Pin::new(&mut *body).poll_frame(cx) {
        Poll::Ready(frame) => Poll::Ready(Some(frame.map(broken))),
        Poll::Pending => Poll::Ready(None),
    })
    .await;
    if let Some(frame) = ready {
        return frame;
    }
    if let Some(slot) = slot
        && let Err(refusal) = slot.hold()
    {
        return Some(Err(FrameError::Refused(refusal)));
    }
    let next = poll_fn(|cx| Pin::new(&mut *body).poll_frame(cx).map(|f| f.map(broken)));
    match tokio::time::timeout_at(deadline, next).await {
        Ok(frame) => frame,
        Err(_) => Some(Err(FrameError::TimedOut)),
    }
}

/// Why a request body was not read whole.
pub(crate) enum BodyError {
    /// Over the limit: what the scan of it found, and whether it was read to its end (if
    /// not, the connection must close).
    TooLarge(crate::protocol::IdScanner, bool),
    /// The connection failed while the body was read.
    Broken,
    /// The body did not arrive whole within its deadline.
    TimedOut,
    /// The body has to be waited for, and the client holds its share of such bodies.
    Refused(Refusal),
}

/// An over-limit body is scanned for its id up to 4 times the limit, and at least this far.
const SCAN_AT_LEAST: usize = 16 * 1024 * 1024;

/// Reads a request body of at most `limit` bytes, whole by `deadline`. A longer one is not
/// kept: it only goes through an id scanner, up to 4 times `limit` (at least 16 MiB) in all;
/// the connection closes after the answer if the body was longer still. A body that is all
/// there (the common case: it came with the head) is read without a slot; one that has to
/// be waited for holds `slot` until it is read, or is refused.
pub(crate) async fn read<B: RequestBody>(
    body: &mut B,
    declared: Option<u64>,
    limit: usize,
    deadline: Instant,
    slot: &mut BodySlot<'_>,
) -> Result<Vec<u8>, BodyError> {
    let mut buf = Vec::new();
    let mut scanner: Option<crate::protocol::IdScanner> = None;
    if declared.is_some_and(|n| n > limit as u64) {
        scanner = Some(crate::protocol::IdScanner::new());
    } else if let Some(n) = declared {
        buf.reserve_exact(n as usize);
    }
    // Scanning costs no memory, only the time to read: bounded all the same.
    let scan_limit = limit.saturating_mul(4).max(SCAN_AT_LEAST);
    let mut read = 0usize;
    let complete = loop {
        match next_frame(body, deadline, Some(&mut *slot)).await {
            None => break true,
            Some(Err(FrameError::Broken)) => return Err(BodyError::Broken),
            Some(Err(FrameError::TimedOut)) => return Err(BodyError::TimedOut),
            Some(Err(FrameError::Refused(r))) => return Err(BodyError::Refused(r)),
            Some(Ok(frame)) => {
                let Ok(data) = frame.into_data() else {
                    continue;
                };
                read = read.saturating_add(data.len());
                if scanner.is_none() && buf.len() + data.len() > limit {
                    let mut s = crate::protocol::IdScanner::new();
                    s.feed(&buf);
                    buf = Vec::new();
                    scanner = Some(s);
                }
                match &mut scanner {
                    Some(s) => {
                        s.feed(&data);
                        if read > scan_limit {
                            break false;
                        }
                    }
                    None => buf.extend_from_slice(&data),
                }
            }
        }
    };
    match scanner {
        Some(s) => Err(BodyError::TooLarge(s, complete)),
        None => Ok(buf),
    }
}

/// The error code of a reply the runtime wrote, and whether it carries an id; `None` for a
/// result. Replies start `{"jsonrpc":"2.0","id":<id>,` then `"result"` or `"error":{"code":`.
pub(crate) fn reply_error(text: &str) -> Option<(bool, i64)> {
    let rest = text.strip_prefix(r#"{"jsonrpc":"2.0","#)?;
    let (has_id, rest) = match rest.strip_prefix(r#""id":"#) {
        Some(after) => {
            let mut values = serde_json::Deserializer::from_str(after).into_iter::<&RawValue>();
            values.next()?.ok()?;
            (true, after[values.byte_offset()..].strip_prefix(',')?)
        }
        None => (false, rest),
    };
    let digits = rest.strip_prefix(r#""error":{"code":"#)?;
    let end = digits
        .find(|c: char| c != '-' && !c.is_ascii_digit())
        .unwrap_or(digits.len());
    digits[..end].parse().ok().map(|c| (has_id, c))
}

/// The HTTP status of a request's JSON reply. An error whose request could not be read is
/// 400; under 2026-07-28 so are the errors of a malformed request (-32600, -32602, -32020,
/// -32021, -32022), and an unknown method is 404. Everything else is 200.
pub(crate) fn status_of(reply: &str, modern: bool) -> StatusCode {
    status_of_error(reply_error(reply), modern)
}

/// [`status_of`], from the reply's [`reply_error`].
fn status_of_error(error: Option<(bool, i64)>, modern: bool) -> StatusCode {
    let Some((has_id, code)) = error else {
        return StatusCode::OK;
    };
    if !has_id || matches!(code, code::PARSE_ERROR | code::INVALID_REQUEST) {
        return StatusCode::BAD_REQUEST;
    }
    if !modern {
        return StatusCode::OK;
    }
    match code {
        code::METHOD_NOT_FOUND => StatusCode::NOT_FOUND,
        code::INVALID_PARAMS
        | code::HEADER_MISMATCH
        | code::MISSING_REQUIRED_CLIENT_CAPABILITY
        | code::UNSUPPORTED_PROTOCOL_VERSION => StatusCode::BAD_REQUEST,
        _ => StatusCode::OK,
    }
}

/// A request's JSON reply with its status ([`status_of`]); a call refused by a tool's rate
/// limit (-32000 with `data.retryAfter`) is 429 with `Retry-After`, on every revision.
fn reply_json(text: String, modern: bool) -> Response<Out> {
    let error = reply_error(&text);
    let retry_after = error.and_then(|e| retry_after(e, &text));
    let status = match retry_after {
        Some(_) => StatusCode::TOO_MANY_REQUESTS,
        None => status_of_error(error, modern),
    };
    let mut r = json(status, text);
    if let Some(secs) = retry_after {
        r.headers_mut()
            .insert(header::RETRY_AFTER, header::HeaderValue::from(secs));
    }
    r
}

/// The `data.retryAfter` seconds of a -32000 reply (a rate limit's refusal), if any;
/// `error`: the reply's [`reply_error`].
fn retry_after(error: (bool, i64), text: &str) -> Option<u64> {
    if error != (true, code::SERVER_BUSY) || !text.contains(r#""retryAfter":"#) {
        return None;
    }
    let reply: serde_json::Value = serde_json::from_str(text).ok()?;
    reply["error"]["data"]["retryAfter"].as_u64()
}

/// How a POST is answered, from what its message produced on its route.
pub(crate) struct Answer {
    pub rx: mpsc::UnboundedReceiver<Routed>,
    pub guard: Guard,
    /// 2026-07-28 status rules.
    pub modern: bool,
    /// The message was a request (it gets a reply), not a notification or a response.
    pub request: bool,
    /// The client accepts `text/event-stream`.
    pub events_ok: bool,
    /// A result the call sends first still goes on an event stream (errors stay JSON, with
    /// their HTTP status).
    pub stream_results: bool,
    /// Ends the stream at shutdown (a stream with no reply to wait for).
    pub stop: Option<BoxFuture<()>>,
    /// Keep-alive comments, and (a long-lived stream) its idle end.
    pub pulse: Pulse,
    /// Priming and early closing of a session's event stream.
    pub resumable: Resumable,
}

/// What a session's POST stream does besides carrying ids.
#[derive(Default)]
pub(crate) struct Resumable {
    /// Starts with a priming event (2025-11-25) carrying this `retry` (milliseconds).
    pub prime: Option<u64>,
    /// Opens the stream at once and closes it after the priming event: the client gets the
    /// rest with a GET and `Last-Event-ID`.
    pub close_early: bool,
}

/// Opens a session's POST stream (none outside sessions) and writes its priming event.
fn open_stream(guard: &Guard, resumable: &Resumable, out: &mut String) -> Option<u64> {
    let session = guard.session.as_ref()?;
    let mut replay = session.replay();
    let stream = replay.open_request_stream();
    if let Some(retry) = resumable.prime {
        let id = replay.record(stream, "", false);
        push_priming(out, &id, retry);
    }
    Some(stream)
}

/// The reply alone as `application/json` when it comes first; otherwise an event stream
/// of the request's messages, ending with its reply. A notification or a response gets 202.
pub(crate) async fn answer(mut a: Answer) -> Response<Out> {
    if a.resumable.close_early && a.resumable.prime.is_some() && a.request && a.events_ok {
        let mut first = String::new();
        let stream = open_stream(&a.guard, &a.resumable, &mut first);
        return sse_response(Events {
            first: Some(Bytes::from(first)),
            source: Source::Request(a.rx),
            done: false,
            stream,
            finished: false,
            close_early: true,
            stop: None,
            pulse: a.pulse,
            guard: a.guard,
        });
    }
    loop {
        let first = match &mut a.stop {
            None => a.rx.recv().await,
            Some(stop) => tokio::select! {
                m = a.rx.recv() => m,
                _ = stop => {
                    // Shut down before anything was sent: the farewell alone, if any.
                    return match a.pulse.farewell.take() {
                        Some(text) => json(StatusCode::OK, text),
                        None => empty(StatusCode::ACCEPTED),
                    };
                }
            },
        };
        return match first {
            None if a.request => {
                // Cancelled before it answered: an empty stream.
                sse_response(Events {
                    first: None,
                    source: Source::Request(a.rx),
                    done: true,
                    stream: None,
                    finished: true,
                    close_early: false,
                    stop: None,
                    pulse: a.pulse,
                    guard: a.guard,
                })
            }
            None => empty(StatusCode::ACCEPTED),
            Some(m)
                if m.reply
                    && !(a.stream_results && a.events_ok && reply_error(&m.text).is_none()) =>
            {
                reply_json(m.text, a.modern)
            }
            Some(m) if !m.reply && !a.events_ok => continue,
            Some(m) => {
                let reply = m.reply;
                let mut first = String::new();
                let stream = open_stream(&a.guard, &a.resumable, &mut first);
                let mut events = Events {
                    first: None,
                    source: Source::Request(a.rx),
                    done: reply,
                    stream,
                    finished: reply,
                    close_early: false,
                    stop: a.stop,
                    pulse: a.pulse,
                    guard: a.guard,
                };
                events.push(&mut first, &m.text, reply);
                events.first = Some(Bytes::from(first));
                sse_response(events)
            }
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reply_errors_are_read_from_the_runtime_s_own_format() {
        let e = RpcError::new(-32601, "x");
        assert_eq!(
            reply_error(&error_message("\"a,\\\"b\"", &e)),
            Some((true, -32601))
        );
        assert_eq!(reply_error(&error_message("7", &e)), Some((true, -32601)));
        assert_eq!(
            reply_error(&error_message("null", &e)),
            Some((false, -32601))
        );
        let result = crate::protocol::result_message("1", r#"{"error":{"code":-1}}"#);
        assert_eq!(reply_error(&result), None);
        assert_eq!(status_of(&result, true), StatusCode::OK);
        assert_eq!(
            status_of(&error_message("1", &e), true),
            StatusCode::NOT_FOUND
        );
        assert_eq!(status_of(&error_message("1", &e), false), StatusCode::OK);
        assert_eq!(
            status_of(&error_message("null", &e), false),
            StatusCode::BAD_REQUEST
        );
    }
}
