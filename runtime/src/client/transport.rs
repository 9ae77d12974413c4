//! The connection a client talks through.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicI64, Ordering};

use serde_json::Value;

use super::{ClientError, observe};
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
    fn request<'a>(&'a self, method: &'a str, params: Value) -> ReplyFuture<'a>;

    /// Sends the notification `method` with `params`.
    fn notify(&self, method: &str, params: Value) -> Result<(), ClientError>;
}

/// The in-process client of [`testing`]: the server's real dispatcher, without a process.
///
/// Inside [`with_progress`](super::with_progress), the call's progress reaches the handler
/// when the reply is in, in the order it was sent (this client keeps what the server sends
/// until asked); the server's other notifications stay with the client
/// ([`testing::Client::take_notifications`]).
impl Transport for testing::Client {
    fn request<'a>(&'a self, method: &'a str, params: Value) -> ReplyFuture<'a> {
        Box::pin(async move {
            let Some(handler) = observe::progress_handler() else {
                return Ok(testing::Client::request(self, method, params).await?);
            };
            let token = NEXT_TOKEN.fetch_add(1, Ordering::Relaxed);
            let params = observe::with_token(params, token);
            let reply = testing::Client::request(self, method, params).await;
            for params in self.take_progress(token) {
                if let Some((_, progress)) = observe::progress_of(&params) {
                    handler(progress);
                }
            }
            Ok(reply?)
        })
    }

    fn notify(&self, method: &str, params: Value) -> Result<(), ClientError> {
        testing::Client::notify(self, method, params);
        Ok(())
    }
}
