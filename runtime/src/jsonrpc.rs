//! JSON-RPC 2.0 framing: one incoming message parsed once (borrowing from the line),
//! and outgoing messages written straight into strings.

use std::borrow::Cow;
use std::fmt::Write as _;

use serde::Deserialize;
use serde_json::value::RawValue;

/// Standard JSON-RPC error codes and the MCP codes the runtime uses.
pub mod code {
    pub const PARSE_ERROR: i64 = -32700;
    pub const INVALID_REQUEST: i64 = -32600;
    pub const METHOD_NOT_FOUND: i64 = -32601;
    pub const INVALID_PARAMS: i64 = -32602;
    pub const INTERNAL_ERROR: i64 = -32603;
    /// Resource not found, revisions 2025-11-25 and earlier (2026-07-28 uses -32602).
    pub const RESOURCE_NOT_FOUND: i64 = -32002;
    /// 2026-07-28: HTTP headers disagree with the body.
    pub const HEADER_MISMATCH: i64 = -32020;
    /// 2026-07-28: the request needs a client capability it did not declare.
    pub const MISSING_REQUIRED_CLIENT_CAPABILITY: i64 = -32021;
    /// 2026-07-28: the request's `_meta` protocol version is not served here.
    pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;
}

/// A JSON-RPC error object sent to the client.
#[derive(Debug, Clone, PartialEq)]
pub struct RpcError {
    pub code: i64,
    pub message: String,
    pub data: Option<serde_json::Value>,
}

impl RpcError {
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        RpcError {
            code,
            message: message.into(),
            data: None,
        }
    }

    pub fn with_data(mut self, data: serde_json::Value) -> Self {
        self.data = Some(data);
        self
    }

    pub fn invalid_params(message: impl Into<String>) -> Self {
        Self::new(code::INVALID_PARAMS, message)
    }

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

/// One incoming message, borrowing from the input line.
///
/// `id` keeps its raw text so it is echoed byte for byte; a present `null` is kept
/// (as `Some("null")`) so it can be refused rather than mistaken for a notification.
#[derive(Deserialize)]
pub(crate) struct Incoming<'a> {
    #[serde(borrow, default)]
    pub jsonrpc: Option<Cow<'a, str>>,
    #[serde(borrow, default, deserialize_with = "present")]
    pub id: Option<&'a RawValue>,
    #[serde(borrow, default)]
    pub method: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    pub params: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    pub result: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    pub error: Option<&'a RawValue>,
}

fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<&'de RawValue>, D::Error> {
    <&RawValue>::deserialize(d).map(Some)
}

/// A request id is a string or an integer (MCP forbids null).
pub(crate) fn valid_id(id: &RawValue) -> bool {
    let text = id.get();
    match text.as_bytes().first() {
        Some(b'"') => true,
        Some(b'-' | b'0'..=b'9') => text.bytes().all(|b| b == b'-' || b.is_ascii_digit()),
        _ => false,
    }
}

/// Writes `{"jsonrpc":"2.0","id":<id>,"result":<result>}`.
pub(crate) fn result_message(id: &str, result: &str) -> String {
    let mut out = String::with_capacity(40 + id.len() + result.len());
    out.push_str(r#"{"jsonrpc":"2.0","id":"#);
    out.push_str(id);
    out.push_str(r#","result":"#);
    out.push_str(result);
    out.push('}');
    out
}

/// Writes an error response; `id` is raw JSON, `null` when the id could not be read.
///
/// Without an id the member is left out: MCP's schema (2025-11-25 and later) types the
/// error response's `id` as an optional string or integer, so `null` would not validate.
pub(crate) fn error_message(id: &str, error: &RpcError) -> String {
    let mut out = String::with_capacity(80 + error.message.len());
    out.push_str(r#"{"jsonrpc":"2.0","#);
    if id != "null" {
        out.push_str(r#""id":"#);
        out.push_str(id);
        out.push(',');
    }
    let _ = write!(out, r#""error":{{"code":{},"message":"#, error.code);
    push_json_string(&mut out, &error.message);
    if let Some(data) = &error.data {
        out.push_str(r#","data":"#);
        out.push_str(&data.to_string());
    }
    out.push_str("}}");
    out
}

/// Writes a notification; `params` is raw JSON.
pub(crate) fn notification_message(method: &str, params: &str) -> String {
    let mut out = String::with_capacity(48 + method.len() + params.len());
    out.push_str(r#"{"jsonrpc":"2.0","method":"#);
    push_json_string(&mut out, method);
    out.push_str(r#","params":"#);
    out.push_str(params);
    out.push('}');
    out
}

/// Writes a server-to-client request.
pub(crate) fn request_message(id: &str, method: &str, params: &str) -> String {
    let mut out = String::with_capacity(56 + id.len() + method.len() + params.len());
    out.push_str(r#"{"jsonrpc":"2.0","id":"#);
    out.push_str(id);
    out.push_str(r#","method":"#);
    push_json_string(&mut out, method);
    out.push_str(r#","params":"#);
    out.push_str(params);
    out.push('}');
    out
}

/// Appends `s` as a JSON string literal.
pub(crate) fn push_json_string(out: &mut String, s: &str) {
    out.push('"');
    let bytes = s.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let escape: Option<&str> = match b {
            b'"' => Some("\\\""),
            b'\\' => Some("\\\\"),
            b'\n' => Some("\\n"),
            b'\r' => Some("\\r"),
            b'\t' => Some("\\t"),
            0..=0x1f => None,
            _ => continue,
        };
        out.push_str(&s[start..i]);
        match escape {
            Some(e) => out.push_str(e),
            None => {
                let _ = write!(out, "\\u{:04x}", b);
            }
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_strings_as_serde_json_does() {
        for s in [
            "plain",
            "quote\" back\\slash",
            "nl\nret\r\ttab",
            "\u{1}\u{1f}",
            "é😀",
        ] {
            let mut out = String::new();
            push_json_string(&mut out, s);
            assert_eq!(out, serde_json::to_string(s).unwrap());
        }
    }

    #[test]
    fn ids_are_strings_or_integers() {
        let ok = ["1", "-3", "\"a\""];
        let bad = ["null", "1.5", "true", "{}", "[]", "1e3"];
        for t in ok {
            assert!(valid_id(&RawValue::from_string(t.into()).unwrap()), "{t}");
        }
        for t in bad {
            assert!(!valid_id(&RawValue::from_string(t.into()).unwrap()), "{t}");
        }
    }

    #[test]
    fn error_without_an_id_leaves_the_member_out() {
        let e = RpcError::new(code::PARSE_ERROR, "Parse error.");
        assert_eq!(
            error_message("null", &e),
            r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error."}}"#
        );
        assert_eq!(
            error_message("\"a\"", &e.with_data(serde_json::json!([1]))),
            r#"{"jsonrpc":"2.0","id":"a","error":{"code":-32700,"message":"Parse error.","data":[1]}}"#
        );
    }

    #[test]
    fn null_id_is_kept_as_present() {
        let m: Incoming =
            serde_json::from_str(r#"{"jsonrpc":"2.0","id":null,"method":"x"}"#).unwrap();
        assert_eq!(m.id.map(RawValue::get), Some("null"));
        let m: Incoming = serde_json::from_str(r#"{"jsonrpc":"2.0","method":"x"}"#).unwrap();
        assert!(m.id.is_none());
    }
}
