//! OAuth 2.1 as an MCP client (features `client` and `http`), as the MCP authorization
//! specification describes it: see [`OAuth`].

mod challenge;
mod discovery;
mod grant;
mod redirect;
mod store;

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use reqwest::Url;
use serde_json::{Value, json};

use super::ClientError;
use super::http::{AuthFuture, Authorize, Authorizer, Endpoint, Refusal, describe};
use crate::peer::lock;
use discovery::{Resource, checked_url, endpoint_of};
use grant::{ClientAuth, Exchange};
pub use redirect::{LoopbackRedirect, Redirect, RedirectFuture};
pub use store::{MemoryTokenStore, Registration, TokenStore, Tokens};

/// How long before its expiry an access token is refreshed.
const EXPIRY_MARGIN: Duration = Duration::from_secs(30);

/// OAuth 2.1 authorization for an [`HttpTransport`](super::HttpTransport)
/// ([`HttpTransportBuilder::oauth`](super::HttpTransportBuilder::oauth)), as the MCP
/// authorization specification has it for clients.
///
/// A request the server refuses with 401 starts the flow:
///
/// 1. The protected resource metadata (RFC 9728) is read from the challenge's
///    `resource_metadata`, else from `/.well-known/oauth-protected-resource` with the
///    endpoint's path, then at the root. Its `resource` must name this endpoint (the same
///    origin, and a path the endpoint's is or lies under): a server cannot have a token
///    asked for another.
/// 2. The authorization server is its first `authorization_servers` entry (the one the
///    client is registered with, when [`issuer`](OAuthBuilder::issuer) says so); its
///    metadata comes from RFC 8414's well-known URI, else OpenID Connect discovery's, and
///    must name that issuer exactly. Its endpoints must be `https` (or `http` on a loopback
///    host).
/// 3. The scopes asked for: the challenge's `scope`, else [`scopes`](OAuthBuilder::scopes),
///    else the metadata's `scopes_supported`, else none.
/// 4. [`OAuth::authorization_code`]: the client is identified by its pre-registered id
///    ([`client`](OAuthBuilder::client)), else its client ID metadata document
///    ([`client_metadata_document`](OAuthBuilder::client_metadata_document)) when the
///    server supports them, else by dynamic registration (RFC 7591; kept in the
///    [`TokenStore`] per issuer), in the specification's order. The server must support
///    PKCE with S256. The user is sent to the authorization endpoint through the
///    [`Redirect`] with a PKCE challenge, a random `state` and the `resource` (RFC 8707);
///    the redirect back must carry that `state` and, when present or when the server
///    advertises it, the server's `iss` (RFC 9207), before the code is exchanged.
///    [`OAuth::client_credentials`]: a client-credentials grant with the client's secret.
/// 5. The token response must be a bearer token; when the access token is a JWT whose
///    claims can be read, its `iss` must be the issuer and its `aud` the resource (a token
///    that says otherwise is refused, never sent). The tokens are kept in the
///    [`TokenStore`] under the endpoint's URL and sent as `Authorization: Bearer` with
///    every later request to that endpoint, and to nothing else.
///
/// An access token that expires (within 30 seconds) is refreshed first when there is a
/// refresh token, and a 401 tries the refresh before a new authorization. A 403 with
/// `error="insufficient_scope"` asks for a new token for the scopes asked before and
/// those of the challenge (step-up). A request is sent again at most twice for its
/// authorization; what cannot be obtained is [`ClientError::Authorization`].
#[derive(Clone)]
pub struct OAuth {
    config: Arc<Config>,
}

/// Options for [`OAuth`]: the client's identity, the scopes, where tokens are kept.
pub struct OAuthBuilder {
    config: Config,
}

enum Flow {
    AuthorizationCode(Arc<dyn Redirect>),
    ClientCredentials,
}

