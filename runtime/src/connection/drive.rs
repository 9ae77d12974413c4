//! Running a handler's future: one poll in place, else a cancellable task; panics become
//! failures that are reported to `tracing`.

use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::task::{Context, Poll, Waker};

use serde_json::Value;

use super::Connection;
use crate::args::depth;
use crate::context::RequestContext;
use crate::output::{Body, finish_result};
use crate::peer::{CallState, lock};
use crate::protocol::{RpcError, error_message, result_message};
use crate::service::BoxFuture;

impl Connection {
    /// Runs a future that yields a whole result object.
    pub(super) fn drive_value(
        &self,
        ctx: RequestContext,
        fut: BoxFuture<Result<Value, RpcError>>,
        cacheable: bool,
    ) {
        let server = self.server.clone();
        let state = ctx.state.clone();
        drop(ctx);
        self.drive(state, fut, move |outcome, state: &CallState| {
            let outcome = match outcome {
                Ok(r) => r,
                Err(Panicked) => Err(RpcError::internal("Internal error.")),
            };
            match outcome.and_then(|value| super::mrtr::seal_value(&server, state, value)) {
                Ok(value) => {
                    let has_meta = value.get("_meta").is_some();
                    let json = match depth::to_json(&value, server.shared.max_depth) {
                        Ok(json) => json,
                        Err(e) => {
                            tracing::error!(request = %state.request_id, error = %e, "result not written");
                            depth::drop_json(value);
                            return error_message(
                                &state.request_id,
                                &RpcError::internal("Internal error."),
                            );
                        }
                    };
                    let body = Body { json, has_meta };
                    let cache = cacheable.then_some(&server.shared.cache);
                    let r = finish_result(body, state.revision, cache, &server.shared.info_json);
                    result_message(&state.request_id, &r)
                }
                Err(e) => error_message(&state.request_id, &e),
            }
        });
    }

    /// Polls `fut` once here; if it is not done, spawns it (cancellable) and answers later.
    #[cfg_attr(not(feature = "otel"), allow(unused_mut))]
    pub(super) fn drive<T, F>(&self, state: Arc<CallState>, mut fut: BoxFuture<T>, finish: F)
    where
        T: Send + 'static,
        F: FnOnce(Result<T, Panicked>, &CallState) -> String + Send + 'static,
    {
        let mut cx = Context::from_waker(Waker::noop());
        match catch_unwind(AssertUnwindSafe(|| fut.as_mut().poll(&mut cx))) {
            Ok(Poll::Ready(value)) => self.emit(render(finish, Ok(value), &state)),
            Err(payload) => {
                report_panic(&state.request_id, payload.as_ref());
                self.emit(render(finish, Err(Panicked), &state));
            }
            Ok(Poll::Pending) => {
                let conn = self.shared.clone();
                let key = state.request_id.clone();
                lock(&conn.inflight).insert(key.clone(), state.clone());
                // A one-request connection is tracked while it has a call running, so that a
                // shutdown's deadline reaches the call (`Server::abort_calls`).
                if conn.ephemeral.load(Ordering::Relaxed) {
                    self.server.track(&conn);
                }
                // The request's span goes with the call: the handler's later polls run in
                // it, and it ends with the reply.
                #[cfg(feature = "otel")]
                let mut telemetry = self.telemetry.borrow_mut().take();
                #[cfg(feature = "otel")]
                if let Some(span) = &telemetry {
                    fut = Box::pin(tracing::Instrument::instrument(fut, span.span().clone()));
                }
                self.shared.runtime.spawn(async move {
                    let outcome = tokio::select! {
                        biased;
                        _ = state.wait_cancelled() => None,
                        r = CatchUnwind(fut) => Some(r),
                    };
                    let reply = match outcome {
                        Some(Ok(v)) => Some(render(finish, Ok(v), &state)),
                        Some(Err(payload)) => {
                            report_panic(&state.request_id, payload.as_ref());
                            Some(render(finish, Err(Panicked), &state))
                        }
                        None if conn.aborting.load(Ordering::Acquire) => {
                            tracing::debug!(request = %state.request_id, "cancelled by the shutdown");
                            let e = super::cancelled_by_shutdown();
                            Some(error_message(&state.request_id, &e))
                        }
                        None => {
                            tracing::debug!(request = %state.request_id, "cancelled");
                            #[cfg(feature = "otel")]
                            if let Some(span) = telemetry.take() {
                                span.cancelled();
                            }
                            None
                        }
                    };
                    if let Some(reply) = reply {
                        #[cfg(feature = "otel")]
                        if let Some(span) = telemetry.take() {
                            span.finish(Some(&reply));
                        }
                        state.send_reply(reply);
                    }
                    // Answered before the call leaves `inflight`: a shutdown that waits for
                    // `inflight` to empty knows every answer is on its way.
                    lock(&conn.inflight).remove(&key);
                    conn.slot_freed.notify_all();
                });
            }
        }
    }
}

/// Renders the reply; a panic while rendering (a service's `Display` or `Serialize`, say)
/// still answers the request, with -32603.
fn render<T, F>(finish: F, outcome: Result<T, Panicked>, state: &CallState) -> String
where
    F: FnOnce(Result<T, Panicked>, &CallState) -> String,
{
    let rendered = catch_unwind(AssertUnwindSafe(|| finish(outcome, state)));
    rendered.unwrap_or_else(|payload| {
        report_panic(&state.request_id, payload.as_ref());
        error_message(&state.request_id, &RpcError::internal("Internal error."))
    })
}

/// A handler panicked; its payload went to `tracing`.
pub(super) struct Panicked;

pub(super) fn report_panic(request: &str, payload: &(dyn std::any::Any + Send)) {
    let text = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("(no message)");
    tracing::error!(request, panic = text, "handler panicked");
}

/// Polls a future, turning a panic into an `Err` with its payload.
pub(super) struct CatchUnwind<T>(pub(super) BoxFuture<T>);

impl<T> Future for CatchUnwind<T> {
    type Output = Result<T, Box<dyn std::any::Any + Send>>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let fut = &mut self.0;
        let polled = catch_unwind(AssertUnwindSafe(|| fut.as_mut().poll(cx)));
        match polled {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(v)) => Poll::Ready(Ok(v)),
            Err(payload) => Poll::Ready(Err(payload)),
        }
    }
}
