//! Opaque access tokens, checked by the authorization server's introspection endpoint
//! (RFC 7662), with a bounded cache.

use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use reqwest::Url;
use serde_json::Value;

use super::cache::TokenCache;
use super::fetch::{self, checked_url};
use super::{AuthInfo, SharedVerifyFuture, TokenError, TokenVerifier, VerifyFuture};

/// Checks opaque access tokens through token introspection (RFC 7662).
///
/// The endpoint is the metadata's `introspection_endpoint` (or the one configured); the
/// resource server authenticates with its own client credentials (HTTP Basic). A token is
/// valid when the answer is `active: true`, its `iss` (when given) is the issuer, its `aud`
/// contains one of the expected audiences, and its `exp` (when given) has not passed. Valid
/// answers are cached until the token's `exp` or for at most
/// [`cache_ttl`](IntrospectionVerifierBuilder::cache_ttl) (default 60 s), in a cache of at
/// most [`cache_size`](IntrospectionVerifierBuilder::cache_size) tokens (default 10,000);
/// refusals are not cached. An unreachable endpoint answers [`TokenError::Unavailable`].
#[derive(Clone)]
pub struct IntrospectionVerifier {
    inner: Arc<Inner>,
}

struct Inner {
    issuer: String,
    audiences: Vec<String>,
    client_id: String,
    client_secret: String,
    client: reqwest::Client,
    endpoint: Mutex<Option<Url>>,
    cache: TokenCache,
}

/// Settings of an [`IntrospectionVerifier`]; [`IntrospectionVerifier::builder`] starts one.
pub struct IntrospectionVerifierBuilder {
    issuer: String,
    audiences: Vec<String>,
    client_id: String,
    client_secret: String,
    endpoint: Option<String>,
    timeout: Duration,
    cache_size: usize,
    cache_ttl: Duration,
}

impl IntrospectionVerifier {
    /// A verifier of tokens of `issuer` for `audience`, asking as the client `client_id`
    /// with `client_secret`.
    pub fn builder(
        issuer: impl Into<String>,
        audience: impl Into<String>,
        client_id: impl Into<String>,
        client_secret: impl Into<String>,
    ) -> IntrospectionVerifierBuilder {
        IntrospectionVerifierBuilder {
            issuer: issuer.into(),
            audiences: vec![audience.into()],
            client_id: client_id.into(),
            client_secret: client_secret.into(),
            endpoint: None,
            timeout: Duration::from_secs(5),
            cache_size: 10_000,
            cache_ttl: Duration::from_secs(60),
        }
    }
}

impl IntrospectionVerifierBuilder {
    /// The accepted audiences, instead of the one given to the builder.
    pub fn audiences(mut self, audiences: Vec<String>) -> Self {
        self.audiences = audiences;
        self
    }

    /// The introspection endpoint, instead of the metadata's.
    pub fn endpoint(mut self, url: impl Into<String>) -> Self {
        self.endpoint = Some(url.into());
        self
    }

    /// The timeout of each request to the authorization server (default 5 s).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// How many valid tokens the cache holds at most (default 10,000; 0: no cache).
    pub fn cache_size(mut self, size: usize) -> Self {
        self.cache_size = size;
        self
    }

    /// How long a valid answer is reused at most (default 60 s; never past the token's `exp`).
    pub fn cache_ttl(mut self, ttl: Duration) -> Self {
        self.cache_ttl = ttl;
        self
    }

    /// The verifier; an error names a URL that is not https (nor http on loopback).
    pub fn build(self) -> Result<IntrospectionVerifier, String> {
        checked_url(&self.issuer, "the issuer")?;
        let endpoint = match &self.endpoint {
            Some(url) => Some(checked_url(url, "the introspection endpoint")?),
            None => None,
        };
        if self.audiences.is_empty() {
            return Err("an introspection verifier needs at least one audience".into());
        }
        Ok(IntrospectionVerifier {
            inner: Arc::new(Inner {
                issuer: self.issuer,
                audiences: self.audiences,
                client_id: self.client_id,
                client_secret: self.client_secret,
                client: fetch::client(self.timeout),
                endpoint: Mutex::new(endpoint),
                cache: TokenCache::new(self.cache_size, self.cache_ttl),
            }),
        })
    }
}

impl TokenVerifier for IntrospectionVerifier {
    fn verify<'a>(&'a self, token: &'a str) -> VerifyFuture<'a> {
        Box::pin(async move { self.verify_shared(token).await.map(|info| (*info).clone()) })
    }

    fn verify_shared<'a>(&'a self, token: &'a str) -> SharedVerifyFuture<'a> {
        Box::pin(async move {
            if let Some(info) = self.inner.cache.get(token) {
                return Ok(info);
            }
            let info = Arc::new(
                self.inner
                    .introspect(token)
                    .await
                    .map(|i| i.with_token(token))?,
            );
            self.inner.cache.remember(token, &info);
            Ok(info)
        })
    }
}

impl Inner {
    async fn endpoint(&self) -> Result<Url, TokenError> {
        if let Some(url) = self
            .endpoint
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
        {
            return Ok(url);
        }
        let metadata = fetch::discover(&self.client, &self.issuer)
            .await
            .map_err(TokenError::Unavailable)?;
        let url = fetch::endpoint(&metadata, "introspection_endpoint")
            .map_err(TokenError::Unavailable)?;
        *self.endpoint.lock().unwrap_or_else(|p| p.into_inner()) = Some(url.clone());
        Ok(url)
    }

    async fn introspect(&self, token: &str) -> Result<AuthInfo, TokenError> {
        let url = self.endpoint().await?;
        let response = self
            .client
            .post(url.clone())
            .basic_auth(&self.client_id, Some(&self.client_secret))
            .form(&[("token", token), ("token_type_hint", "access_token")])
            .send()
            .await
            .map_err(|e| TokenError::Unavailable(format!("introspecting at {url}: {e}")))?;
        let answer = fetch::json_body(response, url.as_str())
            .await
            .map_err(TokenError::Unavailable)?;
        self.judge(answer)
    }

    /// An introspection answer, judged.
    fn judge(&self, answer: Value) -> Result<AuthInfo, TokenError> {
        let invalid = |why: &str| Err(TokenError::Invalid(why.to_owned()));
        if answer.get("active") != Some(&Value::Bool(true)) {
            return invalid("the token is not active");
        }
        if let Some(iss) = answer.get("iss")
            && iss.as_str() != Some(self.issuer.as_str())
        {
            return invalid("the token was issued by another server");
        }
        let audience_fits = match answer.get("aud") {
            Some(Value::String(a)) => self.audiences.contains(a),
            Some(Value::Array(list)) => list
                .iter()
                .filter_map(Value::as_str)
                .any(|a| self.audiences.iter().any(|x| x == a)),
            _ => false,
        };
        if !audience_fits {
            return invalid("the token is not for this server (aud)");
        }
        let info = AuthInfo::from_claims(answer);
        if info.expires_at.is_some_and(|exp| exp <= SystemTime::now()) {
            return invalid("the token has expired");
        }
        Ok(info)
    }
}
