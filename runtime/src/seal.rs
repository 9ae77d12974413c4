//! Sealing the 2026-07-28 `requestState` (multi round-trip requests).
//!
//! What a handler returns as `requestState` goes to the client sealed: encrypted and
//! authenticated with XChaCha20-Poly1305 under the server's key (a random 192-bit nonce per
//! state), so the client can neither read nor change it. The sealed envelope also holds what
//! the state was issued for: the method, the tool, prompt or resource URI, a SHA-256 digest of
//! the arguments in a canonical form (object members sorted by key, no whitespace, strings
//! and numbers written one way), the principal of the request when it was authenticated, the
//! keys of the `inputRequests` it asked, and its expiry. [`Sealer::open`] checks each of
//! these against the retry before its handler runs, and hands the handler its own plain
//! state only.

use std::io;
use std::sync::OnceLock;
use std::time::{Duration, SystemTime};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chacha20poly1305::aead::{AeadInOut, KeyInit};
use chacha20poly1305::{Tag, XChaCha20Poly1305, XNonce};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::protocol::{Method, RpcError};

/// A key that seals `requestState`: 32 bytes, for XChaCha20-Poly1305.
///
/// Every instance of a server behind a load balancer must seal with the same key (a retry
/// may reach another instance than the one that issued its state): give each the same keys
/// with [`ServerBuilder::request_state_keys`](crate::ServerBuilder::request_state_keys).
/// Without one, a server seals with 32 random bytes drawn when it is built, so its states
/// open in this process only, and no longer after a restart.
#[derive(Clone)]
pub struct RequestStateKey([u8; 32]);

/// Domain separation for [`RequestStateKey::derive`].
const DERIVE_LABEL: &[u8] = b"toolidl requestState key v1\0";

impl RequestStateKey {
    /// A key of 32 bytes, used as they are (draw them from a cryptographic random source).
    pub const fn new(bytes: [u8; 32]) -> Self {
        RequestStateKey(bytes)
    }

    /// A key derived (SHA-256, with a label of its own) from a secret of any length: 64 hex
    /// digits from the environment, say. The secret is hashed, not stretched: give it at
    /// least 128 bits of entropy (a random value, never a password).
    pub fn derive(secret: impl AsRef<[u8]>) -> Self {
        let mut hash = Sha256::new();
        hash.update(DERIVE_LABEL);
        hash.update(secret.as_ref());
        RequestStateKey(hash.finalize().into())
    }

    /// 32 random bytes from the operating system.
    pub fn random() -> io::Result<Self> {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).map_err(|e| io::Error::other(e.to_string()))?;
        Ok(RequestStateKey(bytes))
    }
}

impl std::fmt::Debug for RequestStateKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RequestStateKey(..)")
    }
}

/// How long a state stays valid by default.
pub const DEFAULT_TTL: Duration = Duration::from_secs(10 * 60);

/// The envelope's format, first byte of the sealed text and part of the associated data.
const VERSION: u8 = 1;
/// What the AEAD authenticates besides the envelope: the format, so that nothing else sealed
/// under the same key ever opens as a state.
const AAD: &[u8] = b"toolidl requestState v1";
const NONCE_LEN: usize = 24;
const TAG_LEN: usize = 16;

/// The request a state is issued for, or presented with: what binds a state to it.
#[derive(Debug)]
pub(crate) struct Origin {
    /// `tools/call`, `prompts/get` or `resources/read`.
    pub method: &'static str,
    /// The tool or prompt name, or the resource URI.
    pub target: Box<str>,
    /// The `arguments` object, as the request had it (none for `resources/read`).
    pub arguments: Option<Box<str>>,
    /// The authenticated principal (feature `auth`: the token's subject, else its client).
    pub principal: Option<Box<str>>,
    /// The digest of `arguments`, once computed (only a state's sealing or opening needs it).
    digest: OnceLock<String>,
}

