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
//! Tasks live in the [`Server`](crate::Server), not in a connection: any connection of the
//! process (a stateless HTTP POST each) can poll a task another one created. They are not
//! shared between processes.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, RandomState};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::task::{Context, Poll, Waker};
use std::time::{Duration, SystemTime};

use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::drive::{CatchUnwind, Panicked, report_panic};
use super::params::Params;
use super::shared::{ConnShared, NO_LOGS, lock};
use super::{Connection, Reply, plain};
use crate::context::{CallState, RequestContext};
use crate::jsonrpc::{RpcError, result_message};
use crate::output::{Body, finish_result, render_tool_result};
use crate::revision::Revision;
use crate::service::{BoxFuture, Service, ToolOutput, ToolResult};

/// The extension's identifier, under `capabilities.extensions`.
pub const TASKS_EXTENSION: &str = "io.modelcontextprotocol/tasks";

/// Whether a tool can run as a task (declared with [`ServerBuilder::task_tool`]).
///
/// [`ServerBuilder::task_tool`]: crate::ServerBuilder::task_tool
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskSupport {
    /// A task when the request declares the extension; a synchronous call otherwise.
    Optional,
    /// Only as a task: a 2026-07-28 request that does not declare the extension gets
    /// -32021 with `requiredCapabilities.extensions["io.modelcontextprotocol/tasks"]`.
    /// (Handshake revisions have no tasks: the call runs synchronously.)
    Required,
}

/// When a task tool's requests for input are answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskInput {
    /// The task is created first; input the handler asks for parks the task
    /// (`input_required`, answered with `tasks/update`).
    InTask,
    /// Input the handler asks for before its first suspension goes back to the client as a
    /// synchronous `input_required` (multi round-trip on `tools/call` itself); the task is
    /// created on the round that does not ask (SEP-2663: input *before* a task uses the
    /// original request, input *during* it uses `tasks/update`).
    BeforeTask,
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct TaskTool {
    pub support: TaskSupport,
    pub input: TaskInput,
}

/// How long a task stays readable after it was created.
const TTL_MS: u64 = 60 * 60 * 1000;
/// The polling interval suggested to clients.
const POLL_INTERVAL_MS: u64 = 500;
/// At most this many unexpired tasks; a task-creating call beyond it gets -32603.
const MAX_TASKS: usize = 10_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    Working,
    InputRequired,
    Completed,
    Failed,
    Cancelled,
}

impl Status {
    fn as_str(self) -> &'static str {
        match self {
            Status::Working => "working",
            Status::InputRequired => "input_required",
            Status::Completed => "completed",
            Status::Failed => "failed",
            Status::Cancelled => "cancelled",
        }
    }

    fn is_terminal(self) -> bool {
        matches!(self, Status::Completed | Status::Failed | Status::Cancelled)
    }
}

/// What a task was started with, to call its handler again after input.
struct Call {
    service: Arc<dyn Service>,
    name: String,
    args: Box<RawValue>,
    conn: Arc<ConnShared>,
    revision: Revision,
    request_id: Box<str>,
    client_info: Option<Value>,
    client_capabilities: Option<Value>,
}

struct Task {
    created: SystemTime,
    inner: Mutex<Inner>,
}

struct Inner {
    status: Status,
    updated: SystemTime,
    /// The `CallToolResult` (JSON object) of a completed task.
    result: Option<String>,
    error: Option<RpcError>,
    /// Open `inputRequests`, and the answers to the round's ones received so far.
    pending: Map<String, Value>,
    answered: Map<String, Value>,
    request_state: Option<String>,
    /// The running handler's call state, to cancel it.
    running: Option<Arc<CallState>>,
    /// Until the task is terminal: what calls the handler again.
    call: Option<Arc<Call>>,
}

/// The server's tasks.
pub(crate) struct TaskStore {
    tasks: Mutex<HashMap<String, Arc<Task>>>,
    ids: (RandomState, RandomState),
    counter: AtomicU64,
}

impl TaskStore {
    pub fn new() -> Self {
        TaskStore {
            tasks: Mutex::new(HashMap::new()),
            ids: (RandomState::new(), RandomState::new()),
            counter: AtomicU64::new(0),
        }
    }

