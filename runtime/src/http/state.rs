//! What every request handler of one endpoint shares.

use std::sync::Arc;

use tokio::sync::watch;

use super::config::HttpConfig;
use super::limits::Budget;
use super::params;
use super::sessions::Sessions;
use crate::server::Server;

/// What every request handler shares.
pub(crate) struct State {
    pub server: Server,
    pub config: HttpConfig,
    pub sessions: Sessions,
    /// Requests being served.
    pub requests: Arc<Budget>,
    /// Request bodies being received.
    pub bodies: Arc<Budget>,
    /// Long-lived streams open (`GET`, `subscriptions/listen`).
    pub streams: Arc<Budget>,
    /// The tools' `x-mcp-header` parameters, read once per registry.
    pub params: params::ParamCache,
    /// Becomes `true` when shutdown starts: long-lived streams (GET, `subscriptions/listen`) end.
    pub shutdown: watch::Receiver<bool>,
    /// Served as a [`McpService`] in someone else's router, which has matched the path.
    pub mounted: bool,
    pub runtime: tokio::runtime::Handle,
    /// The scopes of the server's items, read once per registry (feature `auth`).
    #[cfg(feature = "auth")]
    pub scopes: super::authorize::ScopeCache,
    /// Sessions shared with the other instances on Redis: which holds which.
    #[cfg(feature = "redis")]
    pub directory: Option<super::directory::Directory>,
}

impl State {
    pub(crate) fn new(
        server: Server,
        config: HttpConfig,
        shutdown: watch::Receiver<bool>,
        mounted: bool,
    ) -> Arc<State> {
        #[cfg(feature = "redis")]
        let directory = match (&server.shared.session_directory, config.advertise) {
            (Some(store), Some(addr)) => Some(super::directory::Directory::new(
                store.clone(),
                addr.to_string(),
                config.session_idle,
            )),
            _ => None,
        };
        Arc::new(State {
            #[cfg(feature = "redis")]
            directory,
            server,
            sessions: Sessions::new(),
            requests: Budget::new(config.max_in_flight, config.max_in_flight_per_client),
            bodies: Budget::new(config.max_body_reads, config.max_body_reads_per_client),
            streams: Budget::new(config.max_streams, config.max_streams_per_client),
            params: params::ParamCache::default(),
            config,
            shutdown,
            runtime: tokio::runtime::Handle::current(),
            mounted,
            #[cfg(feature = "auth")]
            scopes: Default::default(),
        })
    }

    /// What the authorization checks read, when the endpoint has authorization.
    #[cfg(feature = "auth")]
    pub(crate) fn protected(&self) -> Option<super::authorize::Protected<'_>> {
        Some(super::authorize::Protected {
            auth: self.config.auth.as_deref()?,
            config: &self.config,
            server: &self.server,
            scopes: &self.scopes,
        })
    }
}
