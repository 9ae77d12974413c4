//! What a shared task store costs per operation: a task's life (create, two `tasks/get`s,
//! one edit that completes it) in `MemoryTaskStore`, `DirTaskStore` and `RedisTaskStore`,
//! from 1 and 8 threads (8 stores, each on its own connection and runtime, as 8 instances
//! have).
//!
//! `cargo run --release -p toolidl-bench --bin task_store -- REDIS_URL [TASKS] [REDIS_PID]`
//!
//! With REDIS_PID (the `redis-server` process), also Redis's CPU time per task, from
//! `/proc/PID/stat`. `bench/task_store.sh` starts a Redis and runs this.

use std::sync::Arc;
use std::time::Instant;

use toolidl_runtime::cluster::Redis;
use toolidl_runtime::tasks::{DirTaskStore, MemoryTaskStore, TaskRecord, TaskStore};

/// A record as the runtime writes one: a task of `slow_compute` just created.
fn record(id: &str) -> TaskRecord {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    let json = format!(
        r#"{{"id":"{id}","status":"working","created_ms":{now},"updated_ms":{now},"ttl_ms":3600000,
        "call":{{"tool":"slow_compute","arguments":"{{\"seconds\":0,\"label\":\"bench\"}}",
        "revision":"2026-07-28","request_id":"1"}}}}"#
    );
    serde_json::from_str(&json).expect("a record")
}

/// What completing it writes: the record with a result instead of the call (records are
/// the runtime's business, so through serde).
fn complete(task: &mut TaskRecord) {
    let mut v = serde_json::to_value(&*task).expect("JSON");
    v["status"] = "completed".into();
    v["result"] = r#"{"content":[{"type":"text","text":"Computed for 0 s (bench)."}]}"#.into();
    v.as_object_mut().expect("object").remove("call");
    *task = serde_json::from_value(v).expect("a record");
}

/// One task's life.
async fn life(store: &dyn TaskStore, id: &str) {
    store.create(&record(id)).await.expect("create");
    store.get(id).await.expect("get").expect("present");
    store
        .update(id, &mut |t| {
            complete(t);
            true
        })
        .await
        .expect("update")
        .expect("present");
    store.get(id).await.expect("get").expect("present");
}

fn cpu_ms(pid: Option<&str>) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{}/stat", pid?)).ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks * 10.0) // USER_HZ = 100
}

fn run(
    name: &str,
    threads: usize,
    tasks: usize,
    open: &(dyn Fn() -> Arc<dyn TaskStore> + Sync),
    redis_pid: Option<&str>,
) {
    let cpu_before = cpu_ms(redis_pid);
    let started = Instant::now();
    let per_thread = tasks / threads;
    std::thread::scope(|s| {
        for t in 0..threads {
            s.spawn(move || {
                let store = open();
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("a runtime");
                runtime.block_on(async {
                    for i in 0..per_thread {
                        let id = format!("{:08x}{:08x}{:016x}", t, i, started.elapsed().as_nanos());
                        life(&*store, &id).await;
                    }
                });
            });
        }
    });
    let elapsed = started.elapsed();
    let n = (per_thread * threads) as f64;
    let redis_cpu = match (cpu_before, cpu_ms(redis_pid)) {
        (Some(a), Some(b)) => format!("{:.1} µs", (b - a) * 1000.0 / n),
        _ => "-".into(),
    };
    println!(
        "{name:<8} {threads:>2} threads  {:>9.0} tasks/s  {:>8.1} µs/task  redis CPU {redis_cpu}/task",
        n / elapsed.as_secs_f64(),
        elapsed.as_secs_f64() * 1e6 * threads as f64 / n,
    );
}

fn main() {
    let mut args = std::env::args().skip(1);
    let url = args
        .next()
        .expect("usage: task_store REDIS_URL [TASKS] [REDIS_PID]");
    let tasks: usize = args.next().map_or(4000, |n| n.parse().expect("TASKS"));
    let redis_pid = args.next();
    let memory: Arc<dyn TaskStore> = Arc::new(MemoryTaskStore::with_capacity(usize::MAX));
    let dir = tempfile::tempdir().expect("a temporary folder");
    println!("task life: create, get, update (complete), get; µs/task is per thread");
    for threads in [1, 8] {
        run("memory", threads, tasks, &|| memory.clone(), None);
        run(
            "dir",
            threads,
            tasks,
            &|| Arc::new(DirTaskStore::open(dir.path()).expect("open")),
            None,
        );
        run(
            "redis",
            threads,
            tasks,
            &|| {
                let redis = Redis::with_prefix(&url, "bench").expect("a Redis URL");
                Arc::new(redis.task_store())
            },
            redis_pid.as_deref(),
        );
    }
}
