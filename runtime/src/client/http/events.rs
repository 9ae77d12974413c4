//! The server's event streams: a request's reply stream (resumed with `Last-Event-ID` in a
//! handshake session when it ends before the reply), the session's GET stream (handshake
//! revisions), and `subscriptions/listen` streams (2026-07-28).

use std::sync::Arc;
use std::time::Duration;

use reqwest::{Method, Response, StatusCode};
use serde_json::{Value, json};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use super::super::ClientError;
use super::super::observe::ProgressHandler;
use super::exchange::next_piece;
use super::sse::{EventReader, StreamError};
use super::{MAX_REPLY_BYTES, Peer, content_type};
use crate::protocol::reply_message;

/// How many times in a row a stream is opened again without receiving an event before
/// the transport gives up on it.
const MAX_FAILURES: u32 = 8;
/// The reconnection delay when the server gave none.
const DEFAULT_RETRY: Duration = Duration::from_secs(1);
/// The longest delay between two attempts.
const MAX_RETRY: Duration = Duration::from_secs(30);

/// The delay before the next attempt: the server's `retry` (else 1 second), doubled for
/// each failure in a row after the first, at most 30 seconds.
fn delay(retry_ms: Option<u64>, failures: u32) -> Duration {
    let base = retry_ms.map_or(DEFAULT_RETRY, Duration::from_millis);
    let factor = 1u32 << failures.saturating_sub(1).min(5);
    (base * factor).min(MAX_RETRY.max(base))
}

/// What reading a stream gave: messages, or its end.
enum Next {
    Messages(Vec<Value>),
    /// The server ended the body.
    Ended,
    /// The connection broke.
    Broke(String),
}

impl Peer {
    /// The messages the next piece of `body` completes.
    async fn next_messages(
        &self,
        body: &mut Response,
        reader: &mut EventReader,
    ) -> Result<Next, ClientError> {
        let piece = match next_piece(body).await {
            Ok(Some(piece)) => piece,
            Ok(None) => return Ok(Next::Ended),
            Err(e) => return Ok(Next::Broke(e)),
        };
        let events = reader.feed(&piece, MAX_REPLY_BYTES).map_err(|e| match e {
            StreamError::TooLong => {
                self.failed(format!("an event is longer than {MAX_REPLY_BYTES} bytes"))
            }
            StreamError::NotUtf8 => self.failed("the event stream is not UTF-8".into()),
        })?;
        let messages = events
            .iter()
            .filter(|d| !d.is_empty())
            .filter_map(|data| match serde_json::from_str::<Value>(data) {
                Ok(message) => Some(message),
                Err(_) => {
                    tracing::debug!("skipping an event that is not JSON");
                    None
                }
            })
            .collect();
        Ok(Next::Messages(messages))
    }

    /// A request of the server in a stream: in a session, the handler's answer is POSTed
    /// back; under 2026-07-28 a server sends none (it asks with `input_required`).
    async fn answer_request(
        &self,
        method: &str,
        id: &Value,
        params: &Value,
    ) -> Result<(), ClientError> {
        if self.stateless() {
            tracing::debug!(
                method,
                "ignoring a request of the server in a 2026-07-28 stream"
            );
            return Ok(());
        }
        let answer = super::input::ask(self.handler.as_deref(), method, params);
        self.send_message(reply_message(id.clone(), answer)).await
    }

