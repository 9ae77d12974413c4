//! One HTTP request to the endpoint: the security checks, then the method, and the log line.

use std::net::SocketAddr;
use std::sync::Arc;

use hyper::{Method, Request, Response, StatusCode};

use super::body::{self, Out, RequestBody};
use super::limits::{ClientKey, peer_of};
use super::state::State;
use super::{headers, post, session_requests};

/// Routes one HTTP request, and logs it (one `debug` line: HTTP method, MCP method, session
/// or stateless, status).
/// `peer`: the connection's address, when the runtime's listener accepted it.
pub(crate) async fn handle<B: RequestBody>(
    state: Arc<State>,
    req: Request<B>,
    peer: Option<SocketAddr>,
) -> Response<Out> {
    let method = req.method().clone();
    let session = match req.headers().get("mcp-session-id") {
        _ if state.config.stateless => "stateless".to_owned(),
        Some(v) => v.to_str().unwrap_or("<invalid>").to_owned(),
        None => "-".to_owned(),
    };
    let origin = super::cors::origin_of(&state.config, req.headers());
    let mut response = route(&state, req, peer).await;
    super::cors::allow(origin.as_deref(), &mut response);
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
async fn route<B: RequestBody>(
    state: &Arc<State>,
    req: Request<B>,
    peer: Option<SocketAddr>,
) -> Response<Out> {
    #[cfg_attr(not(any(feature = "auth", feature = "otel")), allow(unused_mut))]
    let (mut parts, mut incoming) = req.into_parts();
    let limit = state.config.max_body_bytes;
    // Health checks come before the Host check: a probe names the pod's address.
    if !state.mounted
        && let Some(probe) = super::health::probe_at(state, &parts)
    {
        let response = super::health::answer(state, probe, &parts.method).await;
        return body::drained(response, &mut incoming, limit).await;
    }
    #[cfg(feature = "auth")]
    if super::authorize::is_metadata_path(parts.uri.path())
        && (state.mounted || state.config.auth.is_some())
    {
        let response = headers::check_host_and_origin(&state.config, &parts).unwrap_or_else(|| {
            match state.protected() {
                Some(protected) => super::authorize::metadata(protected, &parts.method),
                // Mounted there by the application, without authorization configured.
                None => body::error(
                    StatusCode::NOT_FOUND,
                    "Not found: this endpoint has no authorization.",
                ),
            }
        });
        return body::drained(response, &mut incoming, limit).await;
    }
    // The server card (a draft, off unless configured): public, after the Host/Origin checks.
    if let Some(card) = super::card::serve(&state.config, &parts) {
        let response = headers::check_host_and_origin(&state.config, &parts).unwrap_or(card);
        return body::drained(response, &mut incoming, limit).await;
    }
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
        .or_else(|| super::cors::preflight(&state.config, &parts))
        .or_else(|| headers::check_bearer(&state.config, &parts));
    if let Some(response) = rejection {
        return body::drained(response, &mut incoming, limit).await;
    }
    #[cfg(feature = "auth")]
    if let Some(protected) = state.protected()
        && let Err(response) = super::authorize::authenticate(protected, &mut parts).await
    {
        return body::drained(response, &mut incoming, limit).await;
    }
    #[cfg(feature = "otel")]
    if let Some(peer) = peer
        && state.server.shared.telemetry.active()
    {
        parts.extensions.insert(crate::telemetry::Peer(peer));
    }
    let peer = peer_of(&parts, peer);
    let client = ClientKey::of(&state.config, &parts, peer);
    if parts.method == Method::POST {
        if *state.shutdown.borrow() {
            let response = post::shutting_down(&state.config);
            return body::drained(response, &mut incoming, limit).await;
        }
        // Read whole before anything else, and before the request takes a slot: a slow
        // body holds one of its client's body slots, never a request's.
        let bytes = match post::read_body(state, &parts, &mut incoming, &client).await {
            Ok(bytes) => bytes,
            Err(refused) => return refused,
        };
        drop(incoming);
        #[cfg(feature = "redis")]
        let bytes = match super::forward::elsewhere(state, &parts, bytes, &client, peer).await {
            Ok(response) => return response,
            Err(bytes) => bytes,
        };
        return post::post(state, parts, bytes, client).await;
    }
    #[cfg(feature = "redis")]
    if let Ok(response) = super::forward::elsewhere(state, &parts, Vec::new(), &client, peer).await
    {
        return body::drained(response, &mut incoming, limit).await;
    }
    match parts.method {
        Method::GET => {
            let response = session_requests::get(state, &parts, &client).await;
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
