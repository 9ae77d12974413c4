//! The tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663), 2026-07-28 only: a
//! `tools/call` of a task tool from a client that declared the extension answers a
//! `CreateTaskResult` at once and runs in the background; `tasks/get` reports the task (its
//! result or error inlined once terminal, its `inputRequests` while it waits for input),
//! `tasks/update` delivers `inputResponses`, `tasks/cancel` cancels.
//!
//! A task that needs input is the multi round-trip flow run by the runtime: the handler
//! answers `input_required` as it would to a synchronous call, the task parks with its
//! `inputRequests`, and once every one is answered through `tasks/update` the runtime calls
//! the handler again with those `inputResponses` and the `requestState` it returned.
//!
//! Task records live in the server's [`TaskStore`], not in a connection: any connection
//! (a stateless HTTP POST each) can poll a task another one created, and with a shared store
//! any process can. A handler's future stays in the process that runs it.

use std::collections::{HashMap, HashSet};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64};
use std::sync::{Arc, Mutex, OnceLock};
use std::task::{Context, Poll, Waker};
use std::time::{Duration, SystemTime};

use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::drive::{CatchUnwind, Panicked, report_panic};
use super::mrtr::{self, Once, Retry};
use super::params::Params;
use super::{Connection, plain};
use crate::context::RequestContext;
use crate::output::{Body, finish_result, render_tool_result};
use crate::peer::{CallState, ConnShared, Identity, NO_LOGS, lock};
use crate::protocol::Method;
use crate::protocol::Revision;
use crate::protocol::{RpcError, result_message};
use crate::server::{ListedTool, Registry, Server};
use crate::service::{BoxFuture, Service, ToolOutput, ToolResult};
use crate::tasks::{
    CallRecord, ErrorRecord, Status, TASKS_EXTENSION, TaskInput, TaskRecord, TaskTool, now_ms,
};

/// How long a task stays readable after it was created.
const TTL_MS: u64 = 60 * 60 * 1000;
/// The polling interval suggested to clients.
const POLL_INTERVAL_MS: u64 = 500;
/// How often a process running a task's handler looks for a cancellation made through
/// another process (shared stores only).
#[cfg(any(feature = "http", feature = "redis"))]
const CANCEL_CHECK: std::time::Duration = std::time::Duration::from_millis(250);

/// Whether the request's capabilities name the tasks extension.
pub(super) fn declares_tasks(capabilities: Option<&Value>) -> bool {
    capabilities
        .and_then(|c| c.get("extensions"))
        .and_then(|e| e.get(TASKS_EXTENSION))
        .is_some()
}

/// -32021 naming the tasks extension.
pub(super) fn missing_tasks_capability(what: &str) -> RpcError {
    RpcError::missing_client_capability(
        format!("{what} needs the client capability extensions[\"{TASKS_EXTENSION}\"]."),
        serde_json::json!({ "extensions": { TASKS_EXTENSION: {} } }),
    )
}