    /// Reads a request's event stream up to the response to `id`, answering the server's
    /// requests. In a handshake session a stream that ends (or breaks) before the
    /// response, after an event with an id, is resumed: a `GET` with `Last-Event-ID` after
    /// the server's `retry` delay, until the response, or until it fails
    /// [`MAX_FAILURES`] times in a row without an event.
    pub(super) async fn read_reply_events(
        &self,
        id: i64,
        mut body: Response,
        progress: Option<&ProgressHandler>,
    ) -> Result<Value, ClientError> {
        let mut reader = EventReader::default();
        let mut failures = 0;
        loop {
            let before = reader.dispatched();
            let why = loop {
                let messages = match self.next_messages(&mut body, &mut reader).await? {
                    Next::Messages(messages) => messages,
                    Next::Ended => break "the event stream ended before the reply".to_owned(),
                    Next::Broke(e) => break e,
                };
                for message in messages {
                    let method = message.get("method").and_then(Value::as_str);
                    let params = message.get("params").unwrap_or(&Value::Null);
                    match (method, message.get("id")) {
                        (Some(method), Some(request)) => {
                            self.answer_request(method, request, params).await?;
                        }
                        (None, Some(answered)) if *answered == json!(id) => return Ok(message),
                        (Some(method), None) => self.notified(Some(id), method, params, progress),
                        _ => {}
                    }
                }
            };
            let resumable = self.session.is_some() && !self.stateless();
            let Some(last) = reader.last_id().filter(|_| resumable).map(str::to_owned) else {
                return Err(self.failed(why));
            };
            failures = match reader.dispatched() > before {
                true => 1,
                false => failures + 1,
            };
            if failures > MAX_FAILURES {
                return Err(self.failed(format!(
                    "{why}, and resuming it gave nothing {MAX_FAILURES} times"
                )));
            }
            tokio::time::sleep(delay(reader.retry(), failures)).await;
            tracing::debug!(last_event_id = %last, "resuming an event stream");
            body = match self.resume(&last).await {
                Ok(body) => body,
                Err(ClientError::Transport(e)) if failures < MAX_FAILURES => {
                    tracing::debug!(error = %e, "resuming failed; trying again");
                    continue;
                }
                Err(e) => return Err(e),
            };
            reader = reader.resumed();
        }
    }

    /// A `GET` resuming a session's stream after the event `last`.
    async fn resume(&self, last: &str) -> Result<Response, ClientError> {
        let mut headers = self.headers();
        headers[0].1 = "text/event-stream".into();
        headers.push(("last-event-id", last.to_owned()));
        let mut response = self.send(Method::GET, headers, None).await?;
        let status = response.status();
        if !status.is_success() {
            let bytes = super::read_all(&mut response, MAX_REPLY_BYTES)
                .await
                .unwrap_or_default();
            return Err(self
                .refused(status, &bytes, None)
                .err()
                .unwrap_or_else(|| self.failed(format!("resuming: HTTP {status}"))));
        }
        if content_type(&response) != "text/event-stream" {
            return Err(self.failed("resuming: the GET did not answer an event stream".into()));
        }
        Ok(response)
    }
}

/// The session's GET stream, while the transport lives: the server's requests go to the
/// request handler (answers POSTed), its notifications to the notification handler. A
/// stream that ends is opened again with `Last-Event-ID` after the `retry` delay; a server
/// that offers none (405), a session that is gone (404), or [`MAX_FAILURES`] failures in
/// a row end it.
pub(super) async fn session_stream(peer: Arc<Peer>) {
    let mut last: Option<String> = None;
    let mut retry: Option<u64> = None;
    let mut failures = 0;
    loop {
        let mut headers = peer.headers();
        headers[0].1 = "text/event-stream".into();
        if let Some(last) = &last {
            headers.push(("last-event-id", last.clone()));
        }
        let mut events = 0;
        match peer.send(Method::GET, headers, None).await {
            Ok(response) => match response.status() {
                StatusCode::METHOD_NOT_ALLOWED => {
                    tracing::debug!("the server offers no GET stream");
                    return;
                }
                StatusCode::NOT_FOUND => {
                    tracing::debug!("the session is gone; its GET stream ends");
                    return;
                }
                status if !status.is_success() => {
                    tracing::debug!(%status, "the GET stream was refused");
                }
                _ if content_type(&response) != "text/event-stream" => {
                    tracing::debug!("the GET stream is not an event stream");
                    return;
                }
                _ => {
                    let mut reader = EventReader::default().resuming(last.take(), retry);
                    let mut body = response;
                    match read_session_stream(&peer, &mut body, &mut reader).await {
                        Ok(why) => tracing::debug!(reason = %why, "the GET stream ended"),
                        Err(e) => tracing::debug!(error = %e, "the GET stream failed"),
                    }
                    events = reader.dispatched();
                    last = reader.last_id().map(str::to_owned);
                    retry = reader.retry();
                }
            },
            Err(e) => tracing::debug!(error = %e, "opening the GET stream failed"),
        }
        if !wait_to_reopen(&mut failures, events, retry).await {
            tracing::warn!(url = %peer.endpoint.url, "giving up the session's GET stream");
            return;
        }
    }
}

