//! The tests every [`TaskStore`] passes, run against each store: [`MemoryTaskStore`],
//! [`DirTaskStore`] and (feature `redis`, on a real `redis-server`, in `cluster::redis`'s
//! tests) the Redis store. A store is reached through `open`, which a shared store calls
//! once per simulated process.

use std::sync::Arc;
use std::time::Duration;

use super::{CallRecord, DirTaskStore, MemoryTaskStore, Status, TaskRecord, TaskStore, now_ms};

pub(crate) fn record(id: &str, ttl_ms: u64) -> TaskRecord {
    TaskRecord {
        id: id.into(),
        status: Status::Working,
        created_ms: now_ms(),
        updated_ms: now_ms(),
        ttl_ms,
        result: None,
        error: None,
        pending: Default::default(),
        answered: Default::default(),
        request_state: None,
        call: Some(CallRecord {
            tool: "slow".into(),
            arguments: "{}".into(),
            revision: "2026-07-28".into(),
            request_id: "1".into(),
            client_info: None,
            client_capabilities: None,
        }),
        owner: Some("alice".into()),
    }
}

/// Runs every test of the suite on the store `open` opens.
pub(crate) fn run(open: &(dyn Fn() -> Arc<dyn TaskStore> + Sync)) {
    round_trip_and_expiry(open);
    ids_never_name_anything_else(open);
    an_edit_that_declines_writes_nothing(open);
    concurrent_updates_lose_nothing(open);
}

fn round_trip_and_expiry(open: &(dyn Fn() -> Arc<dyn TaskStore> + Sync)) {
    let store = open();
    store.create(&record("aa", 60_000)).unwrap();
    store.create(&record("bb", 0)).unwrap();
    let got = store.get("aa").unwrap().unwrap();
    assert_eq!(got.id(), "aa");
    assert_eq!(got.status, Status::Working);
    std::thread::sleep(Duration::from_millis(5));
    assert!(store.get("bb").unwrap().is_none(), "expired");
    assert!(store.update("bb", &mut |_| true).unwrap().is_none());
    assert!(store.get("ffff").unwrap().is_none(), "never created");
    let done = store
        .update("aa", &mut |t| {
            t.status = Status::Completed;
            t.call = None;
            t.result = Some("{}".into());
            true
        })
        .unwrap()
        .unwrap();
    assert!(done.is_terminal());
    let other = open();
    let seen = other.get("aa").unwrap().unwrap();
    assert_eq!(seen.status, Status::Completed);
    assert_eq!(seen.result.as_deref(), Some("{}"));
}

/// Shared stores only: a client's `taskId` must not name another file or key (a store in
/// the process keys a map, where any text is harmless).
fn ids_never_name_anything_else(open: &(dyn Fn() -> Arc<dyn TaskStore> + Sync)) {
    let store = open();
    if !store.is_shared() {
        return;
    }
    for id in [
        "",
        "../x",
        "a/b",
        ".lock",
        "ABC",
        "a.json",
        "a}b",
        "a:b",
        &"a".repeat(65),
    ] {
        assert!(store.get(id).unwrap().is_none(), "{id}");
        assert!(store.create(&record(id, 1000)).is_err(), "{id}");
        assert!(store.update(id, &mut |_| true).unwrap().is_none(), "{id}");
    }
}

fn an_edit_that_declines_writes_nothing(open: &(dyn Fn() -> Arc<dyn TaskStore> + Sync)) {
    let store = open();
    store.create(&record("dd", 60_000)).unwrap();
    let left = store
        .update("dd", &mut |t| {
            t.status = Status::Cancelled;
            false
        })
        .unwrap()
        .unwrap();
    assert_eq!(left.id(), "dd");
    assert_eq!(open().get("dd").unwrap().unwrap().status, Status::Working);
}

fn concurrent_updates_lose_nothing(open: &(dyn Fn() -> Arc<dyn TaskStore> + Sync)) {
    open().create(&record("cc", 60_000)).unwrap();
    std::thread::scope(|s| {
        for t in 0..4 {
            s.spawn(move || {
                // A store per thread, as another process has.
                let store = open();
                for i in 0..25 {
                    store
                        .update("cc", &mut |r| {
                            r.answered.insert(format!("{t}-{i}"), true.into());
                            true
                        })
                        .unwrap();
                }
            });
        }
    });
    assert_eq!(open().get("cc").unwrap().unwrap().answered.len(), 100);
}

#[test]
fn memory_store() {
    let store: Arc<dyn TaskStore> = Arc::new(MemoryTaskStore::new());
    run(&move || store.clone());
}

#[test]
fn dir_store() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().to_owned();
    run(&move || Arc::new(DirTaskStore::open(&path).unwrap()));
}
