//! The signal a server's `main` usually shuts down on, and how long the shutdown drains.

/// How long a shutdown lets calls in flight finish by default
/// ([`serve_stdio_until`](crate::stdio::serve_stdio_until), `HttpConfig::drain_timeout`):
/// long enough for most calls, and within the 30 s a supervisor such as Kubernetes or
/// systemd waits after SIGTERM before SIGKILL.
pub const DEFAULT_DRAIN: std::time::Duration = std::time::Duration::from_secs(25);
/// Completes on SIGINT (Ctrl-C) or, on Unix, SIGTERM (what Kubernetes, systemd and Docker
/// send to stop a process): give it to [`serve_stdio_until`](crate::stdio::serve_stdio_until)
/// or [`HttpServer::run_until`](crate::http::HttpServer::run_until) (feature `http`).
pub async fn shutdown_signal() {
    #[cfg(unix)]
    {
        let term = async {
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(mut s) => {
                    s.recv().await;
                }
                Err(_) => std::future::pending::<()>().await,
            }
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
