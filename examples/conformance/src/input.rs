//! Asking the client for input in either era, and sealing `requestState`.
//!
//! Under the handshake revisions (2024-11-05 … 2025-11-25) a handler sends
//! `elicitation/create`, `sampling/createMessage` or `roots/list` to the client and waits for
//! the answer. Under 2026-07-28 it cannot: it answers `input_required` with the requests it
//! needs, and the client retries the same call with `inputResponses` (and the `requestState`
//! it was given). [`Inputs`] lets one handler serve both: [`Inputs::ask`] returns the answer
//! when there is one, and [`Inputs::pending`] the `inputRequests` still to send.

use hmac::{Hmac, KeyInit, Mac};
use serde_json::{Map, Value, json};
use sha2::Sha256;
use toolidl_runtime::{RequestContext, RpcError, ToolError, ToolOutput};

/// The client capability a server-to-client request needs.
fn capability(method: &str) -> &'static str {
    match method {
        "sampling/createMessage" => "sampling",
        "roots/list" => "roots",
        _ => "elicitation",
    }
}

/// Whether `answer` has the shape of a result of `method` (`ElicitResult`,
/// `CreateMessageResult`, `ListRootsResult`). Anything else is not an answer: the request is
/// asked again.
fn is_answer(method: &str, answer: &Value) -> bool {
    match method {
        "elicitation/create" => matches!(
            answer.get("action").and_then(Value::as_str),
            Some("accept" | "decline" | "cancel")
        ),
        "sampling/createMessage" => answer.get("content").is_some_and(Value::is_object),
        "roots/list" => answer.get("roots").is_some_and(Value::is_array),
        _ => false,
    }
}

/// The -32021 error for a request the client did not declare the capability for.
pub fn missing_capability(name: &str) -> RpcError {
    RpcError::missing_client_capability(
        format!("This request needs the client capability {name}."),
        json!({ name: {} }),
    )
}

/// What a handler asks the client, and what it got, for one call.
pub struct Inputs {
    ctx: RequestContext,
    pending: Map<String, Value>,
}

impl Inputs {
    /// Starts gathering input for the call `ctx` belongs to.
    pub fn new(ctx: &RequestContext) -> Self {
        Inputs {
            ctx: ctx.clone(),
            pending: Map::new(),
        }
    }

    /// Whether the call is served under 2026-07-28 (input comes with retries).
    pub fn stateless(&self) -> bool {
        self.ctx.revision().is_stateless()
    }

    /// The client's answer to the request `method`/`params`, known as `key`:
    ///
    /// - handshake revisions: sent to the client now, and its result returned;
    /// - 2026-07-28: `inputResponses[key]` of this retry when it is a well-formed answer,
    ///   else `None` and the request is added to [`Self::pending`].
    ///
    /// A client that did not declare the capability the request needs gets -32021.
    pub async fn ask(
        &mut self,
        key: &str,
        method: &str,
        params: Value,
    ) -> Result<Option<Value>, RpcError> {
        let needs = capability(method);
        if !self.ctx.client_supports(needs) {
            return Err(missing_capability(needs));
        }
        if !self.stateless() {
            let answer = match method {
                "sampling/createMessage" => self.ctx.create_message(params).await?,
                "roots/list" => self.ctx.list_roots().await?,
                _ => self.ctx.elicit(params).await?,
            };
            return Ok(Some(answer));
        }
        if let Some(answer) = self.ctx.input_response(key)
            && is_answer(method, answer)
        {
            return Ok(Some(answer.clone()));
        }
        self.pending.insert(
            key.to_owned(),
            json!({ "method": method, "params": params }),
        );
        Ok(None)
    }

    /// The requests still unanswered (2026-07-28), to send as `inputRequests`.
    pub fn pending(self) -> Option<Map<String, Value>> {
        (!self.pending.is_empty()).then_some(self.pending)
    }
}

/// A tool's `input_required` answer.
pub fn input_required(requests: Map<String, Value>, state: Option<String>) -> ToolOutput {
    ToolOutput::InputRequired { requests, state }
}

/// A prompt's `input_required` answer (`prompts/get` results are plain JSON; `resultType`
/// comes first, so the runtime keeps it).
pub fn prompt_input_required(requests: Map<String, Value>) -> Value {
    json!({ "resultType": "input_required", "inputRequests": requests })
}

/// The text of an elicitation answer's `content[field]`, when accepted.
pub fn accepted_text<'a>(answer: &'a Value, field: &str) -> Option<&'a str> {
    if answer.get("action").and_then(Value::as_str) != Some("accept") {
        return None;
    }
    answer.get("content")?.get(field)?.as_str()
}

