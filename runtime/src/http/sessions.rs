//! Sessions of the handshake revisions: one [`Connection`] per `Mcp-Session-Id` and its
//! outbox (read by the GET stream), and the table of them. `session_requests` serves GET
//! and DELETE on them.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use super::config::HttpConfig;
use super::limits::{ClientKey, Refusal};
use super::replay::Replay;
use crate::connection::{Connection, Outbox};
use crate::peer::{Identity, Route};
use crate::protocol::Revision;
use crate::protocol::{IdScanner, Incoming};

/// One session: the connection `initialize` opened, and its outbox (messages tied to no
/// request, read by the GET stream).
pub(crate) struct Session {
    pub id: String,
    conn: Mutex<Option<Connection>>,
    pub(super) outbox: Mutex<Option<Outbox>>,
    last_used: Mutex<Instant>,
    /// Requests being served (its `GET` stream is not one: it has a budget of its own).
    active: AtomicUsize,
    /// Who opened it: its sessions count against this client's share of the table.
    pub client: ClientKey,
    /// When `initialize` opened it, and whether `notifications/initialized` followed.
    opened: Instant,
    settled: std::sync::atomic::AtomicBool,
    /// The events last sent on its streams, for `Last-Event-ID`.
    replay: Mutex<Replay>,
    /// The subject of the token that opened it (feature `auth`; `authorize` binds and checks).
    #[cfg(feature = "auth")]
    pub owner: std::sync::OnceLock<Option<String>>,
}

pub(super) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Session {
    pub fn new(
        id: String,
        conn: Connection,
        outbox: Outbox,
        config: &HttpConfig,
        client: ClientKey,
    ) -> Arc<Session> {
        Arc::new(Session {
            id,
            conn: Mutex::new(Some(conn)),
            outbox: Mutex::new(Some(outbox)),
            last_used: Mutex::new(Instant::now()),
            active: AtomicUsize::new(0),
            client,
            opened: Instant::now(),
            settled: Default::default(),
            replay: Mutex::new(Replay::new(config.replay_events, config.replay_bytes)),
            #[cfg(feature = "auth")]
            owner: Default::default(),
        })
    }

    /// The session's replay buffer and POST streams.
    pub fn replay(&self) -> MutexGuard<'_, Replay> {
        lock(&self.replay)
    }

    /// The revision `initialize` negotiated.
    pub fn revision(&self) -> Option<Revision> {
        lock(&self.conn).as_ref()?.negotiated_revision()
    }

    /// Marks the session as used now (its `GET` stream opened).
    pub fn touch(&self) {
        *lock(&self.last_used) = Instant::now();
    }

    /// Marks a request of this session as started; [`Session::release`] ends it.
    pub fn acquire(&self) {
        self.active.fetch_add(1, Ordering::AcqRel);
        *lock(&self.last_used) = Instant::now();
    }

    /// [`Session::acquire`] unless `limit` requests of the session are already being served.
    pub fn try_acquire(&self, limit: usize) -> bool {
        let taken = self
            .active
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < limit).then_some(n + 1)
            })
            .is_ok();
        if taken {
            *lock(&self.last_used) = Instant::now();
        }
        taken
    }

    pub fn release(&self) {
        self.active.fetch_sub(1, Ordering::AcqRel);
        *lock(&self.last_used) = Instant::now();
    }

    /// The client finished the handshake (`notifications/initialized`).
    pub fn settle(&self) {
        self.settled.store(true, Ordering::Release);
    }

    fn settled(&self) -> bool {
        self.settled.load(Ordering::Acquire)
    }

    fn busy(&self) -> bool {
        self.active.load(Ordering::Acquire) > 0
    }

    /// Opened more than `timeout` ago and never settled: a handshake left half done.
    fn abandoned(&self, now: Instant, timeout: Duration) -> bool {
        !self.settled() && !self.busy() && now.saturating_duration_since(self.opened) >= timeout
    }

    fn idle_for(&self, now: Instant) -> Duration {
        if self.active.load(Ordering::Acquire) > 0 {
            return Duration::ZERO;
        }
        now.saturating_duration_since(*lock(&self.last_used))
    }

    /// Hands the session's connection one message; `false` once the session has ended.
    /// `parsed`: the message as the transport parsed it already, if it could.
    /// `identity`: who sent it.
    pub fn handle(
        &self,
        message: &str,
        parsed: Option<Incoming<'_>>,
        route: Route,
        identity: Identity,
    ) -> bool {
        match &*lock(&self.conn) {
            Some(conn) => {
                match parsed {
                    Some(msg) => conn.handle_routed_message(msg, route, identity),
                    None => conn.handle_routed(message, route, identity),
                }
                true
            }
            None => false,
        }
    }

    /// Answers an over-limit message of this session as stdio does (a response from the
    /// client fails the request it answers); the scanner back once the session has ended.
    pub fn reject_long(
        &self,
        limit: usize,
        scanned: Box<IdScanner>,
    ) -> Result<String, Box<IdScanner>> {
        match &*lock(&self.conn) {
            Some(conn) => Ok(reject_long(conn, limit, *scanned)),
            None => Err(scanned),
        }
    }

    /// Ends the session: calls in flight are cancelled, requests to the client fail, the
    /// GET stream ends once the last call has let go of the connection.
    pub fn end(&self) {
        let conn = lock(&self.conn).take();
        if let Some(conn) = conn {
            conn.cancel_all();
            conn.close();
        }
        lock(&self.outbox).take();
    }
}

