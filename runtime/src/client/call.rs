//! `tools/call` from the client side: the reply sorted into success and the ways it fails,
//! and read back as the declared result type.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use super::decode::{self, ReadValue, mismatch};
use super::{ClientError, Transport};

/// A successful `CallToolResult` (`isError` absent or false) of the tool it names.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolReply {
    /// `tool `locate``, as errors name it.
    call: String,
    result: Map<String, Value>,
}

/// Calls the tool `name` with `arguments` (anything that serializes as a JSON object: a
/// generated input struct, a `serde_json::Value`) and sorts the reply: a JSON-RPC error is
/// [`ClientError::Protocol`], `isError: true` is [`ClientError::Tool`] with the server's
/// text and content, a reply that is not a `CallToolResult` is [`ClientError::Mismatch`].
pub async fn call_tool(
    transport: &dyn Transport,
    name: &str,
    arguments: impl Serialize,
) -> Result<ToolReply, ClientError> {
    let call = format!("tool `{name}`");
    let arguments = serde_json::to_value(arguments).map_err(|e| {
        ClientError::Transport(format!("cannot write the arguments of {call}: {e}"))
    })?;
    let params = json!({"name": name, "arguments": arguments});
    let reply = request(transport, "tools/call", params).await?;
    let Value::Object(result) = reply else {
        return Err(mismatch(&call, "the result is not a JSON object"));
    };
    let reply = ToolReply { call, result };
    if reply.result.get("isError") == Some(&Value::Bool(true)) {
        return Err(ClientError::Tool {
            text: reply.text(),
            content: reply.content().to_vec(),
        });
    }
    Ok(reply)
}

impl ToolReply {
    /// The content blocks (`content`), empty when there are none.
    pub fn content(&self) -> &[Value] {
        match self.result.get("content") {
            Some(Value::Array(blocks)) => blocks,
            _ => &[],
        }
    }

    /// The content blocks, owned: the result of a tool declared `-> content`.
    pub fn into_content(mut self) -> Vec<Value> {
        match self.result.remove("content") {
            Some(Value::Array(blocks)) => blocks,
            _ => Vec::new(),
        }
    }

    /// The text of the text blocks, joined by line breaks: the result of a tool declared
    /// `-> string`.
    pub fn text(&self) -> String {
        let texts: Vec<&str> = self
            .content()
            .iter()
            .filter(|block| block.get("type").and_then(Value::as_str) == Some("text"))
            .filter_map(|block| block.get("text").and_then(Value::as_str))
            .collect();
        texts.join("\n")
    }

    /// The result of a tool declared `-> string?`: the text, or `None` for the text `null`
    /// (how the server sends no string, so a tool cannot tell the two apart either).
    pub fn nullable_text(&self) -> Option<String> {
        Some(self.text()).filter(|text| text != "null")
    }

    /// The result of a tool declared `-> Enum` or `-> Enum?`: the member the text names,
    /// read with `read` (the text `null` is no member).
    pub fn member<T>(&self, read: impl ReadValue<T>) -> Result<T, ClientError> {
        decode::member(&self.call, &self.text(), read)
    }

    /// The result of a tool whose value is sent as JSON text (numbers, `bool`, formats,
    /// lists, `json`, `object`), read with `read`: checked as the server checks arguments.
    pub fn json<T>(&self, read: impl ReadValue<T>) -> Result<T, ClientError> {
        decode::json_text(&self.call, &self.text(), read)
    }

    /// The result of a tool declared with a record or map result (or one that is nullable):
    /// `structuredContent`, read with `read` and checked as the server checks arguments; the
    /// same JSON in the text where there is no `structuredContent` (revision 2024-11-05,
    /// and a null result before 2026-07-28).
    pub fn structured_with<T>(&self, read: impl ReadValue<T>) -> Result<T, ClientError> {
        match self.result.get("structuredContent") {
            // A number the transport could only parse as an `f64` (an `integer` beyond 64
            // bits, say) is read from the text instead, when it is the same JSON: exactly.
            Some(value) if decode::holds_float(value) && decode::same_json(&self.text(), value) => {
                self.json(read)
            }
            Some(value) => decode::json_value(&self.call, value, read),
            None if self.content().is_empty() => Err(mismatch(
                &self.call,
                "the result has neither `structuredContent` nor text",
            )),
            None => self.json(read),
        }
    }

    /// `structuredContent` decoded with serde as `T`, for types without a generated decoder;
    /// a missing one, or one that does not decode, is a [`ClientError::Mismatch`] naming the
    /// tool and serde's account of what was wrong.
    pub fn structured<T: DeserializeOwned>(&self) -> Result<T, ClientError> {
        let value = self
            .result
            .get("structuredContent")
            .ok_or_else(|| mismatch(&self.call, "the result has no `structuredContent`"))?;
        T::deserialize(value).map_err(|error| mismatch(&self.call, error.to_string()))
    }

    /// The whole `CallToolResult`: the result of a tool declared `-> call_result`.
    pub fn into_json(self) -> Value {
        Value::Object(self.result)
    }
}

/// Sends a typed call's request; with feature `otel`, in a CLIENT span whose context goes
/// into the request's `_meta` (`crate::telemetry`).
pub(super) async fn request(
    transport: &dyn Transport,
    method: &str,
    params: Value,
) -> Result<Value, ClientError> {
    #[cfg(feature = "otel")]
    {
        use tracing::Instrument;
        let mut params = params;
        let span = crate::telemetry::ClientSpan::start(method, &mut params);
        let reply = transport
            .request(method, params)
            .instrument(span.span().clone())
            .await;
        let failure = match &reply {
            Ok(result) if result.get("isError") == Some(&Value::Bool(true)) => {
                Some(crate::telemetry::Failure {
                    code: None,
                    kind: "tool_error".into(),
                    message: "The tool answered with an error.".into(),
                })
            }
            Ok(_) => None,
            Err(ClientError::Protocol(e)) => Some(crate::telemetry::Failure {
                code: Some(e.code),
                kind: e.code.to_string(),
                message: e.message.clone(),
            }),
            Err(e) => Some(crate::telemetry::Failure {
                code: None,
                kind: "_OTHER".into(),
                message: e.to_string(),
            }),
        };
        span.end(failure);
        reply
    }
    #[cfg(not(feature = "otel"))]
    transport.request(method, params).await
}
