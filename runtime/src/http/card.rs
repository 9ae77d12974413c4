//! The server card: a static JSON document describing the server to clients before they
//! connect, answered at `GET /.well-known/mcp/server-card` when [`HttpConfig::server_card`]
//! gives one. The format is SEP-2127's, which is a draft: off unless configured, and the
//! document is served as given (`toolidl registry --card` writes one).

use std::sync::Arc;

use hyper::http::request::Parts;
use hyper::{Method, Response, StatusCode, header};

use super::body::{self, Out};
use super::config::HttpConfig;

/// Where the card is served (SEP-2127's draft).
pub(crate) const PATH: &str = "/.well-known/mcp/server-card";

impl HttpConfig {
    /// Serves `card` (a JSON document, such as `toolidl registry --card` writes) at
    /// `GET /.well-known/mcp/server-card`, to every client the `Host` and `Origin` checks
    /// admit, without authentication (it is public metadata). Server cards are a draft
    /// (SEP-2127): the path and the document's shape may still change. Off by default.
    pub fn server_card(mut self, card: &serde_json::Value) -> Self {
        self.server_card = Some(Arc::from(card.to_string()));
        self
    }
}

/// The card's response, when this request is for it and a card is configured; `None` sends
/// the request on to the endpoint.
pub(crate) fn serve(config: &HttpConfig, parts: &Parts) -> Option<Response<Out>> {
    let card = config.server_card.as_ref()?;
    if parts.uri.path() != PATH {
        return None;
    }
    if parts.method != Method::GET && parts.method != Method::HEAD {
        let mut r = body::error(
            StatusCode::METHOD_NOT_ALLOWED,
            "Method not allowed: the server card is read with GET.",
        );
        r.headers_mut()
            .insert(header::ALLOW, header::HeaderValue::from_static("GET, HEAD"));
        return Some(r);
    }
    let mut r = body::json(StatusCode::OK, card.to_string());
    r.headers_mut().insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("max-age=300"),
    );
    Some(r)
}
