//! The endpoint as a `tower::Service`, for an application that owns its listener and router.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use hyper::body::{Body, Bytes, Frame, SizeHint};
use hyper::{Request, Response};
use tokio::sync::watch;

use super::body::Out;
use super::config::HttpConfig;
use super::health::{self, Probe};
use super::route::handle;
use super::state::State;
use crate::connection::shutdown::{self, Scope};
use crate::server::Server;

/// The Streamable HTTP endpoint as a [`tower_service::Service`], to mount in an application's
/// own router beside its other routes, where [`serve`](super::serve) and
/// [`HttpServer`](super::HttpServer) would own the listener.
///
/// ```ignore
/// let mcp = McpService::new(server, HttpConfig::new());
/// let app = axum::Router::new()
///     .route("/health", axum::routing::get(|| async { "ok" }))
///     .route_service("/mcp", mcp.clone());
/// axum::serve(listener, app)
///     .with_graceful_shutdown(async move {
///         shutdown_signal().await;
///         mcp.shutdown(); // ends the endpoint's long-lived streams, so the server can stop
///     })
///     .await?;
/// ```
///
/// Every request goes through the same checks as with [`HttpServer`](super::HttpServer):
/// `Host` and `Origin` (loopback names by default; add the names clients use with
/// [`HttpConfig::allow_host`]), the bearer check, the body limit, requests in flight,
/// sessions and their limits. [`HttpConfig::bind`] is not used (the application binds), nor
/// is [`HttpConfig::path`]: the router decides where the endpoint is, so it works under
/// `route_service("/mcp", …)` and `nest_service("/mcp", …)` alike. The request body can be
/// any [`Body`] of [`Bytes`] (axum's, hyper's `Incoming`, …).
///
/// Clones share one endpoint (its sessions, its limits). When the last clone is dropped,
/// the remaining sessions end.
#[derive(Clone)]
pub struct McpService {
    shared: Arc<Mounted>,
}

struct Mounted {
    state: Arc<State>,
    stop: watch::Sender<bool>,
}

impl Drop for Mounted {
    fn drop(&mut self) {
        let _ = self.stop.send(true);
        self.state.sessions.end_all();
    }
}

impl McpService {
    /// The endpoint for `server`, with `config`'s checks and limits.
    ///
    /// # Panics
    ///
    /// Outside a Tokio runtime: handlers run on the runtime this is called on.
    pub fn new(server: Server, config: HttpConfig) -> McpService {
        let (stop, stop_rx) = watch::channel(false);
        let state = State::new(server, config, stop_rx, true);
        McpService {
            shared: Arc::new(Mounted { state, stop }),
        }
    }

    /// Starts shutting down, as [`HttpServer::run_until`](super::HttpServer::run_until) does
    /// when its signal completes: long-lived streams (a session's `GET` stream,
    /// `subscriptions/listen`) end, so that the application's graceful shutdown, which waits
    /// for open responses, can finish; requests in flight finish and answer.
    pub fn shutdown(&self) {
        let _ = self.shared.stop.send(true);
    }

    /// A graceful shutdown of the endpoint, to run beside the application's own: starts it
    /// ([`Self::shutdown`]; POSTs from then on are answered 503), lets the calls in flight
    /// finish for up to [`HttpConfig::drain_timeout`], then cancels those still running,
    /// each answered with an error, so that the application's graceful shutdown (which
    /// waits for open responses) ends in time. Completes when every call has answered.
    ///
    /// ```ignore
    /// axum::serve(listener, app)
    ///     .with_graceful_shutdown(async move {
    ///         shutdown_signal().await;
    ///         tokio::spawn(mcp.drain());
    ///     })
    ///     .await?;
    /// ```
    pub fn drain(&self) -> impl Future<Output = ()> + Send + 'static {
        self.shutdown();
        let state = self.shared.state.clone();
        async move {
            state.server.drain_connections();
            shutdown::settle(&state.server, Scope::Server, state.config.drain).await;
        }
    }

    /// The liveness check, to mount where the application's supervisor probes (for example
    /// `route_service("/healthz", mcp.liveness())`): `GET` or `HEAD` answers 200
    /// `{"status":"ok"}` ([`HttpConfig::health`]).
    pub fn liveness(&self) -> HealthCheck {
        HealthCheck {
            state: self.shared.state.clone(),
            probe: Probe::Liveness,
        }
    }

    /// The readiness check (`route_service("/readyz", mcp.readiness())`): 200 while the
    /// endpoint takes requests, 503 once its shutdown has started or while Redis does not
    /// answer ([`HttpConfig::health`]).
    pub fn readiness(&self) -> HealthCheck {
        HealthCheck {
            state: self.shared.state.clone(),
            probe: Probe::Readiness,
        }
    }
}

/// A health check of a mounted endpoint ([`McpService::liveness`],
/// [`McpService::readiness`]), as a [`tower_service::Service`]. It answers whatever path
/// it is mounted at.
#[derive(Clone)]
pub struct HealthCheck {
    state: Arc<State>,
    probe: Probe,
}

impl<B> tower_service::Service<Request<B>> for HealthCheck
where
    B: Send + 'static,
{
    type Response = Response<ResponseBody>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, req: Request<B>) -> Self::Future {
        let (state, probe) = (self.state.clone(), self.probe);
        let method = req.method().clone();
        Box::pin(async move {
            let response = health::answer(&state, probe, &method).await;
            Ok(response.map(ResponseBody))
        })
    }
}

impl<B> tower_service::Service<Request<B>> for McpService
where
    B: Body<Data = Bytes> + Send + 'static,
{
    type Response = Response<ResponseBody>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        // Requests over the limit are answered 503 rather than queued.
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, req: Request<B>) -> Self::Future {
        let state = self.shared.state.clone();
        Box::pin(async move {
            let response = handle(state, req.map(Box::pin), None).await;
            Ok(response.map(ResponseBody))
        })
    }
}

/// The body of a [`McpService`] response: JSON, or an event stream that ends with the
/// request's reply (or, for a `GET` stream, with the session or shutdown).
pub struct ResponseBody(Out);

impl Body for ResponseBody {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        Pin::new(&mut self.get_mut().0).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.0.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.0.size_hint()
    }
}
