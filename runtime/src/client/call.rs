//! `tools/call` from the client side: the reply sorted into success and the ways it fails.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use super::{ClientError, Transport};

/// A successful `CallToolResult` (`isError` absent or false) of the tool it names.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolReply {
    tool: String,
    result: Map<String, Value>,
}

/// Calls the tool `name` with `arguments` (a JSON object) and sorts the reply: a JSON-RPC
/// error is [`ClientError::Protocol`], `isError: true` is [`ClientError::Tool`] with the
/// server's text and content, a reply that is not a `CallToolResult` is
/// [`ClientError::Mismatch`].
pub async fn call_tool(
    transport: &dyn Transport,
    name: &str,
    arguments: Value,
) -> Result<ToolReply, ClientError> {
    let reply = transport
        .request("tools/call", json!({"name": name, "arguments": arguments}))
        .await?;
    let Value::Object(result) = reply else {
        return Err(mismatch(name, "the result is not a JSON object"));
    };
    let reply = ToolReply {
        tool: name.to_owned(),
        result,
    };
    if reply.result.get("isError") == Some(&Value::Bool(true)) {
        return Err(ClientError::Tool {
            text: reply.text(),
            content: reply.content().to_vec(),
        });
    }
    Ok(reply)
}

impl ToolReply {
    /// The result's content blocks (none when `content` is missing or not a list).
    pub fn content(&self) -> &[Value] {
        match self.result.get("content") {
            Some(Value::Array(blocks)) => blocks,
            _ => &[],
        }
    }

    /// The text of the text blocks, joined by newlines.
    pub fn text(&self) -> String {
        let texts: Vec<&str> = self
            .content()
            .iter()
            .filter(|block| block.get("type").and_then(Value::as_str) == Some("text"))
            .filter_map(|block| block.get("text").and_then(Value::as_str))
            .collect();
        texts.join("\n")
    }

    /// `structuredContent` decoded as the tool's declared output type `T`.
    ///
    /// A missing `structuredContent`, or one that does not decode as `T`, is
    /// [`ClientError::Mismatch`] naming the tool and serde's account of what was wrong.
    pub fn structured<T: DeserializeOwned>(&self) -> Result<T, ClientError> {
        let value = self
            .result
            .get("structuredContent")
            .ok_or_else(|| mismatch(&self.tool, "the result has no `structuredContent`"))?;
        T::deserialize(value).map_err(|error| mismatch(&self.tool, &error.to_string()))
    }

    /// The whole `CallToolResult` object, for `call_result` tools.
    pub fn into_json(self) -> Value {
        Value::Object(self.result)
    }
}

fn mismatch(tool: &str, problem: &str) -> ClientError {
    ClientError::Mismatch {
        tool: tool.to_owned(),
        problem: problem.to_owned(),
    }
}
