//! In-process tests of every method, error code and revision against the test service.

use crate::common;

use std::sync::Arc;

use common::{Client, Kitchen, Solo, kitchen_server, modern_meta, text_of};
use serde_json::{Value, json};
use toolidl_runtime::{Server, service::TOOL_FAILED};

const HANDSHAKE: [&str; 4] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

fn error_code(response: &Value) -> i64 {
    response["error"]["code"]
        .as_i64()
        .unwrap_or_else(|| panic!("not an error: {response}"))
}

#[tokio::test]
async fn initialize_echoes_each_handshake_revision_and_advertises_what_services_have() {
    for rev in HANDSHAKE {
        let mut c = Client::new(&kitchen_server());
        let r = c.initialize(rev, json!({})).await;
        let result = &r["result"];
        assert_eq!(result["protocolVersion"], rev);
        assert_eq!(
            result["serverInfo"],
            json!({"name": "kitchen", "version": "1.2.3"})
        );
        assert_eq!(result["instructions"], "Test server.");
        let mut expected = json!({"logging": {}, "prompts": {}, "resources": {}, "tools": {}});
        if rev != "2024-11-05" {
            expected["completions"] = json!({});
        }
        let caps = result["capabilities"].as_object().unwrap();
        assert_eq!(
            caps.len(),
            expected.as_object().unwrap().len(),
            "{rev}: {caps:?}"
        );
        for (k, v) in expected.as_object().unwrap() {
            assert_eq!(&caps[k], v, "{rev}: {k}");
        }
        assert!(r.get("resultType").is_none() && result.get("resultType").is_none());
    }
}

#[tokio::test]
async fn server_title_is_sent_from_2025_06_18() {
    for (rev, titled) in [("2025-03-26", false), ("2025-06-18", true)] {
        let server = Server::builder("kitchen", "1")
            .title("Kitchen")
            .service(Arc::new(Kitchen))
            .build();
        let mut c = Client::new(&server);
        let info = c.initialize(rev, json!({})).await["result"]["serverInfo"].clone();
        let expected = if titled {
            json!({"name": "kitchen", "title": "Kitchen", "version": "1"})
        } else {
            json!({"name": "kitchen", "version": "1"})
        };
        assert_eq!(info, expected, "{rev}");
    }
}

#[tokio::test]
async fn unknown_or_stateless_versions_negotiate_the_newest_handshake_revision() {
    for asked in ["1999-01-01", "2026-07-28"] {
        let mut c = Client::new(&kitchen_server());
        let r = c.initialize(asked, json!({})).await;
        assert_eq!(r["result"]["protocolVersion"], "2025-11-25");
    }
}

#[tokio::test]
async fn lifecycle_errors() {
    let mut c = Client::new(&kitchen_server());
    // Before initialize: ping works, other methods do not.
    assert_eq!(c.request(1, "ping", json!({})).await["result"], json!({}));
    assert_eq!(
        error_code(&c.request(2, "tools/list", json!({})).await),
        -32600
    );
    c.initialize("2025-06-18", json!({})).await;
    assert_eq!(
        error_code(
            &c.request(3, "initialize", json!({"protocolVersion": "2025-06-18"}))
                .await
        ),
        -32600
    );
    assert_eq!(c.request(4, "ping", json!(null)).await["result"], json!({}));
    assert_eq!(
        error_code(&c.request(5, "no/such", json!({})).await),
        -32601
    );
    assert_eq!(
        error_code(
            &c.request(6, "resources/subscribe", json!({"uri": "x"}))
                .await
        ),
        -32601
    );
}

