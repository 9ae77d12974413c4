//! Per-client rate limits ([`ToolLimits::rate`](super::ToolLimits::rate), feature
//! `rate-limit`): one GCRA token bucket per tool and client, from governor.

use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::protocol::{RpcError, code};

/// Every this many calls, the buckets of clients that have refilled are forgotten, so that
/// a stream of new clients (addresses) cannot grow the table without bound.
const SWEEP_EVERY: u32 = 1024;

/// One tool's buckets, by client.
pub(crate) struct Buckets {
    calls: u32,
    period: Duration,
    limiter: DefaultKeyedRateLimiter<String>,
    clock: DefaultClock,
    checks: AtomicU32,
}

impl Buckets {
    pub fn new(calls: u32, period: Duration) -> Buckets {
        let burst = NonZeroU32::new(calls).unwrap_or(NonZeroU32::MIN);
        // One call back every `period / calls` (at least a nanosecond: a zero period is
        // no limit worth a refusal).
        let every = (period / burst.get()).max(Duration::from_nanos(1));
        let quota = Quota::with_period(every)
            .unwrap_or_else(|| Quota::per_second(NonZeroU32::MAX))
            .allow_burst(burst);
        Buckets {
            calls: burst.get(),
            period,
            limiter: RateLimiter::keyed(quota),
            clock: DefaultClock::default(),
            checks: AtomicU32::new(0),
        }
    }

    /// Takes one call from `client`'s bucket, or refuses the call with -32000.
    pub fn take(&self, tool: &str, client: &str) -> Result<(), RpcError> {
        if self.checks.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY == SWEEP_EVERY - 1 {
            self.limiter.retain_recent();
        }
        let Err(not_until) = self.limiter.check_key(&client.to_owned()) else {
            return Ok(());
        };
        let wait = not_until.wait_time_from(self.clock.now());
        // Whole seconds, rounded up (what `Retry-After` carries), at least 1.
        let retry_after = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
        let retry_after = retry_after.max(1);
        Err(RpcError::new(
            code::SERVER_BUSY,
            format!(
                "Too many requests: the tool '{tool}' allows {} calls per {} for each client; retry in {retry_after} s.",
                self.calls,
                super::limits::duration_text(self.period),
            ),
        )
        .with_data(serde_json::json!({
            "tool": tool,
            "calls": self.calls,
            "periodSeconds": self.period.as_secs_f64(),
            "retryAfter": retry_after,
        })))
    }
}
