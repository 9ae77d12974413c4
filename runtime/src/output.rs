//! Turning tool outputs and errors into `CallToolResult` JSON, per revision.

use crate::args::depth;
use crate::protocol::Revision;
use crate::protocol::{RpcError, one_line, push_json_string};
use crate::service::{TOOL_FAILED, ToolError, ToolOutput, ToolResult};

/// A rendered result body, and whether it already carries `_meta`.
pub(crate) struct Body {
    pub json: String,
    pub has_meta: bool,
}

impl Body {
    fn plain(json: String) -> Self {
        Body {
            json,
            has_meta: false,
        }
    }
}

/// Renders a tool's outcome as a `CallToolResult` object (or a protocol error); a result
/// nested deeper than `max_depth` (the server's limit) fails the call.
pub(crate) fn render_tool_result(
    result: ToolResult,
    rev: Revision,
    request: &str,
    max_depth: u32,
) -> Result<Body, RpcError> {
    match result {
        Ok(output) => render_output(output, rev, request, max_depth),
        Err(ToolError::Message(m)) => Ok(Body::plain(error_text(&m))),
        Err(ToolError::Argument(e)) => Ok(Body::plain(error_text(&e.to_string()))),
        Err(ToolError::Rpc(e)) => Err(e),
        Err(ToolError::Internal(e)) => {
            tracing::error!(request, error = %e, "tool failed");
            Ok(Body::plain(error_text(TOOL_FAILED)))
        }
    }
}

/// The result for a handler that panicked (the panic was already reported).
pub(crate) fn failed_result() -> Body {
    Body::plain(error_text(TOOL_FAILED))
}