struct Config {
    flow: Flow,
    /// A pre-registered client: its id and secret.
    client: Option<(String, Option<String>)>,
    /// The authorization server the pre-registered client belongs to.
    issuer: Option<String>,
    metadata_document: Option<String>,
    client_name: String,
    dynamic_registration: bool,
    scopes: Option<Vec<String>>,
    store: Arc<dyn TokenStore>,
}

impl OAuth {
    /// The authorization code flow with PKCE, for a client acting for a user: `redirect`
    /// takes the user to the authorization server and brings the code back
    /// ([`LoopbackRedirect`] for command-line tools).
    pub fn authorization_code(redirect: Arc<dyn Redirect>) -> OAuthBuilder {
        OAuthBuilder::new(Flow::AuthorizationCode(redirect), None)
    }

    /// The client-credentials grant, for a client acting on its own behalf (the MCP
    /// client-credentials extension): `client_id` and `client_secret` were registered with
    /// the authorization server beforehand (bind them to it with
    /// [`issuer`](OAuthBuilder::issuer)). The secret goes to its token endpoint only.
    pub fn client_credentials(
        client_id: impl Into<String>,
        client_secret: impl Into<String>,
    ) -> OAuthBuilder {
        let client = (client_id.into(), Some(client_secret.into()));
        OAuthBuilder::new(Flow::ClientCredentials, Some(client))
    }
}

impl OAuthBuilder {
    fn new(flow: Flow, client: Option<(String, Option<String>)>) -> OAuthBuilder {
        OAuthBuilder {
            config: Config {
                flow,
                client,
                issuer: None,
                metadata_document: None,
                client_name: "toolidl client".into(),
                dynamic_registration: true,
                scopes: None,
                store: Arc::new(MemoryTokenStore::new()),
            },
        }
    }

    /// A client registered with the authorization server beforehand: its id, and its
    /// secret for a confidential client. Used first, before a metadata document or dynamic
    /// registration.
    pub fn client(mut self, client_id: impl Into<String>, client_secret: Option<String>) -> Self {
        self.config.client = Some((client_id.into(), client_secret));
        self
    }

    /// The authorization server the pre-registered client ([`client`](Self::client),
    /// [`OAuth::client_credentials`]) belongs to: its credentials are used with that
    /// issuer only, and a server whose metadata names other authorization servers is an
    /// error. Without it they go to the one the server names.
    pub fn issuer(mut self, issuer: impl Into<String>) -> Self {
        self.config.issuer = Some(issuer.into());
        self
    }

    /// The client's ID metadata document: an `https` URL with a path, serving the
    /// client's metadata (`client_id` that same URL, `client_name`, `redirect_uris` with
    /// the [`Redirect`]'s URI). Used as the client id when the authorization server says
    /// it supports them (`client_id_metadata_document_supported`).
    pub fn client_metadata_document(mut self, url: impl Into<String>) -> Self {
        self.config.metadata_document = Some(url.into());
        self
    }

    /// The `client_name` of a dynamic registration; "toolidl client" by default.
    pub fn client_name(mut self, name: impl Into<String>) -> Self {
        self.config.client_name = name.into();
        self
    }

    /// Whether the client may register itself (RFC 7591) when it has no other identity;
    /// `true` by default.
    pub fn dynamic_registration(mut self, allow: bool) -> Self {
        self.config.dynamic_registration = allow;
        self
    }

    /// The scopes asked for when the server's challenge names none (before the protected
    /// resource metadata's `scopes_supported`).
    pub fn scopes<S: Into<String>>(mut self, scopes: impl IntoIterator<Item = S>) -> Self {
        self.config.scopes = Some(scopes.into_iter().map(Into::into).collect());
        self
    }

    /// Where tokens and registrations are kept; a [`MemoryTokenStore`] by default.
    pub fn store(mut self, store: Arc<dyn TokenStore>) -> Self {
        self.config.store = store;
        self
    }

    /// The configuration, for [`HttpTransportBuilder::oauth`](super::HttpTransportBuilder::oauth).
    pub fn build(self) -> OAuth {
        OAuth {
            config: Arc::new(self.config),
        }
    }
}

