//! Results of read-only tools kept for a while ([`ToolLimits::cache`](super::ToolLimits::cache)):
//! by client and arguments, for a time, a bounded number of them.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

use crate::service::ToolOutput;

/// One tool's kept results.
pub(crate) struct ResultCache {
    ttl: Duration,
    max: usize,
    entries: Mutex<Entries>,
}

#[derive(Default)]
struct Entries {
    by_key: HashMap<String, (Instant, ToolOutput)>,
    /// Keys in the order they were stored, the oldest first (some may be gone already).
    order: VecDeque<String>,
}

impl ResultCache {
    pub fn new(ttl: Duration, max: usize) -> ResultCache {
        ResultCache {
            ttl,
            max: max.max(1),
            entries: Mutex::default(),
        }
    }

    /// The key of a call: its client and its arguments' JSON text as sent.
    pub fn key(client: &str, arguments: &str) -> String {
        let mut key = String::with_capacity(client.len() + 1 + arguments.len());
        key.push_str(client);
        key.push('\n');
        key.push_str(arguments);
        key
    }

    /// The result kept for `key`, if it is still fresh.
    pub fn get(&self, key: &str) -> Option<ToolOutput> {
        let entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        let (stored, output) = entries.by_key.get(key)?;
        (stored.elapsed() < self.ttl).then(|| output.clone())
    }

    /// Keeps `output` for `key`, if it is a result worth keeping (not a request for input,
    /// not an error result passed through); the oldest entries make room.
    pub fn put(&self, key: String, output: &ToolOutput) {
        let keep = match output {
            ToolOutput::InputRequired { .. } => false,
            ToolOutput::CallResult(v) => v.get("isError") != Some(&serde_json::Value::Bool(true)),
            _ => true,
        };
        if !keep {
            return;
        }
        let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        while entries.by_key.len() >= self.max {
            let Some(oldest) = entries.order.pop_front() else {
                break;
            };
            entries.by_key.remove(&oldest);
        }
        if entries
            .by_key
            .insert(key.clone(), (now, output.clone()))
            .is_none()
        {
            entries.order.push_back(key);
        }
        // Expired entries at the front go as new ones come.
        while let Some(front) = entries.order.front() {
            match entries.by_key.get(front) {
                Some((stored, _)) if stored.elapsed() < self.ttl => break,
                _ => {
                    let front = front.clone();
                    entries.by_key.remove(&front);
                    entries.order.pop_front();
                }
            }
        }
    }
}

/// Whether a tool's listing marks it read-only and idempotent (`annotations.readOnlyHint`
/// and `annotations.idempotentHint` both `true`): only such a tool's results may be kept.
pub(crate) fn read_only_and_idempotent(listing: &str) -> bool {
    let Ok(tool) = serde_json::from_str::<serde_json::Value>(listing) else {
        return false;
    };
    let hint = |name: &str| tool["annotations"][name] == serde_json::Value::Bool(true);
    hint("readOnlyHint") && hint("idempotentHint")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_are_kept_per_client_and_the_oldest_make_room() {
        let cache = ResultCache::new(Duration::from_secs(60), 2);
        let (a, b) = (
            ResultCache::key("addr:10.0.0.1", "{}"),
            ResultCache::key("addr:10.0.0.2", "{}"),
        );
        cache.put(a.clone(), &ToolOutput::text("a"));
        assert_eq!(cache.get(&a), Some(ToolOutput::text("a")));
        assert_eq!(cache.get(&b), None, "another client's result");
        cache.put(b.clone(), &ToolOutput::text("b"));
        cache.put(ResultCache::key("local", "{}"), &ToolOutput::text("c"));
        assert_eq!(cache.get(&a), None, "the oldest made room");
        assert_eq!(cache.get(&b), Some(ToolOutput::text("b")));
        let error = serde_json::json!({"content": [], "isError": true});
        cache.put(a.clone(), &ToolOutput::CallResult(error));
        assert_eq!(cache.get(&a), None, "an error result is not kept");
    }

    #[test]
    fn only_read_only_idempotent_tools_qualify() {
        let tool = |annotations: &str| {
            format!(r#"{{"name":"t","inputSchema":{{}},"annotations":{annotations}}}"#)
        };
        assert!(read_only_and_idempotent(&tool(
            r#"{"readOnlyHint":true,"idempotentHint":true}"#
        )));
        assert!(!read_only_and_idempotent(&tool(r#"{"readOnlyHint":true}"#)));
        assert!(!read_only_and_idempotent(&tool(
            r#"{"idempotentHint":true}"#
        )));
        assert!(!read_only_and_idempotent(r#"{"name":"t"}"#));
    }
}