impl Origin {
    pub fn new(
        method: &'static str,
        target: &str,
        arguments: Option<&str>,
        principal: Option<String>,
    ) -> Self {
        Origin {
            method,
            target: target.into(),
            arguments: arguments.map(Into::into),
            principal: principal.map(Into::into),
            digest: OnceLock::new(),
        }
    }

    /// The base64 SHA-256 of the arguments' canonical form; empty without arguments.
    fn digest(&self) -> &str {
        self.digest.get_or_init(|| match &self.arguments {
            Some(args) => URL_SAFE_NO_PAD.encode(canonical_digest(args)),
            None => String::new(),
        })
    }

    /// What a mismatched target is called in an error: "tool", "prompt", "resource".
    fn target_kind(&self) -> &'static str {
        match Method::parse(self.method) {
            Some(Method::CallTool) => "tool",
            Some(Method::GetPrompt) => "prompt",
            _ => "resource",
        }
    }
}

/// What a sealed state holds, inside the AEAD (short member names: it travels with every
/// retry).
#[derive(Serialize, Deserialize)]
struct Envelope {
    #[serde(rename = "m")]
    method: String,
    #[serde(rename = "t")]
    target: String,
    #[serde(rename = "a")]
    arguments: String,
    #[serde(rename = "p", default, skip_serializing_if = "Option::is_none")]
    principal: Option<String>,
    /// Expiry, in milliseconds since the Unix epoch.
    #[serde(rename = "x")]
    expires_ms: u64,
    /// The keys of the `inputRequests` of the round that issued it.
    #[serde(rename = "k", default, skip_serializing_if = "Vec::is_empty")]
    asked: Vec<String>,
    /// The handler's own state.
    #[serde(rename = "s", default, skip_serializing_if = "Option::is_none")]
    state: Option<String>,
}

/// A state presented on a retry that passed every check.
#[derive(Debug)]
pub(crate) struct Opened {
    /// The handler's own state (`None` when it returned `inputRequests` alone).
    pub state: Option<String>,
    /// The state's nonce (hex) and expiry: what a single use records.
    pub nonce: String,
    pub expires: SystemTime,
}

/// The server's sealing: its keys (the first seals, all open), how long a state lives, and
/// whether a state may be used once only.
pub(crate) struct Sealer {
    ciphers: Vec<XChaCha20Poly1305>,
    ttl: Duration,
    pub single_use: bool,
}