#[tokio::test]
async fn framing_errors_get_answers_and_the_server_keeps_going() {
    let mut c = Client::new(&kitchen_server());
    c.send_raw("{not json");
    let r = c.next().await;
    assert_eq!(
        r,
        json!({"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error."}})
    );
    c.conn
        .as_ref()
        .unwrap()
        .handle_bytes(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"p\xffng\"}");
    assert_eq!(error_code(&c.next().await), -32700);
    c.send_raw(r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#);
    let r = c.next().await;
    assert_eq!(error_code(&r), -32600);
    assert!(r["error"]["message"].as_str().unwrap().contains("batches"));
    c.send_raw(r#"{"id":2,"method":"ping"}"#);
    let r = c.next().await;
    assert_eq!((error_code(&r), &r["id"]), (-32600, &json!(2)));
    c.send_raw(r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#);
    assert_eq!(error_code(&c.next().await), -32600);
    c.send_raw(r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#);
    let r = c.next().await;
    assert_eq!((error_code(&r), &r["id"]), (-32600, &Value::Null));
    c.send_raw(r#"{"jsonrpc":"2.0","id":3}"#);
    assert_eq!(error_code(&c.next().await), -32600);
    c.send_raw(r#"42"#);
    assert_eq!(error_code(&c.next().await), -32600);
    // Params that are not an object.
    c.send_raw(r#"{"jsonrpc":"2.0","id":"s","method":"ping","params":[1]}"#);
    let r = c.next().await;
    assert_eq!((error_code(&r), &r["id"]), (-32602, &json!("s")));
    // An unknown notification gets no answer; the next request does.
    c.send(json!({"jsonrpc": "2.0", "method": "notifications/whatever"}));
    let r = c.request(7, "ping", json!({})).await;
    assert_eq!(r, json!({"jsonrpc": "2.0", "id": 7, "result": {}}));
    assert!(c.other.is_empty(), "{:?}", c.other);
}

#[tokio::test]
async fn tool_results_follow_seed_000() {
    let mut c = Client::new(&kitchen_server());
    c.initialize("2025-06-18", json!({})).await;
    let cases = [
        ("empty", json!({"content": []})),
        (
            "text",
            json!({"content": [{"type": "text", "text": "hi \"there\""}]}),
        ),
        (
            "json_list",
            json!({"content": [{"type": "text", "text": "[1,2,3]"}]}),
        ),
        (
            "enum_name",
            json!({"content": [{"type": "text", "text": "celsius"}]}),
        ),
        (
            "record",
            json!({"content": [{"type": "text", "text": "{\"city\":\"Oslo\",\"temp\":3}"}], "structuredContent": {"city": "Oslo", "temp": 3}}),
        ),
        (
            "null_record",
            json!({"content": [{"type": "text", "text": "null"}]}),
        ),
        (
            "content",
            json!({"content": [{"type": "text", "text": "a"}, {"type": "image", "data": "cG5n", "mimeType": "image/png"}]}),
        ),
        (
            "call_result",
            json!({"content": [{"type": "text", "text": "raw"}], "structuredContent": {"k": 1}, "isError": false}),
        ),
        (
            "user_error",
            json!({"content": [{"type": "text", "text": "The city is unknown."}], "isError": true}),
        ),
        (
            "internal_error",
            json!({"content": [{"type": "text", "text": TOOL_FAILED}], "isError": true}),
        ),
        (
            "panics",
            json!({"content": [{"type": "text", "text": TOOL_FAILED}], "isError": true}),
        ),
        (
            "panics_later",
            json!({"content": [{"type": "text", "text": TOOL_FAILED}], "isError": true}),
        ),
    ];
    for (i, (tool, expected)) in cases.into_iter().enumerate() {
        let r = c.call(i as i64 + 10, tool, json!({})).await;
        assert_eq!(r["result"], expected, "{tool}");
        assert!(!r.to_string().contains("hunter2") && !r.to_string().contains("secret"));
    }
    // The server still serves after the panics.
    assert_eq!(
        text_of(&c.call(99, "text", json!({})).await),
        "hi \"there\""
    );
}

#[tokio::test]
async fn structured_content_is_left_out_before_2025_06_18() {
    let mut c = Client::new(&kitchen_server());
    c.initialize("2025-03-26", json!({})).await;
    let r = c.call(1, "record", json!({})).await;
    assert_eq!(
        r["result"],
        json!({"content": [{"type": "text", "text": "{\"city\":\"Oslo\",\"temp\":3}"}]})
    );
    let r = c.call(2, "call_result", json!({})).await;
    assert!(r["result"].get("structuredContent").is_none());
}

#[tokio::test]
async fn tool_call_protocol_errors_and_argument_errors() {
    let mut c = Client::new(&kitchen_server());
    c.initialize("2025-11-25", json!({})).await;
    let r = c.call(1, "nope", json!({})).await;
    assert_eq!(error_code(&r), -32602);
    let listed = c.request(90, "tools/list", json!({})).await;
    let mut names: Vec<String> = listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| format!("'{}'", t["name"].as_str().unwrap()))
        .collect();
    names.sort();
    // A few tools are named, more are left to tools/list; a typo of one names it alone.
    let expected = if names.len() <= 8 {
        format!("Unknown tool: nope. Tools: {}.", names.join(", "))
    } else {
        format!(
            "Unknown tool: nope. tools/list lists its {} tools.",
            names.len()
        )
    };
    assert_eq!(r["error"]["message"], expected, "{listed}");
    let r = c.call(91, "ordr", json!({})).await;
    assert_eq!(
        r["error"]["message"],
        "Unknown tool: ordr. Did you mean 'order'?"
    );
    assert_eq!(
        error_code(&c.request(2, "tools/call", json!({"arguments": {}})).await),
        -32602
    );
    assert_eq!(error_code(&c.call(3, "order", json!([1])).await), -32602);
    let cases = [
        (
            json!({}),
            "Argument 'items' is not valid. A value is required.",
        ),
        (
            json!(null),
            "Argument 'items' is not valid. A value is required.",
        ),
        (
            json!({"items": null}),
            "Argument 'items' is not valid. Null is not allowed.",
        ),
        (
            json!({"items": {}}),
            "Argument 'items' is not valid. Expected an array.",
        ),
        (
            json!({"items": [], "x": 1}),
            "Argument 'x' is not valid. Unknown property.",
        ),
        (
            json!({"items": [{"qty": 1}, {"qty": 11}]}),
            "Argument 'items[1].qty' is not valid. Expected a value from 1 to 10.",
        ),
        (
            json!({"items": [{"qty": 300}]}),
            "Argument 'items[0].qty' is not valid. Expected an integer from 0 to 255.",
        ),
        (
            json!({"items": [{"qty": "2"}]}),
            "Argument 'items[0].qty' is not valid. Expected an integer.",
        ),
        (
            json!({"items": [{}]}),
            "Argument 'items[0].qty' is not valid. A value is required.",
        ),
        (
            json!({"items": [{"qty": 2, "extra": true}]}),
            "Argument 'items[0].extra' is not valid. Unknown property.",
        ),
    ];
    for (i, (arguments, text)) in cases.into_iter().enumerate() {
        let r = c.call(10 + i as i64, "order", arguments.clone()).await;
        assert_eq!(r["result"]["isError"], true, "{arguments}");
        assert_eq!(text_of(&r), text, "{arguments}");
    }
    let ok = c
        .call(30, "order", json!({"items": [{"qty": 2}, {"qty": 10.0}]}))
        .await;
    assert_eq!(text_of(&ok), "[2,10]");
}

#[tokio::test]
async fn tools_list_is_paged_in_a_stable_order_and_fits_each_revision() {
    let server = Server::builder("kitchen", "1")
        .page_size(7)
        .service(Arc::new(Kitchen))
        .build();
    let mut c = Client::new(&server);
    c.initialize("2025-11-25", json!({})).await;
    let mut names = Vec::new();
    let mut cursor: Option<String> = None;
    for page in 0.. {
        let params = match &cursor {
            Some(cur) => json!({"cursor": cur}),
            None => json!({}),
        };
        let r = c.request(page + 1, "tools/list", params).await;
        let tools = r["result"]["tools"].as_array().unwrap();
        assert!(tools.len() <= 7);
        names.extend(tools.iter().map(|t| t["name"].as_str().unwrap().to_owned()));
        match r["result"].get("nextCursor") {
            Some(next) => cursor = Some(next.as_str().unwrap().to_owned()),
            None => break,
        }
    }
    let expected: Vec<_> = common::TOOLS.iter().map(|t| t.name.to_string()).collect();
    assert_eq!(names, expected);
    assert_eq!(
        error_code(
            &c.request(50, "tools/list", json!({"cursor": "bogus"}))
                .await
        ),
        -32602
    );
    assert_eq!(
        error_code(&c.request(51, "tools/list", json!({"cursor": "999"})).await),
        -32602
    );

    // The `order` tool as each revision sees it.
    let expect_keys: [(&str, &[&str]); 5] = [
        ("2024-11-05", &["name", "description", "inputSchema"]),
        (
            "2025-03-26",
            &["name", "description", "inputSchema", "annotations"],
        ),
        (
            "2025-06-18",
            &[
                "name",
                "title",
                "description",
                "inputSchema",
                "outputSchema",
                "annotations",
                "_meta",
            ],
        ),
        (
            "2025-11-25",
            &[
                "name",
                "title",
                "description",
                "inputSchema",
                "outputSchema",
                "annotations",
                "icons",
                "execution",
                "_meta",
            ],
        ),
        (
            "2026-07-28",
            &[
                "name",
                "title",
                "description",
                "inputSchema",
                "outputSchema",
                "annotations",
                "icons",
                "_meta",
            ],
        ),
    ];
    for (rev, keys) in expect_keys {
        let server = Server::builder("k", "1").service(Arc::new(Kitchen)).build();
        let mut c = Client::new(&server);
        let params = if rev == "2026-07-28" {
            json!({"_meta": modern_meta(json!({}))})
        } else {
            c.initialize(rev, json!({})).await;
            json!({})
        };
        let r = c.request(1, "tools/list", params).await;
        let order = r["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == "order")
            .unwrap();
        let got: Vec<_> = order.as_object().unwrap().keys().cloned().collect();
        assert_eq!(got, keys, "{rev}");
    }
}

#[tokio::test]
async fn calls_run_concurrently_and_answer_in_any_order() {
    let mut c = Client::new(&kitchen_server());
    c.initialize("2025-06-18", json!({})).await;
    c.send(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "slow", "arguments": {"ms": 300}}}));
    c.send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "slow", "arguments": {"ms": 10}}}));
    c.send(json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "text", "arguments": {}}}));
    let order: Vec<Value> = vec![
        c.next().await["id"].clone(),
        c.next().await["id"].clone(),
        c.next().await["id"].clone(),
    ];
    assert_eq!(order, vec![json!(3), json!(2), json!(1)]);
}

