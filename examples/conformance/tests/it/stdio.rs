//! The fixture server in process, through `toolidl_runtime::testing` (the dispatcher stdio
//! and HTTP share): every fixture tool's result, the server-to-client requests of the
//! handshake revisions, the `input_required` rounds of 2026-07-28, resources, prompts,
//! completion and the list-change hooks.
//!
//! The suite itself speaks HTTP (scripts/conformance.sh); this test checks the fixture's
//! behaviour without it.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use toolidl_runtime::protocol::Revision;
use toolidl_runtime::testing;

/// A client of the fixture in process, through `toolidl_runtime::testing`, that answers
/// the server's requests (sampling, elicitation, roots) the way the suite's client does and
/// keeps them for the test to look at.
struct Client {
    inner: testing::Client,
    server_requests: Arc<Mutex<Vec<Value>>>,
}

impl Client {
    async fn connect(revision: Revision, capabilities: Value) -> Self {
        let server = conformance_example::server(None);
        let server_requests = Arc::new(Mutex::new(Vec::new()));
        let record = Arc::clone(&server_requests);
        let inner = testing::Client::builder()
            .revision(revision)
            .capabilities(capabilities)
            .client_info(json!({ "name": "stdio-test", "version": "1" }))
            .on_request(move |method, params| {
                let request = json!({ "method": method, "params": params });
                let answer = answer(&request);
                record.lock().expect("not poisoned").push(request);
                Ok(answer)
            })
            .connect(&server)
            .await
            .expect("the client connects");
        Client {
            inner,
            server_requests,
        }
    }

    /// A 2025-11-25 session with every client capability.
    async fn session() -> Self {
        let c = Client::connect(Revision::V2025_11_25, all_capabilities()).await;
        let init = c.inner.initialize_result().expect("a handshake");
        assert_eq!(init["protocolVersion"], "2025-11-25", "{init}");
        c
    }

    /// A 2026-07-28 client: no handshake, `_meta` on every request.
    async fn stateless() -> Self {
        Client::connect(Revision::V2026_07_28, all_capabilities()).await
    }

    /// Sends a request and returns the response as the wire has it: `{"result": …}` or
    /// `{"error": {"code", "message", "data"?}}`.
    async fn request(&self, method: &str, params: Value) -> Value {
        match self.inner.request(method, params).await {
            Ok(result) => json!({ "result": result }),
            Err(e) => {
                let mut error = json!({ "code": e.code, "message": e.message });
                if let Some(data) = e.data {
                    error["data"] = data;
                }
                json!({ "error": error })
            }
        }
    }

    /// The result of a request that must succeed.
    async fn result(&self, method: &str, params: Value) -> Value {
        let response = self.request(method, params).await;
        assert!(response.get("error").is_none(), "{method}: {response}");
        response["result"].clone()
    }

    /// `tools/call` with extra params (`_meta`, `inputResponses`, `requestState`).
    async fn call_with(&self, name: &str, arguments: Value, extra: Value) -> Value {
        let mut params = json!({ "name": name, "arguments": arguments });
        if let (Value::Object(params), Value::Object(extra)) = (&mut params, extra) {
            params.extend(extra);
        }
        self.request("tools/call", params).await
    }

    /// The result of a `tools/call` that must succeed (an error result is still a result).
    async fn call(&self, name: &str, arguments: Value) -> Value {
        let response = self.call_with(name, arguments, json!({})).await;
        assert!(response.get("error").is_none(), "{name}: {response}");
        response["result"].clone()
    }

    /// The only text block of a tool result.
    async fn text(&self, name: &str, arguments: Value) -> String {
        let result = self.call(name, arguments).await;
        assert_eq!(
            result["content"].as_array().map(Vec::len),
            Some(1),
            "{result}"
        );
        assert_eq!(result.get("isError"), None, "{name}: {result}");
        result["content"][0]["text"]
            .as_str()
            .expect("text")
            .to_owned()
    }

    /// The notifications with `method` received so far, as messages.
    fn notifications(&self, method: &str) -> Vec<Value> {
        let params = self.inner.take_notifications(method);
        let message = |params| json!({ "jsonrpc": "2.0", "method": method, "params": params });
        params.into_iter().map(message).collect()
    }

    /// The requests the server sent to this client.
    fn server_requests(&self) -> std::sync::MutexGuard<'_, Vec<Value>> {
        self.server_requests.lock().expect("not poisoned")
    }
}

fn all_capabilities() -> Value {
    json!({ "sampling": {}, "elicitation": {}, "roots": { "listChanged": true } })
}

/// What the suite's client answers to the server's requests.
fn answer(request: &Value) -> Value {
    match request["method"].as_str() {
        Some("sampling/createMessage") => json!({
            "role": "assistant",
            "content": { "type": "text", "text": "This is a test response from the client" },
            "model": "test-model",
            "stopReason": "endTurn",
        }),
        Some("roots/list") => {
            json!({ "roots": [{ "uri": "file:///test/root", "name": "Test Root" }] })
        }
        Some("elicitation/create") => {
            json!({ "action": "accept", "content": fill(&request["params"]["requestedSchema"]) })
        }
        other => panic!("unexpected server request {other:?}"),
    }
}

