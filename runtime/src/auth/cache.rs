//! A bounded cache of tokens found valid, so that a token is checked once, not on every
//! request: the signature of a JWT (a public-key operation that costs more than serving a
//! small tool call), or the round trip of an introspection.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use super::AuthInfo;

/// What a valid token said, and until when it is trusted without a new check.
type Entry = (Arc<AuthInfo>, Instant);

/// Valid tokens by their text, each kept until its `exp` or for at most `ttl`, whichever
/// comes first; refusals are never kept, so made-up tokens cannot fill it.
pub(super) struct TokenCache {
    entries: Mutex<HashMap<Box<str>, Entry>>,
    size: usize,
    ttl: Duration,
}

impl TokenCache {
    /// At most `size` tokens (0: none).
    pub(super) fn new(size: usize, ttl: Duration) -> TokenCache {
        TokenCache {
            entries: Mutex::new(HashMap::new()),
            size,
            ttl,
        }
    }

    /// What `token` said when it was found valid, while that still holds.
    pub(super) fn get(&self, token: &str) -> Option<Arc<AuthInfo>> {
        if self.size == 0 {
            return None;
        }
        let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        match entries.get(token) {
            Some((info, until)) if *until > Instant::now() => Some(Arc::clone(info)),
            Some(_) => {
                entries.remove(token);
                None
            }
            None => None,
        }
    }

    /// Keeps `token`, just found valid. When the cache is full, the expired entries go, then
    /// (still full of live ones) the one closest to expiring.
    pub(super) fn remember(&self, token: &str, info: &Arc<AuthInfo>) {
        if self.size == 0 {
            return;
        }
        let now = Instant::now();
        let left = info
            .expires_at
            .map(|exp| exp.duration_since(SystemTime::now()).unwrap_or_default())
            .map_or(self.ttl, |d| d.min(self.ttl));
        if left.is_zero() {
            return;
        }
        let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        if entries.len() >= self.size {
            entries.retain(|_, (_, until)| *until > now);
        }
        if entries.len() >= self.size {
            let soonest = entries
                .iter()
                .min_by_key(|(_, (_, until))| *until)
                .map(|(k, _)| k.clone());
            if let Some(k) = soonest {
                entries.remove(&k);
            }
        }
        entries.insert(token.into(), (Arc::clone(info), now + left));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(expires_in: Option<Duration>) -> Arc<AuthInfo> {
        let mut info = AuthInfo::from_claims(serde_json::json!({"sub": "ann"}));
        info.expires_at = expires_in.map(|d| SystemTime::now() + d);
        Arc::new(info)
    }

    #[test]
    fn a_token_is_kept_until_its_expiry_or_the_ttl() {
        // Margins of a second: a loaded machine may stall this thread for tens of ms.
        let cache = TokenCache::new(8, Duration::from_millis(2500));
        cache.remember("a", &info(Some(Duration::from_millis(1000))));
        cache.remember("b", &info(None));
        cache.remember("gone", &info(Some(Duration::ZERO)));
        assert!(cache.get("a").is_some() && cache.get("b").is_some());
        assert!(cache.get("gone").is_none());
        std::thread::sleep(Duration::from_millis(1200));
        assert!(cache.get("a").is_none(), "kept past its exp");
        assert!(cache.get("b").is_some());
        std::thread::sleep(Duration::from_millis(1500));
        assert!(cache.get("b").is_none(), "kept past the ttl");
    }

    #[test]
    fn a_full_cache_drops_the_entry_closest_to_expiring() {
        let cache = TokenCache::new(2, Duration::from_secs(60));
        cache.remember("soon", &info(Some(Duration::from_secs(5))));
        cache.remember("late", &info(Some(Duration::from_secs(50))));
        cache.remember("new", &info(None));
        assert!(cache.get("soon").is_none());
        assert!(cache.get("late").is_some() && cache.get("new").is_some());
        let off = TokenCache::new(0, Duration::from_secs(60));
        off.remember("a", &info(None));
        assert!(off.get("a").is_none());
    }
}
