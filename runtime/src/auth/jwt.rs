//! JWT access tokens (RFC 9068), checked against the authorization server's published keys.

use std::str::FromStr;
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use jsonwebtoken::jwk::{AlgorithmParameters, Jwk};
use jsonwebtoken::{Algorithm, DecodingKey, Validation, decode, decode_header};
use reqwest::Url;
use serde_json::Value;

use super::cache::TokenCache;
use super::fetch::{self, checked_url};
use super::{AuthInfo, SharedVerifyFuture, TokenError, TokenVerifier, VerifyFuture};

/// The algorithms accepted unless [`JwtVerifierBuilder::algorithms`] says otherwise: public-key
/// signatures only (never `none`, which is not an [`Algorithm`], nor an HMAC).
const DEFAULT_ALGORITHMS: [Algorithm; 8] = [
    Algorithm::RS256,
    Algorithm::RS384,
    Algorithm::RS512,
    Algorithm::PS256,
    Algorithm::PS384,
    Algorithm::PS512,
    Algorithm::ES256,
    Algorithm::EdDSA,
];

/// Checks JWT access tokens (RFC 9068) issued by one authorization server.
///
/// - The signing keys come from the server's `jwks_uri`, found in its metadata (RFC 8414's
///   `/.well-known/oauth-authorization-server`, then OpenID discovery), fetched on first use
///   and cached. A token signed with a key the cache does not hold (the server rotated its
///   keys) makes the verifier fetch the key set again, at most once per
///   [`refetch_interval`](JwtVerifierBuilder::refetch_interval) (default 10 s), so a flood of
///   made-up key ids cannot hammer the authorization server. The cached keys stay in use
///   while it is unreachable. Every fetch has a [`timeout`](JwtVerifierBuilder::timeout)
///   (default 5 s).
/// - The header's `alg` must be one of the allowed algorithms (RS256/384/512, PS256/384/512,
///   ES256 and EdDSA by default; HMAC algorithms are refused, `none` always), and the key's
///   type must be that algorithm's (a token cannot have an RSA public key used as an HMAC
///   secret).
/// - `iss` must be the issuer exactly; `aud` must contain one of the expected audiences (the
///   server's canonical URL, RFC 8707); `exp` is required; `nbf` is honoured; both with a
///   leeway (default 30 s).
/// - `http` issuers and key URLs are accepted only on loopback addresses.
/// - A token found valid is remembered by its text until its `exp`, for at most
///   [`cache_ttl`](JwtVerifierBuilder::cache_ttl) (default 60 s), in a cache of at most
///   [`cache_size`](JwtVerifierBuilder::cache_size) tokens (default 10,000): a client's
///   token is checked once, not on every request (its signature costs more than serving a
///   small call). Refusals are never cached.
#[derive(Clone)]
pub struct JwtVerifier {
    inner: Arc<Inner>,
}

struct Inner {
    issuer: String,
    audiences: Vec<String>,
    algorithms: Vec<Algorithm>,
    leeway: Duration,
    refetch_interval: Duration,
    client: reqwest::Client,
    /// Configured, or found in the metadata (then kept).
    jwks_uri: Mutex<Option<Url>>,
    keys: RwLock<Arc<Vec<Key>>>,
    /// When the key set was last fetched (or tried).
    last_fetch: Mutex<Option<Instant>>,
    /// One fetch at a time.
    fetching: tokio::sync::Mutex<()>,
    verified: TokenCache,
}

struct Key {
    kid: Option<String>,
    /// The JWK's own `alg`, when it names one.
    alg: Option<Algorithm>,
    key: DecodingKey,
}

/// Settings of a [`JwtVerifier`]; [`JwtVerifier::builder`] starts one.
pub struct JwtVerifierBuilder {
    issuer: String,
    audiences: Vec<String>,
    algorithms: Vec<Algorithm>,
    leeway: Duration,
    refetch_interval: Duration,
    timeout: Duration,
    jwks_uri: Option<String>,
    cache_size: usize,
    cache_ttl: Duration,
}

