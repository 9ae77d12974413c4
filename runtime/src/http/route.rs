//! One HTTP request to the endpoint: the security checks, then the method, and the log line.

use std::sync::Arc;

use hyper::{Method, Request, Response, StatusCode};

use super::body::{self, Out, RequestBody};
use super::state::State;
use super::{headers, post, session_requests};

/// Routes one HTTP request, and logs it (one `debug` line: HTTP method, MCP method, session
/// or stateless, status).
pub(crate) async fn handle<B: RequestBody>(state: Arc<State>, req: Request<B>) -> Response<Out> {
    let method = req.method().clone();
    let session = match req.headers().get("mcp-session-id") {
        _ if state.config.stateless => "stateless".to_owned(),
        Some(v) => v.to_str().unwrap_or("<invalid>").to_owned(),
        None => "-".to_owned(),
    };
    let response = route(&state, req).await;
    if tracing::enabled!(tracing::Level::DEBUG) {
        let mcp = response
            .extensions()
            .get::<post::McpMethod>()
            .and_then(|m| m.0.as_deref())
            .unwrap_or("-");
        tracing::debug!(
            http_method = %method,
            mcp_method = mcp,
            session = %session,
            status = response.status().as_u16(),
            "served an HTTP request"
        );
    }
    response
}

/// The security checks, then the method.
async fn route<B: RequestBody>(state: &Arc<State>, req: Request<B>) -> Response<Out> {
    let (parts, mut incoming) = req.into_parts();
    let limit = state.config.max_body_bytes;
    let rejection = headers::check_host_and_origin(&state.config, &parts)
        .or_else(|| {
            // A mounted endpoint is wherever the host application's router put it.
            (!state.mounted && parts.uri.path() != state.config.path).then(|| {
                body::error(
                    StatusCode::NOT_FOUND,
                    "Not found: the MCP endpoint is elsewhere.",
                )
            })
        })
        .or_else(|| headers::check_bearer(&state.config, &parts));
    if let Some(response) = rejection {
        return body::drained(response, &mut incoming, limit).await;
    }
    #[cfg(feature = "redis")]
    if let Some(response) = super::forward::elsewhere(state, &parts, &mut incoming).await {
        return response;
    }
    match parts.method {
        Method::POST => post::post(state, parts, incoming).await,
        Method::GET => {
            let response = session_requests::get(state, &parts).await;
            body::drained(response, &mut incoming, limit).await
        }
        Method::DELETE => {
            let response = session_requests::delete(state, &parts);
            body::drained(response, &mut incoming, limit).await
        }
        _ => {
            let response = body::not_allowed(&state.config);
            body::drained(response, &mut incoming, limit).await
        }
    }
}
