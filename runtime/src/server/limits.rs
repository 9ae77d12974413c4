//! Per-tool limits: a time limit and a bound on concurrent calls, set for every tool, for a
//! service's tools or for one tool ([`ToolLimits`]), resolved once per tool when the
//! registry is built into a [`ToolGate`] that the dispatcher wraps the call's future in.
//! A tool without limits has no gate: its calls pay one `Option` check.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::protocol::{RpcError, code};
use crate::service::{BoxFuture, Service, ToolDef, ToolError, ToolResult};

/// Limits on a tool's calls, for [`ServerBuilder::tool_limits`](super::ServerBuilder::tool_limits)
/// (every tool), [`ServerBuilder::limited_service`](super::ServerBuilder::limited_service)
/// (a service's tools) and [`ServerBuilder::tool_limit`](super::ServerBuilder::tool_limit)
/// (one tool). Each setting is taken from the most specific place that sets it: the tool,
/// else its service, else the server.
///
/// ```
/// use std::time::Duration;
/// use toolidl_runtime::ToolLimits;
/// let limits = ToolLimits::new()
///     .timeout(Duration::from_secs(30)) // then an error result, the handler dropped
///     .max_concurrent(4, 16); // 4 calls at once, 16 more wait, then -32000
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ToolLimits {
    timeout: Option<Duration>,
    concurrency: Option<(usize, usize)>,
    /// Calls per period, for each client.
    rate: Option<(u32, Duration)>,
    /// How long results are kept, and how many.
    cache: Option<(Duration, usize)>,
}

impl ToolLimits {
    /// No limits (each setting is inherited).
    pub const fn new() -> Self {
        ToolLimits {
            timeout: None,
            concurrency: None,
            rate: None,
            cache: None,
        }
    }

    /// How long a call may take, from the moment it is dispatched (waiting for a slot of
    /// [`Self::max_concurrent`] included). A call still running then ends with a tool error
    /// result (`isError: true`, `The tool 'x' did not finish within its time limit of 30
    /// s.`) and its handler's future is dropped. Calls that run as tasks are not limited.
    ///
    /// Timers need a Tokio runtime with time enabled (`#[tokio::main]` has it).
    pub const fn timeout(mut self, limit: Duration) -> Self {
        self.timeout = Some(limit);
        self
    }

    /// At most `running` calls of the tool run at once, across all connections (at least
    /// 1); up to `queued` more wait for a slot, in order; a call beyond those is refused at
    /// once with the JSON-RPC error -32000 (`Server busy: the tool 'x' is at its limit of 4
    /// concurrent calls and 16 waiting; retry later.`). Calls that run as tasks are not
    /// counted.
    pub const fn max_concurrent(mut self, running: usize, queued: usize) -> Self {
        self.concurrency = Some((if running == 0 { 1 } else { running }, queued));
        self
    }

    /// At most `calls` calls of the tool per `period` for each client (its principal when
    /// the request has a verified access token, else its address over HTTP; over stdio the
    /// process has one client), as a token bucket: `calls` at once, then one more every
    /// `period / calls`. A call beyond that is refused before its handler starts, with the
    /// JSON-RPC error -32000 (`Too many requests: the tool 'x' allows 10 calls per 60 s for
    /// each client; retry in 6 s.`, `data.retryAfter` in seconds); over HTTP its response
    /// is 429 with `Retry-After`. Each tool has buckets of its own. Calls that run as tasks
    /// are counted too.
    #[cfg(feature = "rate-limit")]
    pub const fn rate(mut self, calls: u32, period: Duration) -> Self {
        self.rate = Some((if calls == 0 { 1 } else { calls }, period));
        self
    }

    /// Keeps the tool's results for `ttl`, by client and arguments, at most `max` of them
    /// (the oldest make room): a call from the same client with the same arguments (the
    /// same JSON text) within `ttl` is answered with the kept result, and its handler does
    /// not run. Only for tools whose listing marks them both read-only and idempotent
    /// (`@read_only @idempotent`); set for another tool, it is ignored, with a warning when
    /// the server is built. Error results and requests for input are not kept, nor are
    /// calls that run as tasks. The result is the same on every revision the client speaks
    /// (it is rendered per call), but a kept call sends no progress or log messages.
    pub const fn cache(mut self, ttl: Duration, max: usize) -> Self {
        self.cache = Some((ttl, max));
        self
    }

