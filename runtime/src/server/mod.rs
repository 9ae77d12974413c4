//! The server: a [`Server`] and what it shares with its connections, built by a
//! [`ServerBuilder`], serving the services of its [`Registry`].
//!
//! - `builder`: [`ServerBuilder`], its options and [`Server::builder`].
//! - `registry`: the services, the tool-name index and the listings rendered per revision.
//! - `limits`: per-tool limits (a time limit, concurrent calls, and with `rate` (feature
//!   `rate-limit`) calls per client), resolved per tool; `cache`: results of read-only
//!   tools kept by client and arguments.
//! - `middleware`: the application's code around tool calls ([`ServerBuilder::middleware`]).
//! - `changes`: services added and removed at run time, resource updates, and both told to
//!   the clients and to the other instances.
//!
//! This file holds the server itself and what connections ask of it.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard, RwLock, Weak};

use crate::args::Profile;
use crate::cluster::{ChangeBus, SessionDirectory};
use crate::output::CachePolicy;
use crate::peer::ConnShared;
use crate::seal::Sealer;
use crate::service::Service;
use crate::tasks::{TaskInput, TaskTool, Tasks};

mod builder;
mod cache;
mod changes;
mod limits;
pub(crate) mod middleware;
#[cfg(feature = "rate-limit")]
mod rate;
mod registry;

pub use builder::ServerBuilder;
pub(crate) use cache::ResultCache;
pub use limits::ToolLimits;
pub(crate) use limits::{Limits, ToolGate};
pub(crate) use registry::{Kind, ListedTool, Registry};

/// An MCP server: one or more services, served to any number of connections.
#[derive(Clone)]
pub struct Server {
    pub(crate) shared: Arc<ServerShared>,
}

pub(crate) struct ServerShared {
    /// `Implementation` JSON: `{"name":…,"title":…,"version":…}`.
    pub info_json: String,
    /// The same without `title`, for revisions before 2025-06-18.
    pub info_json_untitled: String,
    pub instructions: Option<String>,
    pub list_changed: bool,
    pub page_size: usize,
    pub cache: CachePolicy,
    pub max_pending_calls: usize,
    /// How deep a client's values may nest ([`ServerBuilder::max_depth`]).
    pub max_depth: u32,
    /// The profile every service is served with ([`ServerBuilder::profile`]); `None`: each
    /// its own default.
    profile: Option<Profile>,
    /// Resource URIs made subscribable by [`ServerBuilder::subscribable`].
    subscribable: HashSet<String>,
    registry: RwLock<Arc<Registry>>,
    connections: Mutex<Vec<Weak<ConnShared>>>,
    /// Tools declared with [`ServerBuilder::task_tool`].
    task_tools: HashMap<String, TaskTool>,
    pub tasks: Tasks,
    /// Services that may be added and removed at run time, by name
    /// ([`ServerBuilder::optional_service`]).
    optional: Vec<(String, Arc<dyn Service>)>,
    /// What carries changes to the other instances ([`ServerBuilder::redis`]).
    bus: Option<Arc<dyn ChangeBus>>,
    /// Where HTTP sessions are recorded for the other instances ([`ServerBuilder::redis`]).
    #[cfg_attr(not(all(feature = "http", feature = "redis")), allow(dead_code))]
    pub session_directory: Option<Arc<dyn SessionDirectory>>,
    /// What seals and opens the 2026-07-28 `requestState`.
    pub sealer: Sealer,
    /// The tools' limits ([`ServerBuilder::tool_limits`] and its kin).
    pub limits: Limits,
    /// Around every tool call, outermost first ([`ServerBuilder::middleware`]).
    pub middleware: middleware::Chain,
    /// What each request's span and metrics record ([`ServerBuilder::telemetry`]).
    #[cfg(feature = "otel")]
    pub telemetry: crate::telemetry::Telemetry,
}

impl Server {
    /// How the tool `name` runs as a task: as the builder declared it, else as its service
    /// says ([`Service::task_support`]).
    pub(crate) fn task_tool(&self, registry: &Registry, name: &str) -> Option<TaskTool> {
        let (service, listed) = registry.tool(name)?;
        let declared = |n: &str| self.shared.task_tools.get(n).copied();
        if let Some(tool) = declared(name).or_else(|| declared(&listed.own_name)) {
            return Some(tool);
        }
        let support = service.task_support(&listed.own_name)?;
        Some(TaskTool {
            support,
            input: TaskInput::InTask,
        })
    }

    /// Whether any tool can run as a task (the extension is then advertised).
    pub(crate) fn has_task_tools(&self, registry: &Registry) -> bool {
        !self.shared.task_tools.is_empty() || registry.has_task_tools()
    }

    /// Whether `resources.subscribe` is advertised: the services have resources and some
    /// service, or the builder, makes one subscribable.
    pub(crate) fn has_subscriptions(&self, registry: &Registry) -> bool {
        registry.has_resources()
            && (!self.shared.subscribable.is_empty()
                || registry.services.iter().any(|s| s.has_subscriptions()))
    }

    /// Whether clients may subscribe to `uri`.
    pub(crate) fn subscribable(&self, registry: &Registry, uri: &str) -> bool {
        self.shared.subscribable.contains(uri)
            || registry.services.iter().any(|s| s.subscribable(uri))
    }

    pub(crate) fn registry(&self) -> Arc<Registry> {
        self.shared
            .registry
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    pub(crate) fn track(&self, conn: &Arc<ConnShared>) {
        self.connections().push(Arc::downgrade(conn));
    }

    /// Starts shutting down every connection: their requests from now on are refused.
    #[cfg(feature = "http")]
    pub(crate) fn drain_connections(&self) {
        for conn in self.connections().iter().filter_map(Weak::upgrade) {
            conn.drain();
        }
    }

    /// The calls running on the server's connections.
    #[cfg(feature = "http")]
    pub(crate) fn calls_in_flight(&self) -> usize {
        let conns: Vec<_> = self
            .connections()
            .iter()
            .filter_map(Weak::upgrade)
            .collect();
        conns.iter().map(|c| c.calls_in_flight()).sum()
    }

    /// Past a shutdown's deadline: cancels every call running on the server's connections,
    /// each answered with an error ([`ConnShared::abort_calls`]).
    #[cfg(feature = "http")]
    pub(crate) fn abort_calls(&self) {
        let conns: Vec<_> = self
            .connections()
            .iter()
            .filter_map(Weak::upgrade)
            .collect();
        for conn in conns {
            conn.abort_calls();
        }
    }

    /// The connections still open (the closed ones are dropped from the list), locked.
    fn connections(&self) -> MutexGuard<'_, Vec<Weak<ConnShared>>> {
        let mut conns = self
            .shared
            .connections
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        conns.retain(|w| w.strong_count() > 0);
        conns
    }
}

/// How long the answers of calls cancelled at a shutdown's deadline get to leave.
pub(crate) const ABORT_GRACE: std::time::Duration = std::time::Duration::from_secs(2);

/// Waits until `done()` holds or `deadline` passes (checked every 10 ms: a shutdown is not
/// a hot path); whether it held.
pub(crate) async fn wait_until(
    deadline: tokio::time::Instant,
    mut done: impl FnMut() -> bool,
) -> bool {
    loop {
        if done() {
            return true;
        }
        let now = tokio::time::Instant::now();
        if now >= deadline {
            return false;
        }
        let step = std::time::Duration::from_millis(10).min(deadline - now);
        tokio::time::sleep(step).await;
    }
}
