//! The OAuth 2.1 resource server (feature `auth`): the protected resource metadata
//! (RFC 9728), the bearer token of each request checked by the configured
//! [`TokenVerifier`](crate::auth::TokenVerifier), the challenges (RFC 6750 §3), the scopes
//! each tool, resource and prompt declares, and sessions bound to their subject.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex, Weak};

use hyper::http::request::Parts;
use hyper::{Method, Response, StatusCode, header};
use serde_json::{Value, json};

use super::body::{self, Out};
use super::config::{AuthConfig, HttpConfig};
use super::headers;
use super::sessions::Session;
use crate::auth::{AuthInfo, TokenError};
use crate::server::{Registry, Server};

/// What the checks read: the endpoint's options, its server, the scopes of its items.
#[derive(Clone, Copy)]
pub(crate) struct Protected<'a> {
    pub config: &'a HttpConfig,
    pub auth: &'a AuthConfig,
    pub server: &'a Server,
    pub scopes: &'a ScopeCache,
}

/// The well-known path of protected resource metadata (RFC 9728 §3).
const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";

/// The scope never put in a challenge: a resource server has no say in refresh tokens.
const OFFLINE_ACCESS: &str = "offline_access";

/// The scopes each tool, resource and prompt needs, read once per registry.
#[derive(Default)]
pub(crate) struct ScopeIndex {
    tools: HashMap<String, &'static [&'static str]>,
    prompts: HashMap<String, &'static [&'static str]>,
    resources: HashMap<String, &'static [&'static str]>,
    templates: Vec<(String, &'static [&'static str])>,
    /// Every scope of every item, sorted: `scopes_supported`.
    all: Vec<&'static str>,
}

impl ScopeIndex {
    fn new(registry: &Registry) -> ScopeIndex {
        let mut index = ScopeIndex::default();
        let mut all = BTreeSet::new();
        let field = |json: &str, key: &str| {
            serde_json::from_str::<Value>(json)
                .ok()
                .and_then(|v| v.get(key)?.as_str().map(str::to_owned))
        };
        for tool in registry.listed_tools() {
            all.extend(tool.scopes);
            index.tools.insert(tool.name.to_string(), tool.scopes);
        }
        for service in &registry.services {
            for prompt in service.prompts() {
                all.extend(prompt.scopes);
                if let Some(name) = field(&prompt.json, "name") {
                    index.prompts.entry(name).or_insert(prompt.scopes);
                }
            }
            for resource in service.resources() {
                all.extend(resource.scopes);
                if let Some(uri) = field(&resource.json, "uri") {
                    index.resources.entry(uri).or_insert(resource.scopes);
                }
            }
            for template in service.resource_templates() {
                all.extend(template.scopes);
                if let Some(uri) = field(&template.json, "uriTemplate") {
                    index.templates.push((uri, template.scopes));
                }
            }
        }
        index.all = all.into_iter().collect();
        index
    }

    /// The scopes the item `name` of this kind declares (nothing for one no service has).
    /// A resource is named by its URI, or (in `completion/complete`) by its template.
    fn needed(&self, kind: Item, name: &str) -> &'static [&'static str] {
        let found = match kind {
            Item::Tool => self.tools.get(name).copied(),
            Item::Prompt => self.prompts.get(name).copied(),
            Item::Resource => self.resources.get(name).copied().or_else(|| {
                let template = |(t, s): &(String, _)| (t == name).then_some(*s);
                self.templates.iter().find_map(template).or_else(|| {
                    self.templates
                        .iter()
                        .find(|(t, _)| crate::uri_template::capture(t, name).is_some())
                        .map(|(_, s)| *s)
                })
            }),
        };
        found.unwrap_or(&[])
    }
}

/// What kind of item a request acts on, for its scopes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Item {
    Tool,
    Prompt,
    Resource,
}

/// The [`ScopeIndex`] of the server's current registry (services may be added at run time).
#[derive(Default)]
pub(crate) struct ScopeCache {
    slot: Mutex<Option<(Weak<Registry>, Arc<ScopeIndex>)>>,
}

