//! The binary through `toolidl_runtime::client`: over stdio (the child-process transport)
//! the progress of one call, the server's log messages, and a call given up on, which the
//! server is told to stop; over stdio and Streamable HTTP under 2026-07-28 the task-only
//! tools, one asking for input while it runs; over HTTP an `x-mcp-header` parameter.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::process::Command;
use toolidl_runtime::client::{
    ClientError, HttpTransport, NotificationHandler, Progress, RequestHandler, StdioTransport,
    Transport, call_tool, with_progress,
};
use toolidl_runtime::protocol::Revision;

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

// ---- tasks (2026-07-28), over stdio and Streamable HTTP ----

/// The binary serving Streamable HTTP on a free loopback port, killed when dropped.
struct HttpServer {
    child: tokio::process::Child,
    url: String,
}

impl HttpServer {
    async fn start() -> HttpServer {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("a free port");
        let child = Command::new(env!("CARGO_BIN_EXE_conformance-example"))
            .args(["--http", &format!("127.0.0.1:{port}")])
            .stderr(std::process::Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("the server starts");
        for _ in 0..200 {
            if tokio::net::TcpStream::connect(("127.0.0.1", port))
                .await
                .is_ok()
            {
                break;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        HttpServer {
            child,
            url: format!("http://127.0.0.1:{port}/mcp"),
        }
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.start_kill();
    }
}

/// Answers every elicitation with the name Ada.
fn ada() -> RequestHandler {
    Arc::new(|method: &str, _: &Value| match method {
        "elicitation/create" => Ok(json!({"action": "accept", "content": {"name": "Ada"}})),
        other => Err(toolidl_runtime::protocol::RpcError::new(
            -32601,
            format!("not {other}"),
        )),
    })
}

/// A 2026-07-28 client of the binary over stdio (declaring elicitation and, unless
/// `tasks` is false, the tasks extension).
async fn modern_stdio(tasks: bool) -> Result<StdioTransport, ClientError> {
    let mut command = Command::new(env!("CARGO_BIN_EXE_conformance-example"));
    command.stderr(std::process::Stdio::null());
    StdioTransport::builder(command)
        .revision(Revision::V2026_07_28)
        .capabilities(json!({"elicitation": {}}))
        .on_request(ada())
        .tasks(tasks)
        .spawn()
        .await
}

/// The same over Streamable HTTP (the revision negotiated: 2026-07-28).
async fn modern_http(url: &str, tasks: bool) -> Result<HttpTransport, ClientError> {
    let client = HttpTransport::builder(url)
        .capabilities(json!({"elicitation": {}}))
        .on_request(ada())
        .tasks(tasks)
        .connect()
        .await?;
    assert_eq!(client.revision(), Revision::V2026_07_28);
    Ok(client)
}

/// `test_tool_with_task` runs only as a task and asks for the user's name while it runs:
/// the transport creates the task, answers the elicitation through `tasks/update` and
/// returns the greeting; without the tasks extension the server refuses the call.
async fn task_with_input(with: &dyn Transport, without: &dyn Transport) {
    let reply = call_tool(with, "test_tool_with_task", json!({}))
        .await
        .expect("the task's result");
    assert_eq!(reply.text(), "Hello, Ada!");
    match call_tool(without, "test_tool_with_task", json!({})).await {
        Err(ClientError::Protocol(e)) => assert_eq!(e.code, -32021, "{e}"),
        other => panic!("expected -32021, got {other:?}"),
    }
}

/// `failing_job` (`@task(required)`) fails with a tool error after about a second:
/// `completed` with `isError`, which the client returns as the tool's error; `slow_compute`
/// (`@task`) runs as a task too when the client declares the extension.
async fn task_results(with: &dyn Transport) {
    match call_tool(with, "failing_job", json!({})).await {
        Err(ClientError::Tool { text, .. }) => {
            assert_eq!(text, "The job failed, as it always does.")
        }
        other => panic!("expected the tool's error, got {other:?}"),
    }
    let reply = call_tool(with, "slow_compute", json!({"seconds": 1, "label": "x"}))
        .await
        .expect("the task's result");
    assert_eq!(reply.text(), "Computed for 1 s (x).");
}

#[tokio::test]
async fn task_only_tools_over_stdio() -> Result<(), ClientError> {
    let (with, without) = (modern_stdio(true).await?, modern_stdio(false).await?);
    assert_eq!(with.revision(), Revision::V2026_07_28);
    assert_eq!(
        with.server_info().map(|i| i["name"].clone()),
        Some(json!("toolidl-conformance"))
    );
    task_with_input(&with, &without).await;
    task_results(&with).await;
    Ok(())
}

#[tokio::test]
async fn task_only_tools_over_http() -> Result<(), ClientError> {
    let server = HttpServer::start().await;
    let (with, without) = (
        modern_http(&server.url, true).await?,
        modern_http(&server.url, false).await?,
    );
    task_with_input(&with, &without).await;
    task_results(&with).await;
    Ok(())
}

/// `test_custom_header`'s `region` is an `x-mcp-header` parameter: the transport mirrors it
/// in `Mcp-Param-Region`, which the server checks (`-32020` without it).
#[tokio::test]
async fn an_x_mcp_header_parameter_is_mirrored_over_http() -> Result<(), ClientError> {
    let server = HttpServer::start().await;
    let client = modern_http(&server.url, true).await?;
    for region in ["eu-west-1", "Zürich"] {
        let reply = call_tool(&client, "test_custom_header", json!({"region": region})).await?;
        assert_eq!(reply.text(), format!("Region: {region}"));
    }
    Ok(())
}
