//! Talking to the authorization server: which URLs may be fetched, its metadata (RFC 8414,
//! then OpenID discovery), JSON documents with a size limit and a timeout.

use std::net::IpAddr;
use std::time::Duration;

use reqwest::Url;
use serde_json::Value;

/// The largest metadata, key set or introspection document read.
const MAX_DOCUMENT: usize = 1 << 20;

/// An `https` URL, or an `http` one on a loopback address (tests, local development).
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

/// The client every fetch goes through: a timeout for the whole exchange, no redirects
/// (a document is served where its metadata says).
pub(crate) fn client(timeout: Duration) -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(timeout)
        .connect_timeout(timeout)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap_or_default()
}

/// Reads a response's JSON body, refusing other statuses and bodies over [`MAX_DOCUMENT`].
pub(crate) async fn json_body(mut response: reqwest::Response, url: &str) -> Result<Value, String> {
    if !response.status().is_success() {
        return Err(format!("{url} answered {}", response.status()));
    }
    let mut body = Vec::new();
    while let Some(chunk) = response
        .chunk()
        .await
        .map_err(|e| format!("reading {url}: {e}"))?
    {
        if body.len() + chunk.len() > MAX_DOCUMENT {
            return Err(format!("{url} answered more than {MAX_DOCUMENT} bytes"));
        }
        body.extend_from_slice(&chunk);
    }
    serde_json::from_slice(&body).map_err(|e| format!("{url} is not JSON: {e}"))
}

/// GETs a JSON document.
pub(crate) async fn get_json(client: &reqwest::Client, url: &Url) -> Result<Value, String> {
    let response = client
        .get(url.clone())
        .header("accept", "application/json")
        .send()
        .await
        .map_err(|e| format!("fetching {url}: {e}"))?;
    json_body(response, url.as_str()).await
}

/// The authorization server's metadata: RFC 8414's well-known document (the path inserted
/// after the host), else OpenID Connect discovery's (appended to the issuer). Its `issuer`
/// must be `issuer` exactly (RFC 8414 §3.3).
pub(crate) async fn discover(client: &reqwest::Client, issuer: &str) -> Result<Value, String> {
    let issuer_text = issuer;
    let issuer = &checked_url(issuer, "the issuer")?;
    let path = issuer.path().trim_end_matches('/');
    let mut rfc8414 = issuer.clone();
    rfc8414.set_path(&format!("/.well-known/oauth-authorization-server{path}"));
    let mut openid = issuer.clone();
    openid.set_path(&format!("{path}/.well-known/openid-configuration"));
    let mut failures = Vec::new();
    for url in [rfc8414, openid] {
        match get_json(client, &url).await {
            Ok(metadata) => {
                let named = metadata.get("issuer").and_then(Value::as_str);
                if named != Some(issuer_text) {
                    return Err(format!("{url} names issuer {named:?}, not {issuer_text:?}"));
                }
                return Ok(metadata);
            }
            Err(e) => failures.push(e),
        }
    }
    Err(failures.join("; "))
}

/// A URL a metadata document gives under `key`, checked like the issuer's.
pub(crate) fn endpoint(metadata: &Value, key: &str) -> Result<Url, String> {
    let text = metadata
        .get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("the authorization server's metadata has no {key}"))?;
    checked_url(text, key)
}
