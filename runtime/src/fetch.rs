//! Fetching the JSON documents of OAuth (features `auth`, or `client` with `http`): which
//! URLs may be fetched (`https`, or `http` on a loopback host), documents read with a size
//! limit, and reqwest's errors described with their causes. The resource server's checks
//! (`auth/`) and the client's authorization (`client/`) both go through here.

use std::net::IpAddr;

use reqwest::Url;
use serde_json::Value;

/// The largest metadata, key set, introspection or token document read.
pub(crate) const MAX_DOCUMENT: usize = 1 << 20;

/// An `https` URL, or an `http` one on a loopback host (tests, local development).
pub(crate) fn checked_url(text: &str, what: &str) -> Result<Url, String> {
    let url = Url::parse(text).map_err(|e| format!("{what} {text:?} is not a URL: {e}"))?;
    match url.scheme() {
        "https" => Ok(url),
        "http" if is_loopback(&url) => Ok(url),
        "http" => Err(format!(
            "{what} {text:?} is http on a host that is not loopback: use https"
        )),
        other => Err(format!("{what} {text:?} has scheme {other:?}: use https")),
    }
}

fn is_loopback(url: &Url) -> bool {
    let Some(host) = url.host_str() else {
        return false;
    };
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    host.eq_ignore_ascii_case("localhost")
        || bare.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// reqwest's error with its causes (the TLS or connection error under "error sending
/// request"), and what it means: "cannot connect", "timed out".
pub(crate) fn describe(error: &reqwest::Error) -> String {
    let mut text = if error.is_connect() {
        "cannot connect".to_owned()
    } else if error.is_timeout() {
        "timed out".to_owned()
    } else {
        error.to_string()
    };
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}

/// Reads a response's JSON body, refusing other statuses (naming the OAuth `error` and
/// `error_description` of the body, when it has them) and bodies over [`MAX_DOCUMENT`].
pub(crate) async fn json_body(mut response: reqwest::Response, url: &str) -> Result<Value, String> {
    let status = response.status();
    let mut body = Vec::new();
    while let Some(chunk) = response
        .chunk()
        .await
        .map_err(|e| format!("reading {url}: {}", describe(&e)))?
    {
        if body.len() + chunk.len() > MAX_DOCUMENT {
            return Err(format!("{url} answered more than {MAX_DOCUMENT} bytes"));
        }
        body.extend_from_slice(&chunk);
    }
    let json = serde_json::from_slice::<Value>(&body);
    if !status.is_success() {
        let said = json
            .ok()
            .and_then(|j| {
                let error = j.get("error")?.as_str()?.to_owned();
                Some(match j.get("error_description").and_then(Value::as_str) {
                    Some(d) => format!(" ({error}: {d})"),
                    None => format!(" ({error})"),
                })
            })
            .unwrap_or_default();
        return Err(format!("{url} answered {status}{said}"));
    }
    json.map_err(|e| format!("{url} is not JSON: {e}"))
}

/// GETs a JSON document.
pub(crate) async fn get_json(client: &reqwest::Client, url: &Url) -> Result<Value, String> {
    let response = client
        .get(url.clone())
        .header("accept", "application/json")
        .send()
        .await
        .map_err(|e| format!("fetching {url}: {}", describe(&e)))?;
    json_body(response, url.as_str()).await
}

/// A URL a metadata document gives under `key`, checked like the issuer's.
pub(crate) fn endpoint(metadata: &Value, key: &str) -> Result<Url, String> {
    let text = metadata
        .get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("the authorization server's metadata has no {key}"))?;
    checked_url(text, key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_https_or_loopback_http() {
        assert!(checked_url("https://as.example/", "x").is_ok());
        assert!(checked_url("http://127.0.0.1:9/", "x").is_ok());
        assert!(checked_url("http://[::1]:9/", "x").is_ok());
        assert!(checked_url("http://localhost/", "x").is_ok());
        assert!(checked_url("http://as.example/", "x").is_err());
        assert!(checked_url("ftp://as.example/", "x").is_err());
    }
}