    /// These limits, with what they do not set taken from `outer`.
    fn or(self, outer: ToolLimits) -> ToolLimits {
        ToolLimits {
            timeout: self.timeout.or(outer.timeout),
            concurrency: self.concurrency.or(outer.concurrency),
            rate: self.rate.or(outer.rate),
            cache: self.cache.or(outer.cache),
        }
    }

    fn is_none(&self) -> bool {
        self.timeout.is_none()
            && self.concurrency.is_none()
            && self.rate.is_none()
            && self.cache.is_none()
    }
}

/// The limits the builder was given, and the gates made of them (kept, so that a registry
/// rebuilt by `add_service` shares the slots of the tools it keeps).
#[derive(Default)]
pub(crate) struct Limits {
    pub server: ToolLimits,
    pub services: Vec<(Arc<dyn Service>, ToolLimits)>,
    /// By the name a tool is listed or known by.
    pub tools: HashMap<String, ToolLimits>,
    gates: Mutex<HashMap<String, Arc<ToolGate>>>,
}

impl Limits {
    /// The gate of the tool listed as `listed` (its service knows it as `own`), if it has
    /// limits.
    pub fn gate(
        &self,
        service: &Arc<dyn Service>,
        listed: &str,
        def: &ToolDef,
    ) -> Option<Arc<ToolGate>> {
        let own = &*def.name;
        let service_limits = self
            .services
            .iter()
            .find(|(s, _)| Arc::ptr_eq(s, service))
            .map_or_else(ToolLimits::new, |(_, l)| *l);
        let tool = self
            .tools
            .get(listed)
            .or_else(|| self.tools.get(own))
            .copied()
            .unwrap_or_default();
        let mut limits = tool.or(service_limits).or(self.server);
        if limits.cache.is_some() && !super::cache::read_only_and_idempotent(&def.json) {
            // Set on this tool itself: it is a mistake; inherited: the others' setting.
            if tool.cache.is_some() {
                tracing::warn!(
                    tool = listed,
                    "ToolLimits::cache ignored: the tool is not marked @read_only @idempotent"
                );
            }
            limits.cache = None;
        }
        if limits.is_none() {
            return None;
        }
        let mut gates = self.gates.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(gate) = gates.get(listed).filter(|g| g.limits == limits) {
            return Some(gate.clone());
        }
        let gate = Arc::new(ToolGate::new(listed, limits));
        gates.insert(listed.to_owned(), gate.clone());
        Some(gate)
    }
}

/// One tool's limits, and its slots.
pub(crate) struct ToolGate {
    tool: String,
    limits: ToolLimits,
    slots: Option<Slots>,
    #[cfg(feature = "rate-limit")]
    buckets: Option<super::rate::Buckets>,
    results: Option<super::cache::ResultCache>,
}

struct Slots {
    running: usize,
    queued: usize,
    semaphore: Arc<Semaphore>,
    waiting: Arc<AtomicUsize>,
}

/// A call let through a gate: it runs now, or waits for a slot.
pub(crate) enum Admission {
    Free,
    Running(OwnedSemaphorePermit),
    Waiting(Arc<Semaphore>, WaitTicket),
}

/// One place in a tool's queue, given back when dropped.
pub(crate) struct WaitTicket(Arc<AtomicUsize>);

impl Drop for WaitTicket {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl ToolGate {
    fn new(tool: &str, limits: ToolLimits) -> ToolGate {
        ToolGate {
            tool: tool.to_owned(),
            limits,
            slots: limits.concurrency.map(|(running, queued)| Slots {
                running,
                queued,
                semaphore: Arc::new(Semaphore::new(running)),
                waiting: Arc::new(AtomicUsize::new(0)),
            }),
            #[cfg(feature = "rate-limit")]
            buckets: limits
                .rate
                .map(|(calls, period)| super::rate::Buckets::new(calls, period)),
            results: limits
                .cache
                .map(|(ttl, max)| super::cache::ResultCache::new(ttl, max)),
        }
    }

    /// The tool's kept results, when it keeps them ([`ToolLimits::cache`]).
    pub fn results(&self) -> Option<&super::cache::ResultCache> {
        self.results.as_ref()
    }

