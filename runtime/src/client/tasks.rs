//! The tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) from the client side,
//! 2026-07-28: a `tools/call` the server answered with a task (`resultType: "task"`) is
//! polled with `tasks/get` until it ends, its requests for input answered by the request
//! handler through `tasks/update`, and its result returned as the call's; a caller that
//! stops waiting cancels it with `tasks/cancel`.
//!
//! Polling starts at the server's `pollIntervalMs` (500 ms when it gives none) and backs
//! off by half again after each poll that finds the task still working, up to 5 seconds
//! (or the server's interval, when that is longer); an answered request for input starts
//! it over.

use std::future::Future;
use std::time::Duration;

use serde_json::{Map, Value, json};

use super::{ClientError, input};
use crate::protocol::RpcError;

/// What answers the server's requests for input.
type Answer = crate::testing::Respond;

/// The interval when the server suggests none.
const DEFAULT_POLL: Duration = Duration::from_millis(500);
/// The longest interval the back-off reaches (unless the server asks for a longer one).
const MAX_POLL: Duration = Duration::from_secs(5);
/// The shortest interval honoured, whatever the server says.
const MIN_POLL: Duration = Duration::from_millis(10);

/// Sends `tasks/cancel` for a task when the caller stops waiting for it.
pub(super) type Cancel = Box<dyn FnOnce(String) + Send>;

/// Whether `result` (of `tools/call`) is a task to wait for.
pub(super) fn is_task(result: &Value) -> bool {
    result.get("resultType").and_then(Value::as_str) == Some("task")
}

