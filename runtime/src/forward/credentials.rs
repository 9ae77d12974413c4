//! Upstream credentials: how a forwarded request authenticates to the API, from
//! configuration only. The MCP client's own token is never one of them (the MCP security
//! best practices forbid passing it through); behind the runtime's OAuth resource server, a
//! [`TokenExchange`] trades it for a token of the API's own (RFC 8693).

#[cfg(feature = "auth")]
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::ForwardError;
use crate::RequestContext;
use crate::service::ToolError;
#[cfg(feature = "auth")]
use std::{future::Future, pin::Pin};

/// A secret (an API key, a password, a token): never written by `Debug`.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(Arc<str>);

impl Secret {
    /// A secret given in code or read from a configuration file.
    pub fn new(text: impl Into<String>) -> Secret {
        Secret(text.into().into())
    }

    /// The value of the environment variable `name`; an error naming it when it is unset
    /// or not Unicode.
    pub fn from_env(name: &str) -> Result<Secret, ForwardError> {
        std::env::var(name)
            .map(Secret::new)
            .map_err(|_| ForwardError::new(format!("the environment variable {name} is not set")))
    }

    /// The secret's text, to send.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(…)")
    }
}

/// Where an API key goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyIn {
    /// A request header.
    Header,
    /// A query parameter.
    Query,
    /// A cookie.
    Cookie,
}

/// One security scheme of the API (its `components.securitySchemes` entry), as the
/// generated code declares it (`XxxRequests::SCHEMES`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scheme {
    name: &'static str,
    kind: SchemeKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SchemeKind {
    ApiKey { location: KeyIn, key: &'static str },
    Bearer,
    Basic,
    OAuth2 { token_url: Option<&'static str> },
}

impl Scheme {
    /// `apiKey`: the key goes in the header, query parameter or cookie `key`.
    pub const fn api_key(name: &'static str, location: KeyIn, key: &'static str) -> Scheme {
        Scheme {
            name,
            kind: SchemeKind::ApiKey { location, key },
        }
    }

    /// `http` with `scheme: bearer`: `Authorization: Bearer <token>`.
    pub const fn bearer(name: &'static str) -> Scheme {
        Scheme {
            name,
            kind: SchemeKind::Bearer,
        }
    }

    /// `http` with `scheme: basic`: `Authorization: Basic <user:password>`.
    pub const fn basic(name: &'static str) -> Scheme {
        Scheme {
            name,
            kind: SchemeKind::Basic,
        }
    }

    /// `oauth2` (or `openIdConnect`): a bearer token; `token_url` is the token endpoint of
    /// its client-credentials flow, if the document gives one.
    pub const fn oauth2(name: &'static str, token_url: Option<&'static str>) -> Scheme {
        Scheme {
            name,
            kind: SchemeKind::OAuth2 { token_url },
        }
    }

    /// The scheme's name in the document.
    pub fn name(&self) -> &'static str {
        self.name
    }
}

/// A credential configured for one scheme.
#[derive(Clone)]
pub struct Credential(Kind);

#[derive(Clone)]
enum Kind {
    Secret(Secret),
    Basic {
        user: String,
        password: Secret,
    },
    ClientCredentials(Arc<ClientCredentials>),
    #[cfg(feature = "auth")]
    Exchange(Arc<dyn TokenExchange>),
}

impl std::fmt::Debug for Credential {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match &self.0 {
            Kind::Secret(_) => "Credential::secret(…)",
            Kind::Basic { .. } => "Credential::basic(…)",
            Kind::ClientCredentials(_) => "Credential::client_credentials(…)",
            #[cfg(feature = "auth")]
            Kind::Exchange(_) => "Credential::exchange(…)",
        })
    }
}

impl Credential {
    /// An API key (for an `apiKey` scheme) or a bearer token (`http` bearer, `oauth2`).
    pub fn secret(secret: Secret) -> Credential {
        Credential(Kind::Secret(secret))
    }

    /// A user and password (`http` basic).
    pub fn basic(user: impl Into<String>, password: Secret) -> Credential {
        Credential(Kind::Basic {
            user: user.into(),
            password,
        })
    }

    /// Tokens from the OAuth client-credentials grant (RFC 6749 §4.4), fetched when needed
    /// and kept until shortly before they expire (`oauth2`).
    pub fn client_credentials(grant: ClientCredentials) -> Credential {
        Credential(Kind::ClientCredentials(Arc::new(grant)))
    }