impl ScopeCache {
    fn index(&self, server: &Server) -> Arc<ScopeIndex> {
        let registry = server.registry();
        let mut slot = self.slot.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((weak, index)) = &*slot
            && weak.upgrade().is_some_and(|r| Arc::ptr_eq(&r, &registry))
        {
            return index.clone();
        }
        let index = Arc::new(ScopeIndex::new(&registry));
        *slot = Some((Arc::downgrade(&registry), index.clone()));
        index
    }
}

/// Whether `path` is where the protected resource metadata is served: the root form, or the
/// form suffixed with the endpoint's path (RFC 9728 §3.1).
pub(crate) fn is_metadata_path(path: &str) -> bool {
    path == WELL_KNOWN
        || path
            .strip_prefix(WELL_KNOWN)
            .is_some_and(|p| p.starts_with('/'))
}

/// The protected resource metadata document (answered to `GET` without a token).
pub(crate) fn metadata(p: Protected<'_>, method: &Method) -> Response<Out> {
    if method != Method::GET && method != Method::HEAD {
        let mut r = body::error(
            StatusCode::METHOD_NOT_ALLOWED,
            "Method not allowed: the protected resource metadata is read with GET.",
        );
        r.headers_mut()
            .insert(header::ALLOW, header::HeaderValue::from_static("GET, HEAD"));
        return r;
    }
    let auth = p.auth;
    let index = p.scopes.index(p.server);
    let mut doc = json!({
        "resource": auth.resource,
        "authorization_servers": auth.authorization_servers,
        "scopes_supported": index.all,
        "bearer_methods_supported": ["header"],
    });
    if let (Some(name), Some(map)) = (&auth.resource_name, doc.as_object_mut()) {
        map.insert("resource_name".into(), json!(name));
    }
    if let (Some(docs), Some(map)) = (&auth.resource_documentation, doc.as_object_mut()) {
        map.insert("resource_documentation".into(), json!(docs));
    }
    let mut r = body::json(StatusCode::OK, doc.to_string());
    r.headers_mut().insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("max-age=300"),
    );
    r
}

/// The URL of the metadata, as challenges name it: the configured one, else the well-known
/// URL suffixed with the resource's path.
fn metadata_url(p: Protected<'_>) -> String {
    if let Some(url) = &p.config.resource_metadata {
        return url.clone();
    }
    let resource = p.auth.resource.as_str();
    let after_scheme = resource.find("://").map_or(0, |i| i + 3);
    let path_start = resource[after_scheme..]
        .find('/')
        .map_or(resource.len(), |i| after_scheme + i);
    let (origin, path) = resource.split_at(path_start);
    format!("{origin}{WELL_KNOWN}{}", path.trim_end_matches('/'))
}

/// `WWW-Authenticate: Bearer …` with these parameters (quotes and backslashes left out of
/// values, which never need them).
fn challenge(
    status: StatusCode,
    message: &str,
    params: &[(&str, String)],
    id: &str,
) -> Response<Out> {
    let code = crate::protocol::code::INVALID_REQUEST;
    let error = crate::protocol::RpcError::new(code, message);
    let mut r = body::rpc_error(status, id, &error);
    let text = params
        .iter()
        .map(|(k, v)| format!("{k}=\"{}\"", v.replace(['"', '\\'], "")))
        .collect::<Vec<_>>()
        .join(", ");
    if let Ok(v) = header::HeaderValue::from_str(&format!("Bearer {text}")) {
        r.headers_mut().insert(header::WWW_AUTHENTICATE, v);
    }
    r
}

