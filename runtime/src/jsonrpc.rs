//! JSON-RPC 2.0 framing: one incoming message parsed once (borrowing from the line),
//! and outgoing messages written straight into strings.

use std::borrow::Cow;
use std::fmt::Write as _;

use serde::Deserialize;
use serde_json::value::RawValue;

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

/// What [`scan`] learned about a line that serde_json would not read as a message.
#[derive(Debug, PartialEq)]
pub(crate) enum Scanned<'a> {
    /// Not one JSON value: a parse error.
    NotJson,
    /// A JSON array (a batch).
    Array,
    /// Other JSON; `id` is its top-level `id` member when there is exactly one and it is
    /// a string or an integer.
    Json { id: Option<&'a str> },
}

/// Checks a whole line against the JSON grammar without recursion (so any depth is safe)
/// and finds its top-level `id`. Only the error path uses it: serde_json stops at the first
/// member of the wrong type, and the error reply should still carry the request's id.
pub(crate) fn scan(line: &str) -> Scanned<'_> {
    let b = line.as_bytes();
    let mut i = 0;
    // One entry per open container: true for an object.
    let mut stack: Vec<bool> = Vec::new();
    let mut ids: Vec<&str> = Vec::new();
    let mut top_key_is_id = false;
    // Where the value of a top-level `id` member started, until it ends.
    let mut id_start = None;
    let top_is_array = {
        skip_ws(b, &mut i);
        b.get(i) == Some(&b'[')
    };
    'value: loop {
        // A value is expected at `i`.
        skip_ws(b, &mut i);
        if stack.len() == 1 && std::mem::take(&mut top_key_is_id) {
            id_start = Some(i);
        }
        match b.get(i) {
            Some(b'{') | Some(b'[') => {
                let object = b[i] == b'{';
                i += 1;
                skip_ws(b, &mut i);
                let close = if object { b'}' } else { b']' };
                if b.get(i) == Some(&close) {
                    i += 1;
                } else {
                    stack.push(object);
                    if object {
                        let Some(is_id) = key(line, &mut i, stack.len() == 1) else {
                            return Scanned::NotJson;
                        };
                        top_key_is_id = is_id;
                    }
                    continue 'value;
                }
            }
            Some(b'"') => {
                if !string(b, &mut i) {
                    return Scanned::NotJson;
                }
            }
            Some(b't') if b[i..].starts_with(b"true") => i += 4,
            Some(b'f') if b[i..].starts_with(b"false") => i += 5,
            Some(b'n') if b[i..].starts_with(b"null") => i += 4,
            Some(b'-' | b'0'..=b'9') => {
                if !number(b, &mut i) {
                    return Scanned::NotJson;
                }
            }
            _ => return Scanned::NotJson,
        }
        // After a value: close containers or move to the next member.
        loop {
            if stack.len() == 1
                && let Some(start) = id_start.take()
            {
                ids.push(&line[start..i]);
            }
            skip_ws(b, &mut i);
            let Some(&object) = stack.last() else {
                if i != b.len() {
                    return Scanned::NotJson;
                }
                if top_is_array {
                    return Scanned::Array;
                }
                let id = match ids[..] {
                    [id] if serde_json::from_str::<&RawValue>(id).is_ok_and(valid_id) => Some(id),
                    _ => None,
                };
                return Scanned::Json { id };
            };
            match (b.get(i), object) {
                (Some(b','), _) => {
                    i += 1;
                    if object {
                        let Some(is_id) = key(line, &mut i, stack.len() == 1) else {
                            return Scanned::NotJson;
                        };
                        top_key_is_id = is_id;
                    }
                    continue 'value;
                }
                (Some(b'}'), true) | (Some(b']'), false) => {
                    i += 1;
                    stack.pop();
                }
                _ => return Scanned::NotJson,
            }
        }
    }
}

