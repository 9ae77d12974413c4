//! (feature `redis`) Which instance holds which session: this instance's view of the
//! server's session directory (its own address, when it last renewed each session it
//! holds, and the holders of other instances' sessions it looked up). `forward` sends a
//! session's requests to the instance recorded here.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::sessions::lock;
use crate::cluster::SessionDirectory;

/// How long a holder looked up stays known here. A session never moves: the holder only
/// stops holding it (ended, or gone with its instance), and then a forwarded request is
/// answered by the holder (404) or fails (and the entry is dropped), as a fresh lookup
/// would be.
const KNOWN_FOR: Duration = Duration::from_secs(30);
/// Holders kept at most; past this, those older than [`KNOWN_FOR`] are dropped, then all.
const KNOWN_MAX: usize = 10_000;

/// This instance's view of the directory.
pub(crate) struct Directory {
    store: Arc<dyn SessionDirectory>,
    addr: String,
    ttl: Duration,
    renewed: Mutex<HashMap<String, Instant>>,
    /// Other instances' sessions: holder, and when it was looked up.
    holders: Mutex<HashMap<String, (String, Instant)>>,
}

impl Directory {
    pub fn new(store: Arc<dyn SessionDirectory>, addr: String, idle: Duration) -> Directory {
        Directory {
            store,
            addr,
            // A session unused this long may be ended by its holder; at least a minute.
            ttl: idle.max(Duration::from_secs(60)),
            renewed: Mutex::new(HashMap::new()),
            holders: Mutex::new(HashMap::new()),
        }
    }

    /// Records (or renews, at most every quarter of the TTL) that this instance holds `id`.
    pub async fn claim(&self, id: &str) {
        let now = Instant::now();
        {
            let mut renewed = lock(&self.renewed);
            if renewed
                .get(id)
                .is_some_and(|t| now.duration_since(*t) < self.ttl / 4)
            {
                return;
            }
            let ttl = self.ttl;
            renewed.retain(|_, t| now.duration_since(*t) < ttl);
            renewed.insert(id.to_owned(), now);
        }
        if let Err(e) = self.store.claim(id, &self.addr, self.ttl).await {
            lock(&self.renewed).remove(id);
            tracing::warn!(session = id, error = %e, "recording a session in Redis failed; it is served by this instance only");
        }
    }

    /// Session `id` ended (here, or with the instance that held it).
    pub async fn release(&self, id: &str) {
        lock(&self.renewed).remove(id);
        lock(&self.holders).remove(id);
        if let Err(e) = self.store.release(id).await {
            tracing::debug!(session = id, error = %e, "releasing a session in Redis failed");
        }
    }

    /// The address of the instance holding session `id`, if any instance does: known here
    /// for a while once looked up (most requests of a session reaching this instance are
    /// forwarded without asking Redis).
    pub async fn owner(&self, id: &str) -> std::io::Result<Option<String>> {
        let now = Instant::now();
        if let Some((holder, _)) = lock(&self.holders)
            .get(id)
            .filter(|(_, at)| now.duration_since(*at) < KNOWN_FOR)
        {
            return Ok(Some(holder.clone()));
        }
        let holder = self.store.owner(id).await?;
        // Only other instances' sessions: this one's are in its own table.
        if let Some(h) = holder.as_ref().filter(|h| **h != self.addr) {
            let mut holders = lock(&self.holders);
            if holders.len() >= KNOWN_MAX {
                holders.retain(|_, (_, at)| now.duration_since(*at) < KNOWN_FOR);
                if holders.len() >= KNOWN_MAX {
                    holders.clear();
                }
            }
            holders.insert(id.to_owned(), (h.clone(), now));
        }
        Ok(holder)
    }

    /// This instance's address.
    pub fn addr(&self) -> &str {
        &self.addr
    }
}
