//! Middleware around tool calls ([`ServerBuilder::middleware`](super::ServerBuilder::middleware)):
//! code of the application's that sees each call (the tool, its arguments, who makes it) and
//! its typed outcome, and may answer instead of the handler, change the outcome, time or log
//! it, as tower's layers do around a service.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use crate::service::{BoxFuture, ToolResult};

/// One tool call, as a [`Middleware`] sees it.
#[derive(Debug, Clone)]
pub struct ToolCall {
    /// The tool's name, as the client called it.
    pub tool: String,
    /// The arguments' JSON text, as the client sent it (`{}` when it sent none).
    pub arguments: String,
    /// The principal of the request's verified access token (feature `auth`), if any.
    pub principal: Option<String>,
    /// Whom per-client limits count the call against: `principal:…`, `addr:…` (HTTP
    /// without a token) or `local` (stdio).
    pub client: String,
    /// The request's id, as JSON text (`1`, `"a"`).
    pub request_id: String,
}

/// The rest of the chain: the next middleware, and at its end the tool's handler. Awaiting
/// it runs them; dropping it unawaited, they never run.
pub struct Next(BoxFuture<ToolResult>);

impl Future for Next {
    type Output = ToolResult;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<ToolResult> {
        self.0.as_mut().poll(cx)
    }
}

/// Code around every tool call of a server. The first added
/// ([`ServerBuilder::middleware`](super::ServerBuilder::middleware)) is the outermost: it
/// sees the call first and the outcome last. A call refused before it reaches its handler
/// (unknown tool, a limit of [`ToolLimits`](super::ToolLimits), bad `requestState`) never
/// reaches middleware; the time limit counts the time spent in middleware.
///
/// ```
/// use toolidl_runtime::codegen::BoxFuture;
/// use toolidl_runtime::middleware::{Middleware, Next, ToolCall};
/// use toolidl_runtime::{ToolError, ToolResult};
///
/// /// Logs each call's tool, client, outcome and time.
/// struct Audit;
///
/// impl Middleware for Audit {
///     fn around(&self, call: ToolCall, next: Next) -> BoxFuture<ToolResult> {
///         Box::pin(async move {
///             let started = std::time::Instant::now();
///             let outcome = next.await;
///             let ok = outcome.is_ok();
///             eprintln!("{} by {}: ok={ok} in {:?}", call.tool, call.client, started.elapsed());
///             outcome
///         })
///     }
/// }
/// ```
///
/// A closure `Fn(ToolCall, Next) -> BoxFuture<ToolResult>` is a middleware too.
pub trait Middleware: Send + Sync + 'static {
    /// Runs around one call: await `next` for the handler's outcome (or don't, to answer
    /// without it), and return the outcome the client gets.
    fn around(&self, call: ToolCall, next: Next) -> BoxFuture<ToolResult>;
}

impl<F> Middleware for F
where
    F: Fn(ToolCall, Next) -> BoxFuture<ToolResult> + Send + Sync + 'static,
{
    fn around(&self, call: ToolCall, next: Next) -> BoxFuture<ToolResult> {
        self(call, next)
    }
}

/// A server's middleware, outermost first.
pub(crate) type Chain = Arc<[Arc<dyn Middleware>]>;

/// `handler` inside `chain` (the outermost first). Each middleware's `around` runs when
/// the future around it is first polled, so the outermost runs first.
pub(crate) fn wrap(
    chain: &[Arc<dyn Middleware>],
    call: ToolCall,
    handler: BoxFuture<ToolResult>,
) -> BoxFuture<ToolResult> {
    chain.iter().rev().fold(handler, |inner, m| {
        let (m, call) = (m.clone(), call.clone());
        Box::pin(async move { m.around(call, Next(inner)).await })
    })
}