impl Authorize for OAuth {
    fn bind(&self, endpoint: &Endpoint) -> Result<Arc<dyn Authorizer>, ClientError> {
        Ok(Arc::new(Session {
            config: Arc::clone(&self.config),
            http: endpoint.client().clone(),
            endpoint: endpoint.target.clone(),
            key: endpoint.target.to_string(),
            current: Mutex::new(None),
            flow: tokio::sync::Mutex::new(Known::default()),
        }))
    }
}

/// What one authorization learnt, for the next (a refresh, a step-up).
#[derive(Default)]
struct Known {
    issuer: Option<String>,
    metadata: Option<Value>,
    client: Option<ClientAuth>,
    /// Every scope asked for so far: a step-up asks for these and the new ones.
    requested: BTreeSet<String>,
}

/// OAuth bound to one endpoint.
struct Session {
    config: Arc<Config>,
    http: reqwest::Client,
    endpoint: Url,
    /// The store's key: the endpoint's URL.
    key: String,
    current: Mutex<Option<Tokens>>,
    /// Held while tokens are obtained, so concurrent refusals make one authorization.
    flow: tokio::sync::Mutex<Known>,
}

fn failed(what: impl std::fmt::Display) -> ClientError {
    ClientError::Authorization(what.to_string())
}

fn bearer(tokens: &Tokens) -> String {
    format!("Bearer {}", tokens.access_token)
}

impl Session {
    /// The tokens for this endpoint: those obtained here, else the store's.
    fn tokens(&self) -> Option<Tokens> {
        let mut current = lock(&self.current);
        if current.is_none() {
            *current = self
                .config
                .store
                .tokens(&self.key)
                .filter(|t| discovery::covers(&t.resource, &self.endpoint));
        }
        current.clone()
    }

    fn keep(&self, tokens: Option<Tokens>) {
        self.config.store.set_tokens(&self.key, tokens.as_ref());
        *lock(&self.current) = tokens;
    }

    /// The authorization server's metadata for `issuer`, fetched unless known.
    async fn metadata(&self, known: &mut Known, issuer: &str) -> Result<Value, ClientError> {
        if let (Some(known_issuer), Some(metadata)) = (&known.issuer, &known.metadata)
            && known_issuer == issuer
        {
            return Ok(metadata.clone());
        }
        let metadata = discovery::authorization_server(&self.http, issuer)
            .await
            .map_err(failed)?;
        known.issuer = Some(issuer.to_owned());
        known.metadata = Some(metadata.clone());
        Ok(metadata)
    }

    /// A refresh of `tokens`; the new tokens are kept.
    async fn refresh(&self, known: &mut Known, tokens: &Tokens) -> Result<(), ClientError> {
        let Some(refresh_token) = &tokens.refresh_token else {
            return Err(failed("no refresh token"));
        };
        let metadata = self.metadata(known, &tokens.issuer).await?;
        let client = match &known.client {
            Some(client) if client.client_id == tokens.client_id => client.clone(),
            _ => self
                .known_client(&tokens.issuer, &metadata)
                .filter(|c| c.client_id == tokens.client_id)
                .ok_or_else(|| failed("the client the tokens were issued to is not known"))?,
        };
        let token_endpoint = endpoint_of(&metadata, "token_endpoint").map_err(failed)?;
        let exchange = Exchange {
            http: &self.http,
            token_endpoint: &token_endpoint,
            client: &client,
            issuer: &tokens.issuer,
            resource: &tokens.resource,
            scope: &tokens.scope,
        };
        let grant = [
            ("grant_type", "refresh_token"),
            ("refresh_token", refresh_token.as_str()),
        ];
        let mut renewed = exchange.request(&grant).await.map_err(failed)?;
        if renewed.refresh_token.is_none() {
            renewed.refresh_token = tokens.refresh_token.clone();
        }
        known.client = Some(client);
        self.keep(Some(renewed));
        Ok(())
    }

