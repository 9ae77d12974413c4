//! The task policy the server is configured with: which tools run as tasks and how, and
//! the server's table of tasks (their store and the handlers this process runs).

use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use super::{TaskRecord, TaskStore};
use crate::peer::CallState;
use crate::protocol::RpcError;

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

/// The server's tasks: their records in a [`TaskStore`], the handlers this process runs.
pub(crate) struct Tasks {
    pub(crate) store: Arc<dyn TaskStore>,
    /// Handlers running here, by task id, to cancel them.
    pub(crate) running: Mutex<HashMap<String, Arc<CallState>>>,
    ids: (RandomState, RandomState),
    counter: AtomicU64,
}

impl Tasks {
    pub fn new(store: Arc<dyn TaskStore>) -> Self {
        Tasks {
            store,
            running: Mutex::new(HashMap::new()),
            ids: (RandomState::new(), RandomState::new()),
            counter: AtomicU64::new(0),
        }
    }

    /// 128 bits from two per-process random hash keys over a counter and the time: unique,
    /// not guessable from other ids (those of other processes included).
    pub(crate) fn new_id(&self) -> String {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let t = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let a = self.ids.0.hash_one((n, t, std::process::id()));
        let b = self.ids.1.hash_one((t, n));
        format!("{a:016x}{b:016x}")
    }

    pub(crate) async fn get(&self, id: &str) -> Result<Option<TaskRecord>, RpcError> {
        self.store.get(id).await.map_err(|e| store_failed(id, &e))
    }

    pub(crate) async fn update(
        &self,
        id: &str,
        mut edit: impl FnMut(&mut TaskRecord) -> bool + Send,
    ) -> Result<Option<TaskRecord>, RpcError> {
        self.store
            .update(id, &mut edit)
            .await
            .map_err(|e| store_failed(id, &e))
    }
}

fn store_failed(id: &str, e: &std::io::Error) -> RpcError {
    tracing::error!(task = id, error = %e, "the task store failed");
    RpcError::internal("Internal error.")
}
