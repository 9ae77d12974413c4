//! The tests every [`TaskStore`] passes, run against each store: [`MemoryTaskStore`],
//! [`DirTaskStore`] and (feature `redis`, on a real `redis-server`, in `cluster::redis`'s
//! tests) the Redis store. A store is reached through `open`, which a shared store calls
//! once per simulated process.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

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

/// Opens a store, as one process does.
type Open = dyn Fn() -> Arc<dyn TaskStore> + Send + Sync;

/// Runs every test of the suite on the store `open` opens, in a runtime of its own (with
/// several threads: the concurrent test runs its "processes" in parallel).
pub(crate) fn run(open: Arc<Open>) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(4)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        round_trip_and_expiry(&*open).await;
        ids_never_name_anything_else(&*open).await;
        an_edit_that_declines_writes_nothing(&*open).await;
        concurrent_updates_lose_nothing(open.clone()).await;
        a_single_use_token_is_recorded_once(open).await;
    });
}

async fn round_trip_and_expiry(open: &Open) {
    let store = open();
    store.create(&record("aa", 60_000)).await.unwrap();
    store.create(&record("bb", 0)).await.unwrap();
    let got = store.get("aa").await.unwrap().unwrap();
    assert_eq!(got.id(), "aa");
    assert_eq!(got.status, Status::Working);
    std::thread::sleep(Duration::from_millis(5));
    assert!(store.get("bb").await.unwrap().is_none(), "expired");
    assert!(store.update("bb", &mut |_| true).await.unwrap().is_none());
    assert!(store.get("ffff").await.unwrap().is_none(), "never created");
    let done = store
        .update("aa", &mut |t| {
            t.status = Status::Completed;
            t.call = None;
            t.result = Some("{}".into());
            true
        })
        .await
        .unwrap()
        .unwrap();
    assert!(done.is_terminal());
    let other = open();
    let seen = other.get("aa").await.unwrap().unwrap();
    assert_eq!(seen.status, Status::Completed);
    assert_eq!(seen.result.as_deref(), Some("{}"));
}

/// Shared stores only: a client's `taskId` must not name another file or key (a store in
/// the process keys a map, where any text is harmless).
async fn ids_never_name_anything_else(open: &Open) {
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
        assert!(store.get(id).await.unwrap().is_none(), "{id}");
        assert!(store.create(&record(id, 1000)).await.is_err(), "{id}");
        assert!(
            store.update(id, &mut |_| true).await.unwrap().is_none(),
            "{id}"
        );
    }
}

async fn an_edit_that_declines_writes_nothing(open: &Open) {
    let store = open();
    store.create(&record("dd", 60_000)).await.unwrap();
    let left = store
        .update("dd", &mut |t| {
            t.status = Status::Cancelled;
            false
        })
        .await
        .unwrap()
        .unwrap();
    assert_eq!(left.id(), "dd");
    assert_eq!(
        open().get("dd").await.unwrap().unwrap().status,
        Status::Working
    );
}

async fn concurrent_updates_lose_nothing(open: Arc<Open>) {
    open().create(&record("cc", 60_000)).await.unwrap();
    let writers: Vec<_> = (0..4)
        .map(|t| {
            // A store per writer, as another process has.
            let store = open();
            tokio::spawn(async move {
                for i in 0..25 {
                    store
                        .update("cc", &mut |r| {
                            r.answered.insert(format!("{t}-{i}"), true.into());
                            true
                        })
                        .await
                        .unwrap();
                }
            })
        })
        .collect();
    for writer in writers {
        writer.await.unwrap();
    }
    assert_eq!(open().get("cc").await.unwrap().unwrap().answered.len(), 100);
}

/// [`TaskStore::use_once`]: the first use of a token is recorded, every later one (from any
/// process) is not, and of concurrent first uses exactly one wins.
async fn a_single_use_token_is_recorded_once(open: Arc<Open>) {
    const TOKEN: &str = "00112233445566778899aabbccddeeff0011223344556677";
    const RACED: &str = "ffeeddccbbaa99887766554433221100ffeeddccbbaa9988";
    let until = SystemTime::now() + Duration::from_secs(60);
    assert!(open().use_once(TOKEN, until).await.unwrap(), "first use");
    assert!(!open().use_once(TOKEN, until).await.unwrap(), "second use");
    let racers: Vec<_> = (0..8)
        .map(|_| {
            let store = open();
            tokio::spawn(async move { store.use_once(RACED, until).await.unwrap() })
        })
        .collect();
    let mut winners = 0;
    for racer in racers {
        winners += usize::from(racer.await.unwrap());
    }
    assert_eq!(winners, 1);
    if open().is_shared() {
        for token in [
            "",
            "../x",
            "a/b",
            ".lock",
            "ABC",
            "a}b",
            "a:b",
            &"a".repeat(65),
        ] {
            assert!(open().use_once(token, until).await.is_err(), "{token}");
        }
    }
}

#[test]
fn memory_store() {
    let store: Arc<dyn TaskStore> = Arc::new(MemoryTaskStore::new());
    run(Arc::new(move || store.clone()));
}

#[test]
fn dir_store() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().to_owned();
    run(Arc::new(move || {
        Arc::new(DirTaskStore::open(&path).unwrap())
    }));
}