fn scope_text(scopes: &[&str]) -> String {
    scopes
        .iter()
        .filter(|s| **s != OFFLINE_ACCESS)
        .copied()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The request's bearer token, checked: `Ok` with what it says (kept in the request's
/// extensions for the scope check and the handlers), or the 401 (no token, an invalid one)
/// or 503 (the token cannot be checked now) that refuses it. Only the `Authorization` header
/// carries a token (RFC 6750 §2.1); one in the query string is not looked at.
pub(crate) async fn authenticate(p: Protected<'_>, parts: &mut Parts) -> Result<(), Response<Out>> {
    // Computed only for a refusal: the accepted request (the hot path) needs none of it.
    let resource_metadata = || ("resource_metadata", metadata_url(p));
    let Some(token) = headers::bearer_token(parts) else {
        let scopes = scope_text(&p.scopes.index(p.server).all);
        let mut params = vec![resource_metadata()];
        if !scopes.is_empty() {
            params.push(("scope", scopes));
        }
        return Err(challenge(
            StatusCode::UNAUTHORIZED,
            "Unauthorized: this server needs an access token (Authorization: Bearer).",
            &params,
            "null",
        ));
    };
    // A token found valid before comes from the verifier's cache, shared, not copied.
    let verified = p.auth.verifier.verify_shared(token).await;
    match verified {
        Ok(info) => {
            // A verifier of the program's own may not keep the token: added here, for a
            // token exchange (the built-in ones keep it, so their cached answer is shared).
            let info = match info.subject_token() {
                Some(kept) if kept.expose() == token => info,
                _ => Arc::new(AuthInfo::clone(&info).with_token(token)),
            };
            parts.extensions.insert(info);
            Ok(())
        }
        Err(TokenError::Invalid(why)) => {
            tracing::debug!(reason = %why, "refused an access token");
            let params = [
                resource_metadata(),
                ("error", "invalid_token".to_owned()),
                (
                    "error_description",
                    "The access token is not valid for this server.".to_owned(),
                ),
            ];
            Err(challenge(
                StatusCode::UNAUTHORIZED,
                "Unauthorized: the access token is not valid for this server.",
                &params,
                "null",
            ))
        }
        Err(TokenError::Unavailable(why)) => {
            tracing::warn!(reason = %why, "an access token could not be checked");
            let mut r = body::error(
                StatusCode::SERVICE_UNAVAILABLE,
                "Service unavailable: the access token cannot be checked now; retry later.",
            );
            r.headers_mut().insert(
                header::RETRY_AFTER,
                header::HeaderValue::from(p.config.retry_after_secs),
            );
            Err(r)
        }
    }
}

/// The verified token of a request, if [`authenticate`] accepted one.
pub(crate) fn identity(parts: &Parts) -> Option<Arc<AuthInfo>> {
    parts.extensions.get::<Arc<AuthInfo>>().cloned()
}

/// The 403 that refuses the request `method` (id `id`) on `items` when the token lacks a
/// scope one of them declares (RFC 6750 §3.1 `insufficient_scope`, with every scope the
/// request needs, so that the client can ask for them all at once: the 2025-11-25 step-up
/// flow); `None` when it may go on. Checked before the message reaches a connection, so a
/// refused request has no effect.
pub(crate) fn refuse_scopes(
    p: Protected<'_>,
    parts: &Parts,
    method: &str,
    items: &[(Item, &str)],
    id: &str,
) -> Option<Response<Out>> {
    let info = identity(parts)?;
    let index = p.scopes.index(p.server);
    let mut needed: Vec<&str> = Vec::new();
    let mut lacking = None;
    for &(kind, name) in items {
        let scopes = index.needed(kind, name);
        if lacking.is_none() && !scopes.iter().all(|s| info.has_scope(s)) {
            lacking = Some(name);
        }
        for scope in scopes {
            if !needed.contains(scope) {
                needed.push(scope);
            }
        }
    }
    let name = lacking?;
    let scopes = scope_text(&needed);
    let params = [
        ("error", "insufficient_scope".to_owned()),
        ("scope", scopes.clone()),
        ("resource_metadata", metadata_url(p)),
        (
            "error_description",
            format!("{method} of {name} needs scope {scopes}"),
        ),
    ];
    Some(challenge(
        StatusCode::FORBIDDEN,
        &format!("Forbidden: {method} of {name} needs the scopes {scopes}."),
        &params,
        id,
    ))
}

/// Binds a new session to the principal (subject, else client) of the token that opened it.
pub(crate) fn bind(session: &Session, parts: &Parts) {
    let principal = identity(parts).and_then(|i| i.principal().map(str::to_owned));
    let _ = session.owner.set(principal);
}

/// Whether the request may use `session`: with authorization, only a token of the principal
/// that opened it may (another's request is answered as for an unknown session, 404).
pub(crate) fn owns(session: &Session, parts: &Parts) -> bool {
    match session.owner.get() {
        Some(owner) => owner.as_deref() == identity(parts).as_deref().and_then(AuthInfo::principal),
        None => true,
    }
}
