//! Request params, read once for whichever method they belong to, and the completion
//! request and result shapes.

use std::borrow::Cow;
use std::sync::OnceLock;

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

use crate::protocol::RpcError;
use crate::service::{Completion, CompletionRequest};

/// Request params, read once for whichever method they belong to.
#[derive(Deserialize, Default)]
pub(super) struct Params<'a> {
    #[serde(borrow, default, rename = "_meta")]
    pub(super) meta: Option<Meta<'a>>,
    #[serde(borrow, default)]
    pub(super) name: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    pub(super) arguments: Option<&'a RawValue>,
    #[serde(borrow, default)]
    pub(super) uri: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    pub(super) cursor: Option<Cow<'a, str>>,
    #[serde(borrow, default, rename = "protocolVersion")]
    pub(super) protocol_version: Option<Cow<'a, str>>,
    #[serde(default)]
    pub(super) capabilities: Option<Value>,
    #[serde(default, rename = "clientInfo")]
    pub(super) client_info: Option<Value>,
    #[serde(borrow, default)]
    pub(super) level: Option<Cow<'a, str>>,
    #[serde(default, rename = "ref")]
    pub(super) reference: Option<Value>,
    #[serde(default)]
    pub(super) argument: Option<Value>,
    #[serde(default)]
    pub(super) context: Option<Value>,
    #[serde(default, rename = "inputResponses")]
    pub(super) input_responses: Option<Value>,
    #[serde(default, rename = "requestState")]
    pub(super) request_state: Option<String>,
    #[serde(borrow, default, rename = "requestId")]
    pub(super) request_id: Option<&'a RawValue>,
    #[serde(default)]
    pub(super) notifications: Option<Value>,
    #[serde(borrow, default, rename = "taskId")]
    pub(super) task_id: Option<Cow<'a, str>>,
}

#[derive(Deserialize, Default)]
pub(super) struct Meta<'a> {
    #[serde(borrow, default, rename = "progressToken")]
    pub(super) progress_token: Option<&'a RawValue>,
    #[serde(borrow, default, rename = "io.modelcontextprotocol/protocolVersion")]
    pub(super) protocol_version: Option<Cow<'a, str>>,
    #[serde(default, rename = "io.modelcontextprotocol/clientCapabilities")]
    pub(super) client_capabilities: Option<Value>,
    #[serde(default, rename = "io.modelcontextprotocol/clientInfo")]
    pub(super) client_info: Option<Value>,
    #[serde(borrow, default, rename = "io.modelcontextprotocol/logLevel")]
    pub(super) log_level: Option<Cow<'a, str>>,
    /// W3C Trace Context and Baggage (SEP-414: unprefixed keys), the parent of the
    /// request's span.
    #[cfg(feature = "otel")]
    #[serde(borrow, default)]
    pub(super) traceparent: Option<Cow<'a, str>>,
    #[cfg(feature = "otel")]
    #[serde(borrow, default)]
    pub(super) tracestate: Option<Cow<'a, str>>,
    #[cfg(feature = "otel")]
    #[serde(borrow, default)]
    pub(super) baggage: Option<Cow<'a, str>>,
}

/// `{}`, the arguments of a call that sent none.
pub(super) fn empty_object() -> &'static RawValue {
    static EMPTY: OnceLock<Box<RawValue>> = OnceLock::new();
    // "{}" always parses; the default (`null`) is never used.
    EMPTY.get_or_init(|| RawValue::from_string("{}".to_owned()).unwrap_or_default())
}

/// The `arguments` of `tools/call` and `prompts/get`: an object, `{}` when absent or null.
pub(super) fn arguments_object(arguments: Option<&RawValue>) -> Result<&RawValue, RpcError> {
    match arguments {
        None => Ok(empty_object()),
        Some(a) if a.get() == "null" => Ok(empty_object()),
        Some(a) if a.get().starts_with('{') => Ok(a),
        Some(_) => Err(RpcError::invalid_params(
            "Invalid params: arguments must be an object.",
        )),
    }
}

pub(super) fn parse_params(params: Option<&RawValue>) -> Result<Params<'_>, RpcError> {
    match params {
        None => Ok(Params::default()),
        Some(raw) if raw.get().starts_with('{') => serde_json::from_str(raw.get())
            .map_err(|e| RpcError::invalid_params(format!("Invalid params: {e}"))),
        Some(_) => Err(RpcError::invalid_params(
            "Invalid params: params must be an object.",
        )),
    }
}

pub(super) fn completion_request(p: &Params<'_>) -> Result<CompletionRequest, RpcError> {
    let bad = |what: &str| RpcError::invalid_params(format!("Invalid params: {what}."));
    let reference = p.reference.as_ref().ok_or_else(|| bad("ref is required"))?;
    let ref_type = reference
        .get("type")
        .and_then(Value::as_str)
        .ok_or_else(|| bad("ref.type is required"))?;
    let ref_name = match ref_type {
        "ref/prompt" => reference.get("name"),
        "ref/resource" => reference.get("uri"),
        _ => return Err(bad("ref.type must be ref/prompt or ref/resource")),
    }
    .and_then(Value::as_str)
    .ok_or_else(|| bad("ref needs a name or uri"))?;
    let argument = p
        .argument
        .as_ref()
        .ok_or_else(|| bad("argument is required"))?;
    let arg = |k: &str| argument.get(k).and_then(Value::as_str).map(str::to_owned);
    Ok(CompletionRequest {
        ref_type: ref_type.to_owned(),
        ref_name: ref_name.to_owned(),
        argument_name: arg("name").ok_or_else(|| bad("argument.name is required"))?,
        argument_value: arg("value").ok_or_else(|| bad("argument.value is required"))?,
        context_arguments: p
            .context
            .as_ref()
            .and_then(|c| c.get("arguments"))
            .and_then(Value::as_object)
            .cloned(),
    })
}

/// `{"completion":{"values":[…],"total":n,"hasMore":b}}`, at most 100 values.
pub(super) fn completion_json(c: Completion) -> Value {
    let truncated = c.values.len() > 100;
    let values: Vec<String> = c.values.into_iter().take(100).collect();
    let mut completion = serde_json::Map::new();
    completion.insert("values".into(), values.into());
    if let Some(t) = c.total {
        completion.insert("total".into(), t.into());
    }
    if c.has_more || truncated {
        completion.insert("hasMore".into(), true.into());
    }
    serde_json::json!({ "completion": completion })
}