/// A state that could not be sealed (no key, no randomness): the request fails with -32603.
#[derive(Debug)]
pub(crate) struct SealError(pub &'static str);

impl std::fmt::Display for SealError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

impl std::error::Error for SealError {}

impl Sealer {
    /// A sealer with `keys`; none given: a random key for this process (none at all when the
    /// OS has no randomness to give: every state then fails to seal and to open).
    pub fn new(keys: Vec<RequestStateKey>, ttl: Duration, single_use: bool) -> Self {
        let keys = if keys.is_empty() {
            match RequestStateKey::random() {
                Ok(k) => vec![k],
                Err(e) => {
                    tracing::error!(error = %e, "no random key for requestState: 2026-07-28 input_required results will fail");
                    Vec::new()
                }
            }
        } else {
            keys
        };
        Sealer {
            ciphers: keys
                .iter()
                .map(|k| XChaCha20Poly1305::new(&k.0.into()))
                .collect(),
            ttl,
            single_use,
        }
    }

    /// Seals `state` (the handler's, if any) for a retry of `origin` answering `asked`.
    pub fn seal<'a>(
        &self,
        origin: &Origin,
        asked: impl Iterator<Item = &'a String>,
        state: Option<String>,
        now: SystemTime,
    ) -> Result<String, SealError> {
        let cipher = self
            .ciphers
            .first()
            .ok_or(SealError("no key to seal requestState with"))?;
        let envelope = Envelope {
            method: origin.method.to_owned(),
            target: origin.target.to_string(),
            arguments: origin.digest().to_owned(),
            principal: origin.principal.as_deref().map(str::to_owned),
            expires_ms: millis(now.checked_add(self.ttl).unwrap_or(now)),
            asked: asked.cloned().collect(),
            state,
        };
        let plain =
            serde_json::to_vec(&envelope).map_err(|_| SealError("requestState not written"))?;
        let mut nonce = [0u8; NONCE_LEN];
        getrandom::fill(&mut nonce).map_err(|_| SealError("no randomness for a nonce"))?;
        let mut sealed = Vec::with_capacity(1 + NONCE_LEN + plain.len() + TAG_LEN);
        sealed.push(VERSION);
        sealed.extend_from_slice(&nonce);
        let start = sealed.len();
        sealed.extend_from_slice(&plain);
        let tag = cipher
            .encrypt_inout_detached(&XNonce::from(nonce), AAD, sealed[start..].as_mut().into())
            .map_err(|_| SealError("requestState too long to seal"))?;
        sealed.extend_from_slice(&tag);
        Ok(URL_SAFE_NO_PAD.encode(&sealed))
    }

    /// Opens the `requestState` `text` presented on `origin` with `responses`: -32602 naming
    /// the first check that fails (its integrity, its expiry, what it was issued for, the
    /// principal, `inputResponses` it did not ask for).
    pub fn open(
        &self,
        text: &str,
        origin: &Origin,
        responses: Option<&Value>,
        now: SystemTime,
    ) -> Result<Opened, RpcError> {
        let (envelope, nonce) = self
            .decrypt(text)
            .ok_or_else(|| refused("was not issued by this server, or was changed"))?;
        if millis(now) > envelope.expires_ms {
            return Err(refused("has expired; send the request again without it"));
        }
        if envelope.method != origin.method {
            return Err(refused("was issued for another method"));
        }
        if *envelope.target != *origin.target {
            return Err(refused(&format!(
                "was issued for another {}",
                origin.target_kind()
            )));
        }
        if envelope.arguments != origin.digest() {
            return Err(refused("was issued for other arguments"));
        }
        if envelope.principal.as_deref() != origin.principal.as_deref() {
            return Err(refused("was issued to another principal"));
        }
        if let Some(Value::Object(answers)) = responses
            && let Some(key) = answers.keys().find(|k| !envelope.asked.contains(k))
        {
            return Err(RpcError::invalid_params(format!(
                "Invalid params: inputResponses answers {}, which the server did not ask for.",
                quoted(key)
            )));
        }
        Ok(Opened {
            state: envelope.state,
            nonce: nonce.iter().map(|b| format!("{b:02x}")).collect(),
            expires: SystemTime::UNIX_EPOCH + Duration::from_millis(envelope.expires_ms),
        })
    }

    /// The envelope sealed in `text` and its nonce, if one of the keys opens it.
    fn decrypt(&self, text: &str) -> Option<(Envelope, [u8; NONCE_LEN])> {
        let bytes = URL_SAFE_NO_PAD.decode(text).ok()?;
        let (&version, rest) = bytes.split_first()?;
        if version != VERSION || rest.len() < NONCE_LEN + TAG_LEN {
            return None;
        }
        let (nonce, rest) = rest.split_at(NONCE_LEN);
        let (sealed, tag) = rest.split_at(rest.len() - TAG_LEN);
        let nonce: [u8; NONCE_LEN] = nonce.try_into().ok()?;
        let tag: [u8; TAG_LEN] = tag.try_into().ok()?;
        self.ciphers.iter().find_map(|cipher| {
            let mut plain = sealed.to_vec();
            cipher
                .decrypt_inout_detached(
                    &XNonce::from(nonce),
                    AAD,
                    plain.as_mut_slice().into(),
                    &Tag::from(tag),
                )
                .ok()?;
            Some((serde_json::from_slice(&plain).ok()?, nonce))
        })
    }
}

/// -32602 for a state that fails a check.
fn refused(why: &str) -> RpcError {
    RpcError::invalid_params(format!("Invalid params: requestState {why}."))
}

