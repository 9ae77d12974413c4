//! Token requests (authorization code with PKCE, refresh, client credentials), client
//! authentication at the token endpoint, and the checks on what comes back.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use reqwest::Url;
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::discovery::json_body;
use super::store::Tokens;
use crate::client::http::describe;

/// How the client authenticates at the token endpoint.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ClientAuth {
    pub client_id: String,
    pub secret: Option<String>,
    /// `none`, `client_secret_basic` or `client_secret_post`.
    pub method: String,
}

impl ClientAuth {
    /// The authentication a client with `secret` uses at an authorization server whose
    /// metadata is `metadata`: none without a secret; with one, Basic unless the server
    /// lists only `client_secret_post`.
    pub(crate) fn choose(client_id: &str, secret: Option<&str>, metadata: &Value) -> ClientAuth {
        let method = match secret {
            None => "none",
            Some(_) => {
                let supported: Vec<&str> = metadata
                    .get("token_endpoint_auth_methods_supported")
                    .and_then(Value::as_array)
                    .map(|a| a.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                if !supported.is_empty()
                    && !supported.contains(&"client_secret_basic")
                    && supported.contains(&"client_secret_post")
                {
                    "client_secret_post"
                } else {
                    "client_secret_basic"
                }
            }
        };
        ClientAuth {
            client_id: client_id.to_owned(),
            secret: secret.map(str::to_owned),
            method: method.to_owned(),
        }
    }
}

/// Base64url without padding (RFC 7636, RFC 7515).
pub(crate) fn base64url(data: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(data)
}

/// `n` random bytes, base64url.
pub(crate) fn random(n: usize) -> Result<String, String> {
    let mut bytes = vec![0u8; n];
    getrandom::fill(&mut bytes).map_err(|e| format!("no randomness: {e}"))?;
    Ok(base64url(&bytes))
}

/// A PKCE verifier (32 random bytes, 43 characters) and its S256 challenge.
pub(crate) fn pkce() -> Result<(String, String), String> {
    let verifier = random(32)?;
    Ok((verifier.clone(), challenge(&verifier)))
}

/// The S256 challenge of `verifier`: base64url of its SHA-256.
pub(crate) fn challenge(verifier: &str) -> String {
    base64url(&Sha256::digest(verifier.as_bytes()))
}

/// `application/x-www-form-urlencoded` of `pairs`.
fn form(pairs: &[(&str, &str)]) -> String {
    let mut url = Url::parse("http://x/").unwrap_or_else(|_| unreachable!("a constant URL"));
    url.query_pairs_mut().extend_pairs(pairs);
    url.query().unwrap_or_default().to_owned()
}

/// What a token request is for, and the tokens it makes.
pub(crate) struct Exchange<'a> {
    pub http: &'a reqwest::Client,
    pub token_endpoint: &'a Url,
    pub client: &'a ClientAuth,
    pub issuer: &'a str,
    pub resource: &'a str,
    /// The scopes asked for: what the tokens have when the response does not say.
    pub scope: &'a str,
}

impl Exchange<'_> {
    /// POSTs a token request with `grant` (its own parameters; the client's and the
    /// resource are added), and checks the tokens that come back.
    pub(crate) async fn request(&self, grant: &[(&str, &str)]) -> Result<Tokens, String> {
        let mut pairs: Vec<(&str, &str)> = grant.to_vec();
        pairs.push(("resource", self.resource));
        let client = self.client;
        if client.method != "client_secret_basic" {
            pairs.push(("client_id", &client.client_id));
        }
        if let ("client_secret_post", Some(secret)) = (client.method.as_str(), &client.secret) {
            pairs.push(("client_secret", secret));
        }
        let mut request = self
            .http
            .post(self.token_endpoint.clone())
            .header("content-type", "application/x-www-form-urlencoded")
            .header("accept", "application/json")
            .body(form(&pairs));
        if let ("client_secret_basic", Some(secret)) = (client.method.as_str(), &client.secret) {
            // RFC 6749 §2.3.1: each part form-encoded, then Basic.
            let user = form(&[("", &client.client_id)]);
            let pass = form(&[("", secret)]);
            let credentials = format!("{}:{}", &user[1..], &pass[1..]);
            let basic = toolidl_formats::encode_base64(credentials.as_bytes());
            request = request.header("authorization", format!("Basic {basic}"));
        }
        let url = self.token_endpoint.as_str();
        let response = request
            .send()
            .await
            .map_err(|e| format!("the token request to {url}: {}", describe(&e)))?;
        let body = json_body(response, url)
            .await
            .map_err(|e| format!("the token request was refused: {e}"))?;
        self.tokens(&body)
    }

    /// The tokens of a token response, checked: a bearer access token, and, when it is a
    /// JWT whose claims can be read, one issued by this issuer for this resource (the
    /// client cannot check its signature; a token that says otherwise is refused, never
    /// sent).
    fn tokens(&self, body: &Value) -> Result<Tokens, String> {
        let access_token = body
            .get("access_token")
            .and_then(Value::as_str)
            .filter(|t| !t.is_empty())
            .ok_or("the token response has no access_token")?;
        let token_type = body.get("token_type").and_then(Value::as_str).unwrap_or("");
        if !token_type.eq_ignore_ascii_case("bearer") {
            return Err(format!(
                "the token response's token_type is {token_type:?}, not Bearer"
            ));
        }
        if let Some(claims) = jwt_claims(access_token) {
            if let Some(issuer) = claims.get("iss").and_then(Value::as_str)
                && issuer != self.issuer
            {
                return Err(format!(
                    "the access token was issued by {issuer:?}, not by {:?}: refused",
                    self.issuer
                ));
            }
            if let Some(audience) = claims.get("aud")
                && !audience_has(audience, self.resource)
            {
                return Err(format!(
                    "the access token is for {audience}, not for {:?}: refused",
                    self.resource
                ));
            }
        }
        let expires_at = body.get("expires_in").and_then(Value::as_u64).map(|s| {
            let now = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .unwrap_or(Duration::ZERO);
            now.as_secs().saturating_add(s)
        });
        let scope = body
            .get("scope")
            .and_then(Value::as_str)
            .unwrap_or(self.scope)
            .to_owned();
        Ok(Tokens {
            access_token: access_token.to_owned(),
            refresh_token: body
                .get("refresh_token")
                .and_then(Value::as_str)
                .map(str::to_owned),
            expires_at,
            scope,
            issuer: self.issuer.to_owned(),
            resource: self.resource.to_owned(),
            client_id: self.client.client_id.clone(),
        })
    }
}