#[tokio::test]
async fn cancellation_drops_the_call_and_sends_nothing_for_it() {
    let mut c = Client::new(&kitchen_server());
    c.initialize("2025-06-18", json!({})).await;
    c.send(json!({"jsonrpc": "2.0", "id": "long", "method": "tools/call", "params": {"name": "slow", "arguments": {"ms": 3000}}}));
    c.send(json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "long", "reason": "user"}}));
    // Cancelling an unknown or finished request is harmless.
    c.send(json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 404}}));
    assert_eq!(text_of(&c.call(2, "text", json!({})).await), "hi \"there\"");
    let rest = c.close().await;
    assert!(rest.is_empty(), "{rest:?}");
    assert!(c.other.is_empty(), "{:?}", c.other);
}

#[tokio::test]
async fn end_of_input_finishes_calls_in_flight() {
    let mut c = Client::new(&kitchen_server());
    c.initialize("2025-06-18", json!({})).await;
    c.send(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "slow", "arguments": {"ms": 100}}}));
    let rest = c.close().await;
    assert_eq!(rest.len(), 1);
    assert_eq!(rest[0]["result"]["content"][0]["text"], "slept 100");
}

#[tokio::test]
async fn progress_and_logging_follow_the_request_and_the_level() {
    for (rev, with_message) in [("2024-11-05", false), ("2025-06-18", true)] {
        let mut c = Client::new(&kitchen_server());
        c.initialize(rev, json!({})).await;
        // No level set: no log messages, progress only with a token.
        c.request(
            1,
            "tools/call",
            json!({"name": "progress", "arguments": {}}),
        )
        .await;
        assert!(c.other.is_empty(), "{:?}", c.other);
        assert_eq!(
            c.request(2, "logging/setLevel", json!({"level": "info"}))
                .await["result"],
            json!({})
        );
        assert_eq!(
            error_code(
                &c.request(3, "logging/setLevel", json!({"level": "loud"}))
                    .await
            ),
            -32602
        );
        c.request(
            4,
            "tools/call",
            json!({"name": "progress", "arguments": {}, "_meta": {"progressToken": "tok"}}),
        )
        .await;
        let mut first = json!({"progressToken": "tok", "progress": 1.0, "total": 2.0});
        if with_message {
            first["message"] = json!("half");
        }
        assert_eq!(
            c.other,
            vec![
                json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": first}),
                json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "logger": "kitchen", "data": "info message"}}),
                json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "tok", "progress": 2.0, "total": 2.0}}),
            ],
            "{rev}"
        );
    }
}

