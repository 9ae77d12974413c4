//! Testing a server without a subprocess.
//!
//! - [`TestContext`] makes the [`RequestContext`](crate::RequestContext) a handler method
//!   takes, and records what the handler sent through it (progress, log messages), so a unit
//!   test calls the method directly:
//!
//!   ```ignore
//!   let ctx = TestContext::new();
//!   let text = MyWeather.get_weather(ctx.context(), GetWeatherArgs { city: "Oslo".into(), units: Units::Celsius }).await?;
//!   assert_eq!(ctx.progress().len(), 2);
//!   ```
//!
//! - [`Client`] drives a real [`Server`](crate::Server) in the same process, through the same
//!   dispatcher stdio and HTTP use: every message it sends is JSON text handed to a
//!   [`Connection`](crate::transport::Connection), every reply is read back from its outbox,
//!   so decoding, checking, results and errors are the ones a real client gets. It speaks
//!   any revision: the handshake ones (`initialize` first) and 2026-07-28 (`_meta` on every
//!   request).
//!
//!   ```
//!   # async fn demo(server: toolidl_runtime::Server) -> Result<(), toolidl_runtime::RpcError> {
//!   use toolidl_runtime::testing::Client;
//!   let client = Client::connect(&server).await?;
//!   let result = client.call_tool("get_weather", serde_json::json!({"city": "Oslo"})).await?;
//!   assert!(!result.is_error(), "{}", result.text());
//!   # Ok(()) }
//!   ```
//!
//! - [`Listing`] is the server's whole listing (tools, resources, resource templates,
//!   prompts) as one pretty JSON document: a golden test of it is one line with `insta`
//!   (`insta::assert_snapshot!(client.listing().await?)`).
//!
//! The module is always compiled: it adds no dependency, and a feature would be one more
//! line every user has to find before their first test.

mod client;
mod context;
mod listing;
#[cfg(all(test, feature = "redis"))]
mod redis_tests;

#[cfg(feature = "client")]
pub(crate) use client::Respond;
pub use client::{CallResult, Client, ClientBuilder, PendingRequest};
pub use context::{LogMessage, Progress, TestContext, TestContextBuilder};
pub use listing::Listing;