impl Connection {
    /// A task tool's `tools/call` from a client that declared the extension. With `once`
    /// (single use), the handler starts once the presented state is recorded as used.
    pub(super) fn start_task(
        &self,
        registry: &Arc<Registry>,
        listed: &ListedTool,
        args: &RawValue,
        ctx: RequestContext,
        tool: TaskTool,
        once: Option<Once>,
    ) {
        let state = ctx.state.clone();
        let call = CallRecord {
            tool: listed.name.to_string(),
            arguments: args.get().to_owned(),
            revision: state.revision.as_str().to_owned(),
            request_id: state.request_id.to_string(),
            client_info: state.client_info.clone(),
            client_capabilities: state.client_capabilities.clone(),
        };
        // The handler runs without the request's stream or progress token: nothing of a
        // task reaches the client but through `tasks/get`.
        let quiet = detached_state(
            &state.conn,
            &call,
            state.input_responses.clone(),
            state.request_state.clone(),
            &self.identity(),
        );
        drop(ctx);
        let owner = self.identity().principal();
        let server = self.server.clone();
        let registry = registry.clone();
        let asking = state.clone();
        // Everything from here on is the request's future, which `drive` polls once in
        // place: with a store of this process, it is all done before `start_task` returns.
        let created: BoxFuture<Result<Body, RpcError>> = Box::pin(async move {
            if let Some(once) = once {
                mrtr::use_once(&server, &once).await?;
            }
            let mut fut = match (
                registry.tool(&call.tool),
                RawValue::from_string(call.arguments.clone()),
            ) {
                (Some((service, listed)), Ok(args)) => {
                    start_handler(&server, service, listed, &args, &quiet)
                }
                _ => return Err(RpcError::internal("Internal error.")),
            };
            let mut ready = None;
            if tool.input == TaskInput::BeforeTask {
                let mut cx = Context::from_waker(Waker::noop());
                match catch_unwind(AssertUnwindSafe(|| fut.as_mut().poll(&mut cx))) {
                    Ok(Poll::Ready(Ok(out @ ToolOutput::InputRequired { .. }))) => {
                        // Answered as a synchronous call's would be, its state sealed.
                        let out = mrtr::seal_output(&server, &asking, Ok(out));
                        return render_tool_result(
                            out,
                            asking.revision,
                            &asking.request_id,
                            server.shared.max_depth,
                        );
                    }
                    Ok(Poll::Ready(r)) => ready = Some(Ok(r)),
                    Ok(Poll::Pending) => {}
                    Err(payload) => {
                        report_panic(&asking.request_id, payload.as_ref());
                        ready = Some(Err(Panicked));
                    }
                }
            }
            let now = now_ms();
            let record = TaskRecord {
                id: server.shared.tasks.new_id(),
                status: Status::Working,
                created_ms: now,
                updated_ms: now,
                ttl_ms: TTL_MS,
                result: None,
                error: None,
                pending: Map::new(),
                answered: Map::new(),
                request_state: None,
                call: Some(call),
                owner,
            };
            if let Err(e) = server.shared.tasks.store.create(&record).await {
                tracing::error!(request = %asking.request_id, error = %e, "a task could not be stored");
                return Err(RpcError::internal(
                    "Server busy: the task could not be stored.",
                ));
            }
            let created = match ready {
                Some(outcome) => settle(&server, &record.id, outcome, &quiet)
                    .await
                    .unwrap_or(record),
                None => {
                    run(&server, record.id.clone(), fut, quiet);
                    record
                }
            };
            let mut json = task_json(&created, false);
            json.shift_insert(0, "resultType".into(), "task".into());
            Ok(Body {
                json: Value::Object(json).to_string(),
                has_meta: false,
            })
        });
        self.drive(state, created, self.task_answer());
    }

    /// Renders a task request's outcome as its reply (a task's store calls may wait on the
    /// network: the reply may come later).
    fn task_answer(
        &self,
    ) -> impl FnOnce(Result<Result<Body, RpcError>, Panicked>, &CallState) -> String + Send + 'static
    {
        let server = self.server.clone();
        move |outcome, state| {
            let body =
                outcome.unwrap_or_else(|Panicked| Err(RpcError::internal("Internal error.")));
            match body {
                Ok(b) => result_message(
                    &state.request_id,
                    &finish_result(b, state.revision, None, &server.shared.info_json),
                ),
                Err(e) => crate::protocol::error_message(&state.request_id, &e),
            }
        }
    }