impl JwtVerifier {
    /// A verifier of tokens issued by `issuer` (the authorization server's issuer identifier,
    /// as its tokens' `iss` writes it) for the audience `audience` (the MCP server's
    /// canonical URL, e.g. `https://mcp.example.com/mcp`).
    pub fn builder(issuer: impl Into<String>, audience: impl Into<String>) -> JwtVerifierBuilder {
        JwtVerifierBuilder {
            issuer: issuer.into(),
            audiences: vec![audience.into()],
            algorithms: DEFAULT_ALGORITHMS.to_vec(),
            leeway: Duration::from_secs(30),
            refetch_interval: Duration::from_secs(10),
            timeout: Duration::from_secs(5),
            jwks_uri: None,
            cache_size: 10_000,
            cache_ttl: Duration::from_secs(60),
        }
    }

    /// The issuer this verifier trusts.
    pub fn issuer(&self) -> &str {
        &self.inner.issuer
    }
}

impl JwtVerifierBuilder {
    /// The accepted audiences (replacing the one given to [`JwtVerifier::builder`]): for
    /// authorization servers that write a client id or an API name in `aud`. A token's `aud`
    /// must contain one of them.
    pub fn audiences(mut self, audiences: Vec<String>) -> Self {
        self.audiences = audiences;
        self
    }

    /// The accepted signature algorithms. HMAC algorithms are dropped: a resource server
    /// has no shared secret with the authorization server.
    pub fn algorithms(mut self, algorithms: Vec<Algorithm>) -> Self {
        self.algorithms = algorithms
            .into_iter()
            .filter(|a| a.family() != jsonwebtoken::AlgorithmFamily::Hmac)
            .collect();
        self
    }

    /// Clock skew allowed on `exp` and `nbf` (default 30 s).
    pub fn leeway(mut self, leeway: Duration) -> Self {
        self.leeway = leeway;
        self
    }

    /// The least time between two fetches of the key set (default 10 s).
    pub fn refetch_interval(mut self, interval: Duration) -> Self {
        self.refetch_interval = interval;
        self
    }

    /// The timeout of each fetch from the authorization server (default 5 s).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// How many valid tokens the cache holds at most (default 10,000; 0: every request's
    /// token is checked in full).
    pub fn cache_size(mut self, size: usize) -> Self {
        self.cache_size = size;
        self
    }

    /// How long a valid token is remembered at most (default 60 s); never past its `exp`.
    pub fn cache_ttl(mut self, ttl: Duration) -> Self {
        self.cache_ttl = ttl;
        self
    }

    /// The key set's URL, instead of the one the authorization server's metadata gives.
    pub fn jwks_uri(mut self, uri: impl Into<String>) -> Self {
        self.jwks_uri = Some(uri.into());
        self
    }

    /// The verifier; an error names a setting that cannot work (an `http` issuer that is not
    /// on loopback, no audience, no algorithm).
    pub fn build(self) -> Result<JwtVerifier, String> {
        checked_url(&self.issuer, "the issuer")?;
        let jwks_uri = match &self.jwks_uri {
            Some(uri) => Some(checked_url(uri, "the jwks_uri")?),
            None => None,
        };
        if self.audiences.is_empty() {
            return Err("a JWT verifier needs at least one audience".into());
        }
        if self.algorithms.is_empty() {
            return Err("a JWT verifier needs at least one public-key algorithm".into());
        }
        Ok(JwtVerifier {
            inner: Arc::new(Inner {
                issuer: self.issuer,
                audiences: self.audiences,
                algorithms: self.algorithms,
                leeway: self.leeway,
                refetch_interval: self.refetch_interval,
                client: fetch::client(self.timeout),
                jwks_uri: Mutex::new(jwks_uri),
                keys: RwLock::new(Arc::new(Vec::new())),
                last_fetch: Mutex::new(None),
                fetching: tokio::sync::Mutex::new(()),
                verified: TokenCache::new(self.cache_size, self.cache_ttl),
            }),
        })
    }
}

impl TokenVerifier for JwtVerifier {
    fn verify<'a>(&'a self, token: &'a str) -> VerifyFuture<'a> {
        Box::pin(async move { self.verify_shared(token).await.map(|info| (*info).clone()) })
    }

    fn verify_shared<'a>(&'a self, token: &'a str) -> SharedVerifyFuture<'a> {
        Box::pin(async move {
            if let Some(info) = self.inner.verified.get(token) {
                return Ok(info);
            }
            let info = Arc::new(self.inner.verify(token).await?);
            self.inner.verified.remember(token, &info);
            Ok(info)
        })
    }
}

