//! The server: a [`Server`] and what it shares with its connections, built by a
//! [`ServerBuilder`], serving the services of its [`Registry`].
//!
//! - `builder`: [`ServerBuilder`], its options and [`Server::builder`].
//! - `registry`: the services, the tool-name index and the listings rendered per revision.
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
mod changes;
mod registry;

pub use builder::ServerBuilder;
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
