//! Outgoing JSON-RPC messages, written straight into strings.

use std::borrow::Cow;
use std::fmt::Write as _;

use super::error::RpcError;

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

/// The result that ends the 2026-07-28 `subscriptions/listen` request `id` (raw JSON)
/// gracefully: the server closes the subscription (shutdown, idle, nothing to listen for).
pub(crate) fn listen_complete_message(id: &str) -> String {
    result_message(
        id,
        &format!(
            r#"{{"resultType":"complete","_meta":{{"io.modelcontextprotocol/subscriptionId":{id}}}}}"#
        ),
    )
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
/// JSON text from a service, made safe for line framing: a raw line break can stand in valid
/// JSON only as whitespace between tokens, so each `\n` and `\r` becomes a space, which keeps
/// the value exactly (and keeps invalid text from spilling onto a second line). Text without
/// line breaks, such as everything `serde_json::to_string` writes, is returned as it is.
pub(crate) fn one_line(json: &str) -> Cow<'_, str> {
    let bytes = json.as_bytes();
    if !bytes.contains(&b'\n') && !bytes.contains(&b'\r') {
        return Cow::Borrowed(json);
    }
    Cow::Owned(json.replace(['\n', '\r'], " "))
}

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
    use crate::protocol::code;

    #[test]
    fn one_line_keeps_compact_json_and_flattens_line_breaks() {
        assert!(matches!(one_line(r#"{"a":[1,2]}"#), Cow::Borrowed(_)));
        let pretty = "{\r\n  \"a\": [\n    1,\n    \"x\\ny\"\n  ]\n}";
        let flat = one_line(pretty);
        assert!(!flat.contains('\n') && !flat.contains('\r'));
        let a: serde_json::Value = serde_json::from_str(pretty).unwrap();
        let b: serde_json::Value = serde_json::from_str(&flat).unwrap();
        assert_eq!(a, b);
    }

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
}