    /// `tasks/get`, `tasks/update`, `tasks/cancel`.
    pub(super) fn task_method(&self, id: &str, rev: Revision, method: Method, mut p: Params<'_>) {
        let checked = (|| {
            let capabilities = p.meta.as_ref().and_then(|m| m.client_capabilities.as_ref());
            if !declares_tasks(capabilities) {
                return Err(missing_tasks_capability(method.name()));
            }
            let task = p
                .task_id
                .clone()
                .ok_or_else(|| RpcError::invalid_params("Invalid params: taskId is required."))?;
            let responses = match method {
                Method::UpdateTask => Some(
                    p.input_responses
                        .take()
                        .and_then(|r| match r {
                            Value::Object(map) => Some(map),
                            _ => None,
                        })
                        .ok_or_else(|| {
                            RpcError::invalid_params(
                                "Invalid params: inputResponses must be an object.",
                            )
                        })?,
                ),
                _ => None,
            };
            let ctx = self.context(id, rev, &mut p, Retry::default())?;
            Ok((task.into_owned(), responses, ctx))
        })();
        let (task, responses, ctx) = match checked {
            Ok(c) => c,
            Err(e) => return self.reply_error(id, &e),
        };
        let server = self.server.clone();
        let conn = self.shared.clone();
        let identity = self.identity();
        let state = ctx.state.clone();
        drop(ctx);
        let fut: BoxFuture<Result<Body, RpcError>> = Box::pin(async move {
            let principal = identity.principal();
            let requester = principal.as_deref();
            // Another principal's task is answered as an unknown one: its id tells nothing.
            let no_task = || RpcError::invalid_params(format!("Invalid params: no task {task}."));
            match (method, responses) {
                (Method::GetTask, _) => {
                    let record = server
                        .shared
                        .tasks
                        .get(&task)
                        .await?
                        .filter(|t| visible(t, requester))
                        .ok_or_else(no_task)?;
                    Ok(plain(&Value::Object(task_json(&record, true)).to_string()))
                }
                (_, Some(responses)) => {
                    update_task(&server, &conn, &task, &responses, &identity)
                        .await?
                        .ok_or_else(no_task)?;
                    Ok(plain("{}"))
                }
                _ => {
                    cancel(&server, &task, requester)
                        .await?
                        .ok_or_else(no_task)?;
                    Ok(plain("{}"))
                }
            }
        });
        self.drive(state, fut, self.task_answer());
    }
}

/// `tasks/update`: answers to open requests are kept (others ignored); once none is
/// open, the handler is called again, here, with the round's answers and its
/// `requestState`. `None` for an unknown task, or another principal's.
async fn update_task(
    server: &Server,
    conn: &ConnShared,
    id: &str,
    responses: &Map<String, Value>,
    identity: &Identity,
) -> Result<Option<()>, RpcError> {
    let principal = identity.principal();
    let requester = principal.as_deref();
    let mut resume = None;
    let mut foreign = false;
    let record = server
        .shared
        .tasks
        .update(id, |task| {
            resume = None;
            foreign = !visible(task, requester);
            if foreign
                || task.status != Status::InputRequired
                || !responses.keys().any(|k| task.pending.contains_key(k))
            {
                return false;
            }
            for (key, value) in responses {
                if task.pending.shift_remove(key).is_some() {
                    task.answered.insert(key.clone(), value.clone());
                }
            }
            task.updated_ms = now_ms();
            if task.pending.is_empty()
                && let Some(call) = task.call.clone()
            {
                task.status = Status::Working;
                resume = Some((
                    std::mem::take(&mut task.answered),
                    task.request_state.take(),
                    call,
                ));
            }
            true
        })
        .await?;
    if record.is_none() || foreign {
        return Ok(None);
    }
    let Some((answers, request_state, call)) = resume else {
        return Ok(Some(()));
    };
    let state = detached_state(
        conn,
        &call,
        Some(Value::Object(answers)),
        request_state,
        identity,
    );
    let started = {
        let registry = server.registry();
        let tool = registry.tool(&call.tool);
        let args = RawValue::from_string(call.arguments.clone());
        match (tool, args) {
            (Some((service, tool)), Ok(args)) => {
                Some(start_handler(server, service, tool, &args, &state))
            }
            _ => None,
        }
    };
    match started {
        Some(fut) => run(server, id.to_owned(), fut, state),
        None => {
            tracing::error!(task = id, tool = %call.tool, "a task's tool is no longer served");
            settle_error(server, id, RpcError::internal("Internal error.")).await;
        }
    }
    Ok(Some(()))
}

