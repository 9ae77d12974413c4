//! The connection a client talks through.

use std::future::Future;
use std::pin::Pin;

use serde_json::Value;

use super::ClientError;
use crate::testing;

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
impl Transport for testing::Client {
    fn request<'a>(&'a self, method: &'a str, params: Value) -> ReplyFuture<'a> {
        Box::pin(async move { Ok(testing::Client::request(self, method, params).await?) })
    }

    fn notify(&self, method: &str, params: Value) -> Result<(), ClientError> {
        testing::Client::notify(self, method, params);
        Ok(())
    }
}