    /// The client identity the configuration gives for `issuer`: pre-registered (and
    /// bound to it, if bound at all), else a metadata document the server supports.
    fn configured_client(&self, issuer: &str, metadata: &Value) -> Option<ClientAuth> {
        let config = &self.config;
        if let Some((id, secret)) = &config.client
            && config.issuer.as_deref().is_none_or(|bound| bound == issuer)
        {
            return Some(ClientAuth::choose(id, secret.as_deref(), metadata));
        }
        match &config.metadata_document {
            Some(url)
                if metadata.get("client_id_metadata_document_supported") == Some(&json!(true)) =>
            {
                Some(ClientAuth::choose(url, None, metadata))
            }
            _ => None,
        }
    }

    /// The client identity known without registering: configured, else a stored dynamic
    /// registration.
    fn known_client(&self, issuer: &str, metadata: &Value) -> Option<ClientAuth> {
        self.configured_client(issuer, metadata).or_else(|| {
            let registration = self.config.store.registration(issuer)?;
            Some(registration.into())
        })
    }

    /// The client identity for an authorization code flow through `redirect_uri`, in the
    /// specification's order: pre-registered, metadata document, dynamic registration (a
    /// stored one when it has this redirect URI).
    async fn identify(
        &self,
        issuer: &str,
        metadata: &Value,
        redirect_uri: &str,
    ) -> Result<ClientAuth, ClientError> {
        let config = &self.config;
        if let Some(client) = self.configured_client(issuer, metadata) {
            return Ok(client);
        }
        if let Some(registration) = config.store.registration(issuer)
            && registration.redirect_uris.iter().any(|u| u == redirect_uri)
        {
            return Ok(registration.into());
        }
        let registration_endpoint = match metadata.get("registration_endpoint") {
            Some(_) if config.dynamic_registration => {
                endpoint_of(metadata, "registration_endpoint").map_err(failed)?
            }
            _ => {
                return Err(failed(format!(
                    "the client has no identity with the authorization server {issuer}: no pre-registered client, no client ID metadata document it supports, and no dynamic registration"
                )));
            }
        };
        let registration = self
            .register(&registration_endpoint, redirect_uri)
            .await
            .map_err(failed)?;
        config.store.set_registration(issuer, &registration);
        Ok(registration.into())
    }

    /// Dynamic client registration (RFC 7591): a public client of the authorization code
    /// flow, `native` for a loopback redirect URI.
    async fn register(&self, endpoint: &Url, redirect_uri: &str) -> Result<Registration, String> {
        let native =
            checked_url(redirect_uri, "the redirect URI").is_ok_and(|u| u.scheme() == "http");
        let request = json!({
            "client_name": self.config.client_name,
            "redirect_uris": [redirect_uri],
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
            "token_endpoint_auth_method": "none",
            "application_type": if native { "native" } else { "web" },
        });
        let response = self
            .http
            .post(endpoint.clone())
            .header("content-type", "application/json")
            .header("accept", "application/json")
            .body(request.to_string())
            .send()
            .await
            .map_err(|e| format!("registering at {endpoint}: {}", describe(&e)))?;
        let body = discovery::json_body(response, endpoint.as_str())
            .await
            .map_err(|e| format!("the dynamic registration was refused: {e}"))?;
        let client_id = body
            .get("client_id")
            .and_then(Value::as_str)
            .ok_or("the registration response has no client_id")?;
        Ok(Registration {
            client_id: client_id.to_owned(),
            client_secret: body
                .get("client_secret")
                .and_then(Value::as_str)
                .map(str::to_owned),
            redirect_uris: vec![redirect_uri.to_owned()],
            token_endpoint_auth_method: body
                .get("token_endpoint_auth_method")
                .and_then(Value::as_str)
                .unwrap_or("none")
                .to_owned(),
        })
    }

