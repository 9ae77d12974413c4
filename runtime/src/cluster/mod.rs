//! State shared by several instances of one server: the bus that carries change
//! notifications and registry changes between them, and (feature `redis`) [`Redis`], its
//! implementation on a Redis server, with [`RedisTaskStore`] beside it.
//!
//! A process on its own has no bus: changes reach its own connections only, as before.
//! With one ([`ServerBuilder::redis`](crate::ServerBuilder::redis)):
//! - [`Server::notify_resource_updated`](crate::Server::notify_resource_updated) on one
//!   instance reaches the subscribers on every instance;
//! - [`Server::add_service`](crate::Server::add_service) and
//!   [`remove_service`](crate::Server::remove_service) of a service declared with
//!   [`ServerBuilder::optional_service`](crate::ServerBuilder::optional_service) are applied
//!   by every instance (each then announces `list_changed` to its own clients), and an
//!   instance that starts later, or reconnects after an outage, takes the current set;
//! - an HTTP session (2025-03-26 to 2025-11-25) is recorded in a session directory with
//!   the address of the instance that holds it, and any other instance that receives one of
//!   its requests forwards the request there (the transport's `forward`).

use std::time::Duration;

use crate::tasks::StoreFuture;

#[cfg(feature = "redis")]
mod redis;

#[cfg(feature = "redis")]
pub use self::redis::{Redis, RedisTaskStore};

#[cfg(all(test, feature = "redis"))]
pub(crate) mod testing;

/// A change one instance made that every other instance applies.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(not(feature = "redis"), allow(dead_code))]
pub(crate) enum Change {
    /// `notifications/resources/updated` for this URI, to the local subscribers.
    ResourceUpdated(String),
    /// The optional service of this name was added (`true`) or removed.
    Service { name: String, enabled: bool },
    /// The names of the optional services now added (after subscribing, and again after
    /// every reconnection: changes made meanwhile were missed).
    Services(Vec<String>),
}

/// What receives the changes of other instances: `None` asks only whether the receiver is
/// still there (`false` stops the bus).
pub(crate) type Deliver = Box<dyn Fn(Option<Change>) -> bool + Send + 'static>;

/// Which instance holds which HTTP session: sessions stay where `initialize` opened them
/// (their connection, calls, streams and replay buffer), and the other instances forward
/// the session's requests to the address recorded here.
#[cfg_attr(not(all(feature = "http", feature = "redis")), allow(dead_code))]
pub(crate) trait SessionDirectory: Send + Sync + 'static {
    /// Records that session `id` is held by the instance reachable at `addr`, for `ttl`
    /// (renewed while the session is used).
    fn claim<'a>(&'a self, id: &'a str, addr: &'a str, ttl: Duration) -> StoreFuture<'a, ()>;

    /// The address of the instance holding session `id`, if any.
    fn owner<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<String>>;

    /// Session `id` ended.
    fn release<'a>(&'a self, id: &'a str) -> StoreFuture<'a, ()>;

    /// Whether the store answers now (an HTTP readiness check).
    fn ping(&self) -> StoreFuture<'_, ()>;
}

/// Carries [`Change`]s between the instances of one server.
pub(crate) trait ChangeBus: Send + Sync + 'static {
    /// Tells every other instance (best effort: a failure is logged, the local change stands).
    fn publish(&self, change: &Change);

    /// Starts delivering other instances' changes to `deliver`, on a thread of the bus.
    fn start(&self, deliver: Deliver);
}