/// A client's key in an error: quoted, cut to 64 characters.
fn quoted(key: &str) -> String {
    let mut cut: String = key.chars().take(64).collect();
    if cut.len() < key.len() {
        cut.push('…');
    }
    format!("'{cut}'")
}

fn millis(t: SystemTime) -> u64 {
    t.duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// SHA-256 of the canonical form of the JSON text `args`: object members sorted by key,
/// no whitespace, strings with serde_json's escaping, integral numbers (up to 2^53) as
/// integers. A value nested deeper than serde_json reads (128 levels) is hashed as its text.
fn canonical_digest(args: &str) -> [u8; 32] {
    let mut hash = Sha256::new();
    match serde_json::from_str::<Value>(args) {
        Ok(value) => {
            hash.update(b"c");
            canonical(&value, &mut hash);
        }
        Err(_) => {
            hash.update(b"t");
            hash.update(args.as_bytes());
        }
    }
    hash.finalize().into()
}

fn canonical(value: &Value, out: &mut Sha256) {
    match value {
        Value::Null => out.update(b"null"),
        Value::Bool(true) => out.update(b"true"),
        Value::Bool(false) => out.update(b"false"),
        Value::Number(n) => out.update(canonical_number(n).as_bytes()),
        Value::String(s) => out.update(Value::from(s.as_str()).to_string().as_bytes()),
        Value::Array(items) => {
            out.update(b"[");
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.update(b",");
                }
                canonical(item, out);
            }
            out.update(b"]");
        }
        Value::Object(members) => {
            let mut sorted: Vec<_> = members.iter().collect();
            sorted.sort_unstable_by(|a, b| a.0.cmp(b.0));
            out.update(b"{");
            for (i, (key, member)) in sorted.into_iter().enumerate() {
                if i > 0 {
                    out.update(b",");
                }
                out.update(Value::from(key.as_str()).to_string().as_bytes());
                out.update(b":");
                canonical(member, out);
            }
            out.update(b"}");
        }
    }
}