#[tokio::test]
async fn sampling_and_elicitation_are_requests_to_the_client() {
    let mut c = Client::new(&kitchen_server());
    c.initialize("2025-06-18", json!({"sampling": {}, "elicitation": {}}))
        .await;
    c.send(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "sample", "arguments": {}}}));
    let req = c.next().await;
    assert_eq!(req["method"], "sampling/createMessage");
    assert_eq!(req["params"], json!({"messages": [], "maxTokens": 5}));
    c.send(json!({"jsonrpc": "2.0", "id": req["id"], "result": {"role": "assistant", "content": {"type": "text", "text": "Paris"}, "model": "m"}}));
    assert_eq!(text_of(&c.response(json!(1)).await), "Paris");

    c.send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "elicit", "arguments": {}}}));
    let req = c.next().await;
    assert_eq!(req["method"], "elicitation/create");
    c.send(json!({"jsonrpc": "2.0", "id": req["id"], "error": {"code": -32001, "message": "declined"}}));
    let r = c.response(json!(2)).await;
    assert_eq!(
        (error_code(&r), r["error"]["message"].as_str()),
        (-32001, Some("declined"))
    );
}

#[tokio::test]
async fn roots_are_a_request_to_the_client() {
    let mut c = Client::new(&kitchen_server());
    c.initialize("2025-03-26", json!({"roots": {"listChanged": true}}))
        .await;
    c.send(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "roots", "arguments": {}}}));
    let req = c.next().await;
    assert_eq!(
        (&req["method"], &req["params"]),
        (&json!("roots/list"), &json!({}))
    );
    c.send(json!({"jsonrpc": "2.0", "id": req["id"], "result": {"roots": [{"uri": "file:///w"}]}}));
    assert_eq!(
        text_of(&c.response(json!(1)).await),
        r#"[{"uri":"file:///w"}]"#
    );
}

#[tokio::test]
async fn requests_to_the_client_need_its_capability() {
    let mut c = Client::new(&kitchen_server());
    c.initialize("2025-06-18", json!({})).await;
    let r = c.call(1, "sample", json!({})).await;
    assert_eq!(error_code(&r), -32021);
    assert_eq!(
        r["error"]["data"],
        json!({"requiredCapabilities": {"sampling": {}}})
    );
    let r = c.call(2, "needs_elicitation", json!({})).await;
    assert_eq!(error_code(&r), -32021);

    // Elicitation exists from 2025-06-18: an older session never gets `elicitation/create`,
    // even from a client that lists the capability.
    for rev in ["2024-11-05", "2025-03-26"] {
        let mut c = Client::new(&kitchen_server());
        c.initialize(rev, json!({"elicitation": {}, "sampling": {}}))
            .await;
        let r = c.call(3, "elicit", json!({})).await;
        assert_eq!(error_code(&r), -32021, "{rev}");
        assert_eq!(
            r["error"]["data"],
            json!({"requiredCapabilities": {"elicitation": {}}})
        );
        assert!(c.other.is_empty(), "{rev}: {:?}", c.other);
    }
}

#[tokio::test]
async fn client_info_and_revision_reach_the_handler() {
    let mut c = Client::new(&kitchen_server());
    c.initialize("2025-03-26", json!({"sampling": {}})).await;
    let r = c.call(1, "context", json!({})).await;
    let s: Value = serde_json::from_str(text_of(&r)).unwrap();
    assert_eq!(
        s,
        json!({"revision": "2025-03-26", "client": {"name": "tester", "version": "9"}, "sampling": true})
    );
    let r = c
        .request(
            2,
            "tools/call",
            json!({"name": "context", "_meta": modern_meta(json!({}))}),
        )
        .await;
    assert_eq!(
        r["result"]["structuredContent"],
        json!({"revision": "2026-07-28", "client": {"name": "modern", "version": "1"}, "sampling": false})
    );
}

/// An MCP Apps view's `_meta.ui` goes with its content from 2025-06-18 on (the Apps
/// extension puts it there); before, contents have no `_meta`, as listed resources have none.
#[tokio::test]
async fn a_view_s_content_meta_is_sent_where_the_revision_has_it() {
    for (rev, kept) in [
        ("2024-11-05", false),
        ("2025-03-26", false),
        ("2025-06-18", true),
        ("2025-11-25", true),
    ] {
        let mut c = Client::new(&kitchen_server());
        c.initialize(rev, json!({})).await;
        let r = c
            .request(
                1,
                "resources/read",
                json!({"uri": "ui://kitchen/view.html"}),
            )
            .await;
        let content = &r["result"]["contents"][0];
        assert_eq!(content["text"], "<p>view</p>", "{rev}");
        let meta = kept.then(|| json!({"ui": {"prefersBorder": true}}));
        assert_eq!(content.get("_meta").cloned(), meta, "{rev}");
    }
    let mut c = Client::new(&kitchen_server());
    let meta = modern_meta(json!({}));
    let r = c
        .request(
            2,
            "resources/read",
            json!({"_meta": meta, "uri": "ui://kitchen/view.html"}),
        )
        .await;
    assert_eq!(
        r["result"]["contents"][0]["_meta"],
        json!({"ui": {"prefersBorder": true}})
    );
}

#[tokio::test]
async fn resources_list_read_and_not_found() {
    let mut c = Client::new(&kitchen_server());
    c.initialize("2025-06-18", json!({})).await;
    let r = c.request(1, "resources/list", json!({})).await;
    assert_eq!(
        r["result"],
        json!({"resources": [{"uri": "mem://readme", "name": "readme", "mimeType": "text/plain"}]})
    );
    let r = c.request(2, "resources/templates/list", json!({})).await;
    assert_eq!(
        r["result"]["resourceTemplates"][0]["uriTemplate"],
        "mem://notes/{id}"
    );
    let r = c
        .request(3, "resources/read", json!({"uri": "mem://readme"}))
        .await;
    assert_eq!(
        r["result"],
        json!({"contents": [{"uri": "mem://readme", "mimeType": "text/plain", "text": "read me"}]})
    );
    let r = c
        .request(4, "resources/read", json!({"uri": "mem://notes/7"}))
        .await;
    assert_eq!(r["result"]["contents"][0]["text"], "# note 7");
    let r = c
        .request(5, "resources/read", json!({"uri": "mem://other"}))
        .await;
    assert_eq!(error_code(&r), -32002);
    assert_eq!(r["error"]["data"], json!({"uri": "mem://other"}));
    assert_eq!(
        error_code(&c.request(6, "resources/read", json!({})).await),
        -32602
    );
}