fn invalid(why: impl Into<String>) -> TokenError {
    TokenError::Invalid(why.into())
}

impl Inner {
    async fn verify(&self, token: &str) -> Result<AuthInfo, TokenError> {
        let header = decode_header(token).map_err(|e| invalid(format!("not a JWT: {e}")))?;
        if !self.algorithms.contains(&header.alg) {
            return Err(invalid(format!(
                "algorithm {:?} is not allowed",
                header.alg
            )));
        }
        let kid = header.kid.as_deref();
        let keys = match self.find(kid, header.alg) {
            Some(keys) => keys,
            None => {
                if let Err(e) = self.refresh().await {
                    tracing::debug!(error = %e, "the key set was not fetched");
                }
                self.find(kid, header.alg)
                    .ok_or_else(|| invalid(format!("no key with id {kid:?}")))?
            }
        };
        let (keys, index) = keys;
        let key = &keys[index];
        // The key's type decides the algorithm family: an RSA key never checks an HMAC.
        if key.key.family() != header.alg.family() || key.alg.is_some_and(|a| a != header.alg) {
            return Err(invalid(format!(
                "algorithm {:?} does not fit key {:?}",
                header.alg, key.kid
            )));
        }
        let mut validation = Validation::new(header.alg);
        validation.set_issuer(&[&self.issuer]);
        validation.set_audience(&self.audiences);
        validation.set_required_spec_claims(&["exp", "iss", "aud"]);
        validation.leeway = self.leeway.as_secs();
        validation.validate_exp = true;
        validation.validate_nbf = true;
        let data = decode::<Value>(token, &key.key, &validation)
            .map_err(|e| invalid(format!("{:?}", e.kind())))?;
        Ok(AuthInfo::from_claims(data.claims).with_token(token))
    }

    /// The cached key for `kid` (or, without a `kid`, the only key of the algorithm's
    /// family), with the key set holding it.
    fn find(&self, kid: Option<&str>, alg: Algorithm) -> Option<(Arc<Vec<Key>>, usize)> {
        let keys = self.keys.read().unwrap_or_else(|p| p.into_inner()).clone();
        let index = match kid {
            Some(kid) => keys.iter().position(|k| k.kid.as_deref() == Some(kid))?,
            None => {
                let mut fitting = (0..keys.len()).filter(|&i| keys[i].key.family() == alg.family());
                let first = fitting.next()?;
                if fitting.next().is_some() {
                    return None;
                }
                first
            }
        };
        Some((keys, index))
    }

    /// Fetches the key set again, unless it was fetched (or tried) less than
    /// `refetch_interval` ago. The old keys stay when the fetch fails.
    async fn refresh(&self) -> Result<(), String> {
        let _one = self.fetching.lock().await;
        {
            let mut last = self.last_fetch.lock().unwrap_or_else(|p| p.into_inner());
            if last.is_some_and(|t| t.elapsed() < self.refetch_interval) {
                return Err("fetched moments ago".into());
            }
            *last = Some(Instant::now());
        }
        let known = self
            .jwks_uri
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        let uri = match known {
            Some(uri) => uri,
            None => {
                let metadata = fetch::discover(&self.client, &self.issuer).await?;
                let uri = fetch::endpoint(&metadata, "jwks_uri")?;
                *self.jwks_uri.lock().unwrap_or_else(|p| p.into_inner()) = Some(uri.clone());
                uri
            }
        };
        let set = fetch::get_json(&self.client, &uri).await?;
        let keys = parse_key_set(&set);
        if keys.is_empty() {
            return Err(format!("{uri} holds no usable signing key"));
        }
        tracing::debug!(keys = keys.len(), %uri, "fetched the authorization server's keys");
        *self.keys.write().unwrap_or_else(|p| p.into_inner()) = Arc::new(keys);
        Ok(())
    }
}