/// Calls the handler; a panic while starting it is a future that fails.
fn start_handler(
    server: &Server,
    service: &Arc<dyn Service>,
    tool: &ListedTool,
    args: &RawValue,
    state: &Arc<CallState>,
) -> BoxFuture<ToolResult> {
    let started = catch_unwind(AssertUnwindSafe(|| {
        let ctx = RequestContext {
            state: state.clone(),
            server: server.clone(),
        };
        tool.call(service, args, ctx)
    }));
    started.unwrap_or_else(|payload| {
        report_panic(&state.request_id, payload.as_ref());
        Box::pin(std::future::ready(Err(crate::service::ToolError::Rpc(
            RpcError::internal("Internal error."),
        ))))
    })
}

/// A call state for a task's handler, on a connection of its own: the runtime of `conn`, an outbox nobody reads (a task talks to the client only through `tasks/get`),
/// not tracked by the server, keeping no transport open.
fn detached_state(
    conn: &ConnShared,
    call: &CallRecord,
    input_responses: Option<Value>,
    request_state: Option<String>,
    identity: &Identity,
) -> Arc<CallState> {
    let _ = identity;
    let (out, _) = tokio::sync::mpsc::unbounded_channel();
    let conn = Arc::new(ConnShared {
        out,
        session: OnceLock::new(),
        log_level: AtomicU8::new(NO_LOGS),
        inflight: Mutex::new(HashMap::new()),
        slot_freed: std::sync::Condvar::new(),
        pending: Mutex::new(None),
        next_request: AtomicU64::new(1),
        subscriptions: Mutex::new(Vec::new()),
        resource_subscriptions: Mutex::new(HashSet::new()),
        ephemeral: AtomicBool::new(true),
        draining: AtomicBool::new(false),
        aborting: AtomicBool::new(false),
        runtime: conn.runtime.clone(),
    });
    Arc::new(CallState {
        conn,
        revision: Revision::parse(&call.revision).unwrap_or(Revision::V2026_07_28),
        request_id: call.request_id.clone().into(),
        progress_token: None,
        log_level: None,
        client_info: call.client_info.clone(),
        client_capabilities: call.client_capabilities.clone(),
        input_responses,
        request_state,
        // Its `input_required` results park the task: their state stays in the store.
        origin: None,
        cancelled: Default::default(),
        cancel_signal: Default::default(),
        route: None,
        #[cfg(feature = "auth")]
        auth: identity.auth.clone(),
    })
}

/// Runs the handler's future in the background and settles the task with its outcome.
fn run(server: &Server, id: String, fut: BoxFuture<ToolResult>, state: Arc<CallState>) {
    let tasks = &server.shared.tasks;
    lock(&tasks.running).insert(id.clone(), state.clone());
    let server = server.clone();
    let runtime = state.conn.runtime.clone();
    runtime.spawn(async move {
        let outcome = tokio::select! {
            biased;
            _ = state.wait_cancelled() => None,
            _ = cancelled_elsewhere(&server, &id) => None,
            r = CatchUnwind(fut) => Some(r),
        };
        lock(&server.shared.tasks.running).remove(&id);
        match outcome {
            Some(Ok(result)) => {
                settle(&server, &id, Ok(result), &state).await;
            }
            Some(Err(payload)) => {
                report_panic(&state.request_id, payload.as_ref());
                settle(&server, &id, Err(Panicked), &state).await;
            }
            None => tracing::debug!(task = %id, "task cancelled"),
        }
    });
}

/// How many tasks this process runs now.
pub(crate) fn running(server: &Server) -> usize {
    lock(&server.shared.tasks.running).len()
}

