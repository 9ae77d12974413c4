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

/// The response that refuses a request for its `Host` or `Origin`: 400 for no `Host` (an
/// HTTP/1.1 request), more than one, or a malformed one (RFC 9112 §3.2); 403 for a host that
/// is not allowed, more than one `Origin`, or an origin that is not allowed. A request
/// target in absolute form (`POST http://host/mcp`) must name an allowed host too.
pub(crate) fn check_host_and_origin(config: &HttpConfig, parts: &Parts) -> Option<Response<Out>> {
    let bad = |what: &str| body::error(StatusCode::BAD_REQUEST, &format!("Bad request: {what}."));
    let forbidden = |what: &str| {
        body::error(
            StatusCode::FORBIDDEN,
            &format!("Forbidden: {what} is not allowed."),
        )
    };
    let mut hosts = parts.headers.get_all(header::HOST).iter();
    let host = hosts.next();
    if hosts.next().is_some() {
        return Some(bad("more than one Host header"));
    }
    let authority = parts.uri.authority().map(|a| a.as_str());
    if host.is_none() && authority.is_none() && parts.version == hyper::Version::HTTP_11 {
        return Some(bad("the Host header is required"));
    }
    let host = match host.map(|v| v.to_str().map(|s| s.trim_matches([' ', '\t']))) {
        None => None,
        Some(Ok(v)) => match parse_host(v) {
            Some(h) => Some(h),
            None => return Some(bad("the Host header is not a valid host")),
        },
        Some(Err(_)) => return Some(bad("the Host header is not a valid host")),
    };
    if !config.any_host {
        let target = authority.map(parse_host);
        let allowed = |h: Option<Host<'_>>| h.is_some_and(|h| host_allowed(config, h));
        if host.is_none() && target.is_none() {
            return Some(forbidden("a request without a Host header"));
        }
        if host.is_some() && !allowed(host) || target.is_some_and(|t| !allowed(t)) {
            return Some(forbidden("the Host header"));
        }
    }
    let mut origins = parts.headers.get_all(header::ORIGIN).iter();
    let origin = origins.next();
    if origins.next().is_some() {
        return Some(forbidden("more than one Origin header"));
    }
    if !config.any_origin {
        match origin.map(|v| v.to_str().map(|s| s.trim_matches([' ', '\t']))) {
            None => {}
            Some(Ok(origin)) if origin_allowed(config, origin) => {}
            Some(_) => return Some(forbidden("the Origin header")),
        }
    }
    None
}

/// A `Host` value, `uri-host [":" port]`: the name (an IPv6 literal keeps its brackets)
/// and the port as written (digits, possibly none).
#[derive(Clone, Copy)]
struct Host<'a> {
    name: &'a str,
    port: Option<&'a str>,
}

/// `value` as a `Host` (RFC 9110 §7.2, RFC 3986 §3.2.2): an IPv6 literal in brackets and
/// nothing after them but a port, or a name of registered-name characters (an IPv4 address
/// is one); a port of digits. `None` when malformed.
fn parse_host(value: &str) -> Option<Host<'_>> {
    let (name, rest) = if value.starts_with('[') {
        let end = value.find(']')?;
        value[1..end].parse::<std::net::Ipv6Addr>().ok()?;
        (&value[..=end], &value[end + 1..])
    } else {
        let end = value.find(':').unwrap_or(value.len());
        let name = &value[..end];
        let reg_name = |b: u8| b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=%".contains(&b);
        if name.is_empty() || !name.bytes().all(reg_name) {
            return None;
        }
        (name, &value[end..])
    };
    let port = match rest {
        "" => None,
        _ => {
            let port = rest.strip_prefix(':')?;
            port.bytes().all(|b| b.is_ascii_digit()).then_some(port)?;
            Some(port)
        }
    };
    Some(Host { name, port })
}