/// A value for each property of an elicitation schema.
fn fill(schema: &Value) -> Value {
    let mut content = serde_json::Map::new();
    for (name, property) in schema["properties"].as_object().into_iter().flatten() {
        let value = match property["type"].as_str() {
            Some("boolean") => json!(true),
            Some("integer") => json!(25),
            Some("number") => json!(88.5),
            Some("array") => json!([]),
            _ if name == "email" => json!("test@example.com"),
            _ => json!("Alice"),
        };
        content.insert(name.clone(), value);
    }
    Value::Object(content)
}

fn elicit_answer(content: Value) -> Value {
    json!({ "action": "accept", "content": content })
}

/// Every name the suite's server scenarios call or require in `tools/list`.
const SUITE_TOOLS: &[&str] = &[
    // tools-*, elicitation-*, server-sse-polling (2025-11-25)
    "test_simple_text",
    "test_image_content",
    "test_audio_content",
    "test_embedded_resource",
    "test_multiple_content_types",
    "test_tool_with_logging",
    "test_tool_with_progress",
    "test_error_handling",
    "test_reconnection",
    "test_sampling",
    "test_elicitation",
    "test_elicitation_sep1034_defaults",
    "test_elicitation_sep1330_enums",
    // json-schema-2020-12 (pending)
    "json_schema_2020_12_tool",
    // server-stateless, input-required-result-* (2026-07-28)
    "test_missing_capability",
    "test_logging_tool",
    "test_streaming_elicitation",
    "test_trigger_tool_change",
    "test_trigger_prompt_change",
    "test_trigger_resource_update",
    "test_input_required_result_elicitation",
    "test_input_required_result_sampling",
    "test_input_required_result_list_roots",
    "test_input_required_result_request_state",
    "test_input_required_result_multiple_inputs",
    "test_input_required_result_multi_round",
    "test_input_required_result_tampered_state",
    "test_input_required_result_capabilities",
    // tasks-* (extension)
    "greet",
    "slow_compute",
    "confirm_delete",
    "multi_input",
    "failing_job",
    "protocol_error_job",
    "test_tool_with_task",
];

const SUITE_PROMPTS: &[&str] = &[
    "test_simple_prompt",
    "test_prompt_with_arguments",
    "test_prompt_with_embedded_resource",
    "test_prompt_with_image",
    "test_input_required_result_prompt",
];

fn names(list: &Value, key: &str, field: &str) -> Vec<String> {
    list[key]
        .as_array()
        .expect("a list")
        .iter()
        .map(|item| item[field].as_str().expect("a name").to_owned())
        .collect()
}