#[tokio::test]
async fn prompts_and_completion() {
    let mut c = Client::new(&kitchen_server());
    c.initialize("2025-06-18", json!({})).await;
    let r = c.request(1, "prompts/list", json!({})).await;
    assert_eq!(r["result"]["prompts"][0]["name"], "summarize");
    let r = c
        .request(
            2,
            "prompts/get",
            json!({"name": "summarize", "arguments": {"city": "Oslo"}}),
        )
        .await;
    assert_eq!(
        r["result"],
        json!({"description": "Summary", "messages": [{"role": "user", "content": {"type": "text", "text": "Summarize Oslo."}}]})
    );
    assert_eq!(
        error_code(
            &c.request(3, "prompts/get", json!({"name": "summarize"}))
                .await
        ),
        -32602
    );
    assert_eq!(
        error_code(&c.request(4, "prompts/get", json!({"name": "other"})).await),
        -32602
    );
    let r = c
        .request(5, "completion/complete", json!({"ref": {"type": "ref/prompt", "name": "summarize"}, "argument": {"name": "city", "value": "Os"}}))
        .await;
    assert_eq!(
        r["result"],
        json!({"completion": {"values": ["Oslo", "Osaka"], "total": 2}})
    );
    let r = c
        .request(6, "completion/complete", json!({"ref": {"type": "ref/resource", "uri": "mem://x"}, "argument": {"name": "a", "value": ""}}))
        .await;
    assert_eq!(r["result"], json!({"completion": {"values": []}}));
    assert_eq!(
        error_code(
            &c.request(7, "completion/complete", json!({"ref": {"type": "bad"}}))
                .await
        ),
        -32602
    );
}

#[tokio::test]
async fn only_what_the_services_have_is_advertised_and_served() {
    let server = Server::builder("solo", "1").service(Arc::new(Solo)).build();
    let mut c = Client::new(&server);
    let r = c.initialize("2025-06-18", json!({})).await;
    assert_eq!(
        r["result"]["capabilities"],
        json!({"logging": {}, "tools": {}})
    );
    for (i, m) in [
        "resources/list",
        "resources/read",
        "prompts/list",
        "prompts/get",
        "completion/complete",
    ]
    .iter()
    .enumerate()
    {
        assert_eq!(
            error_code(&c.request(i as i64 + 1, m, json!({})).await),
            -32601,
            "{m}"
        );
    }
}

#[tokio::test]
async fn list_changed_is_advertised_and_sent_only_when_enabled() {
    let dynamic = Server::builder("d", "1")
        .list_changed(true)
        .service(Arc::new(Kitchen))
        .build();
    let mut c = Client::new(&dynamic);
    let r = c.initialize("2025-06-18", json!({})).await;
    assert_eq!(
        r["result"]["capabilities"]["tools"],
        json!({"listChanged": true})
    );
    let solo: Arc<dyn toolidl_runtime::Service> = Arc::new(Solo);
    dynamic.add_service(solo.clone());
    assert_eq!(
        c.next().await,
        json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed", "params": {}})
    );
    let r = c.call(1, "solo", json!({})).await;
    assert_eq!(text_of(&r), "solo");
    dynamic.remove_service(&solo);
    assert_eq!(c.next().await["method"], "notifications/tools/list_changed");
    assert_eq!(error_code(&c.call(2, "solo", json!({})).await), -32602);

    let fixed = kitchen_server();
    let mut c = Client::new(&fixed);
    let r = c.initialize("2025-06-18", json!({})).await;
    assert_eq!(r["result"]["capabilities"]["tools"], json!({}));
    fixed.add_service(Arc::new(Solo));
    let r = c.request(3, "ping", json!({})).await;
    assert_eq!(r["result"], json!({}));
    assert!(c.other.is_empty());
}

#[tokio::test]
async fn revision_2026_07_28_is_stateless_with_per_request_meta() {
    let mut c = Client::new(&kitchen_server());
    let meta = modern_meta(json!({}));
    let info =
        json!({"io.modelcontextprotocol/serverInfo": {"name": "kitchen", "version": "1.2.3"}});

    let r = c
        .request(1, "server/discover", json!({"_meta": meta}))
        .await;
    let result = &r["result"];
    assert_eq!(result["resultType"], "complete");
    assert_eq!(result["supportedVersions"], json!(["2026-07-28"]));
    assert_eq!(result["capabilities"]["tools"], json!({}));
    assert_eq!(result["instructions"], "Test server.");
    assert_eq!(
        (&result["ttlMs"], &result["cacheScope"]),
        (&json!(0), &json!("public"))
    );
    assert_eq!(result["_meta"], info);
    // The stdio probe may come without _meta.
    assert_eq!(
        c.request(2, "server/discover", json!({})).await["result"]["resultType"],
        "complete"
    );

    let r = c.request(3, "tools/list", json!({"_meta": meta})).await;
    assert_eq!(r["result"]["resultType"], "complete");
    assert!(r["result"]["ttlMs"].is_u64() && r["result"]["cacheScope"].is_string());
    let r = c
        .request(
            4,
            "tools/call",
            json!({"_meta": meta, "name": "record", "arguments": {}}),
        )
        .await;
    assert_eq!(r["result"]["resultType"], "complete");
    assert_eq!(
        r["result"]["structuredContent"],
        json!({"city": "Oslo", "temp": 3})
    );
    assert_eq!(r["result"]["_meta"], info);
    assert!(r["result"].get("ttlMs").is_none());
    let r = c
        .request(
            5,
            "resources/read",
            json!({"_meta": meta, "uri": "mem://readme"}),
        )
        .await;
    assert_eq!(
        (&r["result"]["resultType"], &r["result"]["cacheScope"]),
        (&json!("complete"), &json!("public"))
    );
    let r = c
        .request(
            6,
            "resources/read",
            json!({"_meta": meta, "uri": "mem://none"}),
        )
        .await;
    assert_eq!(error_code(&r), -32602);
    let r = c
        .request(
            7,
            "prompts/get",
            json!({"_meta": meta, "name": "summarize", "arguments": {"city": "Rome"}}),
        )
        .await;
    assert_eq!(r["result"]["resultType"], "complete");
    assert!(r["result"].get("ttlMs").is_none());

    // Handshake-only methods do not exist in this revision.
    for (i, m) in ["ping", "logging/setLevel", "initialize"]
        .iter()
        .enumerate()
    {
        assert_eq!(
            error_code(&c.request(10 + i as i64, m, json!({"_meta": meta})).await),
            -32601,
            "{m}"
        );
    }
}