    /// Takes one call from the bucket of the client `client()` names
    /// ([`Identity::client_key`](crate::peer::Identity::client_key)), when the tool has a
    /// rate limit, or refuses the call with -32000.
    pub fn take_rate(&self, client: impl FnOnce() -> String) -> Result<(), RpcError> {
        #[cfg(feature = "rate-limit")]
        if let Some(buckets) = &self.buckets {
            return buckets.take(&self.tool, &client());
        }
        let _ = client;
        Ok(())
    }

    /// Lets a call in (a slot now, or a place in the queue), or refuses it with -32000.
    pub fn admit(&self) -> Result<Admission, RpcError> {
        let Some(slots) = &self.slots else {
            return Ok(Admission::Free);
        };
        if let Ok(permit) = slots.semaphore.clone().try_acquire_owned() {
            return Ok(Admission::Running(permit));
        }
        let queued = slots
            .waiting
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < slots.queued).then_some(n + 1)
            });
        match queued {
            Ok(_) => Ok(Admission::Waiting(
                slots.semaphore.clone(),
                WaitTicket(slots.waiting.clone()),
            )),
            Err(_) => Err(RpcError::new(
                code::SERVER_BUSY,
                format!(
                    "Server busy: the tool '{}' is at its limit of {} concurrent calls and {} waiting; retry later.",
                    self.tool, slots.running, slots.queued
                ),
            )
            .with_data(serde_json::json!({
                "tool": self.tool,
                "maxConcurrent": slots.running,
                "maxQueued": slots.queued,
            }))),
        }
    }

    /// `call` run under the gate: after its slot (if it waits for one), within the time
    /// limit (if any), holding its slot until it ends or is dropped.
    pub fn run(&self, admission: Admission, call: BoxFuture<ToolResult>) -> BoxFuture<ToolResult> {
        let guarded: BoxFuture<ToolResult> = match admission {
            Admission::Free => call,
            Admission::Running(permit) => Box::pin(async move {
                let _slot = permit;
                call.await
            }),
            Admission::Waiting(semaphore, ticket) => Box::pin(async move {
                let slot = semaphore.acquire_owned().await;
                drop(ticket);
                let _slot = slot.map_err(|_| ToolError::internal("the tool's slots closed"))?;
                call.await
            }),
        };
        let Some(limit) = self.limits.timeout else {
            return guarded;
        };
        let message = format!(
            "The tool '{}' did not finish within its time limit of {}.",
            self.tool,
            duration_text(limit)
        );
        Box::pin(async move {
            match tokio::time::timeout(limit, guarded).await {
                Ok(result) => result,
                Err(_) => {
                    tracing::warn!(%message, "tool call timed out");
                    Err(ToolError::Message(message))
                }
            }
        })
    }
}

/// `30 s`, `1.5 s`, `250 ms`.
pub(super) fn duration_text(d: Duration) -> String {
    let ms = d.as_millis();
    if ms >= 1000 && ms.is_multiple_of(100) {
        let tenths = ms / 100;
        match tenths % 10 {
            0 => format!("{} s", tenths / 10),
            t => format!("{}.{t} s", tenths / 10),
        }
    } else if ms > 0 {
        format!("{ms} ms")
    } else {
        format!("{} microseconds", d.as_micros())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_people_write_them() {
        assert_eq!(duration_text(Duration::from_secs(30)), "30 s");
        assert_eq!(duration_text(Duration::from_millis(1500)), "1.5 s");
        assert_eq!(duration_text(Duration::from_millis(250)), "250 ms");
        assert_eq!(duration_text(Duration::from_millis(1234)), "1234 ms");
    }

    #[test]
    fn the_most_specific_setting_wins_each_field() {
        let server = ToolLimits::new()
            .timeout(Duration::from_secs(60))
            .max_concurrent(8, 0);
        let tool = ToolLimits::new().timeout(Duration::from_secs(5));
        let merged = tool.or(ToolLimits::new()).or(server);
        assert_eq!(merged.timeout, Some(Duration::from_secs(5)));
        assert_eq!(merged.concurrency, Some((8, 0)));
        assert_eq!(
            ToolLimits::new().max_concurrent(0, 3).concurrency,
            Some((1, 3))
        );
    }
}