/// Counts a stream that ended after `events` events (a failure when it had none, else the
/// first of a new count), and waits before it is opened again; `false` (at once) when it
/// failed more than [`MAX_FAILURES`] times in a row.
async fn wait_to_reopen(failures: &mut u32, events: u64, retry_ms: Option<u64>) -> bool {
    *failures = match events {
        0 => *failures + 1,
        _ => 1,
    };
    if *failures > MAX_FAILURES {
        return false;
    }
    tokio::time::sleep(delay(retry_ms, *failures)).await;
    true
}

/// Reads the GET stream until it ends: why it did.
async fn read_session_stream(
    peer: &Peer,
    body: &mut Response,
    reader: &mut EventReader,
) -> Result<String, ClientError> {
    loop {
        let messages = match peer.next_messages(body, reader).await? {
            Next::Messages(messages) => messages,
            Next::Ended => return Ok("the server ended it".into()),
            Next::Broke(e) => return Ok(e),
        };
        for message in messages {
            let params = message.get("params").unwrap_or(&Value::Null);
            match (
                message.get("method").and_then(Value::as_str),
                message.get("id"),
            ) {
                (Some(method), Some(id)) => peer.answer_request(method, id, params).await?,
                (Some(method), None) => peer.notified(None, method, params, None),
                // A response only comes on a resumed request's stream, read elsewhere.
                _ => {}
            }
        }
    }
}

/// An open `subscriptions/listen` stream (2026-07-28), from
/// [`HttpTransport::listen`](super::HttpTransport::listen). Dropping it closes the stream.
pub struct Subscription {
    acknowledged: Value,
    task: JoinHandle<()>,
}

impl Subscription {
    /// The notifications the server agreed to send (`notifications` of its
    /// `notifications/subscriptions/acknowledged`): what was asked, less what it does not
    /// support.
    pub fn acknowledged(&self) -> &Value {
        &self.acknowledged
    }

