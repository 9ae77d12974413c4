//! The binary over stdio through `toolidl_runtime::client`'s child-process transport: the
//! progress of one call, the server's log messages, and a call given up on, which the
//! server is told to stop.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::process::Command;
use toolidl_runtime::client::{
    ClientError, NotificationHandler, Progress, StdioTransport, Transport, call_tool, with_progress,
};

/// The server, with every notification it sends outside a `with_progress` kept in order.
async fn spawn() -> Result<(StdioTransport, Arc<Mutex<Vec<(String, Value)>>>), ClientError> {
    let mut command = Command::new(env!("CARGO_BIN_EXE_conformance-example"));
    command.stderr(std::process::Stdio::null());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let keep = Arc::clone(&seen);
    let handler: NotificationHandler = Arc::new(move |method: &str, params: &Value| {
        if let Ok(mut seen) = keep.lock() {
            seen.push((method.to_owned(), params.clone()));
        }
    });
    let server = StdioTransport::builder(command)
        .on_notification(handler)
        .spawn()
        .await?;
    Ok((server, seen))
}

fn methods(seen: &Mutex<Vec<(String, Value)>>) -> Vec<String> {
    seen.lock()
        .map(|s| s.iter().map(|(m, _)| m.clone()).collect())
        .unwrap_or_default()
}

#[tokio::test]
async fn the_progress_of_a_call_reaches_its_handler_in_order() -> Result<(), ClientError> {
    let (server, seen) = spawn().await?;
    let reports = Arc::new(Mutex::new(Vec::new()));
    let keep = Arc::clone(&reports);
    let reply = with_progress(
        move |p| keep.lock().expect("not poisoned").push(p),
        call_tool(&server, "test_tool_with_progress", json!({})),
    )
    .await?;
    assert_eq!(reply.text(), "Progress reported: 0, 50 and 100 of 100.");
    let reports = reports.lock().expect("not poisoned").clone();
    let expected: Vec<Progress> = [0.0, 50.0, 100.0]
        .into_iter()
        .map(|step| Progress {
            progress: step,
            total: Some(100.0),
            message: Some(format!("Completed step {step} of 100")),
        })
        .collect();
    assert_eq!(reports, expected);
    // The call's own progress is not also a notification of the connection.
    assert!(!methods(&seen).contains(&"notifications/progress".to_owned()));
    Ok(())
}

#[tokio::test]
async fn without_with_progress_no_token_is_sent_and_no_progress_comes() -> Result<(), ClientError> {
    let (server, seen) = spawn().await?;
    call_tool(&server, "test_tool_with_progress", json!({})).await?;
    assert_eq!(methods(&seen), Vec::<String>::new());
    Ok(())
}

#[tokio::test]
async fn log_messages_reach_the_notification_handler() -> Result<(), ClientError> {
    let (server, seen) = spawn().await?;
    server
        .request("logging/setLevel", json!({"level": "info"}))
        .await?;
    call_tool(&server, "test_tool_with_logging", json!({})).await?;
    let logged: Vec<Value> = seen
        .lock()
        .expect("not poisoned")
        .iter()
        .filter(|(method, _)| method == "notifications/message")
        .map(|(_, params)| params["data"].clone())
        .collect();
    assert_eq!(
        logged,
        [
            "Tool execution started",
            "Tool processing data",
            "Tool execution completed"
        ]
    );
    Ok(())
}

/// The server exits when its input ends only after every call in flight has answered, so
/// it exits promptly after a call it was told to stop, and only then.
#[tokio::test]
async fn a_call_given_up_on_is_cancelled_at_the_server() -> Result<(), ClientError> {
    let (server, _) = spawn().await?;
    let call = call_tool(&server, "slow_compute", json!({"seconds": 3600}));
    let given_up = tokio::time::timeout(Duration::from_millis(300), call).await;
    assert!(
        given_up.is_err(),
        "the hour-long call answered: {given_up:?}"
    );
    // The server still answers others.
    let reply = call_tool(&server, "test_simple_text", json!({})).await?;
    assert!(!reply.text().is_empty());
    let exit = tokio::time::timeout(Duration::from_secs(20), server.close()).await;
    assert!(
        matches!(&exit, Ok(Ok(status)) if status.success()),
        "the server did not exit once its input ended: {exit:?}"
    );
    Ok(())
}