/// The open sessions by id.
pub(crate) struct Sessions {
    map: Mutex<HashMap<String, Arc<Session>>>,
}

impl Sessions {
    pub fn new() -> Self {
        Sessions {
            map: Mutex::new(HashMap::new()),
        }
    }

    pub fn get(&self, id: &str) -> Option<Arc<Session>> {
        lock(&self.map).get(id).cloned()
    }

    /// Adds a session, ending others to make room as [`HttpConfig::max_sessions`],
    /// [`HttpConfig::max_sessions_per_client`] and [`HttpConfig::max_half_open_sessions`]
    /// say; `Err` when nothing may be ended (429: the client's own sessions are all serving
    /// requests; 503: the table holds only busy or recently used settled sessions).
    pub fn insert(&self, session: Arc<Session>, limits: Limits) -> Result<(), Refusal> {
        let mut map = lock(&self.map);
        let now = Instant::now();
        // The client's share: its own stale sessions, else its own settled session idle
        // longest (a burst of new sessions from one address must not end each other's
        // handshakes), else its own oldest handshake (a flood of them only churns itself).
        if let Some(cap) = limits.per_client {
            let mine = |s: &Session| s.client == session.client;
            if map.values().filter(|s| mine(s)).count() >= cap {
                let stale = |s: &Session| mine(s) && limits.stale(s, now);
                let settled = |s: &Session| mine(s) && s.settled();
                let id = longest_idle(&map, now, &stale, Duration::ZERO)
                    .or_else(|| longest_idle(&map, now, &settled, Duration::ZERO))
                    .or_else(|| oldest_half_open(&map, &mine))
                    .ok_or(Refusal::Client)?;
                end(&mut map, &id, "the client's session ended for its new one");
            }
        }
        // Handshakes in progress take at most their share of the table, whoever opened them.
        if map.values().filter(|s| !s.settled()).count() >= limits.max_half_open
            && let Some(id) = oldest_half_open(&map, &|_| true)
        {
            end(&mut map, &id, "the oldest handshake ended for a new one");
        }
        if map.len() >= limits.max {
            let stale: Vec<String> = map
                .iter()
                .filter(|(_, s)| limits.stale(s, now))
                .map(|(id, _)| id.clone())
                .collect();
            for id in stale {
                end(&mut map, &id, "a stale session ended to make room");
            }
        }
        if map.len() >= limits.max {
            // Never a settled session in use, or used within the grace period.
            let id = oldest_half_open(&map, &|_| true)
                .or_else(|| longest_idle(&map, now, &Session::settled, limits.grace))
                .ok_or(Refusal::Total)?;
            end(&mut map, &id, "a session ended to make room");
        }
        map.insert(session.id.clone(), session);
        Ok(())
    }

