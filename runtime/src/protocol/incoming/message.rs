//! One incoming JSON-RPC message, parsed once and borrowing from its line, and what makes
//! its id usable.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;

/// One incoming message, borrowing from the input line.
///
/// `id` keeps its raw text so it is echoed byte for byte; a present `null` is kept
/// (as `Some("null")`) so it can be refused rather than mistaken for a notification.
#[derive(Deserialize, Clone)]
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
    valid_id_text(id.get())
}

/// [`valid_id`] on the raw text of a JSON value.
pub(super) fn valid_id_text(text: &str) -> bool {
    match text.as_bytes().first() {
        Some(b'"') => true,
        Some(b'-' | b'0'..=b'9') => text.bytes().all(|b| b == b'-' || b.is_ascii_digit()),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn null_id_is_kept_as_present() {
        let m: Incoming =
            serde_json::from_str(r#"{"jsonrpc":"2.0","id":null,"method":"x"}"#).unwrap();
        assert_eq!(m.id.map(RawValue::get), Some("null"));
        let m: Incoming = serde_json::from_str(r#"{"jsonrpc":"2.0","method":"x"}"#).unwrap();
        assert!(m.id.is_none());
    }
}
