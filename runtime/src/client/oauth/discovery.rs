//! Finding the authorization server: the protected resource metadata (RFC 9728) from the
//! challenge's `resource_metadata` or the well-known URIs, then the authorization server's
//! metadata (RFC 8414, OpenID Connect discovery), each checked as the MCP authorization
//! specification requires.

use reqwest::Url;
use serde_json::Value;

pub(crate) use crate::fetch::{checked_url, endpoint as endpoint_of, get_json, json_body};

/// What the protected resource says about itself.
#[derive(Clone, Debug)]
pub(crate) struct Resource {
    /// Its `resource`: the identifier tokens are asked for (RFC 8707).
    pub resource: String,
    pub authorization_servers: Vec<String>,
    pub scopes_supported: Option<Vec<String>>,
}

/// Where the protected resource metadata of `endpoint` is: the challenge's
/// `resource_metadata`, else the well-known URI with the endpoint's path, then at the root.
pub(crate) fn resource_metadata_urls(
    endpoint: &Url,
    challenged: Option<&str>,
) -> Result<Vec<Url>, String> {
    if let Some(url) = challenged {
        return Ok(vec![checked_url(url, "the challenge's resource_metadata")?]);
    }
    let path = endpoint.path().trim_end_matches('/');
    let mut urls = Vec::new();
    for suffix in [path, ""] {
        let mut url = endpoint.clone();
        url.set_query(None);
        url.set_path(&format!("/.well-known/oauth-protected-resource{suffix}"));
        if !urls.contains(&url) {
            urls.push(url);
        }
    }
    Ok(urls)
}

/// The protected resource metadata of `endpoint`, from the first of `urls` that answers,
/// checked: its `resource` identifies this endpoint (the same scheme, host and port, and a
/// path the endpoint's is or lies under: a server cannot have tokens asked for another),
/// and it names at least one authorization server.
pub(crate) async fn resource(
    http: &reqwest::Client,
    endpoint: &Url,
    urls: &[Url],
) -> Result<Resource, String> {
    let mut failures = Vec::new();
    for url in urls {
        let document = match get_json(http, url).await {
            Ok(document) => document,
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        let resource = document
            .get("resource")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("{url} has no `resource`"))?;
        if !covers(resource, endpoint) {
            return Err(format!(
                "{url} describes the resource {resource:?}, which is not {endpoint}: a token for it is not asked for"
            ));
        }
        let servers = strings(&document, "authorization_servers").unwrap_or_default();
        if servers.is_empty() {
            return Err(format!("{url} names no authorization server"));
        }
        let scopes_supported = strings(&document, "scopes_supported");
        return Ok(Resource {
            resource: resource.to_owned(),
            authorization_servers: servers,
            scopes_supported,
        });
    }
    Err(format!(
        "no protected resource metadata: {}",
        failures.join("; ")
    ))
}

/// The strings of the list `document[key]`, when it is a list.
fn strings(document: &Value, key: &str) -> Option<Vec<String>> {
    let list = document.get(key)?.as_array()?;
    Some(
        list.iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
    )
}

/// Whether the resource identifier `resource` names `endpoint`: the same origin, and the
/// endpoint's path is its path or lies under it.
pub(crate) fn covers(resource: &str, endpoint: &Url) -> bool {
    let Ok(resource) = Url::parse(resource) else {
        return false;
    };
    if resource.fragment().is_some() || resource.origin() != endpoint.origin() {
        return false;
    }
    let base = resource.path().trim_end_matches('/');
    let path = endpoint.path();
    base.is_empty()
        || path == base
        || path.trim_end_matches('/') == base
        || path
            .strip_prefix(base)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// The authorization server `issuer`'s metadata, from the well-known URIs in the MCP
/// specification's order (RFC 8414 with the path inserted, OpenID Connect discovery with
/// it inserted, then appended; without a path the first two only). The first document
/// found must name `issuer` exactly as its `issuer`, or none is used.
pub(crate) async fn authorization_server(
    http: &reqwest::Client,
    issuer: &str,
) -> Result<Value, String> {
    let base = checked_url(issuer, "the authorization server")?;
    let path = base.path().trim_end_matches('/');
    let mut urls = Vec::new();
    let with_path = |p: String| {
        let mut url = base.clone();
        url.set_query(None);
        url.set_fragment(None);
        url.set_path(&p);
        url
    };
    urls.push(with_path(format!(
        "/.well-known/oauth-authorization-server{path}"
    )));
    urls.push(with_path(format!(
        "/.well-known/openid-configuration{path}"
    )));
    if !path.is_empty() {
        urls.push(with_path(format!(
            "{path}/.well-known/openid-configuration"
        )));
    }
    let mut failures = Vec::new();
    for url in urls {
        match get_json(http, &url).await {
            Ok(metadata) => {
                let named = metadata.get("issuer").and_then(Value::as_str);
                if named != Some(issuer) {
                    return Err(format!(
                        "{url} names the issuer {named:?}, not {issuer:?}: its metadata is not used"
                    ));
                }
                return Ok(metadata);
            }
            Err(e) => failures.push(e),
        }
    }
    Err(format!(
        "no metadata for the authorization server {issuer}: {}",
        failures.join("; ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_resource_covers_its_endpoint_and_what_lies_under_it() {
        let endpoint = Url::parse("https://mcp.example.com/public/mcp").unwrap();
        for ok in [
            "https://mcp.example.com/public/mcp",
            "https://MCP.example.com/public/mcp",
            "https://mcp.example.com:443/public",
            "https://mcp.example.com",
            "https://mcp.example.com/",
        ] {
            assert!(covers(ok, &endpoint), "{ok}");
        }
        for bad in [
            "https://other.example.com/public/mcp",
            "http://mcp.example.com/public/mcp",
            "https://mcp.example.com:8443/public/mcp",
            "https://mcp.example.com/pub",
            "https://mcp.example.com/public/mcp/deeper",
            "https://mcp.example.com/public/mcp#x",
            "not a url",
        ] {
            assert!(!covers(bad, &endpoint), "{bad}");
        }
    }

    #[test]
    fn well_known_urls_try_the_path_then_the_root() {
        let endpoint = Url::parse("https://h.example/public/mcp?x=1").unwrap();
        let urls: Vec<String> = resource_metadata_urls(&endpoint, None)
            .unwrap()
            .iter()
            .map(|u| u.to_string())
            .collect();
        assert_eq!(
            urls,
            [
                "https://h.example/.well-known/oauth-protected-resource/public/mcp",
                "https://h.example/.well-known/oauth-protected-resource"
            ]
        );
        let root = Url::parse("https://h.example/").unwrap();
        assert_eq!(resource_metadata_urls(&root, None).unwrap().len(), 1);
        let given = resource_metadata_urls(&endpoint, Some("https://h.example/prm")).unwrap();
        assert_eq!(given[0].as_str(), "https://h.example/prm");
        assert!(resource_metadata_urls(&endpoint, Some("http://h.example/prm")).is_err());
    }
}