    /// 128 bits from two per-process random hash keys over a counter and the time: unique
    /// in the process, not guessable from other ids.
    fn new_id(&self) -> String {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let t = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let a = self.ids.0.hash_one((n, t));
        let b = self.ids.1.hash_one((t, n));
        format!("{a:016x}{b:016x}")
    }

    fn get(&self, id: &str) -> Option<Arc<Task>> {
        let task = lock(&self.tasks).get(id).cloned()?;
        (!expired(&task, SystemTime::now())).then_some(task)
    }

    fn insert(&self, task: Task) -> Result<(String, Arc<Task>), RpcError> {
        let now = SystemTime::now();
        let mut tasks = lock(&self.tasks);
        tasks.retain(|_, t| !expired(t, now));
        if tasks.len() >= MAX_TASKS {
            return Err(RpcError::internal("Server busy: too many tasks."));
        }
        let id = self.new_id();
        let task = Arc::new(task);
        tasks.insert(id.clone(), task.clone());
        Ok((id, task))
    }
}

fn expired(task: &Task, now: SystemTime) -> bool {
    now.duration_since(task.created)
        .is_ok_and(|age| age > Duration::from_millis(TTL_MS))
}

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
    /// A task tool's `tools/call` from a client that declared the extension.
    pub(super) fn start_task(
        &self,
        service: Arc<dyn Service>,
        name: &str,
        args: &RawValue,
        ctx: RequestContext,
        tool: TaskTool,
    ) {
        let state = ctx.state.clone();
        let call = Arc::new(Call {
            service: service.clone(),
            name: name.to_owned(),
            args: args.to_owned(),
            conn: detached(&state.conn),
            revision: state.revision,
            request_id: state.request_id.clone(),
            client_info: state.client_info.clone(),
            client_capabilities: state.client_capabilities.clone(),
        });
        // The handler runs without the request's stream or progress token: nothing of a
        // task reaches the client but through `tasks/get`.
        let quiet = call.state(state.input_responses.clone(), state.request_state.clone());
        drop(ctx);
        let started = catch_unwind(AssertUnwindSafe(|| {
            service.call_tool(
                name,
                args,
                RequestContext {
                    state: quiet.clone(),
                },
            )
        }));
        let mut fut = match started {
            Ok(f) => f,
            Err(payload) => {
                report_panic(&state.request_id, payload.as_ref());
                Box::pin(std::future::ready(Err(crate::ToolError::Rpc(
                    RpcError::internal("Internal error."),
                )))) as BoxFuture<ToolResult>
            }
        };
        let mut ready = None;
        if tool.input == TaskInput::BeforeTask {
            let mut cx = Context::from_waker(Waker::noop());
            match catch_unwind(AssertUnwindSafe(|| fut.as_mut().poll(&mut cx))) {
                Ok(Poll::Ready(Ok(out @ ToolOutput::InputRequired { .. }))) => {
                    let body = render_tool_result(Ok(out), state.revision, &state.request_id);
                    return self.answer(&state, body);
                }
                Ok(Poll::Ready(r)) => ready = Some(Ok(r)),
                Ok(Poll::Pending) => {}
                Err(payload) => {
                    report_panic(&state.request_id, payload.as_ref());
                    ready = Some(Err(Panicked));
                }
            }
        }
        let now = SystemTime::now();
        let task = Task {
            created: now,
            inner: Mutex::new(Inner {
                status: Status::Working,
                updated: now,
                result: None,
                error: None,
                pending: Map::new(),
                answered: Map::new(),
                request_state: None,
                running: None,
                call: Some(call),
            }),
        };
        let (id, task) = match self.server.shared.tasks.insert(task) {
            Ok(t) => t,
            Err(e) => return self.answer(&state, Err(e)),
        };
        match ready {
            Some(outcome) => settle(&task, outcome, &quiet),
            None => run(task.clone(), fut, quiet),
        }
        let mut created = task_json(&id, &task, false);
        created.shift_insert(0, "resultType".into(), "task".into());
        let body = Body {
            json: Value::Object(created).to_string(),
            has_meta: false,
        };
        self.answer(&state, Ok(body));
    }

    fn answer(&self, state: &CallState, body: Result<Body, RpcError>) {
        let message = match body {
            Ok(b) => result_message(
                &state.request_id,
                &finish_result(b, state.revision, None, &self.server.shared.info_json),
            ),
            Err(e) => crate::jsonrpc::error_message(&state.request_id, &e),
        };
        self.emit(message);
    }

    /// `tasks/get`, `tasks/update`, `tasks/cancel`.
    pub(super) fn task_method(&self, method: &str, p: &Params<'_>) -> Result<Reply, RpcError> {
        let capabilities = p.meta.as_ref().and_then(|m| m.client_capabilities.as_ref());
        if !declares_tasks(capabilities) {
            return Err(missing_tasks_capability(method));
        }
        let id = p
            .task_id
            .as_deref()
            .ok_or_else(|| RpcError::invalid_params("Invalid params: taskId is required."))?;
        let task =
            self.server.shared.tasks.get(id).ok_or_else(|| {
                RpcError::invalid_params(format!("Invalid params: no task {id}."))
            })?;
        match method {
            "tasks/get" => {
                let json = Value::Object(task_json(id, &task, true)).to_string();
                Ok(Reply(plain(&json), false))
            }
            "tasks/update" => {
                let responses = p
                    .input_responses
                    .as_ref()
                    .and_then(Value::as_object)
                    .ok_or_else(|| {
                        RpcError::invalid_params(
                            "Invalid params: inputResponses must be an object.",
                        )
                    })?;
                update(&task, responses);
                Ok(Reply(plain("{}"), false))
            }
            _ => {
                cancel(&task);
                Ok(Reply(plain("{}"), false))
            }
        }
    }
}

