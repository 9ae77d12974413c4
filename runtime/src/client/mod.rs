//! Calling an MCP server from Rust (feature `client`).
//!
//! The pieces typed clients are built from:
//!
//! - [`Transport`]: the one thing a client needs from a connection: send a JSON-RPC request
//!   and await its reply, send a notification. Object-safe, so a client holds an
//!   `Arc<dyn Transport>` and a test can hand it a hand-made server. The in-process
//!   [`testing::Client`](crate::testing::Client) implements it; requests the server sends to
//!   the client (elicitation, sampling) reach the handler given to
//!   [`testing::ClientBuilder::on_request`](crate::testing::ClientBuilder::on_request).
//! - [`call_tool`] and [`ToolReply`]: a `tools/call` whose reply is sorted into the
//!   ways it can go wrong, [`ClientError`], with [`ToolReply::structured`] decoding the
//!   structured result into the declared output type.
//!
//! - [`read_resource`] and [`get_prompt`], with [`ResourceReply`] and [`PromptReply`]; and
//!   [`template_uri`], the URI of a resource template for its variables.
//! - [`StdioTransport`]: a server in a child process, over its stdin and stdout, with the
//!   `initialize` handshake; the server's requests to the client go to a [`RequestHandler`].
//!
//! - [`HttpTransport`] (feature `http` too): a server at an `http://` URL over Streamable
//!   HTTP; 2026-07-28 stateless when the server speaks it, else the `initialize` handshake
//!   and a session. In a session, the server's requests arriving in an event stream go to
//!   the [`RequestHandler`] too.
//!
//! The replies read results with the decoders generated code passes in ([`ReadValue`]), the
//! ones the server runs on arguments, so a result is checked against its declared type with
//! every constraint of that type.
//!
//! - [`with_progress`]: the progress of one call, [`Progress`] by [`Progress`]; the server's
//!   other notifications (log messages, list changes) go to the [`NotificationHandler`]
//!   given to [`StdioTransportBuilder::on_notification`] or
//!   [`HttpTransportBuilder::on_notification`]. A call whose future is dropped before its
//!   reply (a timeout, a `select!`) is cancelled: the transport sends
//!   `notifications/cancelled`, or, for a 2026-07-28 HTTP request, closes its connection.

mod call;
mod decode;
mod error;
#[cfg(feature = "http")]
mod http;
mod input;
mod meta;
#[cfg(feature = "http")]
mod oauth;
mod observe;
mod read;
mod stdio;
mod tasks;
mod transport;

pub use call::{ToolReply, call_tool};
pub use decode::ReadValue;
pub use error::ClientError;
#[cfg(feature = "http")]
pub use http::{HttpTransport, HttpTransportBuilder, MAX_REPLY_BYTES, Subscription};
pub use input::MAX_INPUT_ROUNDS;
#[cfg(feature = "http")]
pub use oauth::{
    LoopbackRedirect, MemoryTokenStore, OAuth, OAuthBuilder, Redirect, RedirectFuture,
    Registration, TokenStore, Tokens,
};
pub use observe::{
    NotificationHandler, Progress, ProgressHandler, progress_handler, with_progress,
};
pub use read::{PromptReply, ResourceReply, get_prompt, read_resource, template_uri};
pub use stdio::{RequestHandler, StdioTransport, StdioTransportBuilder};
/// The command a [`StdioTransport`] starts: tokio's, re-exported for generated clients.
pub use tokio::process::Command;
pub use transport::{ReplyFuture, Transport};