    /// A new authorization: discovery, then the configured grant for `scopes` (or the
    /// default scopes when `None`); the tokens are kept.
    async fn authorize(
        &self,
        known: &mut Known,
        resource_metadata: Option<&str>,
        scopes: Option<BTreeSet<String>>,
    ) -> Result<(), ClientError> {
        let urls =
            discovery::resource_metadata_urls(&self.endpoint, resource_metadata).map_err(failed)?;
        let resource = discovery::resource(&self.http, &self.endpoint, &urls)
            .await
            .map_err(failed)?;
        let issuer = self.choose_issuer(&resource)?;
        let metadata = self.metadata(known, &issuer).await?;
        let scopes = scopes
            .or_else(|| self.config.scopes.clone().map(|s| s.into_iter().collect()))
            .or_else(|| {
                resource
                    .scopes_supported
                    .clone()
                    .map(|s| s.into_iter().collect())
            })
            .unwrap_or_default();
        let scope = scopes.iter().cloned().collect::<Vec<_>>().join(" ");
        let token_endpoint = endpoint_of(&metadata, "token_endpoint").map_err(failed)?;
        let (client, tokens) = match &self.config.flow {
            Flow::ClientCredentials => {
                let (id, secret) = self.config.client.clone().unwrap_or_default();
                let client = ClientAuth::choose(&id, secret.as_deref(), &metadata);
                let exchange = Exchange {
                    http: &self.http,
                    token_endpoint: &token_endpoint,
                    client: &client,
                    issuer: &issuer,
                    resource: &resource.resource,
                    scope: &scope,
                };
                let mut grant = vec![("grant_type", "client_credentials")];
                if !scope.is_empty() {
                    grant.push(("scope", scope.as_str()));
                }
                let tokens = exchange.request(&grant).await.map_err(failed)?;
                (client, tokens)
            }
            Flow::AuthorizationCode(redirect) => {
                let code = CodeFlow {
                    session: self,
                    redirect: redirect.as_ref(),
                    issuer: &issuer,
                    metadata: &metadata,
                    resource: &resource,
                    scope: &scope,
                    token_endpoint: &token_endpoint,
                };
                code.run().await?
            }
        };
        known.client = Some(client);
        known.requested.extend(scopes);
        self.keep(Some(tokens));
        Ok(())
    }

    /// The authorization server to use among those the resource names.
    fn choose_issuer(&self, resource: &Resource) -> Result<String, ClientError> {
        let servers = &resource.authorization_servers;
        match &self.config.issuer {
            Some(bound) if servers.iter().any(|s| s == bound) => Ok(bound.clone()),
            Some(bound) => Err(failed(format!(
                "the server's authorization servers are {servers:?}, and the client is registered with {bound:?}: its credentials are not sent elsewhere"
            ))),
            None => servers
                .first()
                .cloned()
                .ok_or_else(|| failed("the server names no authorization server")),
        }
    }

    /// Handles a refusal; whether to send the request again.
    async fn on_refusal(&self, refusal: Refusal<'_>) -> Result<bool, ClientError> {
        if refusal.attempt >= 2 {
            return Ok(false);
        }
        let params = challenge::bearer(refusal.challenge).unwrap_or_default();
        let error = challenge::get(&params, "error");
        let challenged: Option<BTreeSet<String>> = challenge::get(&params, "scope")
            .map(|s| s.split_ascii_whitespace().map(str::to_owned).collect());
        let metadata_url = challenge::get(&params, "resource_metadata");
        let mut known = self.flow.lock().await;
        let current = self.tokens();
        // Another request renewed the tokens since this one was sent: send it again.
        if let Some(tokens) = &current
            && refusal.sent != Some(bearer(tokens).as_str())
        {
            return Ok(true);
        }
        match refusal.status {
            403 if error == Some("insufficient_scope") => {
                let granted: BTreeSet<String> = current
                    .as_ref()
                    .map(|t| t.scopes().map(str::to_owned).collect())
                    .unwrap_or_default();
                let wanted = challenged.unwrap_or_default();
                if wanted.is_subset(&granted) {
                    return Ok(false);
                }
                let mut scopes = known.requested.clone();
                scopes.extend(granted);
                scopes.extend(wanted);
                self.authorize(&mut known, metadata_url, Some(scopes))
                    .await?;
                Ok(true)
            }
            401 => {
                if let Some(tokens) = current.filter(|t| t.refresh_token.is_some()) {
                    match self.refresh(&mut known, &tokens).await {
                        Ok(()) => return Ok(true),
                        Err(e) => {
                            tracing::debug!(error = %e, "the refresh failed; authorizing again")
                        }
                    }
                }
                self.keep(None);
                let scopes = challenged.map(|mut s| {
                    s.extend(known.requested.iter().cloned());
                    s
                });
                self.authorize(&mut known, metadata_url, scopes).await?;
                Ok(true)
            }
            _ => Ok(false),
        }
    }
}

