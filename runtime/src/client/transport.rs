//! The connection a client talks through.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicI64, Ordering};

use serde_json::Value;

use super::{ClientError, input, observe, tasks};
use crate::testing;

/// The progress tokens of in-process requests: unique across clients, as the requests'
/// ids are not.
static NEXT_TOKEN: AtomicI64 = AtomicI64::new(1);

/// The reply to a request, boxed so that [`Transport`] stays object-safe; it borrows the
/// transport and the method name for as long as the request is in flight.
pub type ReplyFuture<'a> = Pin<Box<dyn Future<Output = Result<Value, ClientError>> + Send + 'a>>;

/// A connection to an MCP server that has finished its handshake.
///
/// Object-safe (the futures are boxed), so clients hold an `Arc<dyn Transport>` and tests
/// can stand in a server of their own.
pub trait Transport: Send + Sync {
    /// Sends the request `method` with `params` and waits for its reply: the `result`
    /// member, or the error the server answered with ([`ClientError::Protocol`]).
    ///
    /// The server's requests for input belong to the transport: the ones it sends in a
    /// handshake session, and a 2026-07-28 `input_required` result, answered and retried
    /// until the result is final ([`MAX_INPUT_ROUNDS`](super::MAX_INPUT_ROUNDS) at most).
    fn request<'a>(&'a self, method: &'a str, params: Value) -> ReplyFuture<'a>;

    /// Sends the notification `method` with `params`.
    fn notify(&self, method: &str, params: Value) -> Result<(), ClientError>;
}

/// The in-process client of [`testing`]: the server's real dispatcher, without a process.
///
/// Inside [`with_progress`](super::with_progress), the call's progress reaches the handler
/// when the reply is in, in the order it was sent (this client keeps what the server sends
/// until asked); the server's other notifications stay with the client
/// ([`testing::Client::take_notifications`]). Under 2026-07-28 an `input_required` result
/// is answered by the handler given to
/// [`ClientBuilder::on_request`](testing::ClientBuilder::on_request) and the request
/// retried, as the HTTP transport does; a tool call answered with a task (the client's
/// capabilities declare the tasks extension) is polled to its end, but not cancelled when
/// the caller stops waiting.
impl Transport for testing::Client {
    fn request<'a>(&'a self, method: &'a str, params: Value) -> ReplyFuture<'a> {
        Box::pin(async move {
            if !self.revision().is_stateless() {
                return request_once(self, method, params).await;
            }
            let result = input::answering(method, params, self.responder(), |params| {
                request_once(self, method, params)
            })
            .await?;
            if method == "tools/call" && tasks::is_task(&result) {
                let poll = |method, params| request_once(self, method, params);
                return tasks::awaiting(result, self.responder(), poll, Box::new(|_| {})).await;
            }
            Ok(result)
        })
    }

    fn notify(&self, method: &str, params: Value) -> Result<(), ClientError> {
        testing::Client::notify(self, method, params);
        Ok(())
    }
}

/// One in-process request, its progress delivered once the reply is in.
async fn request_once(
    client: &testing::Client,
    method: &str,
    params: Value,
) -> Result<Value, ClientError> {
    let Some(handler) = observe::progress_handler() else {
        return Ok(testing::Client::request(client, method, params).await?);
    };
    let token = NEXT_TOKEN.fetch_add(1, Ordering::Relaxed);
    let params = observe::with_token(params, token);
    let reply = testing::Client::request(client, method, params).await;
    for params in client.take_progress(token) {
        if let Some((_, progress)) = observe::progress_of(&params) {
            handler(progress);
        }
    }
    Ok(reply?)
}
