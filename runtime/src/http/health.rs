//! Health checks off the MCP endpoint ([`HttpConfig::health`](super::HttpConfig::health)):
//! liveness (the process serves) and readiness (it takes requests: not shutting down, and
//! Redis answers when the server has it).

use std::time::Duration;

use hyper::http::request::Parts;
use hyper::{Method, Response, StatusCode, header};

use super::body::{self, Out};
use super::state::State;

/// How long readiness waits for Redis's `PING`.
const REDIS_PATIENCE: Duration = Duration::from_secs(1);

/// Which check a request asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Probe {
    Liveness,
    Readiness,
}

/// The check at the request's path, when health checks are configured there.
pub(crate) fn probe_at(state: &State, parts: &Parts) -> Option<Probe> {
    let (live, ready) = state.config.health.as_ref()?;
    let path = parts.uri.path();
    if path == live {
        Some(Probe::Liveness)
    } else if path == ready {
        Some(Probe::Readiness)
    } else {
        None
    }
}

/// The answer to `probe`: 200 or 503, `{"status":…}` (no body for `HEAD`); 405 for another
/// method.
pub(crate) async fn answer(state: &State, probe: Probe, method: &Method) -> Response<Out> {
    if method != Method::GET && method != Method::HEAD {
        let mut r = body::error(
            StatusCode::METHOD_NOT_ALLOWED,
            "Method not allowed: a health check takes GET or HEAD.",
        );
        r.headers_mut()
            .insert(header::ALLOW, header::HeaderValue::from_static("GET, HEAD"));
        return r;
    }
    let status = match probe {
        Probe::Liveness => Ok(()),
        Probe::Readiness => readiness(state).await,
    };
    let (code, text) = match status {
        Ok(()) => (StatusCode::OK, "ok"),
        Err(why) => (StatusCode::SERVICE_UNAVAILABLE, why),
    };
    let mut r = body::json(code, format!(r#"{{"status":"{text}"}}"#));
    r.headers_mut().insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-store"),
    );
    if method == Method::HEAD {
        *r.body_mut() = Out::Empty;
    }
    r
}

/// Why the server does not take requests now, if it does not.
async fn readiness(state: &State) -> Result<(), &'static str> {
    if *state.shutdown.borrow() {
        return Err("draining");
    }
    #[cfg(feature = "redis")]
    if let Some(directory) = &state.server.shared.session_directory {
        match tokio::time::timeout(REDIS_PATIENCE, directory.ping()).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => {
                tracing::warn!(error = %e, "readiness: Redis does not answer");
                return Err("redis unreachable");
            }
            Err(_) => {
                tracing::warn!("readiness: Redis did not answer within a second");
                return Err("redis unreachable");
            }
        }
    }
    #[cfg(not(feature = "redis"))]
    let _ = REDIS_PATIENCE;
    Ok(())
}