impl Authorizer for Session {
    fn credential(&self) -> AuthFuture<'_, Option<String>> {
        Box::pin(async move {
            let Some(tokens) = self.tokens() else {
                return Ok(None);
            };
            if !tokens.expires_within(EXPIRY_MARGIN) || tokens.refresh_token.is_none() {
                return Ok(Some(bearer(&tokens)));
            }
            let mut known = self.flow.lock().await;
            match self.tokens() {
                Some(now) if now.access_token != tokens.access_token => {
                    return Ok(Some(bearer(&now)));
                }
                _ => {}
            }
            if let Err(e) = self.refresh(&mut known, &tokens).await {
                tracing::debug!(error = %e, "refreshing an expiring token failed");
                self.keep(None);
                return Ok(None);
            }
            Ok(self.tokens().map(|t| bearer(&t)))
        })
    }

    fn refused<'a>(&'a self, refusal: Refusal<'a>) -> AuthFuture<'a, bool> {
        Box::pin(self.on_refusal(refusal))
    }
}

impl From<Registration> for ClientAuth {
    fn from(registration: Registration) -> ClientAuth {
        ClientAuth {
            client_id: registration.client_id,
            secret: registration.client_secret,
            method: registration.token_endpoint_auth_method,
        }
    }
}

/// One authorization code flow with PKCE.
struct CodeFlow<'a> {
    session: &'a Session,
    redirect: &'a dyn Redirect,
    issuer: &'a str,
    metadata: &'a Value,
    resource: &'a Resource,
    scope: &'a str,
    token_endpoint: &'a Url,
}

impl CodeFlow<'_> {
    async fn run(&self) -> Result<(ClientAuth, Tokens), ClientError> {
        let metadata = self.metadata;
        if !supports_s256(metadata) {
            return Err(failed(format!(
                "the authorization server {} does not support PKCE with S256 (code_challenge_methods_supported): the client does not proceed",
                self.issuer
            )));
        }
        let redirect_uri = self.redirect.redirect_uri();
        let client = self
            .session
            .identify(self.issuer, metadata, &redirect_uri)
            .await?;
        let mut url = endpoint_of(metadata, "authorization_endpoint").map_err(failed)?;
        let (verifier, challenge) = grant::pkce().map_err(failed)?;
        let state = grant::random(16).map_err(failed)?;
        {
            let mut query = url.query_pairs_mut();
            query
                .append_pair("response_type", "code")
                .append_pair("client_id", &client.client_id)
                .append_pair("redirect_uri", &redirect_uri)
                .append_pair("state", &state)
                .append_pair("code_challenge", &challenge)
                .append_pair("code_challenge_method", "S256")
                .append_pair("resource", &self.resource.resource);
            if !self.scope.is_empty() {
                query.append_pair("scope", self.scope);
            }
        }
        let answer = self
            .redirect
            .authorize(url.as_str())
            .await
            .map_err(|e| failed(format!("the authorization did not complete: {e}")))?;
        let advertised =
            metadata.get("authorization_response_iss_parameter_supported") == Some(&json!(true));
        let code = check_answer(&answer, &state, self.issuer, advertised)?;
        let exchange = Exchange {
            http: &self.session.http,
            token_endpoint: self.token_endpoint,
            client: &client,
            issuer: self.issuer,
            resource: &self.resource.resource,
            scope: self.scope,
        };
        let grant = [
            ("grant_type", "authorization_code"),
            ("code", code.as_str()),
            ("redirect_uri", redirect_uri.as_str()),
            ("code_verifier", verifier.as_str()),
        ];
        let tokens = exchange.request(&grant).await.map_err(failed)?;
        Ok((client, tokens))
    }
}