/// An elicitation request for one field: `{"message", "requestedSchema"}`.
pub fn elicit_one(message: &str, field: &str, ty: &str) -> Value {
    json!({
        "message": message,
        "requestedSchema": {
            "type": "object",
            "properties": { field: { "type": ty } },
            "required": [field],
        },
    })
}

/// A sampling request for one user text: `{"messages", "maxTokens"}`.
pub fn sample_one(text: &str, max_tokens: u32) -> Value {
    json!({
        "messages": [{ "role": "user", "content": { "type": "text", "text": text } }],
        "maxTokens": max_tokens,
    })
}

/// Seals and opens `requestState` with HMAC-SHA256, so the client cannot change it
/// (input-required-result-tampered-state). The state travels as
/// `{"data": "<payload JSON>", "mac": "<hex>"}`: readable, but not forgeable.
#[derive(Clone)]
pub struct Sealer {
    key: Vec<u8>,
}

/// The environment variable holding the key, for several instances behind a load balancer
/// (a retry may reach another instance, which must open the state the first one sealed).
pub const STATE_KEY_VAR: &str = "CONFORMANCE_STATE_KEY";

impl Sealer {
    /// A sealer with `key`.
    pub fn new(key: impl Into<Vec<u8>>) -> Self {
        Sealer { key: key.into() }
    }

    /// The key from [`STATE_KEY_VAR`], else 32 random bytes from the OS.
    pub fn from_env() -> std::io::Result<Self> {
        if let Some(key) = std::env::var_os(STATE_KEY_VAR).filter(|k| !k.is_empty()) {
            return Ok(Sealer::new(key.into_encoded_bytes()));
        }
        let mut key = vec![0u8; 32];
        getrandom::fill(&mut key).map_err(|e| std::io::Error::other(e.to_string()))?;
        Ok(Sealer::new(key))
    }

    fn mac(&self, data: &str) -> String {
        // HMAC takes keys of any length.
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.key).expect("HMAC takes any key");
        mac.update(data.as_bytes());
        mac.finalize()
            .into_bytes()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    /// `payload` as a sealed `requestState`.
    pub fn seal(&self, payload: &Value) -> String {
        let data = payload.to_string();
        let mac = self.mac(&data);
        json!({ "data": data, "mac": mac }).to_string()
    }

    /// The payload of a state this server sealed; `None` for anything else (changed,
    /// truncated, sealed with another key, not a state at all).
    pub fn open(&self, state: &str) -> Option<Value> {
        let sealed: Value = serde_json::from_str(state).ok()?;
        let data = sealed.get("data")?.as_str()?;
        let mac = sealed.get("mac")?.as_str()?;
        // Compare in constant time: recompute and let hmac verify.
        let tag = (0..mac.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(mac.get(i..i + 2)?, 16).ok())
            .collect::<Option<Vec<u8>>>()?;
        let mut check = Hmac::<Sha256>::new_from_slice(&self.key).ok()?;
        check.update(data.as_bytes());
        check.verify_slice(&tag).ok()?;
        serde_json::from_str(data).ok()
    }

    /// The payload of this call's `requestState`: `Ok(None)` without one, -32602 when it
    /// does not open.
    pub fn state_of(&self, ctx: &RequestContext) -> Result<Option<Value>, ToolError> {
        match ctx.request_state() {
            None => Ok(None),
            Some(s) => self.open(s).map(Some).ok_or_else(|| {
                ToolError::Rpc(RpcError::invalid_params(
                    "requestState integrity check failed",
                ))
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sealed_states_open_and_changed_ones_do_not() {
        let sealer = Sealer::new(b"k".to_vec());
        let state = sealer.seal(&json!({ "kind": "x", "round": 2 }));
        assert_eq!(
            sealer.open(&state),
            Some(json!({ "kind": "x", "round": 2 }))
        );
        assert_eq!(sealer.open(&format!("{state}-TAMPERED")), None);
        let forged = state.replace("\\\"round\\\":2", "\\\"round\\\":3");
        assert_ne!(forged, state);
        assert_eq!(sealer.open(&forged), None);
        assert_eq!(Sealer::new(b"other".to_vec()).open(&state), None);
        assert_eq!(sealer.open("not json"), None);
        assert_eq!(sealer.open(r#"{"data":"{}","mac":"zz"}"#), None);
    }

    #[test]
    fn answers_are_recognized_by_shape() {
        assert!(is_answer(
            "elicitation/create",
            &json!({"action": "accept", "content": {}})
        ));
        assert!(!is_answer("elicitation/create", &json!(12345)));
        assert!(!is_answer(
            "elicitation/create",
            &json!({"action": "maybe"})
        ));
        assert!(is_answer(
            "sampling/createMessage",
            &json!({"content": {"type": "text"}})
        ));
        assert!(is_answer("roots/list", &json!({"roots": []})));
        assert!(!is_answer("roots/list", &json!({"roots": null})));
    }
}