#[tokio::test]
async fn listings_hold_every_fixture_the_suite_needs() {
    let c = Client::session().await;
    let tools = c.result("tools/list", json!({})).await;
    let listed = names(&tools, "tools", "name");
    for name in SUITE_TOOLS {
        assert!(listed.iter().any(|l| l == name), "tools/list lacks {name}");
    }
    // The header-validation scenario calls the first tool with `{}`.
    assert_eq!(listed[0], "test_simple_text");
    // tools-list: a name in [A-Za-z0-9_./-]{1,64}, a description and an inputSchema each.
    for tool in tools["tools"].as_array().unwrap() {
        let name = tool["name"].as_str().unwrap();
        assert!(
            (1..=64).contains(&name.len())
                && name
                    .chars()
                    .all(|ch| ch.is_ascii_alphanumeric() || "_./-".contains(ch)),
            "{name}"
        );
        assert!(
            tool["description"].as_str().is_some_and(|d| !d.is_empty()),
            "{tool}"
        );
        assert_eq!(tool["inputSchema"]["type"], "object", "{tool}");
    }
    // json-schema-2020-12: the schema exactly as the suite's fixture writes it.
    let schema_tool = tools["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "json_schema_2020_12_tool")
        .unwrap();
    let schema = &schema_tool["inputSchema"];
    assert_eq!(
        schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    assert_eq!(schema["$defs"]["address"]["$anchor"], "addressDef");
    assert_eq!(schema["properties"]["address"]["$ref"], "#/$defs/address");
    for key in ["allOf", "if", "then", "else"] {
        assert!(schema.get(key).is_some(), "{key}");
    }
    assert_eq!(schema["additionalProperties"], false);
    // http-custom-header-server-validation: a string parameter with x-mcp-header.
    let header_tool = tools["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "test_custom_header")
        .unwrap();
    assert_eq!(
        header_tool["inputSchema"]["properties"]["region"]["x-mcp-header"],
        "Region"
    );

    let prompts = c.result("prompts/list", json!({})).await;
    let listed = names(&prompts, "prompts", "name");
    for name in SUITE_PROMPTS {
        assert!(
            listed.iter().any(|l| l == name),
            "prompts/list lacks {name}"
        );
    }
    for prompt in prompts["prompts"].as_array().unwrap() {
        assert!(prompt["description"].as_str().is_some(), "{prompt}");
    }

    let resources = c.result("resources/list", json!({})).await;
    let uris = names(&resources, "resources", "uri");
    for uri in [
        "test://static-text",
        "test://static-binary",
        "test://watched-resource",
    ] {
        assert!(uris.iter().any(|u| u == uri), "resources/list lacks {uri}");
    }
    for r in resources["resources"].as_array().unwrap() {
        assert!(
            r["name"].as_str().is_some() && r["description"].as_str().is_some(),
            "{r}"
        );
    }
    let templates = c.result("resources/templates/list", json!({})).await;
    assert_eq!(
        names(&templates, "resourceTemplates", "uriTemplate"),
        ["test://template/{id}/data"]
    );
}

#[tokio::test]
async fn content_tools_return_the_suites_blocks() {
    let c = Client::session().await;
    assert_eq!(
        c.text("test_simple_text", json!({})).await,
        "This is a simple text response for testing."
    );
    for (tool, kind, mime) in [
        ("test_image_content", "image", "image/png"),
        ("test_audio_content", "audio", "audio/wav"),
    ] {
        let result = c.call(tool, json!({})).await;
        let block = &result["content"][0];
        assert_eq!(block["type"], kind, "{result}");
        assert_eq!(block["mimeType"], mime, "{result}");
        assert!(
            block["data"].as_str().is_some_and(|d| !d.is_empty()),
            "{result}"
        );
    }
    assert_eq!(
        c.call("test_embedded_resource", json!({})).await["content"],
        json!([{ "type": "resource", "resource": {
            "uri": "test://embedded-resource",
            "mimeType": "text/plain",
            "text": "This is an embedded resource content.",
        } }])
    );
    let mixed = c.call("test_multiple_content_types", json!({})).await;
    let kinds: Vec<&str> = mixed["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["type"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["text", "image", "resource"]);
    assert_eq!(
        mixed["content"][2]["resource"]["text"],
        r#"{"test":"data","value":123}"#
    );

    let error = c.call("test_error_handling", json!({})).await;
    assert_eq!(error["isError"], true);
    assert_eq!(
        error["content"][0]["text"],
        "This tool intentionally returns an error for testing"
    );
}

#[tokio::test]
async fn logging_and_progress_reach_the_client() {
    let c = Client::session().await;
    c.result("logging/setLevel", json!({ "level": "debug" }))
        .await;
    c.text("test_tool_with_logging", json!({})).await;
    let logs: Vec<Value> = c
        .notifications("notifications/message")
        .into_iter()
        .map(|n| n["params"]["data"].clone())
        .collect();
    assert_eq!(
        logs,
        [
            "Tool execution started",
            "Tool processing data",
            "Tool execution completed"
        ]
    );

    let result = c.result(
        "tools/call",
        json!({ "name": "test_tool_with_progress", "arguments": {}, "_meta": { "progressToken": "progress-test-1" } }),
    ).await;
    assert!(result["content"][0]["text"].is_string(), "{result}");
    let progress: Vec<(Value, Value)> = c
        .notifications("notifications/progress")
        .into_iter()
        .map(|n| {
            (
                n["params"]["progressToken"].clone(),
                n["params"]["progress"].clone(),
            )
        })
        .collect();
    assert_eq!(
        progress,
        [
            (json!("progress-test-1"), json!(0.0)),
            (json!("progress-test-1"), json!(50.0)),
            (json!("progress-test-1"), json!(100.0)),
        ]
    );
}

#[tokio::test]
async fn handshake_tools_ask_the_client() {
    let c = Client::session().await;
    assert_eq!(
        c.text(
            "test_sampling",
            json!({ "prompt": "Test prompt for sampling" })
        )
        .await,
        "LLM response: This is a test response from the client"
    );
    let asked = c.server_requests().pop().unwrap();
    assert_eq!(asked["method"], "sampling/createMessage");
    assert_eq!(
        asked["params"]["messages"][0]["content"]["text"],
        "Test prompt for sampling"
    );
    assert_eq!(asked["params"]["maxTokens"], 100);

    let text = c
        .text(
            "test_elicitation",
            json!({ "message": "Please provide your information" }),
        )
        .await;
    assert_eq!(
        text,
        r#"User response: action=accept, content={"username":"Alice","email":"test@example.com"}"#
    );
    let asked = c.server_requests().pop().unwrap();
    assert_eq!(
        asked["params"]["message"],
        "Please provide your information"
    );
    assert_eq!(
        asked["params"]["requestedSchema"]["required"],
        json!(["username", "email"])
    );

    let text = c.text("test_elicitation_sep1034_defaults", json!({})).await;
    assert!(
        text.starts_with("Elicitation completed: action=accept"),
        "{text}"
    );
    let props =
        c.server_requests().pop().unwrap()["params"]["requestedSchema"]["properties"].clone();
    assert_eq!(props["name"]["default"], "John Doe");
    assert_eq!(props["age"]["type"], "integer");
    assert_eq!(props["age"]["default"], 30);
    assert_eq!(props["score"]["default"], 95.5);
    assert_eq!(props["status"]["default"], "active");
    assert_eq!(
        props["status"]["enum"],
        json!(["active", "inactive", "pending"])
    );
    assert_eq!(props["verified"]["default"], true);

    let text = c.text("test_elicitation_sep1330_enums", json!({})).await;
    assert!(
        text.starts_with("Elicitation completed: action=accept"),
        "{text}"
    );
    let props =
        c.server_requests().pop().unwrap()["params"]["requestedSchema"]["properties"].clone();
    assert!(props["untitledSingle"]["enum"].is_array());
    assert!(props["untitledSingle"].get("oneOf").is_none());
    assert_eq!(
        props["titledSingle"]["oneOf"][0],
        json!({ "const": "value1", "title": "First Option" })
    );
    assert_eq!(props["legacyEnum"]["enumNames"][2], "Option Three");
    assert_eq!(props["untitledMulti"]["items"]["enum"][1], "option2");
    assert_eq!(
        props["titledMulti"]["items"]["anyOf"][2]["title"],
        "Third Choice"
    );

    // The tools that ask for input in either era ask at once under a handshake revision.
    assert_eq!(
        c.text("test_input_required_result_elicitation", json!({}))
            .await,
        "Hello, Alice!"
    );
    assert_eq!(
        c.text("test_input_required_result_multiple_inputs", json!({}))
            .await,
        "Name: Alice; Greeting: This is a test response from the client; Roots: 1"
    );
    assert_eq!(
        c.text("test_input_required_result_multi_round", json!({}))
            .await,
        "Multi-round complete for Alice who likes Alice"
    );
    assert_eq!(
        c.text("confirm_delete", json!({ "filename": "a.txt" }))
            .await,
        "Deleted a.txt."
    );
    assert_eq!(
        c.text("multi_input", json!({})).await,
        "Name: Alice; confirmed: true"
    );
    assert_eq!(
        c.text("test_tool_with_task", json!({})).await,
        "Hello, Alice!"
    );
    assert_eq!(
        c.text("test_reconnection", json!({}))
            .await
            .split('.')
            .next(),
        Some("Reconnection test completed successfully")
    );
}

#[tokio::test]
async fn a_client_without_capabilities_gets_32021() {
    let c = Client::connect(Revision::V2025_11_25, json!({})).await;
    let e = c
        .call_with("test_missing_capability", json!({}), json!({}))
        .await;
    assert_eq!(e["error"]["code"], -32021, "{e}");
    assert_eq!(
        e["error"]["data"]["requiredCapabilities"],
        json!({ "sampling": {} })
    );
    let e = c
        .call_with(
            "test_input_required_result_elicitation",
            json!({}),
            json!({}),
        )
        .await;
    assert_eq!(e["error"]["code"], -32021, "{e}");
    // The generated tools that ask report the failure as an error result.
    let r = c.call("test_sampling", json!({ "prompt": "p" })).await;
    assert_eq!(r["isError"], true, "{r}");
}

#[tokio::test]
async fn resources_prompts_and_completion() {
    let c = Client::session().await;
    let text = c
        .result("resources/read", json!({ "uri": "test://static-text" }))
        .await;
    assert_eq!(
        text["contents"],
        json!([{ "uri": "test://static-text", "mimeType": "text/plain", "text": "This is the content of the static text resource." }])
    );
    let binary = c
        .result("resources/read", json!({ "uri": "test://static-binary" }))
        .await;
    assert_eq!(binary["contents"][0]["mimeType"], "image/png");
    assert_eq!(
        binary["contents"][0]["blob"],
        conformance_example::PNG_BASE64
    );
    let template = c
        .result(
            "resources/read",
            json!({ "uri": "test://template/123/data" }),
        )
        .await;
    assert_eq!(
        template["contents"],
        json!([{ "uri": "test://template/123/data", "mimeType": "application/json", "text": r#"{"id":"123","templateTest":true,"data":"Data for ID: 123"}"# }])
    );
    let watched = c
        .result(
            "resources/read",
            json!({ "uri": "test://watched-resource" }),
        )
        .await;
    assert_eq!(watched["contents"][0]["text"], "Watched resource content");
    let missing = c
        .request(
            "resources/read",
            json!({ "uri": "test://nonexistent-resource-for-conformance-testing" }),
        )
        .await;
    assert!(missing["error"].is_object(), "{missing}");

    let simple = c
        .result("prompts/get", json!({ "name": "test_simple_prompt" }))
        .await;
    assert_eq!(
        simple["messages"],
        json!([{ "role": "user", "content": { "type": "text", "text": "This is a simple prompt for testing." } }])
    );
    let with_args = c.result(
        "prompts/get",
        json!({ "name": "test_prompt_with_arguments", "arguments": { "arg1": "hello", "arg2": "world" } }),
    ).await;
    assert_eq!(
        with_args["messages"][0]["content"]["text"],
        "Prompt with arguments: arg1='hello', arg2='world'"
    );
    let embedded = c.result(
        "prompts/get",
        json!({ "name": "test_prompt_with_embedded_resource", "arguments": { "resourceUri": "test://example-resource" } }),
    ).await;
    assert_eq!(embedded["messages"][0]["content"]["type"], "resource");
    assert_eq!(
        embedded["messages"][0]["content"]["resource"]["uri"],
        "test://example-resource"
    );
    assert_eq!(embedded["messages"][1]["content"]["type"], "text");
    let image = c
        .result("prompts/get", json!({ "name": "test_prompt_with_image" }))
        .await;
    assert_eq!(image["messages"][0]["content"]["type"], "image");
    assert_eq!(image["messages"][0]["content"]["mimeType"], "image/png");
    let no_uri = c
        .request(
            "prompts/get",
            json!({ "name": "test_prompt_with_embedded_resource" }),
        )
        .await;
    assert_eq!(no_uri["error"]["code"], -32602, "{no_uri}");
    let with_context = c
        .result(
            "prompts/get",
            json!({ "name": "test_input_required_result_prompt" }),
        )
        .await;
    assert_eq!(
        with_context["messages"][0]["content"]["text"],
        "Prompt with context: Alice"
    );

    let completion = c.result(
        "completion/complete",
        json!({ "ref": { "type": "ref/prompt", "name": "test_prompt_with_arguments" }, "argument": { "name": "arg1", "value": "par" } }),
    ).await;
    assert_eq!(
        completion["completion"]["values"],
        json!(["paris", "park", "party"])
    );
}

#[tokio::test]
async fn tasks_fixtures_run_synchronously_in_a_session() {
    let c = Client::session().await;
    assert_eq!(
        c.text("greet", json!({ "name": "World" })).await,
        "Hello, World!"
    );
    assert_eq!(
        c.text("slow_compute", json!({ "seconds": 0, "label": "instant" }))
            .await,
        "Computed for 0 s (instant)."
    );
    let failed = c.call("failing_job", json!({})).await;
    assert_eq!(failed["isError"], true, "{failed}");
    let protocol = c
        .call_with("protocol_error_job", json!({}), json!({}))
        .await;
    assert_eq!(protocol["error"]["code"], -32603, "{protocol}");
}

#[tokio::test]
async fn list_change_hooks_notify_sessions() {
    let c = Client::session().await;
    assert_eq!(
        c.text("test_trigger_tool_change", json!({})).await,
        "Mutation triggered: test_dynamic_tool added."
    );
    assert_eq!(c.notifications("notifications/tools/list_changed").len(), 1);
    assert_eq!(
        c.text("test_dynamic_tool", json!({})).await,
        "The dynamic tool is here."
    );
    assert!(
        c.notifications("notifications/prompts/list_changed")
            .is_empty()
    );
    assert_eq!(
        c.text("test_trigger_prompt_change", json!({})).await,
        "Mutation triggered: test_dynamic_prompt added."
    );
    assert_eq!(
        c.notifications("notifications/prompts/list_changed").len(),
        1
    );
    let listed = names(
        &c.result("prompts/list", json!({})).await,
        "prompts",
        "name",
    );
    assert!(listed.iter().any(|p| p == "test_dynamic_prompt"));
    c.text("test_trigger_tool_change", json!({})).await;
    let listed = names(&c.result("tools/list", json!({})).await, "tools", "name");
    assert!(!listed.iter().any(|t| t == "test_dynamic_tool"));
}

/// `inputRequests` of an `input_required` result, after checking its shape.
fn input_requests(result: &Value) -> serde_json::Map<String, Value> {
    assert_eq!(result["resultType"], "input_required", "{result}");
    result["inputRequests"]
        .as_object()
        .cloned()
        .unwrap_or_default()
}

#[tokio::test]
async fn input_required_rounds_under_2026() {
    let c = Client::stateless().await;
    let name = "test_input_required_result_elicitation";
    let r1 = c.call(name, json!({})).await;
    let requests = input_requests(&r1);
    assert_eq!(requests["user_name"]["method"], "elicitation/create");
    assert_eq!(
        requests["user_name"]["params"]["message"],
        "What is your name?"
    );
    let answer =
        json!({ "inputResponses": { "user_name": elicit_answer(json!({ "name": "Alice" })) } });
    let r2 = c.call_with(name, json!({}), answer.clone()).await["result"].clone();
    assert_eq!(r2["resultType"], "complete");
    assert_eq!(r2["content"][0]["text"], "Hello, Alice!");
    // Wrong key, a number, null: asked again, never completed.
    for responses in [
        json!({ "wrong_key": elicit_answer(json!({ "data": "wrong" })) }),
        json!({ "user_name": 12345 }),
        json!(null),
    ] {
        let r = c
            .call_with(name, json!({}), json!({ "inputResponses": responses }))
            .await;
        input_requests(&r["result"]);
    }
    // Extra keys are ignored.
    let r = c.call_with(
        name,
        json!({}),
        json!({ "inputResponses": { "user_name": elicit_answer(json!({ "name": "Bob" })), "extra": { "x": 1 } } }),
    ).await;
    assert_eq!(r["result"]["content"][0]["text"], "Hello, Bob!");

    let r1 = c
        .call("test_input_required_result_sampling", json!({}))
        .await;
    let key = input_requests(&r1).keys().next().unwrap().clone();
    let sampled = json!({ "role": "assistant", "content": { "type": "text", "text": "Paris." }, "model": "m", "stopReason": "endTurn" });
    let r2 = c
        .call_with(
            "test_input_required_result_sampling",
            json!({}),
            json!({ "inputResponses": { key: sampled } }),
        )
        .await;
    assert_eq!(
        r2["result"]["content"][0]["text"],
        "Sampling result: Paris."
    );

    let r1 = c
        .call("test_input_required_result_list_roots", json!({}))
        .await;
    assert_eq!(input_requests(&r1)["client_roots"]["method"], "roots/list");
    let roots = json!({ "roots": [{ "uri": "file:///a" }, { "uri": "file:///b" }] });
    let r2 = c
        .call_with(
            "test_input_required_result_list_roots",
            json!({}),
            json!({ "inputResponses": { "client_roots": roots } }),
        )
        .await;
    assert_eq!(r2["result"]["content"][0]["text"], "Found 2 root(s)");

    // tools/list and prompts/list are never input_required.
    assert_eq!(
        c.result("tools/list", json!({})).await["resultType"],
        "complete"
    );
    assert_eq!(
        c.result("prompts/list", json!({})).await["resultType"],
        "complete"
    );
}

#[tokio::test]
async fn request_state_is_sealed_and_checked() {
    let c = Client::stateless().await;
    let name = "test_input_required_result_request_state";
    let r1 = c.call(name, json!({})).await;
    assert!(input_requests(&r1).contains_key("confirm"));
    let state = r1["requestState"]
        .as_str()
        .expect("a requestState")
        .to_owned();
    let confirm = json!({ "confirm": elicit_answer(json!({ "ok": true })) });
    let r2 = c
        .call_with(
            name,
            json!({}),
            json!({ "inputResponses": confirm, "requestState": state }),
        )
        .await;
    assert!(
        r2["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("state-ok"),
        "{r2}"
    );
    // Without the state: asked again, with one.
    let r = c
        .call_with(name, json!({}), json!({ "inputResponses": confirm }))
        .await;
    assert!(r["result"]["requestState"].is_string(), "{r}");

    let name = "test_input_required_result_tampered_state";
    let r1 = c.call(name, json!({})).await;
    let state = r1["requestState"].as_str().unwrap().to_owned();
    let ok = c
        .call_with(
            name,
            json!({}),
            json!({ "inputResponses": confirm, "requestState": state }),
        )
        .await;
    assert_eq!(
        ok["result"]["content"][0]["text"],
        "integrity-ok: state verified"
    );
    let tampered = c
        .call_with(
            name,
            json!({}),
            json!({ "inputResponses": confirm, "requestState": format!("{state}-TAMPERED") }),
        )
        .await;
    assert_eq!(tampered["error"]["code"], -32602, "{tampered}");
    // Another tool's state does not pass for this one's: the runtime refuses it.
    let other = c
        .call("test_input_required_result_request_state", json!({}))
        .await["requestState"]
        .clone();
    let r = c
        .call_with(
            name,
            json!({}),
            json!({ "inputResponses": confirm, "requestState": other }),
        )
        .await;
    assert_eq!(r["error"]["code"], -32602, "{r}");
    assert_eq!(
        r["error"]["message"],
        "Invalid params: requestState was issued for another tool."
    );

    let name = "test_input_required_result_multiple_inputs";
    let r1 = c.call(name, json!({})).await;
    let mut keys: Vec<String> = input_requests(&r1).keys().cloned().collect();
    keys.sort();
    assert_eq!(keys, ["client_roots", "greeting", "user_name"]);
    let responses = json!({
        "user_name": elicit_answer(json!({ "name": "Alice" })),
        "greeting": { "role": "assistant", "content": { "type": "text", "text": "Hello there!" }, "model": "m" },
        "client_roots": { "roots": [{ "uri": "file:///test/root" }] },
    });
    let r2 = c
        .call_with(
            name,
            json!({}),
            json!({ "inputResponses": responses, "requestState": r1["requestState"] }),
        )
        .await;
    assert_eq!(
        r2["result"]["content"][0]["text"],
        "Name: Alice; Greeting: Hello there!; Roots: 1"
    );

    let name = "test_input_required_result_multi_round";
    let r1 = c.call(name, json!({})).await;
    assert!(input_requests(&r1).contains_key("step1"));
    let r2 = c.call_with(
        name,
        json!({}),
        json!({ "inputResponses": { "step1": elicit_answer(json!({ "name": "Alice" })) }, "requestState": r1["requestState"] }),
    ).await["result"]
        .clone();
    assert!(input_requests(&r2).contains_key("step2"));
    assert_ne!(r2["requestState"], r1["requestState"]);
    let r3 = c.call_with(
        name,
        json!({}),
        json!({ "inputResponses": { "step2": elicit_answer(json!({ "color": "blue" })) }, "requestState": r2["requestState"] }),
    ).await;
    assert_eq!(
        r3["result"]["content"][0]["text"],
        "Multi-round complete for Alice who likes blue"
    );
}

#[tokio::test]
async fn stateless_diagnostics_follow_the_declared_capabilities() {
    let c = Client::stateless().await;
    let only_sampling =
        json!({ "_meta": { "io.modelcontextprotocol/clientCapabilities": { "sampling": {} } } });
    let r = c
        .call_with(
            "test_input_required_result_capabilities",
            json!({}),
            only_sampling.clone(),
        )
        .await;
    let requests = input_requests(&r["result"]);
    assert_eq!(requests.keys().collect::<Vec<_>>(), ["sample_input"]);
    let none = json!({ "_meta": { "io.modelcontextprotocol/clientCapabilities": {} } });
    let r = c
        .call_with(
            "test_input_required_result_capabilities",
            json!({}),
            none.clone(),
        )
        .await;
    assert_eq!(
        r["result"]["content"][0]["text"],
        "No supported capabilities declared"
    );
    let e = c
        .call_with("test_missing_capability", json!({}), none.clone())
        .await;
    assert_eq!(e["error"]["code"], -32021, "{e}");
    assert_eq!(
        e["error"]["data"]["requiredCapabilities"],
        json!({ "sampling": {} })
    );
    assert_eq!(
        c.text("test_missing_capability", json!({})).await,
        "Success: the client declared sampling."
    );

    // No logLevel in _meta: no log messages.
    assert_eq!(
        c.text("test_logging_tool", json!({})).await,
        "Logging evaluated"
    );
    assert!(c.notifications("notifications/message").is_empty());
    let with_level = json!({ "_meta": { "io.modelcontextprotocol/logLevel": "info" } });
    c.call_with("test_logging_tool", json!({}), with_level)
        .await;
    assert_eq!(c.notifications("notifications/message").len(), 1);

    // Never a request on the stream: input_required instead.
    let r = c.call("test_streaming_elicitation", json!({})).await;
    assert!(input_requests(&r).contains_key("confirm"));
    assert!(c.server_requests().is_empty());

    // Task support `required`: a client without the tasks extension gets -32021.
    let e = c
        .call_with("test_tool_with_task", json!({}), json!({}))
        .await;
    assert_eq!(e["error"]["code"], -32021, "{e}");
    assert_eq!(
        e["error"]["data"]["requiredCapabilities"],
        json!({ "extensions": { TASKS: {} } })
    );

    let prompt = c
        .result(
            "prompts/get",
            json!({ "name": "test_input_required_result_prompt" }),
        )
        .await;
    assert!(input_requests(&prompt).contains_key("user_context"));
    let prompt = c.result(
        "prompts/get",
        json!({ "name": "test_input_required_result_prompt", "inputResponses": { "user_context": elicit_answer(json!({ "context": "tests" })) } }),
    ).await;
    assert_eq!(
        prompt["messages"][0]["content"]["text"],
        "Prompt with context: tests"
    );
}

#[tokio::test]
async fn the_2020_12_tool_checks_its_arguments_as_its_schema_does() {
    let c = Client::session().await;
    let tools = c.result("tools/list", json!({})).await;
    let schema = tools["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "json_schema_2020_12_tool")
        .unwrap()["inputSchema"]
        .clone();
    let validator = jsonschema::validator_for(&schema).expect("a valid 2020-12 schema");
    let cases = [
        json!({ "email": "a@b.c" }),
        json!({ "phone": "1" }),
        json!({ "phone": "1", "contactMethod": "phone" }),
        json!({ "email": "a@b.c", "contactMethod": "phone" }),
        json!({ "email": "a@b.c", "contactMethod": "email", "name": "n" }),
        json!({ "email": "a@b.c", "contactMethod": "fax" }),
        json!({ "email": "a@b.c", "address": { "street": "s", "city": "c", "zip": 1 } }),
        json!({ "email": "a@b.c", "address": { "city": 5 } }),
        json!({ "email": "a@b.c", "address": "here" }),
        json!({ "email": "a@b.c", "other": true }),
        json!({ "email": 7 }),
        json!({}),
        json!({ "name": "n" }),
    ];
    for args in cases {
        let result = c.call("json_schema_2020_12_tool", args.clone()).await;
        let accepted = result.get("isError").is_none();
        assert_eq!(accepted, validator.is_valid(&args), "{args}: {result}");
        if accepted {
            assert_eq!(
                result["content"][0]["text"],
                format!("JSON Schema 2020-12 tool called with: {args}")
            );
        }
    }
}

#[tokio::test]
async fn watched_resource_is_subscribable_and_updates_reach_subscribers() {
    let c = Client::session().await;
    let r = c
        .request(
            "resources/subscribe",
            json!({ "uri": "test://watched-resource" }),
        )
        .await;
    assert_eq!(r["result"], json!({}), "{r}");
    assert_eq!(
        c.text("test_trigger_resource_update", json!({})).await,
        "Updated test://watched-resource (update 1); 1 subscription(s) notified."
    );
    assert_eq!(
        c.notifications("notifications/resources/updated"),
        [
            json!({ "jsonrpc": "2.0", "method": "notifications/resources/updated", "params": { "uri": "test://watched-resource" } })
        ]
    );
    let watched = c
        .result(
            "resources/read",
            json!({ "uri": "test://watched-resource" }),
        )
        .await;
    assert_eq!(
        watched["contents"][0]["text"],
        "Watched resource content (update 1)"
    );
    let r = c
        .request(
            "resources/unsubscribe",
            json!({ "uri": "test://watched-resource" }),
        )
        .await;
    assert_eq!(r["result"], json!({}), "{r}");
    assert_eq!(
        c.text("test_trigger_resource_update", json!({})).await,
        "Updated test://watched-resource (update 2); 0 subscription(s) notified."
    );
    assert!(
        c.notifications("notifications/resources/updated")
            .is_empty()
    );
    let r = c
        .request(
            "resources/subscribe",
            json!({ "uri": "test://static-text" }),
        )
        .await;
    assert_eq!(r["error"]["code"], -32602, "{r}");
    let r = c
        .request("resources/subscribe", json!({ "uri": "test://nope" }))
        .await;
    assert_eq!(r["error"]["code"], -32002, "{r}");
}

const TASKS: &str = "io.modelcontextprotocol/tasks";

/// `_meta` declaring elicitation and the tasks extension.
fn with_tasks() -> Value {
    json!({ "_meta": { "io.modelcontextprotocol/clientCapabilities": {
        "elicitation": {}, "extensions": { TASKS: {} }
    } } })
}

/// Polls `tasks/get` until the task is terminal (or `until`).
async fn poll_task(c: &Client, id: &Value, until: &str) -> Value {
    for _ in 0..200 {
        let mut params = with_tasks();
        params["taskId"] = id.clone();
        let t = c.result("tasks/get", params).await;
        let status = t["status"].as_str().unwrap_or_default().to_owned();
        if status == until || ["completed", "failed", "cancelled"].contains(&status.as_str()) {
            return t;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("task {id} did not settle");
}

#[tokio::test]
async fn task_fixtures_run_as_tasks_for_a_client_with_the_extension() {
    let c = Client::stateless().await;
    let discover = c.result("server/discover", json!({})).await;
    assert!(
        discover["capabilities"]["extensions"][TASKS].is_object(),
        "{discover}"
    );

    // Sync tools stay sync.
    let r = c
        .call_with("greet", json!({ "name": "W" }), with_tasks())
        .await;
    assert_eq!(r["result"]["content"][0]["text"], "Hello, W!", "{r}");

    let r = c
        .call_with(
            "slow_compute",
            json!({ "seconds": 0, "label": "t" }),
            with_tasks(),
        )
        .await;
    assert_eq!(r["result"]["resultType"], "task", "{r}");
    let done = poll_task(&c, &r["result"]["taskId"], "completed").await;
    assert_eq!(
        done["result"]["content"][0]["text"],
        "Computed for 0 s (t)."
    );

    let r = c.call_with("failing_job", json!({}), with_tasks()).await;
    let done = poll_task(&c, &r["result"]["taskId"], "completed").await;
    assert_eq!(done["status"], "completed");
    assert_eq!(done["result"]["isError"], true, "{done}");

    let r = c
        .call_with("protocol_error_job", json!({}), with_tasks())
        .await;
    let done = poll_task(&c, &r["result"]["taskId"], "failed").await;
    assert_eq!(done["error"]["code"], -32603, "{done}");

    // Input during the task: confirm_delete parks, tasks/update resumes it.
    let r = c
        .call_with("confirm_delete", json!({ "filename": "f" }), with_tasks())
        .await;
    let id = r["result"]["taskId"].clone();
    let parked = poll_task(&c, &id, "input_required").await;
    assert!(parked["inputRequests"]["confirm"].is_object(), "{parked}");
    let mut update = with_tasks();
    update["taskId"] = id.clone();
    update["inputResponses"] = json!({ "confirm": elicit_answer(json!({ "confirm": true })) });
    c.result("tasks/update", update).await;
    let done = poll_task(&c, &id, "completed").await;
    assert_eq!(done["result"]["content"][0]["text"], "Deleted f.", "{done}");

    // Input before the task: test_tool_with_task asks synchronously, then creates a task.
    let r1 = c
        .call_with("test_tool_with_task", json!({}), with_tasks())
        .await;
    assert!(
        input_requests(&r1["result"]).contains_key("user_name"),
        "{r1}"
    );
    let mut retry = with_tasks();
    retry["inputResponses"] = json!({ "user_name": elicit_answer(json!({ "name": "Alice" })) });
    let r2 = c.call_with("test_tool_with_task", json!({}), retry).await;
    assert_eq!(r2["result"]["resultType"], "task", "{r2}");
    let done = poll_task(&c, &r2["result"]["taskId"], "completed").await;
    assert_eq!(done["result"]["content"][0]["text"], "Hello, Alice!");
}