#[tokio::test]
async fn revision_2026_07_28_errors() {
    let mut c = Client::new(&kitchen_server());
    for (i, v) in ["1900-01-01", "2025-06-18"].iter().enumerate() {
        let meta = json!({"io.modelcontextprotocol/protocolVersion": v, "io.modelcontextprotocol/clientCapabilities": {}});
        let r = c
            .request(i as i64, "tools/list", json!({"_meta": meta}))
            .await;
        assert_eq!(
            r["error"],
            json!({"code": -32022, "message": "Unsupported protocol version", "data": {"supported": ["2026-07-28"], "requested": v}})
        );
    }
    let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28"});
    assert_eq!(
        error_code(&c.request(5, "tools/list", json!({"_meta": meta})).await),
        -32602
    );
    // A malformed `_meta` (capabilities that are not an object, a log level that is not a
    // `LoggingLevel`) is invalid params on every method, not only on tool calls.
    for (i, (caps, level)) in [
        (json!(5), json!("info")),
        (json!(null), json!("info")),
        (json!([]), json!("info")),
        (json!({}), json!("loud")),
        (json!({}), json!(3)),
    ]
    .into_iter()
    .enumerate()
    {
        let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": caps,
            "io.modelcontextprotocol/logLevel": level});
        for method in ["tools/list", "server/discover"] {
            let r = c
                .request(20 + i as i64, method, json!({"_meta": meta}))
                .await;
            assert_eq!(error_code(&r), -32602, "{method} {meta}");
        }
    }
    let r = c
        .request(
            6,
            "tools/call",
            json!({"_meta": modern_meta(json!({})), "name": "needs_elicitation"}),
        )
        .await;
    assert_eq!(
        r["error"],
        json!({"code": -32021, "message": "Server requires the elicitation capability for this request", "data": {"requiredCapabilities": {"elicitation": {}}}})
    );
    // Sampling as a request does not exist under 2026-07-28.
    let r = c
        .request(
            7,
            "tools/call",
            json!({"_meta": modern_meta(json!({"sampling": {}})), "name": "sample"}),
        )
        .await;
    assert_eq!(error_code(&r), -32603);
}

#[tokio::test]
async fn input_required_round_trip() {
    let mut c = Client::new(&kitchen_server());
    let meta = modern_meta(json!({"elicitation": {}}));
    let r = c
        .request(
            1,
            "tools/call",
            json!({"_meta": meta, "name": "input_required", "arguments": {}}),
        )
        .await;
    let result = &r["result"];
    assert_eq!(result["resultType"], "input_required");
    assert_eq!(
        result["inputRequests"]["login"]["method"],
        "elicitation/create"
    );
    // The handler's state (`s1`) goes out sealed (runtime/tests/it/request_state.rs), and
    // comes back to it plain. (Not `!state.contains("s1")`: random sealed text holds those
    // two characters one time in fifteen.)
    let state = result["requestState"].as_str().unwrap();
    assert!(state != "s1" && state.len() > 40, "{state}");
    let retry = json!({
        "_meta": meta, "name": "input_required", "arguments": {},
        "inputResponses": {"login": {"action": "accept", "content": {"name": "octocat"}}},
        "requestState": state
    });
    let r = c.request(2, "tools/call", retry).await;
    assert_eq!(r["result"]["resultType"], "complete");
    assert_eq!(text_of(&r), "hello octocat, state s1");
    // Under a handshake revision the flow is refused as an internal failure of the tool.
    let mut legacy = Client::new(&kitchen_server());
    legacy.initialize("2025-11-25", json!({})).await;
    let r = legacy.call(3, "input_required", json!({})).await;
    assert_eq!(text_of(&r), TOOL_FAILED);
}

#[tokio::test]
async fn modern_logging_needs_the_per_request_level() {
    let mut c = Client::new(&kitchen_server());
    let mut meta = modern_meta(json!({}));
    c.request(1, "tools/call", json!({"_meta": meta, "name": "progress"}))
        .await;
    assert!(c.other.is_empty());
    meta["io.modelcontextprotocol/logLevel"] = json!("debug");
    c.request(2, "tools/call", json!({"_meta": meta, "name": "progress"}))
        .await;
    let levels: Vec<_> = c
        .other
        .iter()
        .map(|m| m["params"]["level"].clone())
        .collect();
    assert_eq!(levels, vec![json!("info"), json!("debug")]);
    meta["io.modelcontextprotocol/logLevel"] = json!("chatty");
    assert_eq!(
        error_code(
            &c.request(3, "tools/call", json!({"_meta": meta, "name": "progress"}))
                .await
        ),
        -32602
    );
}