    /// A token obtained for each request's MCP client from its own (verified) token, by
    /// `exchange` (RFC 8693: [`Rfc8693`]), for a server behind the runtime's OAuth resource
    /// server. The MCP client's token goes only to the exchange, never to the API.
    #[cfg(feature = "auth")]
    pub fn exchange(exchange: impl TokenExchange) -> Credential {
        Credential(Kind::Exchange(Arc::new(exchange)))
    }
}

/// The OAuth client-credentials grant: a client id and secret sent to a token endpoint.
pub struct ClientCredentials {
    token_url: Option<String>,
    client_id: String,
    client_secret: Secret,
    scopes: Vec<String>,
    cached: Mutex<Option<(Secret, Instant)>>,
}

impl ClientCredentials {
    /// The client `client_id`, authenticated with `client_secret` (HTTP Basic, RFC 6749
    /// §2.3.1), at the token endpoint of the scheme's `clientCredentials` flow unless
    /// [`token_url`](Self::token_url) gives another.
    pub fn new(client_id: impl Into<String>, client_secret: Secret) -> ClientCredentials {
        ClientCredentials {
            token_url: None,
            client_id: client_id.into(),
            client_secret,
            scopes: Vec::new(),
            cached: Mutex::new(None),
        }
    }

    /// The token endpoint.
    pub fn token_url(mut self, url: impl Into<String>) -> Self {
        self.token_url = Some(url.into());
        self
    }

    /// The scopes asked for (none by default).
    pub fn scopes(mut self, scopes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }
}

/// Trades the MCP client's verified token for one the API accepts (behind the runtime's
/// OAuth resource server; the `auth` feature). [`Rfc8693`] is the standard exchange; a
/// program with another token service implements this trait.
#[cfg(feature = "auth")]
pub trait TokenExchange: Send + Sync + 'static {
    /// A token for the API on behalf of the request's client: `subject` is the client's
    /// token (to send to the token service only), `info` what it says.
    fn exchange<'a>(
        &'a self,
        subject: &'a crate::auth::SubjectToken,
        info: &'a crate::auth::AuthInfo,
    ) -> Pin<Box<dyn Future<Output = Result<Secret, ToolError>> + Send + 'a>>;
}

/// OAuth 2.0 Token Exchange (RFC 8693): the client's token sent as `subject_token` to a token
/// endpoint, which answers with a token for the API (its `audience` or `resource`). Answers
/// are kept per subject token until shortly before they expire.
#[cfg(feature = "auth")]
pub struct Rfc8693 {
    token_url: String,
    client: Option<(String, Secret)>,
    audience: Option<String>,
    resource: Option<String>,
    scopes: Vec<String>,
    http: reqwest::Client,
    cached: Mutex<HashMap<String, (Secret, Instant)>>,
}

#[cfg(feature = "auth")]
impl Rfc8693 {
    /// Exchanges at the token endpoint `token_url`.
    pub fn new(token_url: impl Into<String>) -> Rfc8693 {
        Rfc8693 {
            token_url: token_url.into(),
            client: None,
            audience: None,
            resource: None,
            scopes: Vec::new(),
            http: reqwest::Client::new(),
            cached: Mutex::new(HashMap::new()),
        }
    }

    /// This server's own client id and secret at the token endpoint (HTTP Basic).
    pub fn client(mut self, id: impl Into<String>, secret: Secret) -> Self {
        self.client = Some((id.into(), secret));
        self
    }

    /// `audience`: the API the token is for, as the token service names it.
    pub fn audience(mut self, audience: impl Into<String>) -> Self {
        self.audience = Some(audience.into());
        self
    }

    /// `resource`: the API's URL (RFC 8707).
    pub fn resource(mut self, resource: impl Into<String>) -> Self {
        self.resource = Some(resource.into());
        self
    }

    /// `scope`: the scopes asked for.
    pub fn scopes(mut self, scopes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }
}

