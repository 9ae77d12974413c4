//! Talking to the authorization server: which URLs may be fetched, its metadata (RFC 8414,
//! then OpenID discovery), JSON documents with a size limit and a timeout.

use std::time::Duration;

use serde_json::Value;

pub(crate) use crate::fetch::{checked_url, endpoint, get_json, json_body};

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
