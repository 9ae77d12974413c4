//! The handlers: the file they keep, what they accept, how they fail.

use serde_json::json;
use toolidl_runtime::testing::Client;

async fn client(file: &std::path::Path) -> Client {
    Client::connect(&memory_example::server(file))
        .await
        .expect("initialize")
}

#[tokio::test]
async fn unknown_members_are_accepted_and_dropped() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = dir.path().join("memory.jsonl");
    let client = client(&file).await;
    let created = client
        .call_tool(
            "create_entities",
            json!({"entities": [{"name": "a", "entityType": "t", "observations": [], "colour": "red"}], "extra": 1}),
        )
        .await
        .expect("tools/call");
    assert!(!created.is_error(), "{}", created.text());
    assert_eq!(
        created.structured(),
        Some(&json!({"entities": [{"name": "a", "entityType": "t", "observations": []}]}))
    );
    assert_eq!(
        std::fs::read_to_string(&file).expect("written"),
        r#"{"type":"entity","name":"a","entityType":"t","observations":[]}"#
    );
    // Every argument record is `@open(input)`: nested unknown members are dropped too.
    let related = client
        .call_tool(
            "create_relations",
            json!({"relations": [{"from": "a", "to": "b", "relationType": "r", "weight": 2}]}),
        )
        .await
        .expect("tools/call");
    assert_eq!(
        related.structured(),
        Some(&json!({"relations": [{"from": "a", "to": "b", "relationType": "r"}]}))
    );
    let added = client
        .call_tool(
            "add_observations",
            json!({"observations": [{"entityName": "a", "contents": ["o"], "source": {"x": 1}}]}),
        )
        .await
        .expect("tools/call");
    assert_eq!(
        added.structured(),
        Some(&json!({"results": [{"entityName": "a", "addedObservations": ["o"]}]}))
    );
    let deleted = client
        .call_tool(
            "delete_observations",
            json!({"deletions": [{"entityName": "a", "observations": ["o"], "why": null}]}),
        )
        .await
        .expect("tools/call");
    assert!(!deleted.is_error(), "{}", deleted.text());
    assert_eq!(
        std::fs::read_to_string(&file).expect("written"),
        concat!(
            r#"{"type":"entity","name":"a","entityType":"t","observations":[]}"#,
            "\n",
            r#"{"type":"relation","from":"a","to":"b","relationType":"r"}"#
        )
    );
}

#[tokio::test]
async fn a_file_written_by_hand_is_read_and_other_lines_are_ignored() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = dir.path().join("memory.jsonl");
    std::fs::write(
        &file,
        "\n{\"type\":\"relation\",\"from\":\"a\",\"to\":\"b\",\"relationType\":\"r\"}\n  \n{\"type\":\"note\"}\n{\"type\":\"entity\",\"name\":\"a\",\"entityType\":\"t\",\"observations\":[\"o\"]}\n",
    )
    .expect("write");
    let client = client(&file).await;
    let graph = client
        .call_tool("read_graph", json!({}))
        .await
        .expect("tools/call");
    assert_eq!(
        graph.structured(),
        Some(&json!({
            "entities": [{"name": "a", "entityType": "t", "observations": ["o"]}],
            "relations": [{"from": "a", "to": "b", "relationType": "r"}],
        }))
    );
    // The resource holds the same graph, pretty-printed.
    let read = client
        .read_resource(memory_example::GRAPH_URI)
        .await
        .expect("resources/read");
    let text = read["contents"][0]["text"].as_str().expect("text");
    assert!(text.starts_with("{\n  \"entities\": [\n"), "{text}");
    assert_eq!(read["contents"][0]["mimeType"], "application/json");
}

#[tokio::test]
async fn a_broken_file_is_an_error_naming_its_line_and_is_left_alone() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = dir.path().join("memory.jsonl");
    std::fs::write(&file, "{\"type\":\"entity\",\"name\":\"a\"}").expect("write");
    let client = client(&file).await;
    let result = client
        .call_tool("delete_entities", json!({"entityNames": ["a"]}))
        .await
        .expect("tools/call");
    assert!(result.is_error());
    assert_eq!(
        result.text(),
        format!(
            "The memory file {} is not valid at line 1: `entityType` is not a string",
            file.display()
        )
    );
    assert_eq!(
        std::fs::read_to_string(&file).expect("kept"),
        "{\"type\":\"entity\",\"name\":\"a\"}"
    );
}

#[tokio::test]
async fn a_failed_call_writes_nothing_and_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = dir.path().join("memory.jsonl");
    let client = client(&file).await;
    let created = client
        .call_tool(
            "create_entities",
            json!({"entities": [{"name": "a", "entityType": "t", "observations": []}]}),
        )
        .await
        .expect("tools/call");
    assert!(!created.is_error());
    let before = std::fs::read_to_string(&file).expect("written");
    let failed = client
        .call_tool(
            "add_observations",
            json!({"observations": [{"entityName": "a", "contents": ["x"]}, {"entityName": "b", "contents": ["y"]}]}),
        )
        .await
        .expect("tools/call");
    assert!(failed.is_error());
    assert_eq!(failed.text(), "Entity with name b not found");
    assert_eq!(std::fs::read_to_string(&file).expect("kept"), before);
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .expect("list")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(names, ["memory.jsonl"]);
}

#[tokio::test]
async fn subscribers_hear_of_each_change() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let client = client(&dir.path().join("memory.jsonl")).await;
    client
        .request(
            "resources/subscribe",
            json!({"uri": memory_example::GRAPH_URI}),
        )
        .await
        .expect("resources/subscribe");
    client
        .call_tool("delete_relations", json!({"relations": []}))
        .await
        .expect("tools/call");
    client
        .call_tool("read_graph", json!({}))
        .await
        .expect("tools/call");
    let updates = client.take_notifications("notifications/resources/updated");
    assert_eq!(updates.len(), 1, "{updates:?}");
    assert_eq!(updates[0]["uri"], memory_example::GRAPH_URI);
}