    /// Whether the stream is still open (or being opened again).
    pub fn is_open(&self) -> bool {
        !self.task.is_finished()
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl std::fmt::Debug for Subscription {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Subscription")
            .field("acknowledged", &self.acknowledged)
            .field("open", &self.is_open())
            .finish()
    }
}

/// Opens a subscription, and waits for the server's acknowledgement.
pub(super) async fn listen(peer: Arc<Peer>, filter: Value) -> Result<Subscription, ClientError> {
    let (acknowledged, ack) = oneshot::channel();
    let url = peer.endpoint.url.clone();
    let task = tokio::spawn(listening(peer, filter, acknowledged));
    match ack.await {
        Ok(Ok(acknowledged)) => Ok(Subscription { acknowledged, task }),
        Ok(Err(e)) => Err(e),
        Err(_) => Err(ClientError::Transport(format!(
            "POST {url}: the subscription ended before the server acknowledged it"
        ))),
    }
}

/// How one `subscriptions/listen` request ended.
enum Listened {
    /// The server answered it: the subscription is over.
    Answered,
    /// The server refused it, or cannot be reached now.
    Failed(ClientError),
    /// The stream dropped without an answer, after this many events.
    Dropped(u64),
}

type Ack = Option<oneshot::Sender<Result<Value, ClientError>>>;

/// Keeps a subscription open: opened again when its stream drops without the server's
/// response (after a delay doubling while it fails), until the subscription is dropped,
/// the server answers it, or it fails [`MAX_FAILURES`] times in a row.
async fn listening(
    peer: Arc<Peer>,
    filter: Value,
    acknowledged: oneshot::Sender<Result<Value, ClientError>>,
) {
    let mut ack: Ack = Some(acknowledged);
    let mut failures = 0;
    loop {
        let outcome = listen_once(&peer, &filter, &mut ack).await;
        if let Some(pending) = ack.take() {
            // Never acknowledged: the caller of `listen` gets why.
            let e = match outcome {
                Listened::Failed(e) => e,
                Listened::Answered => {
                    peer.failed("the server ended the subscription before acknowledging it".into())
                }
                Listened::Dropped(_) => {
                    peer.failed("the subscription's stream ended before its acknowledgement".into())
                }
            };
            let _ = pending.send(Err(e));
            return;
        }
        let events = match outcome {
            Listened::Answered => return,
            Listened::Failed(ClientError::Transport(e)) => {
                tracing::debug!(error = %e, "listening again failed");
                0
            }
            Listened::Failed(e) => {
                tracing::warn!(error = %e, "the server refused to open the subscription again");
                return;
            }
            Listened::Dropped(events) => events,
        };
        if !wait_to_reopen(&mut failures, events, None).await {
            tracing::warn!(url = %peer.endpoint.url, "giving up a subscription");
            return;
        }
    }
}

/// One `subscriptions/listen` request and its stream.
async fn listen_once(peer: &Peer, filter: &Value, ack: &mut Ack) -> Listened {
    let id = peer.next_id();
    let params = json!({"notifications": filter});
    let response = match peer.send_request(id, "subscriptions/listen", params).await {
        Ok(response) => response,
        Err(e) => return Listened::Failed(e),
    };
    if !response.status().is_success() || content_type(&response) != "text/event-stream" {
        return match peer.reply_to(id, response, None).await {
            Ok(reply) => match crate::protocol::reply_result(reply) {
                Ok(_) => Listened::Answered,
                Err(e) => Listened::Failed(ClientError::Protocol(e)),
            },
            Err(e) => Listened::Failed(e),
        };
    }
    let mut body = response;
    let mut reader = EventReader::default();
    loop {
        let messages = match peer.next_messages(&mut body, &mut reader).await {
            Ok(Next::Messages(messages)) => messages,
            Ok(Next::Ended | Next::Broke(_)) => return Listened::Dropped(reader.dispatched()),
            Err(e) => return Listened::Failed(e),
        };
        for message in messages {
            let params = message.get("params").unwrap_or(&Value::Null);
            match (
                message.get("method").and_then(Value::as_str),
                message.get("id"),
            ) {
                (Some(method), None) => {
                    let ours = params
                        .pointer("/_meta/io.modelcontextprotocol~1subscriptionId")
                        .is_some_and(|s| *s == json!(id));
                    if ours
                        && method == "notifications/subscriptions/acknowledged"
                        && let Some(ack) = ack.take()
                    {
                        let agreed = params.get("notifications").cloned();
                        let _ = ack.send(Ok(agreed.unwrap_or_else(|| json!({}))));
                    }
                    peer.notified(None, method, params, None);
                }
                (None, Some(answered)) if *answered == json!(id) => {
                    return match crate::protocol::reply_result(message) {
                        Ok(_) => Listened::Answered,
                        Err(e) => Listened::Failed(ClientError::Protocol(e)),
                    };
                }
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_double_from_the_servers_retry_up_to_the_cap() {
        let ms = |d: Duration| d.as_millis();
        assert_eq!(ms(delay(None, 1)), 1000);
        assert_eq!(ms(delay(Some(250), 1)), 250);
        assert_eq!(ms(delay(Some(250), 3)), 1000);
        assert_eq!(ms(delay(None, 9)), 30_000);
        // A server asking for more than the cap is waited for.
        assert_eq!(ms(delay(Some(60_000), 2)), 60_000);
    }
}
