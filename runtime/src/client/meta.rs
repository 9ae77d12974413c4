//! What a 2026-07-28 request carries in its `_meta`: the revision, the client's
//! capabilities and its info; and the client capabilities a transport declares.

use serde_json::{Map, Value, json};

use crate::protocol::Revision;

/// The `_meta` keys of a 2026-07-28 request.
pub(crate) const VERSION: &str = "io.modelcontextprotocol/protocolVersion";
pub(crate) const CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
pub(crate) const CLIENT: &str = "io.modelcontextprotocol/clientInfo";
pub(crate) const SERVER: &str = "io.modelcontextprotocol/serverInfo";
/// The tasks extension (SEP-2663), in `capabilities.extensions`.
pub(crate) const TASKS: &str = "io.modelcontextprotocol/tasks";

/// The client's name and version, as every transport announces them.
pub(crate) fn client_info() -> Value {
    json!({"name": "toolidl-client", "version": env!("CARGO_PKG_VERSION")})
}

/// `params` with the 2026-07-28 `_meta` keys: the revision always; the capabilities and
/// client info unless the caller gave its own.
pub(crate) fn with_meta(params: Value, revision: Revision, capabilities: &Value) -> Value {
    let mut params = match params {
        Value::Object(params) => params,
        Value::Null => Map::new(),
        other => return other,
    };
    let meta = params.entry("_meta").or_insert_with(|| json!({}));
    if let Value::Object(meta) = meta {
        meta.insert(VERSION.into(), revision.as_str().into());
        meta.entry(CAPABILITIES)
            .or_insert_with(|| capabilities.clone());
        meta.entry(CLIENT).or_insert_with(client_info);
    }
    Value::Object(params)
}

/// `capabilities` declaring the tasks extension too (kept as given when it does already,
/// or is not an object).
pub(crate) fn with_tasks(mut capabilities: Value) -> Value {
    if let Value::Object(map) = &mut capabilities {
        let extensions = map.entry("extensions").or_insert_with(|| json!({}));
        if let Value::Object(extensions) = extensions {
            extensions.entry(TASKS).or_insert_with(|| json!({}));
        }
    }
    capabilities
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meta_keeps_what_the_caller_gave() {
        let params = json!({"name": "x", "_meta": {"progressToken": 1, CLIENT: {"name": "me"}}});
        let out = with_meta(params, Revision::V2026_07_28, &json!({"roots": {}}));
        assert_eq!(
            out["_meta"],
            json!({"progressToken": 1, CLIENT: {"name": "me"}, VERSION: "2026-07-28",
                   CAPABILITIES: {"roots": {}}})
        );
    }

    #[test]
    fn tasks_join_the_extensions() {
        assert_eq!(
            with_tasks(json!({"extensions": {"x": {}}})),
            json!({"extensions": {"x": {}, TASKS: {}}})
        );
        assert_eq!(
            with_tasks(json!({"extensions": {TASKS: {"a": 1}}})),
            json!({"extensions": {TASKS: {"a": 1}}})
        );
    }
}