/// Past a shutdown's deadline: every task this process still runs is cancelled (its
/// handler's future dropped) and failed in its store with -32000, unless it ended first.
pub(crate) async fn fail_running(server: &Server) {
    let running: Vec<_> = lock(&server.shared.tasks.running).drain().collect();
    for (id, state) in running {
        state.cancel();
        let e = RpcError::new(
            crate::protocol::code::SERVER_BUSY,
            "Server shutting down: the task was cancelled before it finished.",
        );
        settle_error(server, &id, e).await;
    }
}

/// Completes when a shared store says the task is terminal or gone (cancelled through
/// another process); never for a store of this process alone, nor without timers (the
/// `http` feature).
#[cfg(any(feature = "http", feature = "redis"))]
async fn cancelled_elsewhere(server: &Server, id: &str) {
    let store = &server.shared.tasks.store;
    if !store.is_shared() {
        return std::future::pending().await;
    }
    loop {
        // A runtime without timers cannot watch; the handler then runs to its end.
        let Ok(sleep) = catch_unwind(|| tokio::time::sleep(CANCEL_CHECK)) else {
            return std::future::pending().await;
        };
        sleep.await;
        if let Err(e) = store.heartbeat(id).await {
            tracing::debug!(task = id, error = %e, "renewing the task's claim failed");
        }
        match store.get(id).await {
            Ok(Some(task)) if !task.is_terminal() => {}
            Ok(_) => return,
            Err(_) => {}
        }
    }
}

#[cfg(not(any(feature = "http", feature = "redis")))]
async fn cancelled_elsewhere(_: &Server, _: &str) {
    std::future::pending().await
}

/// Records a handler's outcome: `input_required` parks the task, a result completes it
/// (a tool error too: `isError` is a result), a protocol error or a panic fails it. A task
/// already terminal (cancelled) is left as it is. Returns the record as left.
async fn settle(
    server: &Server,
    id: &str,
    outcome: Result<ToolResult, Panicked>,
    state: &CallState,
) -> Option<TaskRecord> {
    let mut next = match outcome {
        Ok(Ok(ToolOutput::InputRequired {
            requests,
            state: rs,
        })) if !requests.is_empty() => Outcome::Input(requests, rs),
        Ok(Ok(ToolOutput::InputRequired { .. })) => {
            tracing::error!(request = %state.request_id, "a task's input_required needs inputRequests");
            Outcome::Failed(RpcError::internal("Internal error."))
        }
        Ok(result) => match render_tool_result(
            result,
            state.revision,
            &state.request_id,
            server.shared.max_depth,
        ) {
            Ok(body) => Outcome::Completed(body.json),
            Err(e) => Outcome::Failed(e),
        },
        Err(Panicked) => Outcome::Failed(RpcError::internal("Internal error.")),
    };
    let edit = |task: &mut TaskRecord| {
        if task.status.is_terminal() {
            return false;
        }
        task.updated_ms = now_ms();
        match std::mem::replace(&mut next, Outcome::Taken) {
            Outcome::Input(requests, rs) => {
                task.status = Status::InputRequired;
                task.pending = requests;
                task.answered = Map::new();
                task.request_state = rs;
            }
            Outcome::Completed(json) => {
                task.status = Status::Completed;
                task.result = Some(json);
            }
            Outcome::Failed(e) => {
                task.status = Status::Failed;
                task.error = Some(ErrorRecord {
                    code: e.code,
                    message: e.message,
                    data: e.data,
                });
            }
            Outcome::Taken => return false,
        }
        if task.status.is_terminal() {
            task.call = None;
        }
        true
    };
    let updated = server.shared.tasks.update(id, edit).await;
    updated.ok().flatten()
}

/// A handler's outcome, before it is written to the task.
enum Outcome {
    Input(Map<String, Value>, Option<String>),
    Completed(String),
    Failed(RpcError),
    Taken,
}

async fn settle_error(server: &Server, id: &str, e: RpcError) {
    let edit = |task: &mut TaskRecord| {
        if task.status.is_terminal() {
            return false;
        }
        task.status = Status::Failed;
        task.updated_ms = now_ms();
        task.call = None;
        task.error = Some(ErrorRecord {
            code: e.code,
            message: e.message.clone(),
            data: e.data.clone(),
        });
        true
    };
    let _ = server.shared.tasks.update(id, edit).await;
}