#[cfg(feature = "auth")]
impl TokenExchange for Rfc8693 {
    fn exchange<'a>(
        &'a self,
        subject: &'a crate::auth::SubjectToken,
        _info: &'a crate::auth::AuthInfo,
    ) -> Pin<Box<dyn Future<Output = Result<Secret, ToolError>> + Send + 'a>> {
        Box::pin(async move {
            let key = subject.expose().to_owned();
            if let Some(token) = fresh(
                &self
                    .cached
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .get(&key)
                    .cloned(),
            ) {
                return Ok(token);
            }
            let mut form = vec![
                (
                    "grant_type",
                    "urn:ietf:params:oauth:grant-type:token-exchange".to_owned(),
                ),
                ("subject_token", key.clone()),
                (
                    "subject_token_type",
                    "urn:ietf:params:oauth:token-type:access_token".to_owned(),
                ),
                (
                    "requested_token_type",
                    "urn:ietf:params:oauth:token-type:access_token".to_owned(),
                ),
            ];
            if let Some(audience) = &self.audience {
                form.push(("audience", audience.clone()));
            }
            if let Some(resource) = &self.resource {
                form.push(("resource", resource.clone()));
            }
            if !self.scopes.is_empty() {
                form.push(("scope", self.scopes.join(" ")));
            }
            let (token, expiry) =
                token_request(&self.http, &self.token_url, self.client.as_ref(), &form).await?;
            let mut cached = self.cached.lock().unwrap_or_else(|p| p.into_inner());
            // A bounded cache: one entry per client token in use, emptied when it fills up.
            if cached.len() >= 1024 {
                cached.clear();
            }
            cached.insert(key, (token.clone(), expiry));
            Ok(token)
        })
    }
}

/// A token still good for a while (30 s) yet.
fn fresh(cached: &Option<(Secret, Instant)>) -> Option<Secret> {
    match cached {
        Some((token, expiry)) if *expiry > Instant::now() + Duration::from_secs(30) => {
            Some(token.clone())
        }
        _ => None,
    }
}

/// POSTs a token request (`application/x-www-form-urlencoded`), the client authenticated
/// with HTTP Basic; the `access_token` and when it expires (`expires_in`, else in an hour).
async fn token_request(
    http: &reqwest::Client,
    url: &str,
    client: Option<&(String, Secret)>,
    form: &[(&str, String)],
) -> Result<(Secret, Instant), ToolError> {
    let body = form
        .iter()
        .map(|(k, v)| format!("{}={}", form_escape(k), form_escape(v)))
        .collect::<Vec<_>>()
        .join("&");
    let mut request = http
        .post(url)
        .header("content-type", "application/x-www-form-urlencoded")
        .header("accept", "application/json")
        .body(body);
    if let Some((id, secret)) = client {
        request = request.basic_auth(form_escape(id), Some(form_escape(secret.expose())));
    }
    let failed = |why: String| {
        tracing::warn!(token_endpoint = url, reason = %why, "no token for the upstream API");
        ToolError::message("The upstream API's credentials could not be obtained.")
    };
    let response = request
        .send()
        .await
        .map_err(|e| failed(e.without_url().to_string()))?;
    let status = response.status();
    let text = response
        .text()
        .await
        .map_err(|e| failed(e.without_url().to_string()))?;
    if !status.is_success() {
        return Err(failed(format!("the token endpoint answered {status}")));
    }
    let answer: Value =
        serde_json::from_str(&text).map_err(|e| failed(format!("the answer is not JSON: {e}")))?;
    let token = answer
        .get("access_token")
        .and_then(Value::as_str)
        .ok_or_else(|| failed("the answer has no access_token".into()))?;
    let lifetime = answer
        .get("expires_in")
        .and_then(Value::as_u64)
        .unwrap_or(3600);
    Ok((
        Secret::new(token),
        Instant::now() + Duration::from_secs(lifetime),
    ))
}

/// `application/x-www-form-urlencoded` escaping (also what RFC 6749 §2.3.1 asks of a client
/// id and secret in Basic authentication).
pub(super) fn form_escape(text: &str) -> String {
    percent_encoding::utf8_percent_encode(text, percent_encoding::NON_ALPHANUMERIC)
        .to_string()
        .replace("%2D", "-")
        .replace("%2E", ".")
        .replace("%5F", "_")
        .replace("%2A", "*")
}

/// What a credential adds to one request.
pub(super) enum Applied {
    Header(String, String),
    Basic(String, Secret),
    Query(String, String),
    Cookie(String, String),
}

/// The credentials configured, by scheme name, with the schemes they are for.
#[derive(Clone, Default)]
pub(super) struct Credentials {
    schemes: Vec<Scheme>,
    configured: Vec<(String, Credential)>,
    http: reqwest::Client,
}

impl Credentials {
    pub(super) fn new(schemes: &[Scheme]) -> Credentials {
        Credentials {
            schemes: schemes.to_vec(),
            configured: Vec::new(),
            http: reqwest::Client::new(),
        }
    }

