//! Header checks: `Host` and `Origin` (DNS rebinding), the bearer token, and 2026-07-28's
//! request metadata headers.

use hyper::http::request::Parts;
use hyper::{Response, StatusCode, header};

use super::body::{self, Out};
use super::config::HttpConfig;
use crate::protocol::{RpcError, code};

/// A header's value with optional whitespace trimmed (RFC 9110 §5.5). `Some(None)` when the
/// header is present but not visible ASCII.
pub(crate) fn value<'a>(parts: &'a Parts, name: &str) -> Option<Option<&'a str>> {
    let v = parts.headers.get(name)?;
    Some(v.to_str().ok().map(|s| s.trim_matches([' ', '\t'])))
}

/// The 403 to answer unless `Host` and `Origin` are allowed.
pub(crate) fn check_host_and_origin(config: &HttpConfig, parts: &Parts) -> Option<Response<Out>> {
    let forbidden = |what: &str| {
        body::error(
            StatusCode::FORBIDDEN,
            &format!("Forbidden: {what} is not allowed."),
        )
    };
    if !config.any_host {
        match value(parts, header::HOST.as_str()) {
            Some(Some(host)) if host_allowed(config, host) => {}
            _ => return Some(forbidden("the Host header")),
        }
    }
    if !config.any_origin {
        match value(parts, header::ORIGIN.as_str()) {
            None => {}
            Some(Some(origin)) if origin_allowed(config, origin) => {}
            Some(_) => return Some(forbidden("the Origin header")),
        }
    }
    None
}

/// `host` without its port: `[::1]:80` → `[::1]`, `localhost:80` → `localhost`.
fn without_port(host: &str) -> &str {
    if host.starts_with('[') {
        return match host.find(']') {
            Some(end) => &host[..=end],
            None => host,
        };
    }
    match host.rsplit_once(':') {
        Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => host,
    }
}

/// A `Host` value (`name` or `name:port`) is allowed when the list has it exactly or has its
/// name alone.
fn host_allowed(config: &HttpConfig, host: &str) -> bool {
    let host = host.to_ascii_lowercase();
    let name = without_port(&host);
    !name.is_empty() && config.hosts.iter().any(|h| *h == host || *h == name)
}

/// An `Origin` is allowed when listed exactly, or when it is `http(s)://` plus an allowed
/// host. `null` (sandboxed pages, files) never is.
fn origin_allowed(config: &HttpConfig, origin: &str) -> bool {
    let origin = origin.to_ascii_lowercase();
    if config.origins.contains(&origin) {
        return true;
    }
    let rest = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"));
    match rest {
        Some(host) if !host.contains(['/', '?', '#', '@']) => host_allowed(config, host),
        _ => false,
    }
}

/// The 401 to answer unless the bearer check (when configured) accepts the request's token.
/// The token of `Authorization: Bearer <token>`, when the request has one (the only place
/// a token is read from: never the query string).
pub(crate) fn bearer_token(parts: &Parts) -> Option<&str> {
    value(parts, header::AUTHORIZATION.as_str())
        .flatten()
        .and_then(|v| {
            let (scheme, token) = v.split_once(' ')?;
            scheme
                .eq_ignore_ascii_case("bearer")
                .then(|| token.trim_matches([' ', '\t']))
        })
        .filter(|t| !t.is_empty())
}

pub(crate) fn check_bearer(config: &HttpConfig, parts: &Parts) -> Option<Response<Out>> {
    let check = config.bearer.as_ref()?;
    let token = bearer_token(parts);
    let refused = match token {
        Some(t) if check(t) => return None,
        Some(_) => true,
        None => false,
    };
    let mut challenge = String::from("Bearer");
    let mut params = Vec::new();
    if let Some(url) = &config.resource_metadata {
        params.push(format!(
            "resource_metadata=\"{}\"",
            url.replace(['"', '\\'], "")
        ));
    }
    if refused {
        params.push("error=\"invalid_token\"".to_owned());
    }
    if !params.is_empty() {
        challenge.push(' ');
        challenge.push_str(&params.join(", "));
    }
    let mut response = body::error(
        StatusCode::UNAUTHORIZED,
        "Unauthorized: a valid bearer token is required.",
    );
    if let Ok(v) = header::HeaderValue::from_str(&challenge) {
        response.headers_mut().insert(header::WWW_AUTHENTICATE, v);
    }
    Some(response)
}

/// What 2026-07-28's header checks need from the body.
pub(crate) struct Mirrored<'a> {
    pub method: &'a str,
    /// `_meta["io.modelcontextprotocol/protocolVersion"]`.
    pub version: Option<&'a str>,
    /// `params.name` (`tools/call`, `prompts/get`), `params.uri` (`resources/read`) or
    /// `params.taskId` (`tasks/get`, `tasks/update`, `tasks/cancel`, SEP-2663).
    pub name: Option<&'a str>,
}