#[tokio::test]
async fn subscriptions_listen_carries_list_changes_under_2026_07_28() {
    let dynamic = Server::builder("d", "1")
        .list_changed(true)
        .service(Arc::new(Kitchen))
        .build();
    let mut c = Client::new(&dynamic);
    let params = json!({
        "_meta": modern_meta(json!({})),
        "notifications": {"toolsListChanged": true, "resourcesListChanged": false, "resourceSubscriptions": ["mem://readme"]}
    });
    c.send(json!({"jsonrpc": "2.0", "id": "listen-1", "method": "subscriptions/listen", "params": params}));
    assert_eq!(
        c.next().await,
        json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged", "params": {
            "_meta": {"io.modelcontextprotocol/subscriptionId": "listen-1"},
            "notifications": {"toolsListChanged": true}
        }})
    );
    let solo: Arc<dyn toolidl_runtime::Service> = Arc::new(Solo);
    dynamic.add_service(solo.clone());
    assert_eq!(
        c.next().await,
        json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed", "params": {
            "_meta": {"io.modelcontextprotocol/subscriptionId": "listen-1"}
        }})
    );
    // Cancelling the listen request closes the stream: no response, no more notifications.
    c.send(json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "listen-1"}}));
    dynamic.remove_service(&solo);
    let r = c
        .request(
            2,
            "server/discover",
            json!({"_meta": modern_meta(json!({}))}),
        )
        .await;
    assert_eq!(
        r["result"]["capabilities"]["tools"],
        json!({"listChanged": true})
    );
    assert!(c.other.is_empty(), "{:?}", c.other);

    // Without run-time changes nothing is honored; handshake sessions cannot listen.
    let mut c = Client::new(&kitchen_server());
    let params =
        json!({"_meta": modern_meta(json!({})), "notifications": {"toolsListChanged": true}});
    c.send(json!({"jsonrpc": "2.0", "id": 5, "method": "subscriptions/listen", "params": params}));
    assert_eq!(c.next().await["params"]["notifications"], json!({}));
    assert_eq!(
        error_code(
            &c.request(
                6,
                "subscriptions/listen",
                json!({"_meta": modern_meta(json!({}))})
            )
            .await
        ),
        -32602
    );
    c.initialize("2025-11-25", json!({})).await;
    assert_eq!(
        error_code(
            &c.request(7, "subscriptions/listen", json!({"notifications": {}}))
                .await
        ),
        -32601
    );
}

#[tokio::test]
async fn cache_hints_are_configurable() {
    let server = Server::builder("k", "1")
        .cache(5000, true)
        .service(Arc::new(Kitchen))
        .build();
    let mut c = Client::new(&server);
    let r = c
        .request(1, "prompts/list", json!({"_meta": modern_meta(json!({}))}))
        .await;
    assert_eq!(
        (&r["result"]["ttlMs"], &r["result"]["cacheScope"]),
        (&json!(5000), &json!("private"))
    );
}

#[tokio::test]
async fn a_tool_name_listed_twice_is_served_by_the_first_service() {
    struct Shadow;
    impl toolidl_runtime::Service for Shadow {
        fn tools(&self) -> &[toolidl_runtime::service::ToolDef] {
            &common::SOLO
        }
        fn call_tool(
            self: Arc<Self>,
            _: &str,
            _: toolidl_runtime::args::Arguments<'_>,
            _: toolidl_runtime::RequestContext,
        ) -> toolidl_runtime::service::BoxFuture<toolidl_runtime::ToolResult> {
            Box::pin(async { Ok(toolidl_runtime::ToolOutput::text("shadow")) })
        }
    }
    let server = Server::builder("k", "1")
        .service(Arc::new(Solo))
        .service(Arc::new(Shadow))
        .build();
    let mut c = Client::new(&server);
    c.initialize("2025-06-18", json!({})).await;
    let r = c.request(1, "tools/list", json!({})).await;
    assert_eq!(r["result"]["tools"].as_array().unwrap().len(), 1);
    assert_eq!(text_of(&c.call(2, "solo", json!({})).await), "solo");
}

#[test]
fn error_codes_are_the_specification_numbers() {
    use toolidl_runtime::protocol::code;
    assert_eq!(
        [
            code::PARSE_ERROR,
            code::INVALID_REQUEST,
            code::METHOD_NOT_FOUND,
            code::INVALID_PARAMS,
            code::INTERNAL_ERROR,
            code::RESOURCE_NOT_FOUND,
            code::HEADER_MISMATCH,
            code::MISSING_REQUIRED_CLIENT_CAPABILITY,
            code::UNSUPPORTED_PROTOCOL_VERSION,
        ],
        [
            -32700, -32600, -32601, -32602, -32603, -32002, -32020, -32021, -32022
        ]
    );
    // -32020 (HTTP header mismatch) has no cause on stdio; a handler may still return it.
    let e = toolidl_runtime::RpcError::new(code::HEADER_MISMATCH, "Header mismatch");
    assert_eq!(e.code, -32020);
}

/// Listings with every optional key the revisions added over time.
struct Decorated;

static DECORATED_RESOURCES: [toolidl_runtime::service::ListingDef; 1] = [
    toolidl_runtime::service::ListingDef::new(
        r#"{"uri":"mem://a","name":"a","title":"A","description":"d","mimeType":"text/plain","annotations":{"priority":1},"icons":[{"src":"https://example.org/a.png"}],"_meta":{"k":1}}"#,
    ),
];
static DECORATED_TEMPLATES: [toolidl_runtime::service::ListingDef; 1] = [
    toolidl_runtime::service::ListingDef::new(
        r#"{"uriTemplate":"mem://t/{x}","name":"t","title":"T","icons":[{"src":"https://example.org/t.png"}],"_meta":{"k":1}}"#,
    ),
];
static DECORATED_PROMPTS: [toolidl_runtime::service::ListingDef; 1] = [
    toolidl_runtime::service::ListingDef::new(
        r#"{"name":"p","title":"P","arguments":[{"name":"x","title":"X","required":true}],"icons":[{"src":"https://example.org/p.png"}],"_meta":{"k":1}}"#,
    ),
];

