//! Sessions of the handshake revisions: one [`Connection`] per `Mcp-Session-Id` and its
//! outbox (read by the GET stream), and the table of them. `session_requests` serves GET
//! and DELETE on them.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use super::config::HttpConfig;
use super::replay::Replay;
use crate::connection::{Connection, Outbox};
use crate::peer::Route;
use crate::protocol::Revision;
use crate::protocol::{IdScanner, Incoming};

/// One session: the connection `initialize` opened, and its outbox (messages tied to no
/// request, read by the GET stream).
pub(crate) struct Session {
    pub id: String,
    conn: Mutex<Option<Connection>>,
    pub(super) outbox: Mutex<Option<Outbox>>,
    last_used: Mutex<Instant>,
    /// Requests and streams being served.
    active: AtomicUsize,
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
    pub fn new(id: String, conn: Connection, outbox: Outbox, config: &HttpConfig) -> Arc<Session> {
        Arc::new(Session {
            id,
            conn: Mutex::new(Some(conn)),
            outbox: Mutex::new(Some(outbox)),
            last_used: Mutex::new(Instant::now()),
            active: AtomicUsize::new(0),
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

    /// Marks a request or stream of this session as started; [`Session::release`] ends it.
    pub fn acquire(&self) {
        self.active.fetch_add(1, Ordering::AcqRel);
        *lock(&self.last_used) = Instant::now();
    }

    /// [`Session::acquire`] unless `limit` requests and streams of the session are already
    /// being served.
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

    /// Opened more than `timeout` ago and never settled: a handshake left half done.
    fn abandoned(&self, now: Instant, timeout: Duration) -> bool {
        !self.settled.load(Ordering::Acquire)
            && self.active.load(Ordering::Acquire) == 0
            && now.saturating_duration_since(self.opened) >= timeout
    }

    fn idle_for(&self, now: Instant) -> Duration {
        if self.active.load(Ordering::Acquire) > 0 {
            return Duration::ZERO;
        }
        now.saturating_duration_since(*lock(&self.last_used))
    }

    /// Hands the session's connection one message; `false` once the session has ended.
    /// `parsed`: the message as the transport parsed it already, if it could.
    pub fn handle(&self, message: &str, parsed: Option<Incoming<'_>>, route: Route) -> bool {
        match &*lock(&self.conn) {
            Some(conn) => {
                match parsed {
                    Some(msg) => conn.handle_routed_message(msg, route),
                    None => conn.handle_routed(message, route),
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

    /// Adds a session. When `limits.max` are open, first ends those whose handshake was left
    /// half done for `limits.handshake` and those idle for `limits.idle`, then the one idle
    /// longest; when `same_owner` (sessions of the new one's subject) says `limits.per_owner`
    /// of them are open, the longest idle of those goes. `false` when every session is
    /// serving a request (nothing can be ended).
    pub fn insert(
        &self,
        session: Arc<Session>,
        limits: Limits,
        same_owner: impl Fn(&Session) -> bool,
    ) -> bool {
        let mut map = lock(&self.map);
        let now = Instant::now();
        if map.len() >= limits.max {
            let stale: Vec<String> = map
                .iter()
                .filter(|(_, s)| {
                    s.abandoned(now, limits.handshake) || s.idle_for(now) >= limits.idle
                })
                .map(|(id, _)| id.clone())
                .collect();
            for id in stale {
                end(&mut map, &id, "a stale session ended to make room");
            }
        }
        let longest_idle = |map: &HashMap<String, Arc<Session>>,
                            only: &dyn Fn(&Session) -> bool| {
            map.iter()
                .filter(|(_, s)| only(s) && s.active.load(Ordering::Acquire) == 0)
                .max_by_key(|(_, s)| s.idle_for(now))
                .map(|(id, _)| id.clone())
        };
        if let Some(cap) = limits.per_owner {
            let owned = map.values().filter(|s| same_owner(s)).count();
            if owned >= cap.max(1)
                && let Some(id) = longest_idle(&map, &same_owner)
            {
                end(
                    &mut map,
                    &id,
                    "the subject's longest idle session ended for its new one",
                );
            }
        }
        if map.len() >= limits.max {
            match longest_idle(&map, &|_| true) {
                Some(id) => end(&mut map, &id, "the longest idle session ended to make room"),
                None => return false,
            }
        }
        map.insert(session.id.clone(), session);
        true
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
    /// Sessions of one subject (with authorization).
    pub per_owner: Option<usize>,
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
    conn.with_route(tx, |c| c.reject_long_message(limit, scanned));
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