    pub(super) fn set(&mut self, scheme: &str, credential: Credential) -> Result<(), ForwardError> {
        let Some(known) = self.schemes.iter().find(|s| s.name == scheme) else {
            let names: Vec<&str> = self.schemes.iter().map(|s| s.name).collect();
            return Err(ForwardError::new(format!(
                "the API has no security scheme `{scheme}` (it has: {})",
                if names.is_empty() {
                    "none".to_owned()
                } else {
                    names.join(", ")
                }
            )));
        };
        let fits = match (&known.kind, &credential.0) {
            (SchemeKind::Basic, Kind::Basic { .. }) => true,
            (SchemeKind::Basic, _) | (_, Kind::Basic { .. }) => false,
            (SchemeKind::ApiKey { .. }, Kind::Secret(_)) => true,
            (SchemeKind::ApiKey { .. }, _) => false,
            _ => true,
        };
        if !fits {
            return Err(ForwardError::new(format!(
                "{credential:?} does not fit the security scheme `{scheme}`"
            )));
        }
        self.configured.retain(|(s, _)| s != scheme);
        self.configured.push((scheme.to_owned(), credential));
        Ok(())
    }

    /// Reads the credentials of every scheme from the environment, `PREFIX_<SCHEME>` names
    /// (docs/openapi.md): a scheme none of whose variables is set gets none.
    pub(super) fn read_env(&mut self, prefix: &str) -> Result<(), ForwardError> {
        let schemes = self.schemes.clone();
        for scheme in schemes {
            let base = format!("{prefix}_{}", env_name(scheme.name));
            let var =
                |suffix: &str| -> Option<String> { std::env::var(format!("{base}{suffix}")).ok() };
            let credential = match scheme.kind {
                SchemeKind::ApiKey { .. } => var("").map(|k| Credential::secret(Secret::new(k))),
                SchemeKind::Bearer => var("_TOKEN").map(|t| Credential::secret(Secret::new(t))),
                SchemeKind::Basic => match (var("_USERNAME"), var("_PASSWORD")) {
                    (Some(user), Some(password)) => {
                        Some(Credential::basic(user, Secret::new(password)))
                    }
                    (None, None) => None,
                    _ => {
                        return Err(ForwardError::new(format!(
                            "set both {base}_USERNAME and {base}_PASSWORD, or neither"
                        )));
                    }
                },
                SchemeKind::OAuth2 { .. } => {
                    match (var("_TOKEN"), var("_CLIENT_ID"), var("_CLIENT_SECRET")) {
                        (Some(token), _, _) => Some(Credential::secret(Secret::new(token))),
                        (None, Some(id), Some(secret)) => {
                            let mut grant = ClientCredentials::new(id, Secret::new(secret));
                            if let Some(url) = var("_TOKEN_URL") {
                                grant = grant.token_url(url);
                            }
                            if let Some(scopes) = var("_SCOPES") {
                                grant = grant.scopes(scopes.split_whitespace().map(str::to_owned));
                            }
                            Some(Credential::client_credentials(grant))
                        }
                        (None, None, None) => None,
                        _ => {
                            return Err(ForwardError::new(format!(
                                "set both {base}_CLIENT_ID and {base}_CLIENT_SECRET (or {base}_TOKEN)"
                            )));
                        }
                    }
                }
            };
            if let Some(credential) = credential {
                self.set(scheme.name, credential)?;
            }
        }
        Ok(())
    }

    /// The credentials of the first alternative of `security` whose schemes are all
    /// configured, applied; none when no alternative is (the request goes without, and the
    /// API says what it thinks of that).
    pub(super) async fn apply(
        &self,
        security: &[&[&str]],
        ctx: &RequestContext,
    ) -> Result<Vec<Applied>, ToolError> {
        let Some(alternative) = security.iter().find(|names| {
            names
                .iter()
                .all(|n| self.configured.iter().any(|(s, _)| s == n))
        }) else {
            if !security.is_empty() && !security.iter().any(|a| a.is_empty()) {
                tracing::debug!("no credentials configured for the operation's security schemes");
            }
            return Ok(Vec::new());
        };
        let mut applied = Vec::new();
        for name in alternative.iter() {
            let (Some(scheme), Some((_, credential))) = (
                self.schemes.iter().find(|s| s.name == *name),
                self.configured.iter().find(|(s, _)| s == name),
            ) else {
                continue;
            };
            applied.push(self.one(scheme, credential, ctx).await?);
        }
        Ok(applied)
    }

