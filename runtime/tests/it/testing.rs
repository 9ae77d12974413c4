//! `toolidl_runtime::testing`: the test context records what a handler sends, and the
//! in-process client drives the real dispatcher in every revision.

use crate::common;

use std::sync::Arc;

use common::{Kitchen, kitchen_server};
use serde_json::{Value, json};
use toolidl_runtime::codegen::{Arguments, RawValue, Service};
use toolidl_runtime::protocol::Revision;
use toolidl_runtime::testing::{Client, LogMessage, Progress, TestContext};
use toolidl_runtime::{LogLevel, RpcError};

/// Calls a Kitchen tool directly, as a unit test calls a handler method.
async fn call_directly(tool: &str, ctx: &TestContext) -> Value {
    let args = RawValue::from_string("{}".to_owned()).expect("json");
    let output = Arc::new(Kitchen)
        .call_tool(tool, Arguments::new(&args), ctx.context())
        .await
        .map_err(|e| e.to_string())
        .expect("the tool succeeds");
    json!(format!("{output:?}"))
}

#[tokio::test]
async fn the_test_context_records_progress_and_log_messages_in_order() {
    let ctx = TestContext::new();
    call_directly("progress", &ctx).await;
    assert_eq!(
        ctx.progress(),
        vec![
            Progress {
                progress: 1.0,
                total: Some(2.0),
                message: Some("half".into())
            },
            Progress {
                progress: 2.0,
                total: Some(2.0),
                message: None
            },
        ]
    );
    assert_eq!(
        ctx.logs(),
        vec![
            LogMessage {
                level: LogLevel::Info,
                logger: Some("kitchen".into()),
                data: json!("info message")
            },
            LogMessage {
                level: LogLevel::Debug,
                logger: None,
                data: json!("debug message")
            },
        ]
    );
}

#[tokio::test]
async fn the_test_context_sends_what_the_client_asked_for_only() {
    for revision in [Revision::V2025_11_25, Revision::V2026_07_28] {
        let ctx = TestContext::builder()
            .revision(revision)
            .log_level(Some(LogLevel::Info))
            .progress_token(false)
            .build();
        call_directly("progress", &ctx).await;
        assert!(ctx.progress().is_empty(), "{revision:?}: no progress token");
        let levels: Vec<_> = ctx.logs().into_iter().map(|l| l.level).collect();
        assert_eq!(
            levels,
            [LogLevel::Info],
            "{revision:?}: debug is below the level"
        );

        let silent = TestContext::builder()
            .revision(revision)
            .log_level(None)
            .build();
        call_directly("progress", &silent).await;
        assert!(silent.logs().is_empty(), "{revision:?}");
    }
}