/// The claims of a JWT (`header.claims.signature`), unverified; `None` for another token.
fn jwt_claims(token: &str) -> Option<Value> {
    let mut parts = token.split('.');
    let (_, claims, _, None) = (parts.next()?, parts.next()?, parts.next()?, parts.next()) else {
        return None;
    };
    let claims: Value =
        serde_json::from_slice(&URL_SAFE_NO_PAD.decode(claims.trim_end_matches('=')).ok()?)
            .ok()?;
    claims.is_object().then_some(claims)
}

/// Whether `aud` (a string or a list) names `resource` (compared as URLs, so case in the
/// scheme and host and a default port do not matter).
fn audience_has(aud: &Value, resource: &str) -> bool {
    let same = |a: &str| {
        a == resource || matches!((Url::parse(a), Url::parse(resource)), (Ok(a), Ok(r)) if a == r)
    };
    match aud {
        Value::String(a) => same(a),
        Value::Array(list) => list.iter().filter_map(Value::as_str).any(same),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_s256_challenge_of_rfc_7636s_example() {
        assert_eq!(
            challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
        let (verifier, _) = pkce().unwrap();
        assert_eq!(verifier.len(), 43);
        assert!(
            verifier
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        );
    }

    fn jwt(claims: Value) -> String {
        format!(
            "{}.{}.sig",
            base64url(br#"{"alg":"RS256"}"#),
            base64url(claims.to_string().as_bytes())
        )
    }

    fn exchange<'a>(
        http: &'a reqwest::Client,
        url: &'a Url,
        client: &'a ClientAuth,
    ) -> Exchange<'a> {
        Exchange {
            http,
            token_endpoint: url,
            client,
            issuer: "https://as.example",
            resource: "https://mcp.example/mcp",
            scope: "a b",
        }
    }

    #[test]
    fn tokens_for_another_audience_or_from_another_issuer_are_refused() {
        let http = reqwest::Client::new();
        let url = Url::parse("https://as.example/token").unwrap();
        let client = ClientAuth::choose("c", None, &json!({}));
        let e = exchange(&http, &url, &client);
        let response = |token: String| json!({"access_token": token, "token_type": "Bearer", "expires_in": 60});
        let good =
            jwt(json!({"iss": "https://as.example", "aud": ["https://MCP.example:443/mcp"]}));
        let tokens = e.tokens(&response(good)).unwrap();
        assert_eq!(tokens.scope, "a b");
        assert!(tokens.expires_at.is_some());
        let other_audience =
            jwt(json!({"iss": "https://as.example", "aud": "https://other.example/mcp"}));
        let refused = e.tokens(&response(other_audience)).unwrap_err();
        assert!(
            refused.contains("not for \"https://mcp.example/mcp\""),
            "{refused}"
        );
        let other_issuer =
            jwt(json!({"iss": "https://evil.example", "aud": "https://mcp.example/mcp"}));
        let refused = e.tokens(&response(other_issuer)).unwrap_err();
        assert!(
            refused.contains("issued by \"https://evil.example\""),
            "{refused}"
        );
        // An opaque token cannot be read: it is kept.
        assert!(e.tokens(&response("opaque".into())).is_ok());
        // Only bearer tokens.
        let dpop = json!({"access_token": "x", "token_type": "DPoP"});
        assert!(e.tokens(&dpop).is_err());
    }

    #[test]
    fn secrets_go_by_basic_unless_only_post_is_supported() {
        let post_only = json!({"token_endpoint_auth_methods_supported": ["client_secret_post"]});
        assert_eq!(
            ClientAuth::choose("c", Some("s"), &post_only).method,
            "client_secret_post"
        );
        assert_eq!(
            ClientAuth::choose("c", Some("s"), &json!({})).method,
            "client_secret_basic"
        );
        assert_eq!(ClientAuth::choose("c", None, &post_only).method, "none");
    }
}
