//! Small builders for content blocks, resource contents and prompt messages.

use serde_json::{Value, json};

/// A `text` content block.
pub fn text(text: impl Into<String>) -> Value {
    json!({ "type": "text", "text": text.into() })
}

/// An `image` content block (`data` is raw bytes, sent as base64).
pub fn image(data: &[u8], mime_type: &str) -> Value {
    json!({ "type": "image", "data": crate::args::formats::encode_base64(data), "mimeType": mime_type })
}

/// A `ReadResourceResult` with one text body.
pub fn resource_text(uri: &str, mime_type: &str, text: impl Into<String>) -> Value {
    json!({ "contents": [{ "uri": uri, "mimeType": mime_type, "text": text.into() }] })
}

/// A `ReadResourceResult` with one binary body (sent as base64 `blob`).
pub fn resource_blob(uri: &str, mime_type: &str, data: &[u8]) -> Value {
    json!({ "contents": [{ "uri": uri, "mimeType": mime_type, "blob": crate::args::formats::encode_base64(data) }] })
}

/// A `GetPromptResult` with one user text message.
pub fn prompt_user_text(description: Option<&str>, text: impl Into<String>) -> Value {
    let messages = json!([{ "role": "user", "content": { "type": "text", "text": text.into() } }]);
    match description {
        Some(d) => json!({ "description": d, "messages": messages }),
        None => json!({ "messages": messages }),
    }
}

/// A `ReadResourceResult` without contents (a resource whose handler returns nothing).
pub fn resource_empty() -> Value {
    json!({ "contents": [] })
}

/// A `GetPromptResult` without messages (a prompt whose handler returns nothing).
pub fn prompt_empty() -> Value {
    json!({ "messages": [] })
}
