//! (feature `redis`) Which instance holds which session: this instance's view of the
//! server's session directory (its own address, and when it last renewed each session it
//! holds). `forward` sends a session's requests to the instance recorded here.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::cluster::SessionDirectory;

/// This instance's view of the directory.
pub(crate) struct Directory {
    store: Arc<dyn SessionDirectory>,
    addr: String,
    ttl: Duration,
    renewed: Mutex<HashMap<String, Instant>>,
}

impl Directory {
    pub fn new(store: Arc<dyn SessionDirectory>, addr: String, idle: Duration) -> Directory {
        Directory {
            store,
            addr,
            // A session unused this long may be ended by its holder; at least a minute.
            ttl: idle.max(Duration::from_secs(60)),
            renewed: Mutex::new(HashMap::new()),
        }
    }

    /// Records (or renews, at most every quarter of the TTL) that this instance holds `id`.
    pub fn claim(&self, id: &str) {
        let now = Instant::now();
        {
            let mut renewed = super::sessions::lock(&self.renewed);
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
        if let Err(e) = self.store.claim(id, &self.addr, self.ttl) {
            super::sessions::lock(&self.renewed).remove(id);
            tracing::warn!(session = id, error = %e, "recording a session in Redis failed; it is served by this instance only");
        }
    }

    pub fn release(&self, id: &str) {
        super::sessions::lock(&self.renewed).remove(id);
        self.store.release(id);
    }

    /// The address of the instance holding session `id`, if any instance does.
    pub fn owner(&self, id: &str) -> std::io::Result<Option<String>> {
        self.store.owner(id)
    }

    /// This instance's address.
    pub fn addr(&self) -> &str {
        &self.addr
    }
}
