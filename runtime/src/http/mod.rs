//! The Streamable HTTP transport (feature `http`): one MCP endpoint (default `/mcp`) on
//! hyper 1 (HTTP/1.1) and tokio, driving the same [`Connection`](crate::transport::Connection)
//! machinery as stdio, so both transports share one dispatcher and one set of error rules.
//!
//! - Revisions 2025-03-26 to 2025-11-25: `initialize` opens a session (`Mcp-Session-Id`,
//!   128 random bits from the OS), which every later request names; `DELETE` ends it; `GET`
//!   opens the session's stream of server messages (list changes).
//! - 2026-07-28: each POST stands alone (no session), `Mcp-Method`/`Mcp-Name` and
//!   `MCP-Protocol-Version` are checked against the body (`-32020`), and so are the
//!   `Mcp-Param-*` headers of a `tools/call` whose tool has `x-mcp-header` parameters;
//!   closing the response cancels the call; `GET` and `DELETE` answer 405.
//! - A request is answered with `application/json`, or with `text/event-stream` when its
//!   handler sends progress, log messages or requests to the client before its result.
//! - In sessions, event-stream events carry ids (`<stream>-<seq>`) kept in a bounded replay
//!   buffer per session; a `GET` with `Last-Event-ID` resumes the stream the id belongs to
//!   (the GET stream, or a call's POST stream whose client went away). 2025-11-25 POST
//!   streams start with a priming event, and [`HttpConfig::poll_tool`] closes a tool's
//!   streams after it so that the client polls.
//! - [`HttpConfig::stateless`] keeps no session at all, so any number of instances can
//!   answer any request behind a load balancer.
//! - With Redis ([`ServerBuilder::redis`](crate::ServerBuilder::redis)), a session's
//!   requests reaching another instance than the one holding it are forwarded there
//!   ([`HttpConfig::advertise`]), so sessions need no affinity either.
//!
//! Either the runtime owns the listener ([`serve`], [`HttpServer`]), or the application does
//! and mounts the endpoint in its own router beside its other routes: [`McpService`] is a
//! `tower::Service` (axum's `route_service("/mcp", mcp)` or `nest_service`), with the same
//! checks and limits and a [`McpService::shutdown`] for the application's graceful shutdown
//! (`examples/axum`).
//!
//! Security defaults: bound to 127.0.0.1, one `Host` and at most one `Origin`, checked
//! against loopback names and the bound address (400, 403), a 4 MiB body limit (413) read
//! within 30 s (408), an optional bearer-token check (401), and budgets per client so that
//! no client can take what the others need (429, or 503 when the endpoint is full, both with
//! `Retry-After`): request bodies on their way, requests in flight, long-lived streams
//! (which never take a request's slot) and sessions; graceful shutdown. `docs/deploy.md`
//! lists every limit, its default and its setting.
//!
//! The files form a stack as the crate's modules do (`docs/architecture.md`), lowest
//! first; this file, on top, declares them and owns the listener ([`HttpServer`]):
//!
//! 1. `config`: [`HttpConfig`].
//! 2. `limits`: who a request comes from ([`ClientAddr`], the client key) and the budgets
//!    per client.
//! 3. `replay`: a session's replay buffer for `Last-Event-ID`.
//! 4. `sessions`: a session (its connection and outbox) and the table of them.
//! 5. `directory`: (feature `redis`) which instance holds which session.
//! 6. `body`: response bodies (JSON, event streams) and reading request bodies.
//! 7. `headers`, `params`, `cors`, `card`: the header checks; `Mcp-Param-*` headers of tool
//!    parameters; CORS for browser clients; the server card (a draft).
//! 8. `authorize`: the OAuth resource server (feature `auth`): metadata, tokens, scopes.
//! 9. `state`: what every request handler of one endpoint shares.
//! 10. `health`, `post`: health checks off the endpoint ([`HttpConfig::health`]); a POST's
//!     message, answered.
//! 11. `session_requests`: GET (a session's stream) and DELETE.
//! 12. `forward`: (feature `redis`) a session's request forwarded to the instance holding it.
//! 13. `route`: one request, checked, then routed by method.
//! 14. `mount`: [`McpService`], the endpoint in an application's own router.

#[cfg(feature = "auth")]
mod authorize;
mod body;
mod card;
mod config;
mod cors;
#[cfg(feature = "redis")]
mod directory;
#[cfg(feature = "redis")]
mod forward;
mod headers;
mod health;
mod limits;
mod mount;
mod params;
mod post;
mod replay;
mod route;
mod session_requests;
mod sessions;
mod state;

use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::time::Duration;

use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::{mpsc, watch};

use crate::connection::shutdown::{self, Scope};
use crate::server::Server;
pub use crate::signal::shutdown_signal;
#[cfg(feature = "auth")]
pub use config::AuthConfig;
pub use config::HttpConfig;
pub use limits::ClientAddr;
pub use mount::{HealthCheck, McpService, ResponseBody};
use route::handle;
use state::State;

