//! Where tasks (`io.modelcontextprotocol/tasks`) are kept: their status, result and pending
//! input, behind [`TaskStore`].
//!
//! The default, [`MemoryTaskStore`], keeps them in the process. Several processes behind a
//! load balancer share a store instead, so that a `tasks/get`, `tasks/update` or
//! `tasks/cancel` reaching any instance finds a task another one created: [`DirTaskStore`]
//! (a directory on a local or shared file system), or your own implementation over a
//! database. A [`TaskRecord`] holds everything needed to call the task's handler again, so
//! the instance that receives the input of an `input_required` task runs the next round
//! itself; a handler's future is the only thing that stays in the process that runs it.
//! Instances on several machines share a Redis server instead (feature `redis`:
//! [`RedisTaskStore`](crate::cluster::RedisTaskStore)).

mod dir;
mod memory;
mod policy;
#[cfg(test)]
pub(crate) mod suite;

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub use dir::DirTaskStore;
pub use memory::MemoryTaskStore;
pub use policy::{TASKS_EXTENSION, TaskInput, TaskSupport};
pub(crate) use policy::{TaskTool, Tasks};

/// What a [`TaskStore`] method returns: a boxed future, so the trait stays usable as
/// `Arc<dyn TaskStore>` (a store over the network awaits its replies without holding a
/// runtime thread).
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = io::Result<T>> + Send + 'a>>;

/// The edit [`TaskStore::update`] applies: `true` writes the record back.
pub type TaskEdit<'a> = &'a mut (dyn FnMut(&mut TaskRecord) -> bool + Send);

/// A store of task records, shared by every connection of a server (and, for a shared
/// store, by every process that opens it).
///
/// Methods are awaited while a request is handled. A store whose work is local and short
/// (an in-memory map, a local file) does it at once and returns a ready future
/// ([`std::future::ready`]); one that waits on the network awaits its replies. Expired
/// records (see [`TaskRecord::expired`]) must read as absent; removing them is up to the
/// store.
pub trait TaskStore: Send + Sync + 'static {
    /// Stores a new task. The id is fresh (128 random bits). Fails when the store cannot
    /// take more tasks; the call that would have created it gets `-32603`.
    fn create<'a>(&'a self, record: &'a TaskRecord) -> StoreFuture<'a, ()>;

    /// The unexpired task `id`, if any.
    fn get<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<TaskRecord>>;

    /// Atomically with respect to every other `update` (of any process sharing the store):
    /// reads task `id`, calls `edit` on it and writes it back when `edit` returns `true`.
    /// Returns the record as left, or `None` for an unknown or expired id (then `edit` is
    /// not called).
    fn update<'a>(&'a self, id: &'a str, edit: TaskEdit<'a>)
    -> StoreFuture<'a, Option<TaskRecord>>;

    /// Whether other processes may change records (default `true`). A process running a
    /// task's handler then checks the store now and then, so that a `tasks/cancel`
    /// received by another process stops the handler too.
    fn is_shared(&self) -> bool {
        true
    }

    /// Called every 250 ms, while its handler runs, by the process running task `id` (of
    /// a shared store): a store that fails the tasks of processes that died renews the
    /// process's claim here. The default does nothing.
    fn heartbeat<'a>(&'a self, id: &'a str) -> StoreFuture<'a, ()> {
        let _ = id;
        Box::pin(std::future::ready(Ok(())))
    }

    /// Records the single-use token `token` until `until`, atomically with respect to every
    /// other call of any process sharing the store: `Ok(true)` when it was not recorded yet
    /// (this is its first use), `Ok(false)` when it was. With
    /// [`ServerBuilder::single_use_request_state`](crate::ServerBuilder::single_use_request_state),
    /// the runtime records the nonce of each sealed `requestState` a retry presents here
    /// (48 lowercase hex digits; `until` is the state's expiry), so a second use is refused.
    /// A record may be forgotten once `until` has passed.
    ///
    /// The default fails (`Unsupported`): a store of your own implements it to serve single
    /// use, or every retry carrying a state fails with -32603.
    fn use_once<'a>(&'a self, token: &'a str, until: SystemTime) -> StoreFuture<'a, bool> {
        let _ = (token, until);
        Box::pin(std::future::ready(Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "this task store does not record single-use tokens",
        ))))
    }
}

/// Whether `id` is one the runtime can have made (a task id, a single-use token): lowercase
/// hex, at most 64 digits, so that a shared store can name a file or key after it.
pub(crate) fn plain_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// A task's state, as a [`TaskStore`] keeps it: serializable (serde) so a store can write it
/// anywhere; what it holds is the runtime's business.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TaskRecord {
    pub(crate) id: String,
    pub(crate) status: Status,
    pub(crate) created_ms: u64,
    pub(crate) updated_ms: u64,
    pub(crate) ttl_ms: u64,
    /// The `CallToolResult` JSON of a completed task.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) result: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) error: Option<ErrorRecord>,
    /// Open `inputRequests`, and the answers to this round's ones received so far.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub(crate) pending: Map<String, Value>,
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub(crate) answered: Map<String, Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) request_state: Option<String>,
    /// Until the task is terminal: what calls its handler again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) call: Option<CallRecord>,
    /// Who created it, with authorization (feature `auth`): the token's subject, else its
    /// client. Only requests of the same owner see the task; `None` (no authorization)
    /// binds it to no one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) owner: Option<String>,
}

impl TaskRecord {
    /// The task's id (`taskId`).
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Whether the task is completed, failed or cancelled.
    pub fn is_terminal(&self) -> bool {
        self.status.is_terminal()
    }

    /// When the task was created.
    pub fn created(&self) -> SystemTime {
        from_ms(self.created_ms)
    }

    /// When the task expires (`ttlMs` after its creation).
    pub fn expires(&self) -> SystemTime {
        from_ms(self.created_ms.saturating_add(self.ttl_ms))
    }

    /// Whether the task has expired at `now`.
    pub fn expired(&self, now: SystemTime) -> bool {
        now > self.expires()
    }
}

/// A task's status (`Task.status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Status {
    Working,
    InputRequired,
    Completed,
    Failed,
    Cancelled,
}

impl Status {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Status::Working => "working",
            Status::InputRequired => "input_required",
            Status::Completed => "completed",
            Status::Failed => "failed",
            Status::Cancelled => "cancelled",
        }
    }

    pub(crate) fn is_terminal(self) -> bool {
        matches!(self, Status::Completed | Status::Failed | Status::Cancelled)
    }
}

/// A failed task's JSON-RPC error.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct ErrorRecord {
    pub code: i64,
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

/// The `tools/call` a task runs: enough to call its handler again in any process.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct CallRecord {
    pub tool: String,
    /// The `arguments` object, JSON text.
    pub arguments: String,
    pub revision: String,
    /// The creating request's id, raw JSON (for logs).
    pub request_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_info: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_capabilities: Option<Value>,
}

pub(crate) fn now_ms() -> u64 {
    to_ms(SystemTime::now())
}

fn from_ms(ms: u64) -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_millis(ms)
}

/// Milliseconds since the Unix epoch (0 before it).
fn to_ms(t: SystemTime) -> u64 {
    t.duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}
