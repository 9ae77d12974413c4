//! The listings of a running server over Streamable HTTP: `toolidl import --url URL`.
//!
//! The runtime's HTTP client ([`HttpTransport`]) connects (`http://` or `https://`, through
//! the proxies of the environment; 2026-07-28 when the server speaks it, else the
//! `initialize` handshake and a session), then the pages are read as over stdio
//! ([`live::read_lists`]); a session is ended afterwards. Requests from the server are
//! answered "method not found" (the client declares no capabilities). A protected server
//! is called with `--bearer`'s token, or with OAuth ([`Auth`]).

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::Value;
use toolidl_runtime::client::{HttpTransport, LoopbackRedirect, OAuth, Transport};

use super::live::{self, Listed};

/// How `toolidl import --url` authorizes, and what it trusts.
#[derive(Debug, Default)]
pub struct Auth {
    /// `--bearer TOKEN`: sent as it is.
    pub bearer: Option<String>,
    /// `--login`: OAuth's authorization code flow, the user authorizing in a browser.
    pub login: bool,
    /// `--client-credentials`: OAuth's client-credentials grant (with `--client-id` and
    /// `--client-secret`).
    pub client_credentials: bool,
    /// `--client-id`: a client registered with the authorization server beforehand.
    pub client_id: Option<String>,
    /// `--client-secret`: its secret.
    pub client_secret: Option<String>,
    /// `--ca-cert FILE`: certificates (PEM) trusted besides the system's.
    pub ca_cert: Option<PathBuf>,
}

/// The transport's options for `auth`.
async fn builder(
    url: &str,
    auth: &Auth,
) -> Result<toolidl_runtime::client::HttpTransportBuilder, String> {
    let mut builder = HttpTransport::builder(url).session_stream(false);
    if let Some(path) = &auth.ca_cert {
        let pem =
            std::fs::read(path).map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
        builder = builder.root_certificates(pem);
    }
    if let Some(token) = &auth.bearer {
        return Ok(builder.bearer(token));
    }
    if auth.client_credentials {
        let (Some(id), Some(secret)) = (&auth.client_id, &auth.client_secret) else {
            return Err("--client-credentials needs --client-id and --client-secret".into());
        };
        return Ok(builder.oauth(OAuth::client_credentials(id, secret).build()));
    }
    if auth.login {
        let redirect = LoopbackRedirect::bind(|url: &str| {
            eprintln!("To authorize toolidl, open this URL in a browser:");
            eprintln!("{url}");
        })
        .await
        .map_err(|e| format!("cannot listen for the authorization's redirect: {e}"))?;
        let mut oauth = OAuth::authorization_code(Arc::new(redirect)).client_name("toolidl import");
        if let Some(id) = &auth.client_id {
            oauth = oauth.client(id, auth.client_secret.clone());
        }
        return Ok(builder.oauth(oauth.build()));
    }
    Ok(builder)
}

/// Connects to `url` (authorized as `auth` says), reads its listings and closes the
/// session.
pub fn list(url: &str, auth: &Auth) -> Result<Listed, String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start an async runtime: {e}"))?;
    let server = runtime.block_on(async {
        builder(url, auth)
            .await?
            .connect()
            .await
            .map_err(|e| e.to_string())
    })?;
    // The capabilities of `initialize`, or of `server/discover` under 2026-07-28.
    let capabilities = server
        .opening_result()
        .get("capabilities")
        .cloned()
        .unwrap_or_default();
    let listing = live::read_lists(&capabilities, |method, params| {
        runtime
            .block_on(server.request(method, params))
            .map_err(|e| format!("`{method}`: {e}"))
    })?;
    let server_name = server
        .server_info()
        .and_then(|info| info.get("name"))
        .and_then(Value::as_str)
        .map(str::to_owned);
    runtime
        .block_on(server.close())
        .map_err(|e| e.to_string())?;
    Ok(Listed {
        listing,
        server_name,
    })
}

/// The host of an `http(s)://host[:port]/…` URL, for a package name when the server gives
/// none.
pub fn host(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = match authority.rsplit_once(':') {
        Some((host, port)) if port.bytes().all(|b| b.is_ascii_digit()) => host,
        _ => authority,
    };
    host.trim_matches(['[', ']']).to_owned()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_host_is_the_url_without_scheme_port_and_path() {
        assert_eq!(
            super::host("http://weather.local:8931/mcp"),
            "weather.local"
        );
        assert_eq!(super::host("http://127.0.0.1/"), "127.0.0.1");
        assert_eq!(super::host("http://[::1]:80/mcp"), "::1");
    }
}