    pub fn remove(&self, id: &str) -> Option<Arc<Session>> {
        lock(&self.map).remove(id)
    }

    pub fn end_all(&self) {
        let all: Vec<Arc<Session>> = lock(&self.map).drain().map(|(_, s)| s).collect();
        for s in all {
            s.end();
        }
    }
}

/// What [`Sessions::insert`] may end to make room.
#[derive(Clone, Copy)]
pub(crate) struct Limits {
    pub max: usize,
    pub idle: Duration,
    /// How long a session may wait for `notifications/initialized`.
    pub handshake: Duration,
    /// How long a settled session is safe from being ended for another after its last use.
    pub grace: Duration,
    /// Sessions waiting for `notifications/initialized`, in all.
    pub max_half_open: usize,
    /// Sessions of the new one's client (`None`: an unknown client, no share).
    pub per_client: Option<usize>,
}

impl Limits {
    /// A handshake left half done past its timeout, or a session unused past its idle time.
    fn stale(&self, s: &Session, now: Instant) -> bool {
        s.abandoned(now, self.handshake) || s.idle_for(now) >= self.idle
    }
}

/// The id of the session that `only` admits which opened longest ago and has not finished
/// its handshake, unless it is serving a request.
fn oldest_half_open(
    map: &HashMap<String, Arc<Session>>,
    only: &dyn Fn(&Session) -> bool,
) -> Option<String> {
    map.iter()
        .filter(|(_, s)| !s.settled() && !s.busy() && only(s))
        .min_by_key(|(_, s)| s.opened)
        .map(|(id, _)| id.clone())
}

/// The id of the session that `only` admits which has been idle longest, if at least
/// `at_least`; never one serving a request.
fn longest_idle(
    map: &HashMap<String, Arc<Session>>,
    now: Instant,
    only: &dyn Fn(&Session) -> bool,
    at_least: Duration,
) -> Option<String> {
    map.iter()
        .filter(|(_, s)| !s.busy() && only(s))
        .map(|(id, s)| (id, s.idle_for(now)))
        .filter(|(_, idle)| *idle >= at_least)
        .max_by_key(|(_, idle)| *idle)
        .map(|(id, _)| id.clone())
}

fn end(map: &mut HashMap<String, Arc<Session>>, id: &str, why: &str) {
    if let Some(s) = map.remove(id) {
        tracing::debug!(session = %id, "{why}");
        s.end();
    }
}

/// The error for an over-limit message, from what the scan of it found (with its id when
/// it has a readable one; see `Connection::reject_long_message`).
pub(crate) fn reject_long(conn: &Connection, limit: usize, scanned: IdScanner) -> String {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    conn.with_route(tx, Identity::default(), |c| {
        c.reject_long_message(limit, scanned)
    });
    match rx.try_recv() {
        Ok(m) => m.text,
        Err(_) => crate::protocol::error_message(
            "null",
            &crate::protocol::RpcError::internal("Internal error."),
        ),
    }
}

/// A new session id: 128 bits from the operating system's RNG, as 32 hex digits.
pub(crate) fn new_session_id() -> Option<String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).ok()?;
    Some(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// The session's outbox, lent to one GET stream and given back when the stream ends.
pub(crate) struct OutboxLease {
    pub(super) session: Arc<Session>,
    pub(super) rx: Option<Outbox>,
}

impl OutboxLease {
    pub fn poll_recv(&mut self, cx: &mut Context<'_>) -> Poll<Option<String>> {
        match &mut self.rx {
            Some(rx) => rx.poll_recv(cx),
            None => Poll::Ready(None),
        }
    }
}

impl Drop for OutboxLease {
    fn drop(&mut self) {
        // Give the outbox back for the next GET, unless the session has ended.
        if lock(&self.session.conn).is_some() {
            *lock(&self.session.outbox) = self.rx.take();
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn session_ids_are_128_random_bits_in_hex() {
        let a = super::new_session_id().unwrap();
        let b = super::new_session_id().unwrap();
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }
}
