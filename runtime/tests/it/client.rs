//! `toolidl_runtime::client`: a `tools/call` reply sorted into success, the tool's own
//! error, a protocol error and a result that breaks the tool's declaration.
#![cfg(feature = "client")]

use crate::common;

use common::kitchen_server;
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};

use toolidl_runtime::client::{
    ClientError, Progress, ReplyFuture, Transport, call_tool, with_progress,
};
use toolidl_runtime::protocol::{Revision, RpcError};
use toolidl_runtime::testing::Client;

#[derive(Debug, Deserialize, PartialEq)]
struct Weather {
    city: String,
    temp: i64,
}

#[tokio::test]
async fn a_structured_result_decodes_as_the_declared_type() -> Result<(), ClientError> {
    let client = Client::connect(&kitchen_server()).await?;
    let reply = call_tool(&client, "record", json!({})).await?;
    let weather: Weather = reply.structured()?;
    assert_eq!(
        weather,
        Weather {
            city: "Oslo".into(),
            temp: 3
        }
    );
    Ok(())
}

#[tokio::test]
async fn a_text_result_is_its_text() -> Result<(), ClientError> {
    let client = Client::connect(&kitchen_server()).await?;
    assert_eq!(
        call_tool(&client, "text", json!({})).await?.text(),
        "hi \"there\""
    );
    Ok(())
}

#[tokio::test]
async fn the_tools_own_error_keeps_the_servers_text() -> Result<(), ClientError> {
    let client = Client::connect(&kitchen_server()).await?;
    match call_tool(&client, "user_error", json!({})).await {
        Err(ClientError::Tool { text, content }) => {
            assert_eq!(text, "The city is unknown.");
            assert_eq!(content.len(), 1);
        }
        other => panic!("expected the tool's error, got {other:?}"),
    }
    Ok(())
}

#[tokio::test]
async fn an_unknown_tool_is_a_protocol_error() -> Result<(), ClientError> {
    let client = Client::connect(&kitchen_server()).await?;
    match call_tool(&client, "no_such_tool", json!({})).await {
        Err(ClientError::Protocol(error)) => assert_eq!(error.code, -32602),
        other => panic!("expected a protocol error, got {other:?}"),
    }
    Ok(())
}

/// A server that answers every request with the same result, whatever it declares.
struct Canned(Value);

impl Transport for Canned {
    fn request<'a>(&'a self, _method: &'a str, _params: Value) -> ReplyFuture<'a> {
        let reply = self.0.clone();
        Box::pin(async move { Ok(reply) })
    }

    fn notify(&self, _method: &str, _params: Value) -> Result<(), ClientError> {
        Ok(())
    }
}

#[tokio::test]
async fn a_result_that_breaks_the_declared_type_is_a_mismatch_naming_the_tool() {
    let server = Canned(json!({
        "content": [{"type": "text", "text": "{}"}],
        "structuredContent": {"city": "Oslo", "temp": "warm"}
    }));
    let result = match call_tool(&server, "forecast", json!({})).await {
        Ok(reply) => reply.structured::<Weather>(),
        Err(error) => Err(error),
    };
    let Err(error @ ClientError::Mismatch { .. }) = result else {
        panic!("expected a mismatch, got {result:?}");
    };
    let message = error.to_string();
    assert!(message.contains("`forecast`"), "{message}");
    assert!(message.contains("invalid type"), "{message}");
}

#[tokio::test]
async fn a_reply_that_is_not_a_call_result_is_a_mismatch() {
    let result = call_tool(&Canned(json!([1, 2])), "forecast", json!({})).await;
    assert!(
        matches!(result, Err(ClientError::Mismatch { ref call, .. }) if call == "tool `forecast`"),
        "{result:?}"
    );
}

/// In process, a call's progress reaches its `with_progress` handler once the reply is in,
/// and only that call's: the other notifications stay with the client.
#[tokio::test]
async fn the_progress_of_an_in_process_call_reaches_its_handler() -> Result<(), ClientError> {
    let client = Client::connect(&kitchen_server()).await?;
    client
        .request("logging/setLevel", json!({"level": "info"}))
        .await?;
    let reports = Arc::new(Mutex::new(Vec::new()));
    let keep = Arc::clone(&reports);
    let call = call_tool(&client, "progress", json!({}));
    with_progress(move |p| keep.lock().unwrap().push(p), call).await?;
    let expected = [
        Progress {
            progress: 1.0,
            total: Some(2.0),
            message: Some("half".into()),
        },
        Progress {
            progress: 2.0,
            total: Some(2.0),
            message: None,
        },
    ];
    assert_eq!(*reports.lock().unwrap(), expected);
    assert_eq!(
        client.take_notifications("notifications/progress"),
        Vec::<Value>::new()
    );
    assert_eq!(client.take_notifications("notifications/message").len(), 1);
    Ok(())
}

/// Under 2026-07-28 in process, an `input_required` result goes to the builder's
/// `on_request` handler and the call is retried with its answer and the server's state.
#[tokio::test]
async fn an_in_process_input_request_is_answered_and_retried() -> Result<(), ClientError> {
    let client = Client::builder()
        .revision(Revision::V2026_07_28)
        .capabilities(json!({"elicitation": {}}))
        .on_request(|method, _| match method {
            "elicitation/create" => Ok(json!({"action": "accept", "content": {"name": "Lin"}})),
            _ => Err(RpcError::new(-32601, "no")),
        })
        .connect(&kitchen_server())
        .await?;
    let reply = call_tool(&client, "input_required", json!({})).await?;
    assert_eq!(reply.text(), "hello Lin, state s1");
    // The raw request still shows what the server asked.
    let raw = client
        .request(
            "tools/call",
            json!({"name": "input_required", "arguments": {}}),
        )
        .await?;
    assert_eq!(raw["resultType"], "input_required");
    Ok(())
}

#[tokio::test]
async fn a_refused_input_request_ends_the_call_with_the_handlers_error() {
    let client = Client::builder()
        .revision(Revision::V2026_07_28)
        .on_request(|_, _| Err(RpcError::new(-1, "the user closed the dialog")))
        .connect(&kitchen_server())
        .await
        .unwrap();
    let outcome = call_tool(&client, "input_required", json!({})).await;
    assert_eq!(
        outcome.map(|r| r.text()),
        Err(ClientError::Input {
            key: "login".into(),
            method: "elicitation/create".into(),
            error: Box::new(RpcError::new(-1, "the user closed the dialog")),
        })
    );
}
