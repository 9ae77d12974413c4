//! JSON-RPC error objects and the error codes the runtime answers with.

/// Standard JSON-RPC error codes and the MCP codes the runtime uses.
pub mod code {
    /// Invalid JSON.
    pub const PARSE_ERROR: i64 = -32700;
    /// Not a valid request object.
    pub const INVALID_REQUEST: i64 = -32600;
    /// No such method (or a feature the services lack).
    pub const METHOD_NOT_FOUND: i64 = -32601;
    /// Invalid method parameters.
    pub const INVALID_PARAMS: i64 = -32602;
    /// An internal error.
    pub const INTERNAL_ERROR: i64 = -32603;
    /// Resource not found, revisions 2025-11-25 and earlier (2026-07-28 uses -32602).
    pub const RESOURCE_NOT_FOUND: i64 = -32002;
    /// 2026-07-28: HTTP headers disagree with the body.
    pub const HEADER_MISMATCH: i64 = -32020;
    /// 2026-07-28: the request needs a client capability it did not declare.
    pub const MISSING_REQUIRED_CLIENT_CAPABILITY: i64 = -32021;
    /// 2026-07-28: the request's `_meta` protocol version is not served here.
    pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;
    /// The connection already has as many calls running as the server allows
    /// ([`ServerBuilder::max_pending_calls`](crate::ServerBuilder::max_pending_calls));
    /// retry once one has finished. (JSON-RPC's range for server-defined errors.)
    pub const SERVER_BUSY: i64 = -32000;
}

/// A JSON-RPC error object sent to the client.
#[derive(Debug, Clone, PartialEq)]
pub struct RpcError {
    /// The error code (see [`code`]).
    pub code: i64,
    /// A short description, sent as written.
    pub message: String,
    /// The optional `data` member.
    pub data: Option<serde_json::Value>,
}

impl RpcError {
    /// An error without `data`.
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        RpcError {
            code,
            message: message.into(),
            data: None,
        }
    }

    /// Adds `data`.
    pub fn with_data(mut self, data: serde_json::Value) -> Self {
        self.data = Some(data);
        self
    }

    /// -32602, invalid params.
    pub fn invalid_params(message: impl Into<String>) -> Self {
        Self::new(code::INVALID_PARAMS, message)
    }

    /// "Resource not found" from a resource handler: -32002 for the handshake revisions,
    /// sent as -32602 to 2026-07-28 clients (the runtime maps it), `message` kept.
    ///
    /// ```
    /// # use toolidl_runtime::RpcError;
    /// let e = RpcError::resource_not_found("No note 7.");
    /// assert_eq!((e.code, e.message.as_str()), (-32002, "No note 7."));
    /// ```
    pub fn resource_not_found(message: impl Into<String>) -> Self {
        Self::new(code::RESOURCE_NOT_FOUND, message)
    }

    /// -32603, internal error.
    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(code::INTERNAL_ERROR, message)
    }

    /// -32021: `required` is the `ClientCapabilities` object the request lacked.
    pub fn missing_client_capability(
        message: impl Into<String>,
        required: serde_json::Value,
    ) -> Self {
        Self::new(code::MISSING_REQUIRED_CLIENT_CAPABILITY, message)
            .with_data(serde_json::json!({ "requiredCapabilities": required }))
    }
}

impl std::fmt::Display for RpcError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.message, self.code)
    }
}

impl std::error::Error for RpcError {}

/// The client side of a reply: its `result` member, or its `error` member as an [`RpcError`].
pub(crate) fn reply_result(mut message: serde_json::Value) -> Result<serde_json::Value, RpcError> {
    match message.get_mut("error").map(serde_json::Value::take) {
        Some(error) => Err(RpcError {
            code: error["code"].as_i64().unwrap_or(0),
            message: error["message"].as_str().unwrap_or_default().to_owned(),
            data: error.get("data").cloned(),
        }),
        None => Ok(message
            .get_mut("result")
            .map(serde_json::Value::take)
            .unwrap_or(serde_json::Value::Null)),
    }
}

/// The client's reply with `id` to a request from the server, as a JSON-RPC message.
pub(crate) fn reply_message(
    id: serde_json::Value,
    outcome: Result<serde_json::Value, RpcError>,
) -> serde_json::Value {
    match outcome {
        Ok(result) => serde_json::json!({"jsonrpc": "2.0", "id": id, "result": result}),
        Err(e) => {
            let mut error = serde_json::json!({"code": e.code, "message": e.message});
            if let Some(data) = e.data {
                error["data"] = data;
            }
            serde_json::json!({"jsonrpc": "2.0", "id": id, "error": error})
        }
    }
}