/// `tasks/cancel`: a task not yet terminal becomes `cancelled` and its handler is cancelled
/// (here at once; in another process sharing the store, when it next checks); a terminal one
/// is left as it is. `None` for an unknown task, or another principal's.
async fn cancel(
    server: &Server,
    id: &str,
    requester: Option<&str>,
) -> Result<Option<()>, RpcError> {
    let tasks = &server.shared.tasks;
    let mut foreign = false;
    let edit = |task: &mut TaskRecord| {
        foreign = !visible(task, requester);
        if foreign || task.status.is_terminal() {
            return false;
        }
        task.status = Status::Cancelled;
        task.updated_ms = now_ms();
        task.pending = Map::new();
        task.answered = Map::new();
        task.request_state = None;
        task.call = None;
        true
    };
    let record = tasks.update(id, edit).await?;
    if record.is_none() || foreign {
        return Ok(None);
    }
    if let Some(state) = lock(&tasks.running).remove(id) {
        state.cancel();
    }
    Ok(Some(()))
}

/// Whether `requester` may see `task`: a task bound to a principal is that principal's only.
fn visible(task: &TaskRecord, requester: Option<&str>) -> bool {
    task.owner.is_none() || task.owner.as_deref() == requester
}

/// The `Task` fields; with `detailed`, the status's payload (`result`, `error`,
/// `inputRequests`) as `tasks/get` returns it.
fn task_json(task: &TaskRecord, detailed: bool) -> Map<String, Value> {
    let mut out = Map::new();
    out.insert("taskId".into(), task.id.clone().into());
    out.insert("status".into(), task.status.as_str().into());
    out.insert("createdAt".into(), iso8601(task.created()).into());
    out.insert(
        "lastUpdatedAt".into(),
        iso8601(SystemTime::UNIX_EPOCH + Duration::from_millis(task.updated_ms)).into(),
    );
    out.insert("ttlMs".into(), task.ttl_ms.into());
    out.insert("pollIntervalMs".into(), POLL_INTERVAL_MS.into());
    if !detailed {
        return out;
    }
    match task.status {
        Status::Completed => {
            let result = task
                .result
                .as_deref()
                .and_then(|r| serde_json::from_str::<Value>(r).ok())
                .unwrap_or_else(|| serde_json::json!({ "content": [] }));
            out.insert("result".into(), result);
        }
        Status::Failed => {
            let mut error = Map::new();
            match &task.error {
                Some(e) => {
                    error.insert("code".into(), e.code.into());
                    error.insert("message".into(), e.message.clone().into());
                    if let Some(data) = &e.data {
                        error.insert("data".into(), data.clone());
                    }
                }
                None => {
                    let e = RpcError::internal("Internal error.");
                    error.insert("code".into(), e.code.into());
                    error.insert("message".into(), e.message.into());
                }
            }
            out.insert("error".into(), Value::Object(error));
        }
        Status::InputRequired => {
            out.insert("inputRequests".into(), Value::Object(task.pending.clone()));
        }
        Status::Working | Status::Cancelled => {}
    }
    out
}

/// `YYYY-MM-DDTHH:MM:SS.mmmZ` (UTC).
fn iso8601(t: SystemTime) -> String {
    let d = t
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or(Duration::ZERO);
    let secs = d.as_secs();
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Howard Hinnant's civil_from_days.
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        d.subsec_millis()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso8601_dates() {
        assert_eq!(iso8601(SystemTime::UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        let t = SystemTime::UNIX_EPOCH + Duration::from_millis(1_764_567_890_123);
        assert_eq!(iso8601(t), "2025-12-01T05:44:50.123Z");
        let leap = SystemTime::UNIX_EPOCH + Duration::from_secs(951_782_400);
        assert_eq!(iso8601(leap), "2000-02-29T00:00:00.000Z");
    }
}
