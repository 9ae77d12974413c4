//! The rewrite against the original's captured answers (tests/original/), in process: the
//! listings, and the 17-call session replayed call by call (then the graph's resource read), with the expected differences of
//! tests/original/differences.json and nothing else. scripts/memory.sh makes the same
//! comparison through the official Python SDK client, and checks the captures against the
//! live original.

use std::path::Path;

use serde_json::{Map, Value};
use toolidl_runtime::testing::Client;

fn fixture(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/original")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn json_fixture(name: &str) -> Value {
    serde_json::from_str(&fixture(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The expected differences of one place (`listing` or `session`).
fn expected(place: &str) -> Vec<Map<String, Value>> {
    let all = json_fixture("differences.json");
    all["differences"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|d| d.as_object())
        .filter(|d| d["where"] == place)
        .cloned()
        .collect()
}

/// Removes `tools[*].a.b` (the member `b` of `a` of every tool) from `listing`; how many
/// tools had it.
fn remove_from_tools(listing: &mut Value, path: &str) -> usize {
    let rest = path
        .strip_prefix("tools[*].")
        .unwrap_or_else(|| panic!("a listing path starts with tools[*].: {path}"));
    let (parents, last) = match rest.rsplit_once('.') {
        Some((parents, last)) => (parents.split('.').collect::<Vec<_>>(), last),
        None => (Vec::new(), rest),
    };
    let mut removed = 0;
    for tool in listing["tools"].as_array_mut().into_iter().flatten() {
        let mut at = Some(tool);
        for p in &parents {
            at = at.and_then(|v| v.get_mut(*p));
        }
        if let Some(Value::Object(object)) = at
            && object.remove(last).is_some()
        {
            removed += 1;
        }
    }
    removed
}

#[tokio::test]
async fn the_listing_is_the_originals_but_for_the_listed_differences() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let client = Client::connect(&memory_example::server(dir.path().join("memory.jsonl")))
        .await
        .expect("initialize");
    let tools = client.list_tools().await.expect("tools/list");
    let mut ours = serde_json::json!({ "tools": tools });
    let mut original = json_fixture("tools-list.json");
    for d in expected("listing") {
        let (id, path) = (&d["id"], d["path"].as_str().unwrap_or_default());
        // `added`: ours lists it and the original does not; `removed`: the other way round.
        let side = match d["kind"].as_str() {
            Some("added") => &mut ours,
            Some("removed") => &mut original,
            kind => panic!("{id}: unknown kind {kind:?}"),
        };
        assert_eq!(
            remove_from_tools(side, path),
            9,
            "{id}: every tool should have {path}; if none has, remove the entry (its feature landed)"
        );
    }
    // Value's maps compare as maps: the order of an object's members does not count
    // (EQ-ORDER of interop/memory/compare.py); arrays compare in order.
    assert_eq!(ours, original);

    let resources = client
        .list_all("resources/list", "resources")
        .await
        .expect("resources/list");
    assert_eq!(
        serde_json::json!({ "resources": resources }),
        json_fixture("resources-list.json")
    );
}

#[tokio::test]
async fn the_session_answers_as_the_original_did() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = dir.path().join("memory.jsonl");
    let client = Client::connect(&memory_example::server(&file))
        .await
        .expect("initialize");
    let texts = expected("session");
    let session = json_fixture("session.json");
    let calls = session.as_array().expect("a list of calls");
    assert_eq!(calls.len(), 17);
    for (i, call) in calls.iter().enumerate() {
        let tool = call["tool"].as_str().expect("a tool name");
        let result = client
            .call_tool(tool, call["arguments"].clone())
            .await
            .expect("tools/call");
        let at = format!("call {i} ({tool})");
        assert_eq!(
            Value::Bool(result.is_error()),
            call["isError"],
            "{at}: isError"
        );
        let structured = result.structured().cloned().unwrap_or(Value::Null);
        assert_eq!(
            structured, call["structuredContent"],
            "{at}: structuredContent"
        );
        let original_text = call["content"][0]["text"].as_str().unwrap_or_default();
        assert_eq!(result.content().len(), 1, "{at}: one content block");
        match texts.iter().find(|d| {
            d["tools"]
                .as_array()
                .is_some_and(|tools| tools.iter().any(|t| t == tool))
        }) {
            None => assert_eq!(result.text(), original_text, "{at}: text"),
            Some(d) if !result.is_error() => {
                // The difference is exactly the one listed: each side's text has its form.
                let form = |name: &Value| text_form(name.as_str().unwrap_or_default(), &structured);
                assert_eq!(original_text, form(&d["original"]), "{at}: {}", d["id"]);
                assert_eq!(result.text(), form(&d["ours"]), "{at}: {}", d["id"]);
            }
            Some(_) => assert_eq!(result.text(), original_text, "{at}: error text"),
        }
    }
    let read = client
        .read_resource(memory_example::GRAPH_URI)
        .await
        .expect("resources/read");
    assert_eq!(
        read["contents"],
        json_fixture("resource-read.json"),
        "resources/read"
    );
    let written = std::fs::read_to_string(&file).expect("the memory file");
    assert_eq!(written, fixture("memory.jsonl"), "the memory file");
}

/// A form of text block of interop/memory/compare.py's FORMS, from the structured content.
fn text_form(form: &str, structured: &Value) -> String {
    let pretty = |v: &Value| serde_json::to_string_pretty(v).unwrap_or_default();
    match form {
        "compact JSON of structuredContent" => structured.to_string(),
        "pretty JSON of structuredContent" => pretty(structured),
        "pretty JSON of structuredContent's only member" => structured
            .as_object()
            .and_then(|o| o.values().next())
            .map(pretty)
            .unwrap_or_default(),
        "structuredContent.message" => structured["message"].as_str().unwrap_or_default().into(),
        other => panic!("unknown text form {other}"),
    }
}