/// The signing keys of a JWK set: public keys (RSA, EC, OKP) for signatures; symmetric keys,
/// encryption keys and keys that do not parse are left out.
fn parse_key_set(set: &Value) -> Vec<Key> {
    let Some(list) = set.get("keys").and_then(Value::as_array) else {
        return Vec::new();
    };
    let mut keys = Vec::new();
    for value in list {
        if value.get("use").is_some_and(|u| u != "sig") {
            continue;
        }
        let alg = match value.get("alg").and_then(Value::as_str) {
            Some(text) => match Algorithm::from_str(text) {
                Ok(alg) => Some(alg),
                Err(_) => continue,
            },
            None => None,
        };
        let Ok(jwk) = serde_json::from_value::<Jwk>(value.clone()) else {
            continue;
        };
        if matches!(jwk.algorithm, AlgorithmParameters::OctetKey(_)) {
            continue;
        }
        let Ok(key) = DecodingKey::from_jwk(&jwk) else {
            continue;
        };
        keys.push(Key {
            kid: jwk.common.key_id.clone(),
            alg,
            key,
        });
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::*;
    use jsonwebtoken::{EncodingKey, Header, encode};
    use serde_json::json;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// A P-256 key made for this test only (Node's `generateKeyPairSync("ec")`), PKCS#8 DER.
    const EC_PRIVATE: [u8; 138] = [
        48, 129, 135, 2, 1, 0, 48, 19, 6, 7, 42, 134, 72, 206, 61, 2, 1, 6, 8, 42, 134, 72, 206,
        61, 3, 1, 7, 4, 109, 48, 107, 2, 1, 1, 4, 32, 181, 218, 147, 162, 25, 104, 73, 138, 123,
        69, 205, 70, 80, 40, 248, 123, 96, 52, 159, 171, 126, 209, 106, 73, 130, 162, 75, 158, 93,
        56, 66, 128, 161, 68, 3, 66, 0, 4, 241, 85, 60, 8, 188, 160, 5, 124, 117, 172, 210, 174,
        49, 184, 141, 58, 18, 173, 7, 42, 250, 239, 247, 86, 94, 63, 124, 47, 170, 200, 213, 163,
        241, 227, 227, 198, 163, 33, 36, 246, 175, 122, 81, 18, 45, 34, 62, 10, 229, 100, 58, 1,
        64, 145, 199, 194, 252, 4, 66, 44, 81, 105, 211, 218,
    ];

    /// Serves the key set holding the public half of [`EC_PRIVATE`] on loopback; its URL.
    async fn serve_keys() -> String {
        let set = json!({"keys": [{"kty": "EC", "crv": "P-256", "kid": "ec", "use": "sig",
            "x": "8VU8CLygBXx1rNKuMbiNOhKtByr67_dWXj98L6rI1aM",
            "y": "8ePjxqMhJPavelESLSI-CuVkOgFAkcfC_ARCLFFp09o"}]})
        .to_string();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/jwks", listener.local_addr().unwrap());
        tokio::spawn(async move {
            while let Ok((mut s, _)) = listener.accept().await {
                let mut buf = [0u8; 4096];
                let _ = s.read(&mut buf).await;
                let answer = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{set}",
                    set.len()
                );
                let _ = s.write_all(answer.as_bytes()).await;
            }
        });
        url
    }

    fn es256_token(issuer: &str, audience: &str) -> String {
        let mut header = Header::new(Algorithm::ES256);
        header.kid = Some("ec".into());
        let exp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs()
            + 300;
        let claims = json!({"iss": issuer, "aud": audience, "exp": exp, "sub": "ann"});
        let key = EncodingKey::from_ec_der(&EC_PRIVATE);
        encode(&header, &claims, &key).unwrap()
    }

    /// The allow-list is the verifier's own check: `jsonwebtoken` validates a token with the
    /// algorithm its header names, so an ES256 token would pass a verifier meant for RS256.
    #[tokio::test]
    async fn an_algorithm_left_out_of_the_allow_list_is_refused() {
        let jwks = serve_keys().await;
        let (issuer, audience) = ("http://127.0.0.1:1", "http://127.0.0.1:2/mcp");
        let token = es256_token(issuer, audience);
        let verifier = |algorithms: Vec<Algorithm>| {
            JwtVerifier::builder(issuer, audience)
                .jwks_uri(jwks.clone())
                .algorithms(algorithms)
                .build()
                .unwrap()
        };
        let all = verifier(DEFAULT_ALGORITHMS.to_vec());
        assert_eq!(
            all.verify(&token).await.map(|i| i.subject),
            Ok(Some("ann".into()))
        );
        let rsa_only = verifier(vec![Algorithm::RS256]);
        assert_eq!(
            rsa_only.verify(&token).await,
            Err(TokenError::Invalid("algorithm ES256 is not allowed".into()))
        );
    }
}