/// 2026-07-28: the body must name its protocol version (`-32602`), and
/// `MCP-Protocol-Version`, `Mcp-Method` and (for `tools/call`, `resources/read`,
/// `prompts/get` and the `tasks/*` methods) `Mcp-Name` must be present and equal the body's values (`-32020`).
pub(crate) fn check_mirrored(parts: &Parts, body: &Mirrored<'_>) -> Result<(), RpcError> {
    let Some(version) = body.version else {
        return Err(RpcError::invalid_params(
            "Invalid params: _meta must carry io.modelcontextprotocol/protocolVersion.",
        ));
    };
    compare(parts, "MCP-Protocol-Version", version, false)?;
    compare(parts, "Mcp-Method", body.method, false)?;
    let named = matches!(
        body.method,
        "tools/call"
            | "prompts/get"
            | "resources/read"
            | "tasks/get"
            | "tasks/update"
            | "tasks/cancel"
    );
    if let (true, Some(name)) = (named, body.name) {
        compare(parts, "Mcp-Name", name, true)?;
    }
    Ok(())
}

fn compare(parts: &Parts, header: &str, expected: &str, encoded: bool) -> Result<(), RpcError> {
    let mismatch =
        |detail: String| RpcError::new(code::HEADER_MISMATCH, format!("Header mismatch: {detail}"));
    let raw = match value(parts, header) {
        None => return Err(mismatch(format!("the {header} header is required."))),
        Some(None) => return Err(mismatch(format!("the {header} header is not valid."))),
        Some(Some(v)) => v,
    };
    let decoded;
    let actual = match raw
        .strip_prefix("=?base64?")
        .and_then(|v| v.strip_suffix("?="))
    {
        Some(b64) if encoded => {
            let text = toolidl_formats::decode_base64(b64).and_then(|b| String::from_utf8(b).ok());
            let Some(text) = text else {
                return Err(mismatch(format!(
                    "the {header} header is not valid base64."
                )));
            };
            decoded = text;
            decoded.as_str()
        }
        _ => raw,
    };
    if actual == expected {
        Ok(())
    } else {
        Err(mismatch(format!(
            "the {header} header does not match the body."
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(headers: &[(&str, &str)]) -> Parts {
        let mut b = hyper::Request::builder().uri("/mcp");
        for (k, v) in headers {
            b = b.header(*k, *v);
        }
        b.body(()).unwrap().into_parts().0
    }

    #[test]
    fn loopback_hosts_and_origins_pass_others_do_not() {
        let c = HttpConfig::new()
            .allow_host("mcp.example.com")
            .allow_origin("https://app.example.org");
        for host in [
            "localhost",
            "LOCALHOST:8080",
            "127.0.0.1:1",
            "[::1]:9",
            "mcp.example.com:443",
        ] {
            assert!(
                check_host_and_origin(&c, &parts(&[("host", host)])).is_none(),
                "{host}"
            );
        }
        for host in [
            "evil.com",
            "localhost.evil.com",
            "127.0.0.2",
            "[::2]",
            "",
            "localhost:x",
        ] {
            assert!(
                check_host_and_origin(&c, &parts(&[("host", host)])).is_some(),
                "{host}"
            );
        }
        assert!(check_host_and_origin(&c, &parts(&[])).is_some());
        for origin in [
            "http://localhost:3000",
            "https://127.0.0.1",
            "https://app.example.org",
            "http://mcp.example.com",
        ] {
            let p = parts(&[("host", "localhost"), ("origin", origin)]);
            assert!(check_host_and_origin(&c, &p).is_none(), "{origin}");
        }
        for origin in [
            "null",
            "http://evil.com",
            "http://localhost@evil.com",
            "ftp://localhost",
            "https://app.example.org.evil",
        ] {
            let p = parts(&[("host", "localhost"), ("origin", origin)]);
            assert!(check_host_and_origin(&c, &p).is_some(), "{origin}");
        }
    }

    #[test]
    fn mirrored_headers_are_compared_after_trimming_and_decoding() {
        let body = Mirrored {
            method: "tools/call",
            version: Some("2026-07-28"),
            name: Some("Hello, 世界"),
        };
        let ok = parts(&[
            ("mcp-protocol-version", "2026-07-28"),
            ("MCP-METHOD", " tools/call\t"),
            ("mcp-name", "=?base64?SGVsbG8sIOS4lueVjA==?="),
        ]);
        assert_eq!(check_mirrored(&ok, &body), Ok(()));
        let bad = parts(&[
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "TOOLS/CALL"),
            ("mcp-name", "x"),
        ]);
        assert_eq!(check_mirrored(&bad, &body).unwrap_err().code, -32020);
        let no_version = Mirrored {
            version: None,
            ..body
        };
        assert_eq!(check_mirrored(&ok, &no_version).unwrap_err().code, -32602);
    }
}
