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

    /// Adds a session; when `max` are open, first ends those idle for `idle` or longer.
    /// `false` when there is still no room.
    pub fn insert(&self, session: Arc<Session>, max: usize, idle: Duration) -> bool {
        let mut map = lock(&self.map);
        if map.len() >= max {
            let now = Instant::now();
            let stale: Vec<String> = map
                .iter()
                .filter(|(_, s)| s.idle_for(now) >= idle)
                .map(|(id, _)| id.clone())
                .collect();
            for id in stale {
                if let Some(s) = map.remove(&id) {
                    tracing::debug!(session = %id, "idle session ended to make room");
                    s.end();
                }
            }
        }
        if map.len() >= max {
            return false;
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
