//! Asking the client for input in either era.
//!
//! Under the handshake revisions (2024-11-05 … 2025-11-25) a handler sends
//! `elicitation/create`, `sampling/createMessage` or `roots/list` to the client and waits for
//! the answer. Under 2026-07-28 it cannot: it answers `input_required` with the requests it
//! needs, and the client retries the same call with `inputResponses` (and the `requestState`
//! it was given). [`Inputs`] lets one handler serve both: [`Inputs::ask`] returns the answer
//! when there is one, and [`Inputs::pending`] the `inputRequests` still to send.
//!
//! The runtime seals the `requestState` a handler returns (encrypted, bound to the call and
//! its arguments, expiring) and refuses a retry whose state does not open with -32602 before
//! the handler runs; a handler reads its own plain state with [`state_of`].

use serde_json::{Map, Value, json};
use toolidl_runtime::{RequestContext, RpcError, ToolOutput};

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

/// The environment variable holding the secret the `requestState` key is derived from, for
/// several instances behind a load balancer (a retry may reach another instance, which must
/// open the state the first one sealed).
pub const STATE_KEY_VAR: &str = "CONFORMANCE_STATE_KEY";

/// The handler's own `requestState` of this call (JSON, as the handler wrote it), once the
/// runtime has opened and checked the sealed one; `None` without one (or one that is not
/// JSON, which this server never writes).
pub fn state_of(ctx: &RequestContext) -> Option<Value> {
    serde_json::from_str(ctx.request_state()?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

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