/// Whether the authorization server's metadata lists PKCE's S256.
fn supports_s256(metadata: &Value) -> bool {
    metadata
        .get("code_challenge_methods_supported")
        .and_then(Value::as_array)
        .is_some_and(|m| m.iter().any(|m| m == "S256"))
}

/// The authorization response `answer` checked (RFC 9207's `iss` first, against `issuer`
/// and required when the server `advertised` it; then `state`; then an error): its code.
fn check_answer(
    answer: &[(String, String)],
    state: &str,
    issuer: &str,
    advertised: bool,
) -> Result<String, ClientError> {
    let param = |name: &str| {
        answer
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    };
    match param("iss") {
        Some(iss) if iss != issuer => {
            return Err(failed(format!(
                "the authorization response names the issuer {iss:?}, not {issuer:?} (a mix-up): refused"
            )));
        }
        None if advertised => {
            return Err(failed(format!(
                "the authorization response has no `iss`, which {issuer} advertises: refused"
            )));
        }
        _ => {}
    }
    if param("state") != Some(state) {
        return Err(failed(
            "the authorization response's `state` is not the one sent: refused",
        ));
    }
    if let Some(error) = param("error") {
        let description = param("error_description")
            .map(|d| format!(": {d}"))
            .unwrap_or_default();
        return Err(failed(format!(
            "the authorization server answered `{error}`{description}"
        )));
    }
    param("code")
        .map(str::to_owned)
        .ok_or_else(|| failed("the authorization response has no code"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect()
    }

    fn refusal(outcome: Result<String, ClientError>) -> String {
        match outcome {
            Err(ClientError::Authorization(text)) => text,
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    const AS: &str = "https://as.example";

    #[test]
    fn the_redirect_back_is_checked_before_its_code_is_used() {
        let good = answer(&[("code", "c"), ("state", "s"), ("iss", AS)]);
        assert_eq!(check_answer(&good, "s", AS, true).unwrap(), "c");
        // Without `iss`: fine unless the server advertises it.
        let bare = answer(&[("code", "c"), ("state", "s")]);
        assert_eq!(check_answer(&bare, "s", AS, false).unwrap(), "c");
        assert!(refusal(check_answer(&bare, "s", AS, true)).contains("has no `iss`"));
        // Another issuer, even unadvertised, and compared exactly (no normalization).
        for iss in [
            "https://evil.example",
            "https://AS.example",
            "https://as.example/",
        ] {
            let mixed = answer(&[("code", "c"), ("state", "s"), ("iss", iss)]);
            assert!(refusal(check_answer(&mixed, "s", AS, false)).contains("a mix-up"));
        }
        let forged = answer(&[("code", "c"), ("state", "x"), ("iss", AS)]);
        assert!(refusal(check_answer(&forged, "s", AS, true)).contains("`state`"));
        // An error is reported only once the response is known to be the server's.
        let error = answer(&[("error", "access_denied"), ("state", "s"), ("iss", AS)]);
        assert!(refusal(check_answer(&error, "s", AS, true)).contains("`access_denied`"));
        let spoofed = answer(&[("error", "access_denied"), ("state", "s"), ("iss", "x")]);
        assert!(refusal(check_answer(&spoofed, "s", AS, true)).contains("a mix-up"));
    }

    #[test]
    fn pkce_s256_must_be_advertised() {
        assert!(supports_s256(
            &json!({"code_challenge_methods_supported": ["plain", "S256"]})
        ));
        assert!(!supports_s256(
            &json!({"code_challenge_methods_supported": ["plain"]})
        ));
        assert!(!supports_s256(&json!({})));
    }
}
