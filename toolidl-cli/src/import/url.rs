//! The listings of a running server over Streamable HTTP: `toolidl import --url URL`.
//!
//! The runtime's HTTP client ([`HttpTransport`]) connects (2026-07-28 when the server speaks
//! it, else the `initialize` handshake and a session), then the pages are read as over
//! stdio ([`live::read_lists`]); a session is ended afterwards. Requests from the server
//! are answered "method not found" (the client declares no capabilities).

use serde_json::Value;
use toolidl_runtime::client::{HttpTransport, Transport};

use super::live::{self, Listed};

/// Connects to `url`, reads its listings and closes the session.
pub fn list(url: &str) -> Result<Listed, String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start an async runtime: {e}"))?;
    let server = runtime
        .block_on(HttpTransport::connect(url))
        .map_err(|e| e.to_string())?;
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

/// The host of an `http://host[:port]/…` URL, for a package name when the server gives
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