#[tokio::test]
async fn cancelling_a_test_context_reaches_the_handler() {
    let ctx = TestContext::new();
    let args = RawValue::from_string(r#"{"ms": 60000}"#.to_owned()).expect("json");
    let call = Arc::new(Kitchen).call_tool("slow", Arguments::new(&args), ctx.context());
    let handle = tokio::spawn(call);
    tokio::task::yield_now().await;
    assert!(!ctx.context().is_cancelled());
    ctx.cancel();
    let output = handle.await.expect("join").map_err(|e| e.to_string());
    assert_eq!(format!("{output:?}"), r#"Ok(Text("cancelled"))"#);
    assert!(ctx.context().is_cancelled());
}

#[tokio::test]
async fn the_test_context_carries_client_settings_per_revision() {
    for revision in [Revision::V2024_11_05, Revision::V2026_07_28] {
        let ctx = TestContext::builder()
            .revision(revision)
            .client_info(json!({"name": "unit", "version": "2"}))
            .client_capabilities(json!({"sampling": {}}))
            .build();
        let c = ctx.context();
        assert_eq!(c.revision(), revision);
        assert_eq!(
            c.client_info(),
            Some(&json!({"name": "unit", "version": "2"}))
        );
        assert!(c.client_supports("sampling"));
        // A request to the client cannot be answered here: it fails at once, never hangs.
        if !revision.is_stateless() {
            let e = c.create_message(json!({})).await.expect_err("no client");
            assert_eq!(e.code, -32603, "{e:?}");
        }
    }
}

#[tokio::test]
async fn the_client_calls_lists_reads_prompts_and_completes_in_every_revision() {
    let server = kitchen_server();
    for revision in Revision::ALL {
        let client = Client::builder()
            .revision(revision)
            .connect(&server)
            .await
            .expect("connect");
        assert_eq!(
            client.initialize_result().is_some(),
            !revision.is_stateless(),
            "{revision:?}"
        );
        let result = client.call_tool("text", json!({})).await.expect("call");
        assert!(!result.is_error());
        assert_eq!(result.text(), "hi \"there\"");

        let context = client.call_tool("context", json!({})).await.expect("call");
        let seen = if revision.has_structured_content() {
            context.structured().cloned().expect("structured")
        } else {
            serde_json::from_str(context.text()).expect("json text")
        };
        assert_eq!(seen["revision"], revision.as_str(), "{revision:?}");
        assert_eq!(seen["client"]["name"], "toolidl-test-client");

        let failed = client
            .call_tool("user_error", json!({}))
            .await
            .expect("call");
        assert!(failed.is_error(), "{failed:?}");

        let unknown = client
            .call_tool("nope", json!({}))
            .await
            .expect_err("unknown");
        assert_eq!(unknown.code, -32602, "{revision:?}: {unknown:?}");

        let tools = client.list_tools().await.expect("list");
        assert_eq!(tools.len(), common::TOOLS.len());
        let read = client.read_resource("mem://notes/7").await.expect("read");
        assert_eq!(read["contents"][0]["text"], "# note 7");
        let prompt = client
            .get_prompt("summarize", json!({"city": "Oslo"}))
            .await
            .expect("prompt");
        assert_eq!(prompt["messages"][0]["content"]["text"], "Summarize Oslo.");
        let values = client
            .complete_prompt("summarize", "city", "Os")
            .await
            .expect("complete");
        assert_eq!(values, ["Oslo", "Osaka"]);
    }
}

#[tokio::test]
async fn the_client_sees_notifications_and_sets_the_log_level() {
    for revision in [Revision::V2025_11_25, Revision::V2026_07_28] {
        let client = Client::builder()
            .revision(revision)
            .connect(&kitchen_server())
            .await
            .expect("connect");
        client.set_log_level(LogLevel::Info).await.expect("level");
        client
            .request(
                "tools/call",
                json!({"name": "progress", "arguments": {}, "_meta": {"progressToken": "p1"}}),
            )
            .await
            .expect("call");
        let progress = client.take_notifications("notifications/progress");
        assert_eq!(progress.len(), 2, "{revision:?}");
        assert_eq!(progress[0]["progressToken"], "p1");
        let logs = client.take_notifications("notifications/message");
        assert_eq!(logs.len(), 1, "{revision:?}: only info and above: {logs:?}");
        assert_eq!(logs[0]["data"], "info message");
        assert!(client.take_messages().is_empty());
    }
}

#[tokio::test]
async fn a_cancelled_call_gets_no_reply_and_the_handler_sees_the_cancellation() {
    let client = Client::connect(&kitchen_server()).await.expect("connect");
    let slow = client.send_request(
        "tools/call",
        json!({"name": "slow", "arguments": {"ms": 60000}}),
    );
    client.cancel(&slow);
    // A later request is answered while the cancelled one never is.
    assert_eq!(
        client
            .call_tool("text", json!({}))
            .await
            .expect("call")
            .text(),
        "hi \"there\""
    );
    let rest = client.close().await;
    assert!(
        rest.iter().all(|m| m.get("id") != Some(&json!(slow.id()))),
        "{rest:?}"
    );
    let reply = slow.reply().await.expect_err("no reply");
    assert_eq!(reply.code, -32603);
}

#[tokio::test]
async fn the_servers_requests_reach_the_clients_handler() {
    let client = Client::builder()
        .capabilities(json!({"elicitation": {}, "sampling": {}}))
        .on_request(|method, params| match method {
            "elicitation/create" => {
                assert_eq!(params["message"], "Name?");
                Ok(json!({"action": "accept", "content": {"name": "Ada"}}))
            }
            _ => Err(RpcError::new(-32601, format!("no {method}"))),
        })
        .connect(&kitchen_server())
        .await
        .expect("connect");
    let elicited = client.call_tool("elicit", json!({})).await.expect("call");
    assert_eq!(elicited.text(), "Ada");
    // An error answer reaches the handler as an error.
    let sampled = client.call_tool("sample", json!({})).await;
    let text = match sampled {
        Ok(result) => result.text().to_owned(),
        Err(e) => e.message,
    };
    assert!(text.contains("no sampling/createMessage"), "{text}");
    // Without a handler the default answer is -32601, and nothing hangs.
    let plain = Client::builder()
        .capabilities(json!({"roots": {}}))
        .connect(&kitchen_server())
        .await
        .expect("connect");
    let roots = plain.call_tool("roots", json!({})).await;
    let text = match roots {
        Ok(result) => result.text().to_owned(),
        Err(e) => e.message,
    };
    assert!(text.contains("does not answer roots/list"), "{text}");
}

#[tokio::test]
async fn a_raw_line_is_answered_like_any_client_s() {
    let client = Client::connect(&kitchen_server()).await.expect("connect");
    client.send_raw("{not json");
    let reply = client.next_message().await.expect("a reply");
    assert_eq!(reply["error"]["code"], -32700, "{reply}");
    assert_eq!(reply["id"], Value::Null);
}

#[tokio::test]
async fn the_listing_is_one_pretty_document_in_the_servers_order() {
    let client = Client::connect(&kitchen_server()).await.expect("connect");
    let listing = client.listing().await.expect("listing");
    assert_eq!(listing.tools.len(), common::TOOLS.len());
    assert_eq!(listing.resources.len(), 1);
    assert_eq!(listing.resource_templates.len(), 1);
    assert_eq!(listing.prompts.len(), 1);
    let text = listing.to_string();
    assert!(
        text.starts_with("{\n  \"tools\": [\n    {\n      \"name\": \"empty\""),
        "{text}"
    );
    let keys: Vec<&str> = [
        "\"tools\"",
        "\"resources\"",
        "\"resourceTemplates\"",
        "\"prompts\"",
    ]
    .into_iter()
    .collect();
    let positions: Vec<usize> = keys.iter().map(|k| text.find(k).expect(k)).collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{positions:?}");
    assert!(text.ends_with("}\n"));
}