fn skip_ws(b: &[u8], i: &mut usize) {
    while matches!(b.get(*i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        *i += 1;
    }
}

/// Reads `"key" :`; tells whether the key is `id` (only asked at the top level).
fn key(line: &str, i: &mut usize, top: bool) -> Option<bool> {
    let b = line.as_bytes();
    skip_ws(b, i);
    let start = *i;
    if b.get(*i) != Some(&b'"') || !string(b, i) {
        return None;
    }
    let is_id = top && serde_json::from_str::<Cow<str>>(&line[start..*i]).is_ok_and(|k| k == "id");
    skip_ws(b, i);
    if b.get(*i) != Some(&b':') {
        return None;
    }
    *i += 1;
    Some(is_id)
}

/// Skips a string literal starting at the opening quote.
fn string(b: &[u8], i: &mut usize) -> bool {
    *i += 1;
    loop {
        match b.get(*i) {
            Some(b'"') => {
                *i += 1;
                return true;
            }
            Some(b'\\') => match b.get(*i + 1) {
                Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => *i += 2,
                Some(b'u') => {
                    let hex = b.get(*i + 2..*i + 6);
                    if !hex.is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) {
                        return false;
                    }
                    *i += 6;
                }
                _ => return false,
            },
            Some(0..=0x1f) | None => return false,
            Some(_) => *i += 1,
        }
    }
}

/// Skips `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
fn number(b: &[u8], i: &mut usize) -> bool {
    let digits = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i > start
    };
    if b.get(*i) == Some(&b'-') {
        *i += 1;
    }
    match b.get(*i) {
        Some(b'0') => *i += 1,
        Some(b'1'..=b'9') => {
            digits(i);
        }
        _ => return false,
    }
    if b.get(*i) == Some(&b'.') {
        *i += 1;
        if !digits(i) {
            return false;
        }
    }
    if matches!(b.get(*i), Some(b'e' | b'E')) {
        *i += 1;
        if matches!(b.get(*i), Some(b'+' | b'-')) {
            *i += 1;
        }
        if !digits(i) {
            return false;
        }
    }
    true
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
    fn scan_agrees_with_serde_json_on_what_is_json() {
        let cases = [
            "{}",
            "[]",
            "1",
            "-0.5e+3",
            "\"a\\u00e9\\n\"",
            "true",
            " null ",
            "[1,[2,{\"a\":[]}]]",
            "{\"a\":1,}",
            "[1,]",
            "{\"a\"}",
            "01",
            "1.",
            "-",
            "\"\\x\"",
            "\"\u{1}\"",
            "{} x",
            "{\"a\":1",
            "",
            "[1 2]",
            "{1:2}",
            "tru",
            "\"\\u12\"",
            "{\"id\":1}{\"id\":2}",
        ];
        for c in cases {
            let serde_ok = serde_json::from_str::<serde::de::IgnoredAny>(c).is_ok();
            assert_eq!(scan(c) != Scanned::NotJson, serde_ok, "{c:?}");
        }
    }

    #[test]
    fn scan_finds_the_top_level_id_at_any_depth() {
        let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
        let line = format!(r#"{{"jsonrpc":"2.0","x":{{"id":5}},"params":{deep},"\u0069d" : "a"}}"#);
        assert_eq!(scan(&line), Scanned::Json { id: Some("\"a\"") });
        assert_eq!(scan(&line[..line.len() - 1]), Scanned::NotJson);
        for (line, id) in [
            (r#"{"id":1,"id":2}"#, None),
            (r#"{"id":1.5}"#, None),
            (r#"{"id":{"id":1}}"#, None),
            (r#"{"id":{"a":1},"id":2}"#, None),
            (r#"{"a":[{"id":1}],"id":2}"#, Some("2")),
            (r#"{"method":5,"id":-7}"#, Some("-7")),
            // Echoed byte for byte, as on the normal path.
            (r#"{"id":"\ud800"}"#, Some(r#""\ud800""#)),
        ] {
            assert_eq!(scan(line), Scanned::Json { id }, "{line}");
        }
        assert_eq!(scan(" [{\"id\":1}]"), Scanned::Array);
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
