//! OAuth 2.1 resource server (feature `auth`): who a request's access token speaks for.
//!
//! The MCP authorization specification (`basic/authorization`, revisions 2025-06-18 to
//! 2026-07-28) makes an HTTP MCP server a *resource server*: it validates access tokens an
//! authorization server issued, it never issues them. This module holds what does not depend
//! on the transport:
//!
//! - [`TokenVerifier`], an async check of one bearer token, which an embedding program may
//!   implement itself;
//! - [`JwtVerifier`], for JWT access tokens (RFC 9068), with keys discovered from the
//!   authorization server's metadata (RFC 8414, then OpenID discovery) and cached;
//! - [`IntrospectionVerifier`], for opaque tokens (RFC 7662), with a bounded cache;
//! - [`AuthInfo`], what a valid token says, handed to handlers as
//!   [`RequestContext::auth`](crate::RequestContext::auth).
//!
//! The HTTP transport's side (protected resource metadata, challenges, scope checks) is
//! [`http::AuthConfig`](crate::http::AuthConfig).

mod cache;
mod fetch;
mod introspect;
mod jwt;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::SystemTime;

use serde_json::Value;

pub use introspect::{IntrospectionVerifier, IntrospectionVerifierBuilder};
/// The signature algorithms of [`JwtVerifierBuilder::algorithms`] (from `jsonwebtoken`).
pub use jsonwebtoken::Algorithm;
pub use jwt::{JwtVerifier, JwtVerifierBuilder};

/// What a valid access token says about its bearer.
#[derive(Debug, Clone, PartialEq)]
pub struct AuthInfo {
    /// `sub`: the user (or, for a client-credentials token, the client) it was issued for.
    pub subject: Option<String>,
    /// `client_id` (RFC 9068), else `azp`: the client it was issued to.
    pub client_id: Option<String>,
    /// The granted scopes: `scope` (space-separated) or `scp` (an array).
    pub scopes: Vec<String>,
    /// `exp`, when the token has one.
    pub expires_at: Option<SystemTime>,
    /// Every claim, as the token (or the introspection response) gave it.
    pub claims: Value,
    /// The token itself, kept for a token exchange (RFC 8693) only: see
    /// [`AuthInfo::subject_token`].
    token: Option<SubjectToken>,
}

/// The access token a request carried, as the subject of a token exchange (RFC 8693). Only
/// [`SubjectToken::expose`] gives its text, to send to a token service; never pass it to
/// another API (the MCP security best practices forbid token passthrough). `Debug` does not
/// write it.
#[derive(Clone, PartialEq, Eq)]
pub struct SubjectToken(Arc<str>);

impl SubjectToken {
    /// The token's text, for the token service's `subject_token`.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for SubjectToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SubjectToken(…)")
    }
}

impl AuthInfo {
    /// Reads the standard claims out of a JWT payload or an introspection response.
    pub fn from_claims(claims: Value) -> AuthInfo {
        let text = |key: &str| claims.get(key).and_then(Value::as_str).map(str::to_owned);
        let scopes = match (claims.get("scope"), claims.get("scp")) {
            (Some(Value::String(s)), _) | (None, Some(Value::String(s))) => s
                .split(' ')
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect(),
            (_, Some(Value::Array(list))) => list
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
            _ => Vec::new(),
        };
        let expires_at = claims
            .get("exp")
            .and_then(Value::as_u64)
            .map(|s| SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(s));
        AuthInfo {
            subject: text("sub"),
            client_id: text("client_id").or_else(|| text("azp")),
            scopes,
            expires_at,
            claims,
            token: None,
        }
    }

    /// The same, holding the token it was read from (the transport does this for every
    /// token it accepts, so that a token exchange of the `forward` feature can trade it).
    pub fn with_token(mut self, token: &str) -> AuthInfo {
        self.token = Some(SubjectToken(token.into()));
        self
    }

    /// The token this was read from, as the subject of a token exchange; `None` when it
    /// was built without one ([`AuthInfo::from_claims`] alone).
    pub fn subject_token(&self) -> Option<&SubjectToken> {
        self.token.as_ref()
    }

    /// Whom the token speaks for: its subject, else its client. Sessions and tasks are
    /// bound to it; a token with neither is bound to no one.
    pub fn principal(&self) -> Option<&str> {
        self.subject.as_deref().or(self.client_id.as_deref())
    }

    /// Whether the token grants `scope`.
    pub fn has_scope(&self, scope: &str) -> bool {
        self.scopes.iter().any(|s| s == scope)
    }
}

/// Why a token was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenError {
    /// Not a valid token for this server (bad signature, expired, wrong audience or issuer,
    /// unknown key, inactive): `401` with `error="invalid_token"`. The text is logged, never
    /// sent.
    Invalid(String),
    /// The token could not be checked now (the introspection endpoint is unreachable):
    /// `503`, to be retried.
    Unavailable(String),
}

impl std::fmt::Display for TokenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TokenError::Invalid(why) => write!(f, "invalid token: {why}"),
            TokenError::Unavailable(why) => write!(f, "token not checkable now: {why}"),
        }
    }
}

impl std::error::Error for TokenError {}

/// The future a [`TokenVerifier`] returns.
pub type VerifyFuture<'a> = Pin<Box<dyn Future<Output = Result<AuthInfo, TokenError>> + Send + 'a>>;

/// The future of [`TokenVerifier::verify_shared`].
pub type SharedVerifyFuture<'a> =
    Pin<Box<dyn Future<Output = Result<Arc<AuthInfo>, TokenError>> + Send + 'a>>;

/// Checks one bearer token (the text after `Bearer ` in the `Authorization` header).
///
/// The built-in verifiers are [`JwtVerifier`] and [`IntrospectionVerifier`]; a program with
/// its own token format implements this trait.
pub trait TokenVerifier: Send + Sync + 'static {
    /// What the token says, or why it is refused.
    fn verify<'a>(&'a self, token: &'a str) -> VerifyFuture<'a>;

    /// [`verify`](Self::verify), as the shared value the server keeps for the request (what
    /// the HTTP transport calls). The built-in verifiers answer a token found valid before
    /// from their cache without copying what it said; the default wraps `verify`.
    fn verify_shared<'a>(&'a self, token: &'a str) -> SharedVerifyFuture<'a> {
        Box::pin(async move { self.verify(token).await.map(Arc::new) })
    }
}