impl toolidl_runtime::Service for Decorated {
    fn call_tool(
        self: Arc<Self>,
        _name: &str,
        _args: toolidl_runtime::args::Arguments<'_>,
        _ctx: toolidl_runtime::RequestContext,
    ) -> toolidl_runtime::service::BoxFuture<toolidl_runtime::ToolResult> {
        Box::pin(async { Ok(toolidl_runtime::ToolOutput::Empty) })
    }
    fn resources(&self) -> &[toolidl_runtime::service::ListingDef] {
        &DECORATED_RESOURCES
    }
    fn resource_templates(&self) -> &[toolidl_runtime::service::ListingDef] {
        &DECORATED_TEMPLATES
    }
    fn prompts(&self) -> &[toolidl_runtime::service::ListingDef] {
        &DECORATED_PROMPTS
    }
}

#[tokio::test]
async fn resource_and_prompt_listings_carry_only_keys_their_revision_defines() {
    let server = Server::builder("d", "1")
        .service(Arc::new(Decorated))
        .build();
    let keys = |v: &Value| -> Vec<String> { v.as_object().unwrap().keys().cloned().collect() };
    for rev in HANDSHAKE.into_iter().chain(["2026-07-28"]) {
        let mut c = Client::new(&server);
        let params = if rev == "2026-07-28" {
            json!({"_meta": modern_meta(json!({}))})
        } else {
            c.initialize(rev, json!({})).await;
            json!({})
        };
        let resource =
            c.request(1, "resources/list", params.clone()).await["result"]["resources"][0].clone();
        let template = c
            .request(2, "resources/templates/list", params.clone())
            .await["result"]["resourceTemplates"][0]
            .clone();
        let prompt = c.request(3, "prompts/list", params).await["result"]["prompts"][0].clone();
        let (titled, iconed) = match rev {
            "2024-11-05" | "2025-03-26" => (false, false),
            "2025-06-18" => (true, false),
            _ => (true, true),
        };
        let mut expected = vec!["uri", "name"];
        expected.extend(titled.then_some("title"));
        expected.extend(["description", "mimeType", "annotations"]);
        expected.extend(iconed.then_some("icons"));
        expected.extend(titled.then_some("_meta"));
        assert_eq!(keys(&resource), expected, "{rev}");
        let mut expected = vec!["uriTemplate", "name"];
        expected.extend(titled.then_some("title"));
        expected.extend(iconed.then_some("icons"));
        expected.extend(titled.then_some("_meta"));
        assert_eq!(keys(&template), expected, "{rev}");
        let mut expected = vec!["name"];
        expected.extend(titled.then_some("title"));
        expected.push("arguments");
        expected.extend(iconed.then_some("icons"));
        expected.extend(titled.then_some("_meta"));
        assert_eq!(keys(&prompt), expected, "{rev}");
        let argument = if titled {
            json!({"name": "x", "title": "X", "required": true})
        } else {
            json!({"name": "x", "required": true})
        };
        assert_eq!(prompt["arguments"][0], argument, "{rev}");
    }
}

/// A service whose resource method answers "not found" itself, with the handshake
/// revisions' -32002 (as examples/weather's `city_info` does): at once for
/// `gone://now/…`, after a yield (so from a spawned task) for `gone://later/…`.
struct Gone;

static GONE_TEMPLATES: [toolidl_runtime::service::ListingDef; 1] =
    [toolidl_runtime::service::ListingDef::new(
        r#"{"uriTemplate":"gone://{when}/{name}","name":"gone"}"#,
    )];

impl toolidl_runtime::Service for Gone {
    fn call_tool(
        self: Arc<Self>,
        _: &str,
        _: toolidl_runtime::args::Arguments<'_>,
        _: toolidl_runtime::RequestContext,
    ) -> toolidl_runtime::service::BoxFuture<toolidl_runtime::ToolResult> {
        unreachable!("Gone has no tools")
    }

    fn resource_templates(&self) -> &[toolidl_runtime::service::ListingDef] {
        &GONE_TEMPLATES
    }

    fn read_resource(
        self: Arc<Self>,
        uri: &str,
        _: toolidl_runtime::RequestContext,
    ) -> Option<toolidl_runtime::service::BoxFuture<Result<Value, toolidl_runtime::RpcError>>> {
        let later = uri.starts_with("gone://later/");
        let error = toolidl_runtime::RpcError::new(
            toolidl_runtime::protocol::code::RESOURCE_NOT_FOUND,
            format!("No such thing: {uri}."),
        )
        .with_data(json!({"uri": uri}));
        Some(Box::pin(async move {
            if later {
                tokio::task::yield_now().await;
            }
            Err(error)
        }))
    }
}

/// SEP-2164 (found with the official Python and TypeScript SDK clients, scripts/interop.sh):
/// under 2026-07-28 "resource not found" is -32602, also when the service's own resource
/// method answered -32002; the handshake revisions keep -32002. Message and data are kept.
#[tokio::test]
async fn a_services_resource_not_found_is_invalid_params_under_2026_07_28() {
    let server = Server::builder("gone", "1").service(Arc::new(Gone)).build();
    for uri in ["gone://now/x", "gone://later/x"] {
        let message = format!("No such thing: {uri}.");

        let mut c = Client::new(&server);
        c.initialize("2025-11-25", json!({})).await;
        let r = c.request(1, "resources/read", json!({"uri": uri})).await;
        assert_eq!(
            r["error"],
            json!({"code": -32002, "message": message, "data": {"uri": uri}}),
            "{uri}"
        );

        let mut c = Client::new(&server);
        let meta = modern_meta(json!({}));
        let r = c
            .request(2, "resources/read", json!({"_meta": meta, "uri": uri}))
            .await;
        assert_eq!(
            r["error"],
            json!({"code": -32602, "message": message, "data": {"uri": uri}}),
            "{uri}"
        );
    }
}
