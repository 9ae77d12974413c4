//! CORS for browser clients: an allow-list of origins ([`HttpConfig::cors_origin`], none by
//! default). Preflight `OPTIONS` requests from a listed origin are answered; responses to a
//! listed origin let its scripts read them and the MCP headers. An origin is listed for CORS
//! only if the Origin check lets it through (listing it adds it there), so CORS never opens
//! what that check closes.

use hyper::http::request::Parts;
use hyper::{Method, Response, StatusCode, header};

use super::body::{self, Out};
use super::config::HttpConfig;

/// The request headers a browser client may send.
const ALLOW_HEADERS: &str = "authorization, content-type, accept, last-event-id, mcp-session-id, mcp-protocol-version, mcp-method, mcp-name";

/// The response headers its scripts may read.
const EXPOSE_HEADERS: &str = "Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate";

/// `origin` (a request's `Origin`) when it is on the CORS list.
fn listed<'a>(config: &HttpConfig, origin: Option<&'a str>) -> Option<&'a str> {
    let origin = origin?;
    let lower = origin.to_ascii_lowercase();
    config.cors_origins.contains(&lower).then_some(origin)
}

/// A request's `Origin`, when it has one the CORS list could hold (kept by the router for
/// [`allow`], which runs after the request is consumed).
pub(crate) fn origin_of(config: &HttpConfig, headers: &hyper::HeaderMap) -> Option<String> {
    if config.cors_origins.is_empty() {
        return None;
    }
    let origin = headers.get(header::ORIGIN)?.to_str().ok()?;
    listed(config, Some(origin)).map(str::to_owned)
}

/// The answer to a preflight (`OPTIONS` with `Access-Control-Request-Method`) from a listed
/// origin: 204 with what it may send. `None` for any other request (an `OPTIONS` that is
/// not a listed origin's preflight stays 405).
pub(crate) fn preflight(config: &HttpConfig, parts: &Parts) -> Option<Response<Out>> {
    if parts.method != Method::OPTIONS
        || !parts
            .headers
            .contains_key(header::ACCESS_CONTROL_REQUEST_METHOD)
    {
        return None;
    }
    let origin = parts
        .headers
        .get(header::ORIGIN)
        .and_then(|v| v.to_str().ok());
    let origin = listed(config, origin)?;
    let mut r = body::empty(StatusCode::NO_CONTENT);
    let methods = if config.stateless {
        "POST, OPTIONS"
    } else {
        "POST, GET, DELETE, OPTIONS"
    };
    // `Mcp-Param-*` headers have names of the tools' choosing: the ones asked for are
    // allowed, with the fixed list.
    let asked = parts
        .headers
        .get(header::ACCESS_CONTROL_REQUEST_HEADERS)
        .and_then(|v| v.to_str().ok())
        .map(|v| {
            v.split(',')
                .map(|h| h.trim().to_ascii_lowercase())
                .filter(|h| h.starts_with("mcp-param-"))
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    let mut allow = ALLOW_HEADERS.to_owned();
    for h in asked {
        allow.push_str(", ");
        allow.push_str(&h);
    }
    let headers = r.headers_mut();
    for (name, value) in [
        (header::ACCESS_CONTROL_ALLOW_ORIGIN, origin),
        (header::ACCESS_CONTROL_ALLOW_METHODS, methods),
        (header::ACCESS_CONTROL_ALLOW_HEADERS, allow.as_str()),
        (header::ACCESS_CONTROL_MAX_AGE, "600"),
        (header::VARY, "Origin"),
    ] {
        if let Ok(v) = header::HeaderValue::from_str(value) {
            headers.insert(name, v);
        }
    }
    Some(r)
}

/// Adds the CORS headers to a response for a listed origin ([`origin_of`]).
pub(crate) fn allow(origin: Option<&str>, r: &mut Response<Out>) {
    let Some(origin) = origin else {
        return;
    };
    let Ok(origin) = header::HeaderValue::from_str(origin) else {
        return;
    };
    let headers = r.headers_mut();
    headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin);
    headers.insert(
        header::ACCESS_CONTROL_EXPOSE_HEADERS,
        header::HeaderValue::from_static(EXPOSE_HEADERS),
    );
    headers.append(header::VARY, header::HeaderValue::from_static("Origin"));
}
