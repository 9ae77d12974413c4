//! 2026-07-28's request metadata headers: `Mcp-Method`, and `Mcp-Name` for the methods
//! that name an item, their values encoded as the specification has it.

use serde_json::Value;

use crate::protocol::Method;

/// `text` as a header value: itself when it is visible ASCII and spaces without spaces at
/// either end, else `=?base64?…?=` of its UTF-8 (and so is a text that looks encoded).
pub(crate) fn header_text(text: &str) -> String {
    let visible = text.bytes().all(|b| b == b' ' || b.is_ascii_graphic());
    let padded = text.starts_with(' ') || text.ends_with(' ');
    let looks_encoded = text.starts_with("=?base64?") && text.ends_with("?=");
    if visible && !padded && !looks_encoded {
        text.to_owned()
    } else {
        format!(
            "=?base64?{}?=",
            toolidl_formats::encode_base64(text.as_bytes())
        )
    }
}

/// The headers mirroring `method` and the item its `params` name.
pub(crate) fn standard(method: &str, params: &Value) -> Vec<(&'static str, String)> {
    let mut headers = vec![("mcp-method", header_text(method))];
    let key = Method::parse(method).and_then(Method::named_by);
    if let Some(name) = key
        .and_then(|key| params.get(key.key()))
        .and_then(Value::as_str)
    {
        headers.push(("mcp-name", header_text(name)));
    }
    headers
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn values_outside_plain_ascii_are_base64() {
        assert_eq!(header_text("us-west1"), "us-west1");
        assert_eq!(
            header_text("Hello, 世界"),
            "=?base64?SGVsbG8sIOS4lueVjA==?="
        );
        assert_eq!(header_text(" padded "), "=?base64?IHBhZGRlZCA=?=");
        assert_eq!(header_text("line1\nline2"), "=?base64?bGluZTEKbGluZTI=?=");
        assert_eq!(
            header_text("=?base64?literal?="),
            "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="
        );
    }

    #[test]
    fn the_named_item_is_mirrored() {
        let call = standard("tools/call", &json!({"name": "echo", "arguments": {}}));
        assert_eq!(
            call,
            [
                ("mcp-method", "tools/call".into()),
                ("mcp-name", "echo".into())
            ]
        );
        let read = standard("resources/read", &json!({"uri": "mem://a b"}));
        assert_eq!(read[1], ("mcp-name", "mem://a b".into()));
        assert_eq!(standard("tools/list", &json!({})).len(), 1);
    }
}
