//! Where an OAuth client keeps its tokens and its dynamic registrations.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::peer::lock;

/// The tokens of one MCP server (one endpoint URL), as the authorization server issued
/// them. Serializable, for stores that keep them on disk or in a keychain.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tokens {
    /// The access token, sent as `Authorization: Bearer …` to the endpoint only.
    pub access_token: String,
    /// The refresh token, when the authorization server gave one: sent to its token
    /// endpoint only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refresh_token: Option<String>,
    /// When the access token expires, in seconds since the Unix epoch (from `expires_in`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<u64>,
    /// The scopes granted (the response's `scope`, else those asked for), space-separated.
    #[serde(default)]
    pub scope: String,
    /// The authorization server that issued them (its `issuer`).
    pub issuer: String,
    /// The resource they were issued for (RFC 8707 `resource`, the protected resource
    /// metadata's `resource`).
    pub resource: String,
    /// The client id they were issued to.
    pub client_id: String,
}

impl Tokens {
    /// Whether the access token expires within `margin` from now.
    pub fn expires_within(&self, margin: Duration) -> bool {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default();
        self.expires_at
            .is_some_and(|at| Duration::from_secs(at) <= now + margin)
    }

    /// The granted scopes, one by one.
    pub fn scopes(&self) -> impl Iterator<Item = &str> {
        self.scope.split_ascii_whitespace()
    }
}

/// A client registered with an authorization server by dynamic registration (RFC 7591),
/// kept per authorization server so a later run registers no second client.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Registration {
    /// The `client_id` the authorization server assigned.
    pub client_id: String,
    /// Its `client_secret`, for a confidential client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_secret: Option<String>,
    /// The redirect URIs registered.
    #[serde(default)]
    pub redirect_uris: Vec<String>,
    /// How the client authenticates at the token endpoint (`none`,
    /// `client_secret_basic`, `client_secret_post`).
    pub token_endpoint_auth_method: String,
}

/// Keeps an OAuth client's tokens, by endpoint URL, and its dynamic registrations, by
/// authorization server (`issuer`).
///
/// [`MemoryTokenStore`] (the default) keeps them for the life of the process; implement
/// this over a file or the platform's keychain to keep them across runs. Access and
/// refresh tokens are secrets: keep them where only the user can read them.
pub trait TokenStore: Send + Sync {
    /// The tokens for the MCP endpoint `endpoint`, if any.
    fn tokens(&self, endpoint: &str) -> Option<Tokens>;
    /// Keeps (or, with `None`, forgets) the tokens for `endpoint`.
    fn set_tokens(&self, endpoint: &str, tokens: Option<&Tokens>);
    /// The client registered with the authorization server `issuer`, if any.
    fn registration(&self, issuer: &str) -> Option<Registration>;
    /// Keeps the client registered with `issuer`.
    fn set_registration(&self, issuer: &str, registration: &Registration);
}

/// A [`TokenStore`] in memory: what a process learns is lost when it ends.
#[derive(Default)]
pub struct MemoryTokenStore {
    tokens: Mutex<HashMap<String, Tokens>>,
    registrations: Mutex<HashMap<String, Registration>>,
}

impl MemoryTokenStore {
    /// An empty store.
    pub fn new() -> MemoryTokenStore {
        MemoryTokenStore::default()
    }
}

impl TokenStore for MemoryTokenStore {
    fn tokens(&self, endpoint: &str) -> Option<Tokens> {
        lock(&self.tokens).get(endpoint).cloned()
    }

    fn set_tokens(&self, endpoint: &str, tokens: Option<&Tokens>) {
        let mut map = lock(&self.tokens);
        match tokens {
            Some(tokens) => map.insert(endpoint.to_owned(), tokens.clone()),
            None => map.remove(endpoint),
        };
    }

    fn registration(&self, issuer: &str) -> Option<Registration> {
        lock(&self.registrations).get(issuer).cloned()
    }

    fn set_registration(&self, issuer: &str, registration: &Registration) {
        lock(&self.registrations).insert(issuer.to_owned(), registration.clone());
    }
}