impl Call {
    fn state(
        &self,
        input_responses: Option<Value>,
        request_state: Option<String>,
    ) -> Arc<CallState> {
        Arc::new(CallState {
            conn: self.conn.clone(),
            revision: self.revision,
            request_id: self.request_id.clone(),
            progress_token: None,
            log_level: None,
            client_info: self.client_info.clone(),
            client_capabilities: self.client_capabilities.clone(),
            input_responses,
            request_state,
            cancelled: Default::default(),
            cancel_signal: Default::default(),
            route: None,
        })
    }
}

/// A connection of its own for a task's handler: the server and the runtime of the one
/// that started it, an outbox nobody reads (a task talks to the client only through
/// `tasks/get`), and not tracked by the server. It keeps no transport open.
fn detached(conn: &ConnShared) -> Arc<ConnShared> {
    let (out, _) = tokio::sync::mpsc::unbounded_channel();
    Arc::new(ConnShared {
        out,
        session: OnceLock::new(),
        log_level: AtomicU8::new(NO_LOGS),
        inflight: Mutex::new(HashMap::new()),
        pending: Mutex::new(None),
        next_request: AtomicU64::new(1),
        subscriptions: Mutex::new(Vec::new()),
        resource_subscriptions: Mutex::new(HashSet::new()),
        ephemeral: AtomicBool::new(true),
        runtime: conn.runtime.clone(),
        server: conn.server.clone(),
    })
}

/// Runs the handler's future in the background and settles the task with its outcome.
fn run(task: Arc<Task>, fut: BoxFuture<ToolResult>, state: Arc<CallState>) {
    lock(&task.inner).running = Some(state.clone());
    let runtime = state.conn.runtime.clone();
    runtime.spawn(async move {
        let outcome = tokio::select! {
            biased;
            _ = state.wait_cancelled() => None,
            r = CatchUnwind(fut) => Some(r),
        };
        match outcome {
            Some(Ok(result)) => settle(&task, Ok(result), &state),
            Some(Err(payload)) => {
                report_panic(&state.request_id, payload.as_ref());
                settle(&task, Err(Panicked), &state);
            }
            None => tracing::debug!(request = %state.request_id, "task cancelled"),
        }
    });
}