    async fn one(
        &self,
        scheme: &Scheme,
        credential: &Credential,
        ctx: &RequestContext,
    ) -> Result<Applied, ToolError> {
        #[cfg(not(feature = "auth"))]
        let _ = ctx;
        let bearer =
            |token: &str| Applied::Header("authorization".into(), format!("Bearer {token}"));
        Ok(match (&scheme.kind, &credential.0) {
            (SchemeKind::ApiKey { location, key }, Kind::Secret(secret)) => {
                let (key, value) = ((*key).to_owned(), secret.expose().to_owned());
                match location {
                    KeyIn::Header => Applied::Header(key, value),
                    KeyIn::Query => Applied::Query(key, value),
                    KeyIn::Cookie => Applied::Cookie(key, value),
                }
            }
            (_, Kind::Basic { user, password }) => Applied::Basic(user.clone(), password.clone()),
            (_, Kind::Secret(secret)) => bearer(secret.expose()),
            (kind, Kind::ClientCredentials(grant)) => {
                let cached = grant
                    .cached
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .clone();
                if let Some(token) = fresh(&cached) {
                    return Ok(bearer(token.expose()));
                }
                let url = grant.token_url.as_deref().or(match kind {
                    SchemeKind::OAuth2 { token_url } => *token_url,
                    _ => None,
                });
                let Some(url) = url else {
                    tracing::warn!(
                        scheme = scheme.name,
                        "no token endpoint for the client-credentials grant"
                    );
                    return Err(ToolError::message(
                        "The upstream API's credentials could not be obtained.",
                    ));
                };
                let mut form = vec![("grant_type", "client_credentials".to_owned())];
                if !grant.scopes.is_empty() {
                    form.push(("scope", grant.scopes.join(" ")));
                }
                let client = (grant.client_id.clone(), grant.client_secret.clone());
                let (token, expiry) = token_request(&self.http, url, Some(&client), &form).await?;
                *grant.cached.lock().unwrap_or_else(|p| p.into_inner()) =
                    Some((token.clone(), expiry));
                bearer(token.expose())
            }
            #[cfg(feature = "auth")]
            (_, Kind::Exchange(exchange)) => {
                let Some(info) = ctx.auth() else {
                    return Err(ToolError::message(
                        "This tool acts on behalf of the signed-in user, and the request carries no verified access token.",
                    ));
                };
                let Some(subject) = info.subject_token() else {
                    return Err(ToolError::message(
                        "This tool acts on behalf of the signed-in user, and the request's token cannot be exchanged.",
                    ));
                };
                let token = exchange.exchange(subject, info).await?;
                bearer(token.expose())
            }
        })
    }
}

/// `api_key` → `API_KEY`, `petstore-auth` → `PETSTORE_AUTH`.
pub(super) fn env_name(scheme: &str) -> String {
    let mut out = String::new();
    let mut previous_lower = false;
    for c in scheme.chars() {
        if c.is_ascii_uppercase() && previous_lower {
            out.push('_');
        }
        previous_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_uppercase());
        } else {
            out.push('_');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn environment_names_of_schemes() {
        assert_eq!(env_name("api_key"), "API_KEY");
        assert_eq!(env_name("petstoreAuth"), "PETSTORE_AUTH");
        assert_eq!(env_name("basic-auth"), "BASIC_AUTH");
    }

    #[test]
    fn secrets_are_not_in_debug_output() {
        let secret = Secret::new("hunter2");
        assert!(!format!("{secret:?}").contains("hunter2"));
        let credential = Credential::basic("ann", secret);
        assert!(!format!("{credential:?}").contains("hunter2"));
    }

    #[test]
    fn a_credential_must_fit_its_scheme() {
        let mut credentials = Credentials::new(&[
            Scheme::api_key("key", KeyIn::Header, "x-key"),
            Scheme::basic("basic"),
        ]);
        assert!(
            credentials
                .set("key", Credential::secret(Secret::new("k")))
                .is_ok()
        );
        let wrong = credentials.set("key", Credential::basic("u", Secret::new("p")));
        assert!(wrong.unwrap_err().to_string().contains("does not fit"));
        assert!(
            credentials
                .set("basic", Credential::secret(Secret::new("k")))
                .is_err()
        );
        let unknown = credentials.set("nope", Credential::secret(Secret::new("k")));
        assert_eq!(
            unknown.unwrap_err().to_string(),
            "the API has no security scheme `nope` (it has: key, basic)"
        );
    }
}