/// `1`, `1.0` and `1e0` alike are `1`; other numbers as serde_json writes them.
fn canonical_number(n: &serde_json::Number) -> String {
    const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
    if n.is_f64()
        && let Some(f) = n.as_f64()
        && f.fract() == 0.0
        && f.abs() < EXACT
    {
        #[allow(clippy::cast_possible_truncation)]
        return (f as i64).to_string();
    }
    n.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sealer() -> Sealer {
        Sealer::new(
            vec![RequestStateKey::derive("test")],
            Duration::from_secs(60),
            false,
        )
    }

    fn origin(target: &str, args: &str) -> Origin {
        Origin::new("tools/call", target, Some(args), None)
    }

    #[test]
    fn a_sealed_state_opens_for_its_own_request_only() {
        let s = sealer();
        let now = SystemTime::now();
        let asked = ["a".to_string()];
        let sealed = s
            .seal(
                &origin("t", r#"{"x":1}"#),
                asked.iter(),
                Some("plain".into()),
                now,
            )
            .unwrap();
        assert!(!sealed.contains("plain"));
        let same = origin("t", "{ \"x\" : 1.0 }");
        let opened = s.open(&sealed, &same, None, now).unwrap();
        assert_eq!(opened.state.as_deref(), Some("plain"));
        assert_eq!(opened.nonce.len(), 48);
        let message = |r: Result<Opened, RpcError>| r.unwrap_err().message;
        assert_eq!(
            message(s.open(&sealed, &origin("u", r#"{"x":1}"#), None, now)),
            "Invalid params: requestState was issued for another tool."
        );
        assert_eq!(
            message(s.open(&sealed, &origin("t", r#"{"x":2}"#), None, now)),
            "Invalid params: requestState was issued for other arguments."
        );
        let later = now + Duration::from_secs(61);
        assert_eq!(
            message(s.open(&sealed, &same, None, later)),
            "Invalid params: requestState has expired; send the request again without it."
        );
        let alice = Origin::new("tools/call", "t", Some(r#"{"x":1}"#), Some("alice".into()));
        assert_eq!(
            message(s.open(&sealed, &alice, None, now)),
            "Invalid params: requestState was issued to another principal."
        );
        let extra = serde_json::json!({"a": {}, "b": {}});
        assert_eq!(
            message(s.open(&sealed, &same, Some(&extra), now)),
            "Invalid params: inputResponses answers 'b', which the server did not ask for."
        );
        let prompt = Origin::new("prompts/get", "t", Some(r#"{"x":1}"#), None);
        assert_eq!(
            message(s.open(&sealed, &prompt, None, now)),
            "Invalid params: requestState was issued for another method."
        );
    }

    #[test]
    fn a_changed_byte_or_another_key_does_not_open() {
        let s = sealer();
        let now = SystemTime::now();
        let o = origin("t", "{}");
        let sealed = s.seal(&o, [].iter(), Some("x".into()), now).unwrap();
        let integrity =
            "Invalid params: requestState was not issued by this server, or was changed.";
        let mut bytes = URL_SAFE_NO_PAD.decode(&sealed).unwrap();
        for i in [0, 1, 30, bytes.len() - 1] {
            bytes[i] ^= 1;
            let changed = URL_SAFE_NO_PAD.encode(&bytes);
            assert_eq!(
                s.open(&changed, &o, None, now).unwrap_err().message,
                integrity
            );
            bytes[i] ^= 1;
        }
        for bad in [
            "",
            "x",
            "!!!!",
            &format!("{sealed}-TAMPERED"),
            &sealed[..sealed.len() - 2],
        ] {
            assert_eq!(
                s.open(bad, &o, None, now).unwrap_err().message,
                integrity,
                "{bad}"
            );
        }
        let other = Sealer::new(vec![RequestStateKey::derive("other")], DEFAULT_TTL, false);
        assert_eq!(
            other.open(&sealed, &o, None, now).unwrap_err().message,
            integrity
        );
        // Rotation: a server with a new key first and the old one after opens both.
        let rotated = Sealer::new(
            vec![
                RequestStateKey::derive("new"),
                RequestStateKey::derive("test"),
            ],
            DEFAULT_TTL,
            false,
        );
        assert!(rotated.open(&sealed, &o, None, now).is_ok());
        let fresh = rotated.seal(&o, [].iter(), None, now).unwrap();
        assert!(
            s.open(&fresh, &o, None, now).is_err(),
            "sealed with the first key"
        );
        // Two seals of the same state differ (random nonces).
        assert_ne!(
            sealed,
            s.seal(&o, [].iter(), Some("x".into()), now).unwrap()
        );
    }

    #[test]
    fn the_canonical_form_ignores_layout_and_key_order() {
        let a = canonical_digest(r#"{"b":[1,2.0,{"y":"\u0041","x":null}],"a":true}"#);
        let b = canonical_digest("{ \"a\": true, \"b\": [1, 2, {\"x\": null, \"y\": \"A\"}] }");
        assert_eq!(a, b);
        assert_ne!(
            a,
            canonical_digest(r#"{"a":true,"b":[2,1,{"x":null,"y":"A"}]}"#)
        );
        assert_ne!(
            canonical_digest(r#"{"a":"1"}"#),
            canonical_digest(r#"{"a":1}"#)
        );
        assert_eq!(
            canonical_digest(r#"{"n":1.5e0}"#),
            canonical_digest(r#"{"n":1.5}"#)
        );
    }

    #[test]
    fn keys_do_not_print() {
        let key = RequestStateKey::new([7; 32]);
        assert_eq!(format!("{key:?}"), "RequestStateKey(..)");
        assert_ne!(
            RequestStateKey::derive("a").0,
            RequestStateKey::derive("b").0
        );
    }
}