/// Records a handler's outcome: `input_required` parks the task, a result completes it
/// (a tool error too: `isError` is a result), a protocol error or a panic fails it.
fn settle(task: &Task, outcome: Result<ToolResult, Panicked>, state: &CallState) {
    let mut inner = lock(&task.inner);
    if inner.status.is_terminal() {
        return;
    }
    inner.running = None;
    inner.updated = SystemTime::now();
    match outcome {
        Ok(Ok(ToolOutput::InputRequired {
            requests,
            state: rs,
        })) if !requests.is_empty() => {
            inner.status = Status::InputRequired;
            inner.pending = requests;
            inner.answered = Map::new();
            inner.request_state = rs;
        }
        Ok(Ok(ToolOutput::InputRequired { .. })) => {
            tracing::error!(request = %state.request_id, "a task's input_required needs inputRequests");
            inner.status = Status::Failed;
            inner.error = Some(RpcError::internal("Internal error."));
        }
        Ok(result) => match render_tool_result(result, state.revision, &state.request_id) {
            Ok(body) => {
                inner.status = Status::Completed;
                inner.result = Some(body.json);
            }
            Err(e) => {
                inner.status = Status::Failed;
                inner.error = Some(e);
            }
        },
        Err(Panicked) => {
            inner.status = Status::Failed;
            inner.error = Some(RpcError::internal("Internal error."));
        }
    }
    if inner.status.is_terminal() {
        inner.call = None;
    }
}

/// `tasks/update`: answers to open requests are kept (others ignored); once none is open,
/// the handler is called again with the round's answers and its `requestState`.
fn update(task: &Arc<Task>, responses: &Map<String, Value>) {
    let (answers, request_state, call) = {
        let mut inner = lock(&task.inner);
        if inner.status != Status::InputRequired {
            return;
        }
        for (key, value) in responses {
            if inner.pending.shift_remove(key).is_some() {
                inner.answered.insert(key.clone(), value.clone());
            }
        }
        if !inner.pending.is_empty() {
            inner.updated = SystemTime::now();
            return;
        }
        let Some(call) = inner.call.clone() else {
            return;
        };
        inner.status = Status::Working;
        inner.updated = SystemTime::now();
        (
            std::mem::take(&mut inner.answered),
            inner.request_state.take(),
            call,
        )
    };
    let state = call.state(Some(Value::Object(answers)), request_state);
    let started = catch_unwind(AssertUnwindSafe(|| {
        call.service.clone().call_tool(
            &call.name,
            &call.args,
            RequestContext {
                state: state.clone(),
            },
        )
    }));
    match started {
        Ok(fut) => run(task.clone(), fut, state),
        Err(payload) => {
            report_panic(&state.request_id, payload.as_ref());
            settle(task, Err(Panicked), &state);
        }
    }
}

/// `tasks/cancel`: a task not yet terminal becomes `cancelled` and its handler is cancelled;
/// a terminal one is left as it is.
fn cancel(task: &Task) {
    let running = {
        let mut inner = lock(&task.inner);
        if inner.status.is_terminal() {
            return;
        }
        inner.status = Status::Cancelled;
        inner.updated = SystemTime::now();
        inner.pending = Map::new();
        inner.answered = Map::new();
        inner.request_state = None;
        inner.call = None;
        inner.running.take()
    };
    if let Some(state) = running {
        state.cancel();
    }
}

/// The `Task` fields; with `detailed`, the status's payload (`result`, `error`,
/// `inputRequests`) as `tasks/get` returns it.
fn task_json(id: &str, task: &Task, detailed: bool) -> Map<String, Value> {
    let inner = lock(&task.inner);
    let mut out = Map::new();
    out.insert("taskId".into(), id.into());
    out.insert("status".into(), inner.status.as_str().into());
    out.insert("createdAt".into(), iso8601(task.created).into());
    out.insert("lastUpdatedAt".into(), iso8601(inner.updated).into());
    out.insert("ttlMs".into(), TTL_MS.into());
    out.insert("pollIntervalMs".into(), POLL_INTERVAL_MS.into());
    if !detailed {
        return out;
    }
    match inner.status {
        Status::Completed => {
            let result = inner
                .result
                .as_deref()
                .and_then(|r| serde_json::from_str::<Value>(r).ok())
                .unwrap_or_else(|| serde_json::json!({ "content": [] }));
            out.insert("result".into(), result);
        }
        Status::Failed => {
            let e = inner
                .error
                .clone()
                .unwrap_or_else(|| RpcError::internal("Internal error."));
            let mut error = Map::new();
            error.insert("code".into(), e.code.into());
            error.insert("message".into(), e.message.into());
            if let Some(data) = e.data {
                error.insert("data".into(), data);
            }
            out.insert("error".into(), Value::Object(error));
        }
        Status::InputRequired => {
            out.insert("inputRequests".into(), Value::Object(inner.pending.clone()));
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
