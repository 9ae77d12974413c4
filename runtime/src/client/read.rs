//! `resources/read` and `prompts/get` from the client side, and the text forms their
//! arguments travel in.

use serde::Serialize;
use serde_json::{Map, Value, json};

use super::decode::{self, ReadValue, mismatch};
use super::{ClientError, Transport};
use crate::Bytes;
use crate::args::Decode;

/// A `ReadResourceResult` of the resource it names.
#[derive(Debug, Clone, PartialEq)]
pub struct ResourceReply {
    /// `resource `weather://cities/Oslo``, as errors name it.
    call: String,
    result: Map<String, Value>,
}

/// A `GetPromptResult` of the prompt it names.
#[derive(Debug, Clone, PartialEq)]
pub struct PromptReply {
    /// `prompt `summarize``, as errors name it.
    call: String,
    result: Map<String, Value>,
}

/// Reads the resource at `uri`.
pub async fn read_resource(
    transport: &dyn Transport,
    uri: &str,
) -> Result<ResourceReply, ClientError> {
    let call = format!("resource `{uri}`");
    let result = object(
        &call,
        super::call::request(transport, "resources/read", json!({"uri": uri})).await?,
    )?;
    Ok(ResourceReply { call, result })
}

/// Renders the prompt `name` with `arguments` (a generated input struct, or any value that
/// serializes as an object), each sent in its text form: a string as itself,
/// any other value as its JSON (`3`, `true`); members that are `null` are left out.
pub async fn get_prompt(
    transport: &dyn Transport,
    name: &str,
    arguments: impl Serialize,
) -> Result<PromptReply, ClientError> {
    let call = format!("prompt `{name}`");
    let arguments = text_arguments(&call, arguments)?;
    let params = json!({"name": name, "arguments": arguments});
    let result = object(
        &call,
        super::call::request(transport, "prompts/get", params).await?,
    )?;
    Ok(PromptReply { call, result })
}

/// The URI of the resource template `template` for `variables` (a generated input struct):
/// each variable's text form, percent-encoded.
pub fn template_uri(template: &str, variables: impl Serialize) -> Result<String, ClientError> {
    let call = format!("resource template `{template}`");
    let texts = text_arguments(&call, variables)?;
    Ok(crate::uri_template::expand(template, |name| {
        texts.get(name).and_then(Value::as_str).map(str::to_owned)
    }))
}

/// The members of `arguments` in the text form that prompt arguments and URI variables
/// travel in: a string as itself, any other value as its JSON (`3`, `true`); a member that
/// serializes as nothing or `null` is left out.
fn text_arguments(
    call: &str,
    arguments: impl Serialize,
) -> Result<Map<String, Value>, ClientError> {
    let cannot = |why: String| {
        ClientError::Transport(format!("cannot write the arguments of {call}: {why}"))
    };
    let Value::Object(members) =
        serde_json::to_value(arguments).map_err(|e| cannot(e.to_string()))?
    else {
        return Err(cannot("they are not an object".into()));
    };
    Ok(members
        .into_iter()
        .filter(|(_, value)| !value.is_null())
        .map(|(name, value)| {
            let text = match value {
                Value::String(text) => text,
                other => other.to_string(),
            };
            (name, Value::String(text))
        })
        .collect())
}

fn object(call: &str, reply: Value) -> Result<Map<String, Value>, ClientError> {
    match reply {
        Value::Object(result) => Ok(result),
        _ => Err(mismatch(call, "the result is not a JSON object")),
    }
}

/// The members of `result` named `list`, when it is an array.
fn list<'r>(result: &'r Map<String, Value>, list: &str) -> &'r [Value] {
    match result.get(list) {
        Some(Value::Array(items)) => items,
        _ => &[],
    }
}

impl ResourceReply {
    /// The resource's contents (`contents`).
    pub fn contents(&self) -> &[Value] {
        list(&self.result, "contents")
    }

    /// The text of a resource declared `-> string`: its first text contents.
    pub fn text(&self) -> Result<String, ClientError> {
        self.nullable_text()?
            .ok_or_else(|| mismatch(&self.call, "the result has no contents"))
    }

    /// The text of a resource declared `-> string?`: `None` when it has no contents.
    pub fn nullable_text(&self) -> Result<Option<String>, ClientError> {
        let Some(first) = self.contents().first() else {
            return Ok(None);
        };
        match first.get("text").and_then(Value::as_str) {
            Some(text) => Ok(Some(text.to_owned())),
            None => Err(mismatch(&self.call, "the contents are not text")),
        }
    }

    /// The bytes of a resource declared `-> bytes`: its first contents' `blob`.
    pub fn bytes(&self) -> Result<Bytes, ClientError> {
        self.nullable_bytes()?
            .ok_or_else(|| mismatch(&self.call, "the result has no contents"))
    }

    /// The bytes of a resource declared `-> bytes?`: `None` when it has no contents.
    pub fn nullable_bytes(&self) -> Result<Option<Bytes>, ClientError> {
        let Some(first) = self.contents().first() else {
            return Ok(None);
        };
        match first.get("blob") {
            Some(blob) => decode::json_value(&self.call, blob, Bytes::read).map(Some),
            None => Err(mismatch(&self.call, "the contents are not a blob")),
        }
    }

    /// A resource whose value is sent as JSON text, read with `read` (no contents reads as
    /// `null`, which only a nullable type accepts).
    pub fn json<T>(&self, read: impl ReadValue<T>) -> Result<T, ClientError> {
        let text = self.nullable_text()?;
        decode::json_text(&self.call, text.as_deref().unwrap_or("null"), read)
    }

    /// The whole `ReadResourceResult`.
    pub fn into_json(self) -> Value {
        Value::Object(self.result)
    }
}

impl PromptReply {
    /// The prompt's messages (`messages`).
    pub fn messages(&self) -> &[Value] {
        list(&self.result, "messages")
    }

    /// The text of a prompt declared `-> string`: its first message's text.
    pub fn text(&self) -> Result<String, ClientError> {
        self.nullable_text()?
            .ok_or_else(|| mismatch(&self.call, "the result has no messages"))
    }

    /// The text of a prompt declared `-> string?`: `None` when it has no messages.
    pub fn nullable_text(&self) -> Result<Option<String>, ClientError> {
        let Some(first) = self.messages().first() else {
            return Ok(None);
        };
        let content = first.get("content");
        match content.and_then(|c| c.get("text")).and_then(Value::as_str) {
            Some(text) => Ok(Some(text.to_owned())),
            None => Err(mismatch(&self.call, "the first message is not text")),
        }
    }

    /// A prompt whose value is sent as JSON text, read with `read` (no messages reads as
    /// `null`, which only a nullable type accepts).
    pub fn json<T>(&self, read: impl ReadValue<T>) -> Result<T, ClientError> {
        let text = self.nullable_text()?;
        decode::json_text(&self.call, text.as_deref().unwrap_or("null"), read)
    }

    /// The whole `GetPromptResult`.
    pub fn into_json(self) -> Value {
        Value::Object(self.result)
    }
}