/// A host is allowed when the list has its name alone (any port) or `name:port` exactly;
/// never with an empty port (`localhost:`).
fn host_allowed(config: &HttpConfig, host: Host<'_>) -> bool {
    let name = host.name;
    // The list is lower case; compared without a copy (this runs on every request).
    let named = |h: &str| h.eq_ignore_ascii_case(name);
    match host.port {
        None => config.hosts.iter().any(|h| named(h)),
        Some("") => false,
        Some(port) => config.hosts.iter().any(|h| {
            named(h)
                || h.strip_suffix(port)
                    .and_then(|h| h.strip_suffix(':'))
                    .is_some_and(named)
        }),
    }
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
    match rest.and_then(parse_host) {
        Some(host) => host_allowed(config, host),
        None => false,
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
    /// The parameter naming the method's item (`params.name`, `params.uri` or
    /// `params.taskId`: [`Method::named_by`](crate::protocol::Method::named_by)); `None`
    /// for the other methods.
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
    if let Some(name) = body.name {
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

    fn status(c: &HttpConfig, p: &Parts) -> u16 {
        check_host_and_origin(c, p).map_or(200, |r| r.status().as_u16())
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
            "[::1]",
            "mcp.example.com:443",
        ] {
            assert_eq!(status(&c, &parts(&[("host", host)])), 200, "{host}");
        }
        // Well formed, not allowed.
        for host in [
            "evil.com",
            "localhost.evil.com",
            "127.0.0.2",
            "[::2]",
            "localhost:",
            "[::1]:",
        ] {
            assert_eq!(status(&c, &parts(&[("host", host)])), 403, "{host}");
        }
        // Malformed (RFC 9112 §3.2: 400).
        for host in [
            "",
            "localhost:x",
            "[::1]evil.com",
            "[::1]:80evil",
            "[::1",
            "[localhost]",
            "::1",
            "localhost:80:80",
            "local host",
            "localhost/mcp",
            "user@localhost",
        ] {
            assert_eq!(status(&c, &parts(&[("host", host)])), 400, "{host}");
        }
        assert_eq!(status(&c, &parts(&[])), 400, "no Host");
        let two = parts(&[("host", "localhost"), ("host", "localhost")]);
        assert_eq!(status(&c, &two), 400, "two Host headers");
        for origin in [
            "http://localhost:3000",
            "https://127.0.0.1",
            "http://[::1]:8080",
            "https://app.example.org",
            "http://mcp.example.com",
        ] {
            let p = parts(&[("host", "localhost"), ("origin", origin)]);
            assert_eq!(status(&c, &p), 200, "{origin}");
        }
        for origin in [
            "null",
            "http://evil.com",
            "http://localhost@evil.com",
            "ftp://localhost",
            "https://app.example.org.evil",
            "http://[::1]evil.com",
            "http://localhost:",
            "http://localhost/",
            "http://localhost:x",
        ] {
            let p = parts(&[("host", "localhost"), ("origin", origin)]);
            assert_eq!(status(&c, &p), 403, "{origin}");
        }
        let two = parts(&[
            ("host", "localhost"),
            ("origin", "http://localhost"),
            ("origin", "http://localhost"),
        ]);
        assert_eq!(status(&c, &two), 403, "two Origin headers");
    }

    #[test]
    fn any_host_still_wants_exactly_one() {
        let c = HttpConfig::new().allow_any_host().allow_any_origin();
        assert_eq!(status(&c, &parts(&[("host", "evil.com")])), 200);
        assert_eq!(status(&c, &parts(&[("host", "a"), ("host", "b")])), 400);
        assert_eq!(status(&c, &parts(&[("host", "[::1]evil.com")])), 400);
        let two = parts(&[
            ("host", "a"),
            ("origin", "http://a"),
            ("origin", "http://b"),
        ]);
        assert_eq!(status(&c, &two), 403);
    }

    #[test]
    fn an_absolute_request_target_must_name_an_allowed_host_too() {
        let c = HttpConfig::new();
        let p = |uri: &str| {
            hyper::Request::builder()
                .uri(uri)
                .header("host", "localhost")
                .body(())
                .unwrap()
                .into_parts()
                .0
        };
        assert_eq!(status(&c, &p("http://localhost:8080/mcp")), 200);
        assert_eq!(status(&c, &p("http://evil.com/mcp")), 403);
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