/// Waits for the task `created` (a `CreateTaskResult`) to end, polling with `send`
/// (`tasks/get`, `tasks/update`); its result, or the error it failed with. Dropped before
/// the end, or ended by an error of the client's, it sends `tasks/cancel` with `cancel`.
pub(super) async fn awaiting<F, Fut>(
    created: Value,
    answer: Option<&Answer>,
    send: F,
    cancel: Cancel,
) -> Result<Value, ClientError>
where
    F: Fn(&'static str, Value) -> Fut,
    Fut: Future<Output = Result<Value, ClientError>>,
{
    let Some(id) = created.get("taskId").and_then(Value::as_str) else {
        return Err(ClientError::Transport(format!(
            "the server answered a task without a `taskId`: {created}"
        )));
    };
    let mut guard = Guard {
        id: id.to_owned(),
        cancel: Some(cancel),
    };
    let mut base = interval(&created, DEFAULT_POLL);
    let mut wait = base;
    let mut task = created.clone();
    // A `CreateTaskResult` has the status only: a task created finished, or waiting for
    // input, is read whole with `tasks/get` before anything else.
    let mut detailed = false;
    loop {
        let status = task.get("status").and_then(Value::as_str);
        match status {
            Some(s) if s != "working" && !detailed => {}
            Some("completed") => {
                guard.cancel = None;
                return Ok(task.get("result").cloned().unwrap_or_else(|| json!({})));
            }
            Some("failed") => {
                guard.cancel = None;
                return Err(ClientError::Protocol(failure(&task)));
            }
            Some("cancelled") => {
                guard.cancel = None;
                return Err(ClientError::Transport(format!(
                    "the task `{}` was cancelled",
                    guard.id
                )));
            }
            Some("input_required") => {
                let responses = answers(&task, answer)?;
                let params = json!({"taskId": guard.id, "inputResponses": responses});
                send("tasks/update", params).await?;
                wait = base;
            }
            Some("working") => {
                tokio::time::sleep(wait).await;
                wait = (wait * 3 / 2).min(MAX_POLL.max(base));
            }
            other => {
                return Err(ClientError::Transport(format!(
                    "the task `{}` has an unknown status {other:?}",
                    guard.id
                )));
            }
        }
        task = send("tasks/get", json!({"taskId": guard.id})).await?;
        detailed = true;
        let polled = interval(&task, base);
        if polled != base {
            base = polled;
            wait = base;
        }
    }
}

/// The task's `pollIntervalMs`, else `otherwise`.
fn interval(task: &Value, otherwise: Duration) -> Duration {
    task.get("pollIntervalMs")
        .and_then(Value::as_u64)
        .map_or(otherwise, |ms| Duration::from_millis(ms).max(MIN_POLL))
}

/// The `error` of a failed task, as a JSON-RPC error.
fn failure(task: &Value) -> RpcError {
    let error = task.get("error");
    let code = error
        .and_then(|e| e.get("code"))
        .and_then(Value::as_i64)
        .unwrap_or(-32603);
    let message = error
        .and_then(|e| e.get("message"))
        .and_then(Value::as_str)
        .unwrap_or("the task failed");
    let mut rpc = RpcError::new(code, message);
    rpc.data = error.and_then(|e| e.get("data")).cloned();
    rpc
}

/// The handler's answers to the task's `inputRequests`.
fn answers(task: &Value, answer: Option<&Answer>) -> Result<Value, ClientError> {
    let requests = match task.get("inputRequests") {
        Some(Value::Object(requests)) => requests.clone(),
        None => Map::new(),
        Some(other) => {
            return Err(ClientError::Transport(format!(
                "the task's `inputRequests` is not an object: {other}"
            )));
        }
    };
    let mut responses = Map::new();
    for (key, request) in requests {
        let method = request.get("method").and_then(Value::as_str).unwrap_or("");
        let params = request.get("params").unwrap_or(&Value::Null);
        let result = input::ask(answer, method, params).map_err(|error| ClientError::Input {
            key: key.clone(),
            method: method.to_owned(),
            error: Box::new(error),
        })?;
        responses.insert(key, result);
    }
    Ok(Value::Object(responses))
}

/// Cancels the task unless disarmed (`cancel` taken) by the end of the wait.
struct Guard {
    id: String,
    cancel: Option<Cancel>,
}

impl Drop for Guard {
    fn drop(&mut self) {
        if let Some(cancel) = self.cancel.take() {
            cancel(std::mem::take(&mut self.id));
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;

    /// The outcome, what was sent, and the ids of the tasks cancelled.
    type Run = (
        Result<Value, ClientError>,
        Vec<(String, Value)>,
        Vec<String>,
    );

    /// Runs `awaiting` against replies given in turn, recording what was sent and what was
    /// cancelled.
    fn run(created: Value, replies: Vec<Value>, answer: Option<&Answer>) -> Run {
        let sent = Mutex::new(Vec::new());
        let replies = Mutex::new(replies.into_iter());
        let cancelled = Arc::new(Mutex::new(Vec::new()));
        let keep = Arc::clone(&cancelled);
        let send = |method: &'static str, params: Value| {
            sent.lock().unwrap().push((method.to_owned(), params));
            let reply = replies.lock().unwrap().next();
            async move { reply.ok_or_else(|| ClientError::Transport("no more replies".into())) }
        };
        let cancel: Cancel = Box::new(move |id| keep.lock().unwrap().push(id));
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .start_paused(true)
            .build()
            .unwrap();
        let outcome = runtime.block_on(awaiting(created, answer, send, cancel));
        let cancelled = cancelled.lock().unwrap().clone();
        (outcome, sent.into_inner().unwrap(), cancelled)
    }

    fn task(status: &str) -> Value {
        json!({"resultType": "task", "taskId": "t1", "status": status, "pollIntervalMs": 100})
    }

    #[test]
    fn a_task_is_polled_until_it_completes() {
        let mut done = task("completed");
        done["result"] = json!({"content": [{"type": "text", "text": "ok"}]});
        let (outcome, sent, cancelled) = run(task("working"), vec![task("working"), done], None);
        assert_eq!(outcome.unwrap()["content"][0]["text"], "ok");
        assert_eq!(sent.len(), 2);
        assert!(
            sent.iter()
                .all(|(m, p)| m == "tasks/get" && p["taskId"] == "t1")
        );
        assert!(cancelled.is_empty());
    }

    #[test]
    fn a_task_created_finished_is_read_whole_first() {
        let mut done = task("completed");
        done["result"] = json!({"content": [{"type": "text", "text": "ok"}]});
        let (outcome, sent, _) = run(task("completed"), vec![done], None);
        assert_eq!(outcome.unwrap()["content"][0]["text"], "ok");
        assert_eq!(sent.len(), 1);
    }

    #[test]
    fn input_during_a_task_goes_through_tasks_update() {
        let mut asking = task("input_required");
        asking["inputRequests"] =
            json!({"name": {"method": "elicitation/create", "params": {"message": "Name?"}}});
        let answer = |_: &str, _: &Value| -> Result<Value, RpcError> {
            Ok(json!({"action": "accept", "content": {"name": "Ada"}}))
        };
        let mut done = task("completed");
        done["result"] = json!({"content": []});
        let (outcome, sent, _) = run(
            task("working"),
            vec![asking, json!({}), done],
            Some(&answer),
        );
        outcome.unwrap();
        assert_eq!(sent[1].0, "tasks/update");
        assert_eq!(
            sent[1].1,
            json!({"taskId": "t1", "inputResponses": {"name": {"action": "accept", "content": {"name": "Ada"}}}})
        );
    }

    #[test]
    fn a_failed_task_is_its_error_and_is_not_cancelled() {
        let mut failed = task("failed");
        failed["error"] = json!({"code": -32603, "message": "boom", "data": {"x": 1}});
        let (outcome, _, cancelled) = run(task("working"), vec![failed], None);
        let Err(ClientError::Protocol(error)) = outcome else {
            panic!("{outcome:?}");
        };
        assert_eq!((error.code, error.message.as_str()), (-32603, "boom"));
        assert_eq!(error.data, Some(json!({"x": 1})));
        assert!(cancelled.is_empty());
    }

    #[test]
    fn an_unanswered_input_request_ends_the_wait_and_cancels_the_task() {
        let mut asking = task("input_required");
        asking["inputRequests"] = json!({"k": {"method": "sampling/createMessage", "params": {}}});
        let (outcome, sent, cancelled) = run(task("working"), vec![asking], None);
        assert!(
            matches!(outcome, Err(ClientError::Input { .. })),
            "{outcome:?}"
        );
        assert_eq!(sent.len(), 1);
        assert_eq!(cancelled, ["t1"]);
    }

    #[test]
    fn polling_backs_off_up_to_the_cap() {
        let mut working = task("working");
        working["pollIntervalMs"] = json!(1000);
        let mut replies = vec![working; 12];
        let mut done = task("completed");
        done["result"] = json!({});
        replies.push(done);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .start_paused(true)
            .build()
            .unwrap();
        let times = Mutex::new(Vec::new());
        let replies = Mutex::new(replies.into_iter());
        let start = runtime.block_on(async { tokio::time::Instant::now() });
        let send = |_: &'static str, _: Value| {
            times
                .lock()
                .unwrap()
                .push(tokio::time::Instant::now() - start);
            let reply = replies.lock().unwrap().next();
            async move { reply.ok_or_else(|| ClientError::Transport("none".into())) }
        };
        let mut created = task("working");
        created["pollIntervalMs"] = json!(1000);
        runtime
            .block_on(awaiting(created, None, send, Box::new(|_| {})))
            .unwrap();
        let gaps: Vec<u128> = times
            .lock()
            .unwrap()
            .windows(2)
            .map(|w| (w[1] - w[0]).as_millis())
            .collect();
        assert_eq!(gaps[..6], [1500, 2250, 3375, 5000, 5000, 5000]);
    }
}