/// A bound HTTP server, ready to run.
///
/// ```no_run
/// # async fn f(server: toolidl_runtime::Server) -> std::io::Result<()> {
/// use toolidl_runtime::http::{HttpConfig, HttpServer};
/// let http = HttpServer::bind(server, HttpConfig::new().bind(([127, 0, 0, 1], 8931).into())).await?;
/// println!("listening on {}", http.local_addr()?);
/// http.run().await // until SIGINT or SIGTERM
/// # }
/// ```
pub struct HttpServer {
    listener: TcpListener,
    server: Server,
    config: HttpConfig,
}

/// Binds `config`'s address and serves `server` until SIGINT or SIGTERM, then shuts down
/// gracefully ([`HttpServer::run_until`]) and returns.
pub async fn serve(server: Server, config: HttpConfig) -> io::Result<()> {
    HttpServer::bind(server, config).await?.run().await
}

impl HttpServer {
    /// Binds the configured address ([`HttpConfig::bind`], default `127.0.0.1:8080`).
    pub async fn bind(server: Server, config: HttpConfig) -> io::Result<HttpServer> {
        let listener = TcpListener::bind(config.addr).await?;
        HttpServer::from_listener(server, listener, config)
    }

    /// Serves on a listener the caller bound (port 0 in tests, a socket handed over by a
    /// supervisor). Its local address joins the allowed `Host` values.
    pub fn from_listener(
        server: Server,
        listener: TcpListener,
        mut config: HttpConfig,
    ) -> io::Result<HttpServer> {
        config.add_bound_address(listener.local_addr()?);
        Ok(HttpServer {
            listener,
            server,
            config,
        })
    }

    /// The address the server listens on.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves until SIGINT or SIGTERM (see [`HttpServer::run_until`]).
    pub async fn run(self) -> io::Result<()> {
        self.run_until(shutdown_signal()).await
    }

    /// Serves until `shutdown` completes; then shuts down gracefully and returns: stops
    /// accepting, closes idle connections and long-lived streams, answers requests that
    /// still arrive with 503, lets the calls in flight finish and answer for up to
    /// [`HttpConfig::drain_timeout`], and cancels those still running then, each answered
    /// with an error.
    pub async fn run_until(self, shutdown: impl Future<Output = ()>) -> io::Result<()> {
        let HttpServer {
            listener,
            server,
            config,
        } = self;
        let (stop_tx, stop_rx) = watch::channel(false);
        let state = State::new(server, config, stop_rx.clone(), false);
        // Each connection task holds a sender; all dropped means all connections are done.
        let (done_tx, mut done_rx) = mpsc::channel::<()>(1);
        tokio::pin!(shutdown);
        loop {
            let accepted = tokio::select! {
                _ = &mut shutdown => break,
                a = listener.accept() => a,
            };
            let (stream, peer) = match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of file descriptors and the like: wait a little, keep serving.
                    tracing::warn!(error = %e, "accepting a connection failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            };
            let _ = stream.set_nodelay(true);
            let state = state.clone();
            let mut stop = stop_rx.clone();
            let done = done_tx.clone();
            tokio::spawn(async move {
                let service = service_fn(move |req| {
                    let state = state.clone();
                    async move { Ok::<_, Infallible>(handle(state, req, Some(peer)).await) }
                });
                let conn = http1::Builder::new()
                    .timer(TokioTimer::new())
                    .header_read_timeout(Duration::from_secs(30))
                    .serve_connection(TokioIo::new(stream), service);
                tokio::pin!(conn);
                let result = tokio::select! {
                    r = conn.as_mut() => r,
                    _ = async { drop(stop.wait_for(|s| *s).await) } => {
                        conn.as_mut().graceful_shutdown();
                        conn.await
                    }
                };
                if let Err(e) = result {
                    tracing::debug!(error = %e, "HTTP connection ended with an error");
                }
                drop(done);
            });
        }
        // Stop accepting; refuse requests that still arrive on open connections (503) and
        // on the server's connections (-32000); end long-lived streams; let the calls in
        // flight finish until the drain deadline, then cancel the rest (each answered).
        drop(listener);
        let _ = stop_tx.send(true);
        state.server.drain_connections();
        drop(done_tx);
        let drain = state.config.drain;
        tracing::info!(?drain, "shutdown: draining the HTTP endpoint");
        let deadline = tokio::time::Instant::now() + drain;
        let closed = tokio::time::timeout_at(deadline, done_rx.recv())
            .await
            .is_ok();
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        shutdown::settle(&state.server, Scope::Server, left).await;
        if !closed {
            // The cancelled calls' answers are on their way: let their connections end.
            let _ = tokio::time::timeout(crate::server::ABORT_GRACE, done_rx.recv()).await;
        }
        state.sessions.end_all();
        Ok(())
    }
}