fn render_output(
    output: ToolOutput,
    rev: Revision,
    request: &str,
    max_depth: u32,
) -> Result<Body, RpcError> {
    let too_deep = |json: &str| {
        let deep = depth::nested_deeper_than(json, max_depth);
        if deep {
            tracing::error!(request, error = %format!("the value is nested deeper than {max_depth} levels"), "result not written");
        }
        deep
    };
    let json = match output {
        ToolOutput::Empty => r#"{"content":[]}"#.to_owned(),
        ToolOutput::Text(t) => text_result(&t),
        ToolOutput::Json(t) if too_deep(&t) => return Ok(failed_result()),
        ToolOutput::Json(t) => text_result(&t),
        ToolOutput::Structured(json) if too_deep(&json) => return Ok(failed_result()),
        ToolOutput::StructuredText { json, .. } if too_deep(&json) => {
            return Ok(failed_result());
        }
        ToolOutput::Structured(json) => structured_result(&json, &json, rev),
        ToolOutput::StructuredText { json, text } => structured_result(&json, &text, rev),
        ToolOutput::Content(blocks) => {
            let blocks = serde_json::Value::Array(blocks);
            let Some(json) = handler_json(blocks, request, max_depth) else {
                return Ok(failed_result());
            };
            let mut out = String::from(r#"{"content":"#);
            out.push_str(&json);
            out.push('}');
            out
        }
        ToolOutput::CallResult(mut value) => {
            let Some(obj) = value.as_object_mut() else {
                tracing::error!(request, "call_result is not an object");
                return Ok(failed_result());
            };
            if !rev.has_structured_content() {
                obj.shift_remove("structuredContent");
            }
            // The runtime sets `resultType` for 2026-07-28; older revisions have none.
            obj.shift_remove("resultType");
            if !obj.contains_key("content") {
                obj.insert("content".into(), serde_json::Value::Array(Vec::new()));
            }
            let has_meta = obj.contains_key("_meta");
            let Some(json) = handler_json(value, request, max_depth) else {
                return Ok(failed_result());
            };
            return Ok(Body { json, has_meta });
        }
        ToolOutput::InputRequired { requests, state } => {
            if !rev.is_stateless() {
                tracing::error!(request, revision = %rev, "input_required needs revision 2026-07-28; use the context's requests");
                return Ok(failed_result());
            }
            if requests.is_empty() && state.is_none() {
                tracing::error!(
                    request,
                    "input_required needs inputRequests or requestState"
                );
                return Ok(failed_result());
            }
            return Ok(Body::plain(input_required(requests, state)));
        }
    };
    Ok(Body::plain(json))
}

/// A value a handler built, as JSON; `None` (the cause logged, the value dropped without
/// recursion) when it nests deeper than `max_depth`.
fn handler_json(value: serde_json::Value, request: &str, max_depth: u32) -> Option<String> {
    match depth::to_json(&value, max_depth) {
        Ok(json) => Some(json),
        Err(e) => {
            tracing::error!(request, error = %e, "result not written");
            depth::drop_json(value);
            None
        }
    }
}

/// A record result: the text block `text` (the JSON itself, unless the tool gives its own),
/// and `json` as `structuredContent` where the revision has it.
fn structured_result(json: &str, text: &str, rev: Revision) -> String {
    let mut out = String::with_capacity(json.len() + text.len() + 64);
    out.push_str(r#"{"content":[{"type":"text","text":"#);
    push_json_string(&mut out, text);
    out.push_str("}]");
    // A null record result is structured content only where it may be any value.
    let null = json.trim() == "null";
    if rev.has_structured_content() && (!null || rev.has_any_structured_content()) {
        out.push_str(r#","structuredContent":"#);
        // A hand-built (e.g. pretty-printed) object may hold line breaks.
        out.push_str(&one_line(json));
    }
    out.push('}');
    out
}

fn text_result(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 48);
    out.push_str(r#"{"content":[{"type":"text","text":"#);
    push_json_string(&mut out, text);
    out.push_str("}]}");
    out
}

fn error_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    out.push_str(r#"{"content":[{"type":"text","text":"#);
    push_json_string(&mut out, text);
    out.push_str(r#"}],"isError":true}"#);
    out
}

/// An `InputRequiredResult` body; `resultType` is set by [`finish_result`].
fn input_required(
    requests: serde_json::Map<String, serde_json::Value>,
    state: Option<String>,
) -> String {
    let mut obj = serde_json::Map::new();
    obj.insert("resultType".into(), "input_required".into());
    if !requests.is_empty() {
        obj.insert("inputRequests".into(), serde_json::Value::Object(requests));
    }
    if let Some(s) = state {
        obj.insert("requestState".into(), s.into());
    }
    serde_json::Value::Object(obj).to_string()
}

/// How long 2026-07-28 clients may cache a cacheable result.
#[derive(Debug, Clone)]
pub(crate) struct CachePolicy {
    pub ttl_ms: u64,
    pub scope: &'static str,
}

/// Adds what a revision requires on every result: for 2026-07-28, `resultType` (unless the
/// body set it), `ttlMs`/`cacheScope` on cacheable results and `_meta.serverInfo`.
pub(crate) fn finish_result(
    body: Body,
    rev: Revision,
    cache: Option<&CachePolicy>,
    server_info: &str,
) -> String {
    if !rev.is_stateless() {
        return body.json;
    }
    let json = body.json;
    let inner = json.trim_end().strip_suffix('}').unwrap_or("{").trim_end();
    let inner = inner.strip_prefix('{').unwrap_or(inner).trim_start();
    let mut out = String::with_capacity(json.len() + 160);
    out.push('{');
    let mut first = true;
    let mut sep = |out: &mut String| {
        if !std::mem::take(&mut first) {
            out.push(',');
        }
    };
    if !inner.starts_with(r#""resultType""#) {
        sep(&mut out);
        out.push_str(r#""resultType":"complete""#);
    }
    if !inner.is_empty() {
        sep(&mut out);
        out.push_str(inner);
    }
    if let Some(c) = cache {
        sep(&mut out);
        out.push_str(&format!(
            r#""ttlMs":{},"cacheScope":"{}""#,
            c.ttl_ms, c.scope
        ));
    }
    if !body.has_meta {
        sep(&mut out);
        out.push_str(r#""_meta":{"io.modelcontextprotocol/serverInfo":"#);
        out.push_str(server_info);
        out.push('}');
    }
    out.push('}');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finish_adds_modern_fields_only_for_2026() {
        let info = r#"{"name":"s","version":"1"}"#;
        let legacy = finish_result(Body::plain("{}".into()), Revision::V2025_11_25, None, info);
        assert_eq!(legacy, "{}");
        let modern = finish_result(Body::plain("{}".into()), Revision::V2026_07_28, None, info);
        assert_eq!(
            modern,
            r#"{"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}}"#
        );
        let cache = CachePolicy {
            ttl_ms: 5,
            scope: "public",
        };
        let listed = finish_result(
            Body::plain(r#"{"tools":[]}"#.into()),
            Revision::V2026_07_28,
            Some(&cache),
            info,
        );
        let v: serde_json::Value = serde_json::from_str(&listed).unwrap();
        assert_eq!(v["resultType"], "complete");
        assert_eq!(v["ttlMs"], 5);
        assert_eq!(v["cacheScope"], "public");
        assert_eq!(v["tools"], serde_json::json!([]));
    }

    #[test]
    fn input_required_needs_requests_or_state() {
        let empty = ToolOutput::InputRequired {
            requests: serde_json::Map::new(),
            state: None,
        };
        let body = render_tool_result(Ok(empty), Revision::V2026_07_28, "1", 128).unwrap();
        assert_eq!(body.json, failed_result().json);
        let state_only = ToolOutput::InputRequired {
            requests: serde_json::Map::new(),
            state: Some("x".into()),
        };
        let body = render_tool_result(Ok(state_only), Revision::V2026_07_28, "1", 128).unwrap();
        assert_eq!(
            body.json,
            r#"{"resultType":"input_required","requestState":"x"}"#
        );
    }

    #[test]
    fn a_record_with_its_own_text_keeps_its_structured_content() {
        let json = r#"{"entities":[{"name":"a","observations":[]}],"more":{}}"#;
        let render =
            |output: ToolOutput, rev| render_tool_result(Ok(output), rev, "1", 128).unwrap().json;
        let sentence =
            ToolOutput::Structured(json.into()).with_text("Entities deleted successfully");
        assert_eq!(
            render(sentence.clone(), Revision::V2025_06_18),
            format!(
                r#"{{"content":[{{"type":"text","text":"Entities deleted successfully"}}],"structuredContent":{json}}}"#
            )
        );
        // 2024-11-05 has no structured content: the text alone.
        assert_eq!(
            render(sentence, Revision::V2024_11_05),
            r#"{"content":[{"type":"text","text":"Entities deleted successfully"}]}"#
        );
        let pretty = render(
            ToolOutput::Structured(json.into()).pretty_text(),
            Revision::V2025_11_25,
        );
        let v: serde_json::Value = serde_json::from_str(&pretty).unwrap();
        assert_eq!(
            v["content"][0]["text"],
            "{\n  \"entities\": [\n    {\n      \"name\": \"a\",\n      \"observations\": []\n    }\n  ],\n  \"more\": {}\n}"
        );
        assert_eq!(v["structuredContent"].to_string(), json);
        // Without a text of its own, the same bytes as before.
        assert_eq!(
            render(ToolOutput::Structured(json.into()), Revision::V2025_06_18),
            format!(
                r#"{{"content":[{{"type":"text","text":{}}}],"structuredContent":{json}}}"#,
                serde_json::Value::from(json)
            )
        );
    }

    #[test]
    fn pretty_json_lays_out_as_json_stringify_does() {
        use crate::service::pretty_json;
        assert_eq!(pretty_json("[]"), "[]");
        assert_eq!(pretty_json("{ }"), "{}");
        assert_eq!(
            pretty_json(r#"[1,"a,b:{c}",null]"#),
            "[\n  1,\n  \"a,b:{c}\",\n  null\n]"
        );
        assert_eq!(
            pretty_json(r#"{"q\"x":[{}]}"#),
            "{\n  \"q\\\"x\": [\n    {}\n  ]\n}"
        );
        // Compact JSON with line breaks and spaces between tokens reads the same.
        assert_eq!(pretty_json("{\n \"a\" : 1 }"), "{\n  \"a\": 1\n}");
    }

    #[test]
    fn passed_through_results_get_the_runtime_result_type() {
        let v = serde_json::json!({"resultType": "bogus", "content": []});
        let body = render_tool_result(
            Ok(ToolOutput::CallResult(v)),
            Revision::V2026_07_28,
            "1",
            128,
        )
        .unwrap();
        let out = finish_result(body, Revision::V2026_07_28, None, "{}");
        let parsed: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(parsed["resultType"], "complete");
        assert_eq!(out.matches("resultType").count(), 1);
    }
}
