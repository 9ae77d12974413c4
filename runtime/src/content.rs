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

/// A `ReadResourceResult` whose every content carries `meta` (a JSON object, as the listing
/// writes it) as its `_meta`: an MCP Apps view's `{"ui": {"csp": …}}`, which the Apps
/// extension puts on the content `resources/read` returns as well as on the listed resource.
/// Keys a content's `_meta` has already are kept; `meta` that is not a JSON object changes
/// nothing.
pub fn with_meta(mut result: Value, meta: &str) -> Value {
    let Ok(Value::Object(meta)) = serde_json::from_str::<Value>(meta) else {
        return result;
    };
    let contents = result
        .get_mut("contents")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten();
    for content in contents {
        let Some(content) = content.as_object_mut() else {
            continue;
        };
        let own = content
            .entry("_meta")
            .or_insert_with(|| Value::Object(serde_json::Map::new()));
        if let Some(own) = own.as_object_mut() {
            for (key, value) in &meta {
                own.entry(key.clone()).or_insert_with(|| value.clone());
            }
        }
    }
    result
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
