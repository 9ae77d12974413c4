//! Redis: the task store and the change bus of instances that share one Redis server.
//!
//! Keys (all under a prefix, `toolidl` by default; `{…}` is a Redis Cluster hash tag, so a
//! task's keys share a slot):
//!
//! | key | holds | expires |
//! | --- | --- | --- |
//! | `P:task:{ID}` | the task's [`TaskRecord`], JSON | with the task (`ttlMs` after creation) |
//! | `P:task:{ID}:lease` | the instance running its handler | 3 s, renewed every 250 ms |
//! | `P:task:{ID}:lock` | the token of the instance editing it | 2 s (a crashed editor's lock lapses) |
//! | `P:once:{NONCE}` | a single-use `requestState` that was used ([`TaskStore::use_once`]) | with the state |
//! | `P:services` | the set of optional services now added | never (a few names) |
//! | `P:session:{ID}` | the address of the instance holding an HTTP session | the session's idle timeout, renewed |
//! | channel `P:changes` | resource updates and registry changes, JSON | (pub/sub) |

use std::future::Future;
use std::hash::{BuildHasher, RandomState};
use std::io;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::{Arc, LazyLock, Mutex, OnceLock};
use std::time::{Duration, SystemTime};

use ::redis::aio::{ConnectionManager, ConnectionManagerConfig};
use ::redis::io::tcp::TcpSettings;
use ::redis::{Client, Connection, IntoConnectionInfo, Pipeline, RedisError, RedisResult, Script};
use serde_json::{Value, json};

use super::{Change, ChangeBus, Deliver, SessionDirectory};
// Only ids the runtime can have made (lowercase hex), so a client's `taskId` never names
// another key.
use crate::tasks::{
    ErrorRecord, Status, StoreFuture, TaskEdit, TaskRecord, TaskStore, now_ms, plain_id,
};

/// How long a connection attempt may take: a request that needs Redis while it is down fails
/// after this long at most (connection refused fails at once).
const CONNECT_TIMEOUT: Duration = Duration::from_millis(250);
/// How long one command may wait for its reply.
const IO_TIMEOUT: Duration = Duration::from_secs(1);
/// A running handler's lease: renewed every 250 ms (the runtime's cancel check) by the
/// instance running it; once it lapses the task is failed (its instance died).
const LEASE_MS: u64 = 3_000;
/// How long an edit may hold a task's lock before another instance may take it.
const LOCK_MS: u64 = 2_000;

/// A Redis server shared by the instances of one server: open it once per process and hand
/// it to [`ServerBuilder::redis`](crate::ServerBuilder::redis), which uses it as the task
/// store ([`RedisTaskStore`]) and as the bus that carries resource updates and registry
/// changes between instances (see [`crate::cluster`]).
///
/// Requests' commands (tasks, the session directory) share one multiplexed async connection
/// (redis-rs's `ConnectionManager`), made on first use in the Tokio runtime that serves the
/// server (so a `Redis` belongs to that runtime), with a 250 ms connect and a 1 s reply
/// timeout. When Redis is unreachable, what needs it fails quickly (a task request gets
/// `-32603`) without holding a runtime thread, and the connection is made again by itself
/// once Redis is back. The bus (pub/sub, and publishing changes in order) runs on threads
/// of its own, with blocking connections, and reconnects by itself.
#[derive(Clone)]
pub struct Redis {
    inner: Arc<Inner>,
}

struct Inner {
    client: Client,
    prefix: String,
    /// This process's id among the instances (64 random bits, hex).
    instance: String,
    /// Requests' commands: made on first use (it needs a runtime), then shared.
    commands: tokio::sync::OnceCell<ConnectionManager>,
    /// Changes to publish, in order, for the publisher thread (started on first use).
    outgoing: OnceLock<Mutex<Sender<Pipeline>>>,
    tokens: AtomicU64,
}

impl std::fmt::Debug for Redis {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Redis")
            .field("prefix", &self.inner.prefix)
            .field("instance", &self.inner.instance)
            .finish_non_exhaustive()
    }
}

fn io_error(e: RedisError) -> io::Error {
    io::Error::other(e)
}

/// An error after which the same command is sent once more, at once: the connection was
/// found dropped (Redis restarted), and the manager is already connecting again. A timeout
/// is not retried (a hung Redis would double the wait).
fn retryable(e: &RedisError) -> bool {
    !e.is_timeout() && (e.is_connection_dropped() || e.is_io_error() || e.is_unrecoverable_error())
}

impl Redis {
    /// The Redis server at `url` (`redis://HOST:PORT[/DB]`, `redis://:PASSWORD@HOST`,
    /// `redis+unix:///PATH`), with keys under `toolidl:`. Does not connect yet: the first
    /// command does (so an instance starts while Redis is down).
    pub fn open(url: &str) -> io::Result<Redis> {
        Self::with_prefix(url, "toolidl")
    }

    /// The same with keys under `prefix:` (several servers on one Redis).
    pub fn with_prefix(url: &str, prefix: &str) -> io::Result<Redis> {
        let invalid = |e| io::Error::new(io::ErrorKind::InvalidInput, e);
        // Every command is a small write awaiting its reply: Nagle's algorithm would hold
        // the next one back for the previous one's ACK.
        let info = url
            .into_connection_info()
            .map_err(invalid)?
            .set_tcp_settings(TcpSettings::default().set_nodelay(true));
        let client = Client::open(info).map_err(invalid)?;
        let instance = RandomState::new().hash_one((std::process::id(), now_ms()));
        Ok(Redis {
            inner: Arc::new(Inner {
                client,
                prefix: prefix.to_owned(),
                instance: format!("{instance:016x}"),
                commands: tokio::sync::OnceCell::new(),
                outgoing: OnceLock::new(),
                tokens: AtomicU64::new(0),
            }),
        })
    }

    /// The task store on this server.
    pub fn task_store(&self) -> RedisTaskStore {
        RedisTaskStore {
            redis: self.clone(),
        }
    }

    /// Sends `PING`: whether Redis answers now.
    pub async fn ping(&self) -> io::Result<()> {
        self.run(|mut c| async move { ::redis::cmd("PING").query_async::<String>(&mut c).await })
            .await
            .map(drop)
    }

    fn key(&self, rest: &str) -> String {
        format!("{}:{rest}", self.inner.prefix)
    }

    /// The shared async connection, made on first use. Made lazily, it connects on its
    /// first command; one that failed to connect tries again on the next.
    async fn commands(&self) -> io::Result<ConnectionManager> {
        let manager = self
            .inner
            .commands
            .get_or_try_init(|| async {
                let config = ConnectionManagerConfig::new()
                    .set_connection_timeout(Some(CONNECT_TIMEOUT))
                    .set_response_timeout(Some(IO_TIMEOUT))
                    // A request waits for one attempt, not a series: it fails fast, and
                    // the next one tries again.
                    .set_number_of_retries(0);
                ConnectionManager::new_lazy_with_config(self.inner.client.clone(), config)
            })
            .await
            .map_err(io_error)?;
        Ok(manager.clone())
    }

    /// Runs `f` on the shared connection; once more at once when it found the connection
    /// dropped (the second attempt waits for the new connection).
    async fn run<T, F, Fut>(&self, f: F) -> io::Result<T>
    where
        F: Fn(ConnectionManager) -> Fut,
        Fut: Future<Output = RedisResult<T>>,
    {
        let conn = self.commands().await?;
        match f(conn.clone()).await {
            Err(e) if retryable(&e) => f(conn).await.map_err(io_error),
            result => result.map_err(io_error),
        }
    }

    /// A blocking connection, for the bus's threads.
    fn connect(&self) -> RedisResult<Connection> {
        connect(&self.inner.client)
    }
}

fn connect(client: &Client) -> RedisResult<Connection> {
    let conn = client.get_connection_with_timeout(CONNECT_TIMEOUT)?;
    conn.set_read_timeout(Some(IO_TIMEOUT))?;
    conn.set_write_timeout(Some(IO_TIMEOUT))?;
    Ok(conn)
}

/// The publisher thread: sends the changes this instance publishes, in order, on a blocking
/// connection of its own (the caller, a handler, never waits for Redis); ends once the
/// `Redis` is dropped. A change that cannot be sent is logged and dropped (it stands
/// locally; see [`ChangeBus::publish`]).
fn publisher(client: &Client, changes: &Receiver<Pipeline>) {
    let mut kept: Option<Connection> = None;
    while let Ok(pipe) = changes.recv() {
        let mut sent = Ok(());
        // Once more on a fresh connection when the kept one was dropped (a restart).
        for _ in 0..2 {
            let conn = match kept.take().map_or_else(|| connect(client), Ok) {
                Ok(c) => kept.insert(c),
                Err(e) => {
                    sent = Err(e);
                    break;
                }
            };
            sent = pipe.query::<()>(conn);
            match &sent {
                Err(e) if retryable(e) => kept = None,
                _ => break,
            }
        }
        if let Err(e) = sent {
            tracing::warn!(error = %e, "publishing a change to the other instances failed (Redis)");
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Tasks in Redis, shared by every instance that opens the same server: a record per task,
/// expiring with it; edits take the task's lock, so concurrent `tasks/update` and
/// `tasks/cancel` through different instances do not lose each other's changes (the same
/// semantics as [`DirTaskStore`](crate::tasks::DirTaskStore)).
///
/// The instance running a task's handler holds a lease on it, renewed every 250 ms. When
/// the lease lapses while the task is still `working` (the instance was killed, or lost
/// Redis for 3 s), the next read fails the task (`-32603`, "The instance running this task
/// stopped before it finished."): a task is never silently left working. A handler that
/// lost its task this way is cancelled when its instance reads the record again.
#[derive(Debug, Clone)]
pub struct RedisTaskStore {
    redis: Redis,
}

/// Milliseconds until `record` expires, at least 1 (Redis refuses 0).
fn remaining_ms(record: &TaskRecord) -> u64 {
    record
        .created_ms
        .saturating_add(record.ttl_ms)
        .saturating_sub(now_ms())
        .max(1)
}

/// Whether a record needs a live lease: a handler is running for it somewhere.
fn leased(record: &TaskRecord) -> bool {
    record.status == Status::Working && record.call.is_some()
}

/// Writes (when `ARGV[2]` is not empty) and unlocks, only while the lock is still ours.
const WRITE: &str = r"
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] ~= '' then redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3]) end
if ARGV[4] == 'lease' then redis.call('SET', KEYS[3], ARGV[5], 'PX', ARGV[6])
elseif ARGV[4] == 'drop' then redis.call('DEL', KEYS[3]) end
redis.call('DEL', KEYS[1])
return 1
";

/// The edit script, hashed once.
static WRITE_SCRIPT: LazyLock<Script> = LazyLock::new(|| Script::new(WRITE));

/// A task's lock, as one edit holds it.
struct Held<'a> {
    redis: &'a Redis,
    keys: &'a [String; 3],
    token: String,
}

impl Held<'_> {
    /// Writes `json` (unless empty) with `ttl` ms to live, takes or drops the lease, and
    /// unlocks; `false` when the lock was no longer ours (nothing written).
    async fn unlock(&self, json: &str, ttl: u64, lease: &str) -> io::Result<bool> {
        let [lock_key, lease_key, task_key] = self.keys;
        let instance = &self.redis.inner.instance;
        self.redis
            .run(|mut c| async move {
                WRITE_SCRIPT
                    .key(lock_key)
                    .key(task_key)
                    .key(lease_key)
                    .arg(&self.token)
                    .arg(json)
                    .arg(ttl)
                    .arg(lease)
                    .arg(instance)
                    .arg(LEASE_MS)
                    .invoke_async(&mut c)
                    .await
            })
            .await
    }

    /// Unlocks without writing; a failure is only logged (the lock lapses by itself).
    async fn release(&self) {
        if let Err(e) = self.unlock("", 0, "").await {
            tracing::debug!(error = %e, "unlocking a task in Redis failed; its lock lapses");
        }
    }
}

impl RedisTaskStore {
    fn keys(&self, id: &str) -> [String; 3] {
        let task = self.redis.key(&format!("task:{{{id}}}"));
        [format!("{task}:lock"), format!("{task}:lease"), task]
    }

    fn parse(json: Option<String>) -> io::Result<Option<TaskRecord>> {
        let Some(json) = json else {
            return Ok(None);
        };
        let record: TaskRecord = serde_json::from_str(&json)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
        Ok((!record.expired(SystemTime::now())).then_some(record))
    }

    /// The record (unexpired) and whether its lease is alive, in one round trip.
    async fn read(&self, keys: &[String; 3]) -> io::Result<(Option<TaskRecord>, bool)> {
        let [_, lease_key, task_key] = keys;
        let (json, lease_alive): (Option<String>, bool) = self
            .redis
            .run(|mut c| async move {
                ::redis::pipe()
                    .get(task_key)
                    .exists(lease_key)
                    .query_async(&mut c)
                    .await
            })
            .await?;
        Ok((Self::parse(json)?, lease_alive))
    }

    /// Takes task `keys`' lock, waiting for another instance's edit (they are short) up to
    /// a little longer than its lock lives.
    async fn lock<'a>(&'a self, keys: &'a [String; 3]) -> io::Result<Held<'a>> {
        let inner = &self.redis.inner;
        let token = format!(
            "{}-{}",
            inner.instance,
            inner.tokens.fetch_add(1, Ordering::Relaxed)
        );
        let lock_key = &keys[0];
        let mut waited = Duration::ZERO;
        loop {
            let taken: Option<String> = self
                .redis
                .run(|mut c| {
                    let token = &token;
                    async move {
                        ::redis::cmd("SET")
                            .arg(lock_key)
                            .arg(token)
                            .arg("NX")
                            .arg("PX")
                            .arg(LOCK_MS)
                            .query_async(&mut c)
                            .await
                    }
                })
                .await?;
            if taken.is_some() {
                return Ok(Held {
                    redis: &self.redis,
                    keys,
                    token,
                });
            }
            if waited > Duration::from_millis(LOCK_MS + 500) {
                return Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "task lock held too long",
                ));
            }
            let pause = Duration::from_millis(2);
            tokio::time::sleep(pause).await;
            waited += pause;
        }
    }

    /// Takes the task's lock, reads it with whether its lease is alive, calls `edit`, writes
    /// the record back when `edit` says so, and unlocks.
    async fn edit(
        &self,
        id: &str,
        edit: &mut (dyn FnMut(&mut TaskRecord, bool) -> bool + Send),
    ) -> io::Result<Option<TaskRecord>> {
        if !plain_id(id) {
            return Ok(None);
        }
        let keys = self.keys(id);
        let held = self.lock(&keys).await?;
        let (record, lease_alive) = match self.read(&keys).await {
            Ok((Some(record), alive)) => (record, alive),
            other => {
                held.release().await;
                return other.map(|(none, _)| none);
            }
        };
        let mut record = record;
        let was_leased = leased(&record);
        if !edit(&mut record, lease_alive) {
            held.release().await;
            return Ok(Some(record));
        }
        let json = serde_json::to_string(&record).map_err(io::Error::other)?;
        let lease = match (was_leased, leased(&record)) {
            (false, true) => "lease",
            (true, false) => "drop",
            _ => "",
        };
        if !held.unlock(&json, remaining_ms(&record), lease).await? {
            return Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the task's lock lapsed during an edit",
            ));
        }
        Ok(Some(record))
    }

    async fn create_async(&self, record: &TaskRecord) -> io::Result<()> {
        if !plain_id(&record.id) {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "not a task id"));
        }
        let [_, lease_key, task_key] = self.keys(&record.id);
        let json = serde_json::to_string(record).map_err(io::Error::other)?;
        let mut pipe = ::redis::pipe();
        pipe.atomic()
            .cmd("SET")
            .arg(&task_key)
            .arg(json)
            .arg("NX")
            .arg("PX")
            .arg(remaining_ms(record));
        if leased(record) {
            pipe.cmd("SET")
                .arg(&lease_key)
                .arg(&self.redis.inner.instance)
                .arg("PX")
                .arg(LEASE_MS)
                .ignore();
        }
        let pipe = &pipe;
        let (created,): (Option<String>,) = self
            .redis
            .run(|mut c| async move { pipe.query_async(&mut c).await })
            .await?;
        match created {
            Some(_) => Ok(()),
            None => Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                "a task with this id exists",
            )),
        }
    }

    async fn get_async(&self, id: &str) -> io::Result<Option<TaskRecord>> {
        if !plain_id(id) {
            return Ok(None);
        }
        match self.read(&self.keys(id)).await? {
            (Some(r), false) if leased(&r) => {
                self.edit(id, &mut |task, alive| {
                    if !leased(task) || alive {
                        return false;
                    }
                    task.status = Status::Failed;
                    task.updated_ms = now_ms();
                    task.call = None;
                    task.error = Some(ErrorRecord {
                        code: crate::protocol::code::INTERNAL_ERROR,
                        message: "The instance running this task stopped before it finished."
                            .into(),
                        data: None,
                    });
                    true
                })
                .await
            }
            (record, _) => Ok(record),
        }
    }

    /// `SET P:once:{token} <ours> NX PX <until>`; when it was set already, whether by this
    /// very call (its first attempt's reply lost, the command sent again).
    async fn use_once_async(&self, token: &str, until: SystemTime) -> io::Result<bool> {
        if !plain_id(token) {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "not a token"));
        }
        let key = &self.redis.key(&format!("once:{{{token}}}"));
        let inner = &self.redis.inner;
        let ours = &format!(
            "{}-{}",
            inner.instance,
            inner.tokens.fetch_add(1, Ordering::Relaxed)
        );
        let ms = until
            .duration_since(SystemTime::now())
            .map_or(1, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
            .max(1);
        let set: Option<String> = self
            .redis
            .run(|mut c| async move {
                ::redis::cmd("SET")
                    .arg(key)
                    .arg(ours)
                    .arg("NX")
                    .arg("PX")
                    .arg(ms)
                    .query_async(&mut c)
                    .await
            })
            .await?;
        if set.is_some() {
            return Ok(true);
        }
        let holder: Option<String> = self
            .redis
            .run(|mut c| async move { ::redis::cmd("GET").arg(key).query_async(&mut c).await })
            .await?;
        Ok(holder.as_deref() == Some(ours.as_str()))
    }

    async fn heartbeat_async(&self, id: &str) -> io::Result<()> {
        if !plain_id(id) {
            return Ok(());
        }
        let [_, lease_key, _] = &self.keys(id);
        self.redis
            .set_px(lease_key, &self.redis.inner.instance, LEASE_MS)
            .await
    }
}

impl TaskStore for RedisTaskStore {
    fn create<'a>(&'a self, record: &'a TaskRecord) -> StoreFuture<'a, ()> {
        Box::pin(self.create_async(record))
    }

    fn get<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<TaskRecord>> {
        Box::pin(self.get_async(id))
    }

    fn update<'a>(
        &'a self,
        id: &'a str,
        edit: TaskEdit<'a>,
    ) -> StoreFuture<'a, Option<TaskRecord>> {
        Box::pin(async move { self.edit(id, &mut |task, _| edit(task)).await })
    }

    fn heartbeat<'a>(&'a self, id: &'a str) -> StoreFuture<'a, ()> {
        Box::pin(self.heartbeat_async(id))
    }

    fn use_once<'a>(&'a self, token: &'a str, until: SystemTime) -> StoreFuture<'a, bool> {
        Box::pin(self.use_once_async(token, until))
    }
}

impl Redis {
    fn session_key(&self, id: &str) -> String {
        self.key(&format!("session:{{{id}}}"))
    }

    /// `SET key value PX ms`: a value that lapses unless renewed.
    async fn set_px(&self, key: &str, value: &str, ms: u64) -> io::Result<()> {
        self.run(|mut c| async move {
            ::redis::cmd("SET")
                .arg(key)
                .arg(value)
                .arg("PX")
                .arg(ms)
                .query_async::<()>(&mut c)
                .await
        })
        .await
    }
}

impl SessionDirectory for Redis {
    fn ping(&self) -> StoreFuture<'_, ()> {
        Box::pin(Redis::ping(self))
    }

    fn claim<'a>(&'a self, id: &'a str, addr: &'a str, ttl: Duration) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let ms = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX).max(1);
            self.set_px(&self.session_key(id), addr, ms).await
        })
    }

    fn owner<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<String>> {
        Box::pin(async move {
            if !plain_id(id) {
                return Ok(None);
            }
            let key = &self.session_key(id);
            self.run(|mut c| async move { ::redis::cmd("GET").arg(key).query_async(&mut c).await })
                .await
        })
    }

    fn release<'a>(&'a self, id: &'a str) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let key = &self.session_key(id);
            self.run(
                |mut c| async move { ::redis::cmd("DEL").arg(key).query_async::<()>(&mut c).await },
            )
            .await
        })
    }
}

/// A change as published: JSON with the publishing instance's id.
fn encode(instance: &str, change: &Change) -> Option<String> {
    let v = match change {
        Change::ResourceUpdated(uri) => json!({ "from": instance, "uri": uri }),
        Change::Service { name, enabled } => {
            json!({ "from": instance, "service": name, "enabled": enabled })
        }
        Change::Services(_) => return None,
    };
    Some(v.to_string())
}

/// A published change, unless this instance published it (or it is not one).
fn decode(instance: &str, payload: &str) -> Option<Change> {
    let v: Value = serde_json::from_str(payload).ok()?;
    if v.get("from")?.as_str()? == instance {
        return None;
    }
    if let Some(uri) = v.get("uri").and_then(Value::as_str) {
        return Some(Change::ResourceUpdated(uri.to_owned()));
    }
    Some(Change::Service {
        name: v.get("service")?.as_str()?.to_owned(),
        enabled: v.get("enabled")?.as_bool()?,
    })
}

impl ChangeBus for Redis {
    fn publish(&self, change: &Change) {
        let Some(payload) = encode(&self.inner.instance, change) else {
            return;
        };
        let channel = self.key("changes");
        let mut pipe = ::redis::pipe();
        pipe.atomic();
        if let Change::Service { name, enabled } = change {
            let set = self.key("services");
            if *enabled {
                pipe.sadd(set, name).ignore();
            } else {
                pipe.srem(set, name).ignore();
            }
        }
        pipe.publish(channel, payload).ignore();
        let outgoing = self.inner.outgoing.get_or_init(|| {
            let (send, receive) = std::sync::mpsc::channel();
            let client = self.inner.client.clone();
            let spawned = std::thread::Builder::new()
                .name("toolidl-redis-publish".into())
                .spawn(move || publisher(&client, &receive));
            if let Err(e) = spawned {
                tracing::error!(error = %e, "cannot start the Redis publisher thread");
            }
            Mutex::new(send)
        });
        if lock(outgoing).send(pipe).is_err() {
            tracing::warn!("publishing a change to the other instances failed (no publisher)");
        }
    }

    fn start(&self, deliver: Deliver) {
        let redis = self.clone();
        let spawned = std::thread::Builder::new()
            .name("toolidl-redis-bus".into())
            .spawn(move || redis.subscribe(deliver));
        if let Err(e) = spawned {
            tracing::error!(error = %e, "cannot start the Redis bus thread");
        }
    }
}

impl Redis {
    /// The bus thread: subscribes, takes the current set of services, delivers what other
    /// instances publish; reconnects (backing off up to 2 s) whenever Redis goes away; ends
    /// once `deliver` says its server is gone.
    fn subscribe(self, deliver: Deliver) {
        let channel = self.key("changes");
        let mut backoff = Duration::from_millis(100);
        let mut down = false;
        while deliver(None) {
            let mut session = || -> RedisResult<()> {
                let mut conn = self.connect()?;
                let mut pubsub = conn.as_pubsub();
                pubsub.subscribe(&channel)?;
                pubsub.set_read_timeout(Some(Duration::from_millis(500)))?;
                // Subscribed first, then read: nothing published in between is missed.
                let names: Vec<String> = ::redis::cmd("SMEMBERS")
                    .arg(self.key("services"))
                    .query(&mut self.connect()?)?;
                if down {
                    tracing::info!("the Redis bus is connected again");
                }
                down = false;
                backoff = Duration::from_millis(100);
                if !deliver(Some(Change::Services(names))) {
                    return Ok(());
                }
                loop {
                    match pubsub.get_message() {
                        Ok(msg) => {
                            let payload: String = msg.get_payload()?;
                            let change = decode(&self.inner.instance, &payload);
                            if !deliver(change) {
                                return Ok(());
                            }
                        }
                        Err(e) if e.is_timeout() => {
                            if !deliver(None) {
                                return Ok(());
                            }
                        }
                        Err(e) => return Err(e),
                    }
                }
            };
            match session() {
                Ok(()) => return,
                Err(e) => {
                    if !down {
                        tracing::warn!(error = %e, "the Redis bus lost its connection; reconnecting");
                    }
                    down = true;
                    std::thread::sleep(backoff);
                    backoff = (backoff * 2).min(Duration::from_secs(2));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::suite::record;

    #[test]
    fn changes_round_trip_and_an_instance_ignores_its_own() {
        for change in [
            Change::ResourceUpdated("test://x".into()),
            Change::Service {
                name: "extra".into(),
                enabled: false,
            },
        ] {
            let payload = encode("aa", &change).unwrap();
            assert_eq!(decode("bb", &payload), Some(change));
            assert_eq!(decode("aa", &payload), None);
        }
        assert_eq!(decode("bb", "not json"), None);
    }

    #[test]
    fn the_task_store_suite() {
        let Some(server) = crate::cluster::testing::RedisServer::start() else {
            return;
        };
        let url = server.url();
        crate::tasks::suite::run(Arc::new(move || {
            Arc::new(Redis::open(&url).unwrap().task_store())
        }));
    }

    #[tokio::test]
    async fn a_task_whose_lease_lapsed_reads_as_failed_and_a_heartbeat_keeps_it() {
        let Some(server) = crate::cluster::testing::RedisServer::start() else {
            return;
        };
        let store = Redis::open(&server.url()).unwrap().task_store();
        let other = Redis::open(&server.url()).unwrap().task_store();
        store.create(&record("ab", 60_000)).await.unwrap();
        // The running instance renews its lease; another reads the task as working.
        store.heartbeat("ab").await.unwrap();
        assert_eq!(
            other.get("ab").await.unwrap().unwrap().status,
            Status::Working
        );
        // The lease lapses (its instance died): the next read, anywhere, fails the task.
        server.command(&["DEL", "toolidl:task:{ab}:lease"]);
        let failed = other.get("ab").await.unwrap().unwrap();
        assert_eq!(failed.status, Status::Failed);
        let error = failed.error.unwrap();
        assert_eq!(error.code, -32603);
        assert_eq!(
            error.message,
            "The instance running this task stopped before it finished."
        );
        assert_eq!(
            store.get("ab").await.unwrap().unwrap().status,
            Status::Failed
        );
        // A task waiting for input has no handler running, and so no lease.
        let mut waiting = record("ac", 60_000);
        waiting.status = Status::InputRequired;
        store.create(&waiting).await.unwrap();
        assert_eq!(
            other.get("ac").await.unwrap().unwrap().status,
            Status::InputRequired
        );
        // Records expire in Redis with their task.
        let ttl = server.command(&["PTTL", "toolidl:task:{ab}"]);
        assert!(
            matches!(ttl, ::redis::Value::Int(ms) if ms > 0 && ms <= 60_000),
            "{ttl:?}"
        );
    }

    #[tokio::test]
    async fn a_store_fails_quickly_while_redis_is_down_and_recovers() {
        let Some(mut server) = crate::cluster::testing::RedisServer::start() else {
            return;
        };
        let store = Redis::open(&server.url()).unwrap().task_store();
        store.create(&record("ad", 60_000)).await.unwrap();
        server.stop();
        let started = std::time::Instant::now();
        assert!(store.get("ad").await.is_err());
        assert!(started.elapsed() < Duration::from_secs(2));
        server.restart();
        // Redis restarted empty: the pool's dead connection is replaced at once.
        assert!(store.get("ad").await.unwrap().is_none());
        store.create(&record("ad", 60_000)).await.unwrap();
        assert!(store.get("ad").await.unwrap().is_some());
        // Restarted between two requests: the first one after finds its connection dropped
        // and is sent again on a new one, rather than failing.
        server.restart();
        assert!(store.get("ad").await.unwrap().is_none());
    }

    /// A request waiting on a Redis that does not answer holds no runtime thread: on a
    /// runtime of one thread, other work goes on meanwhile.
    #[tokio::test(flavor = "current_thread")]
    async fn a_request_waiting_on_redis_leaves_the_thread_free() {
        let Some(server) = crate::cluster::testing::RedisServer::start() else {
            return;
        };
        let store = Arc::new(Redis::open(&server.url()).unwrap().task_store());
        store.create(&record("ae", 60_000)).await.unwrap();
        server.pause();
        let waiting = {
            let store = store.clone();
            tokio::spawn(async move { store.get("ae").await.map(|r| r.is_some()) })
        };
        // The runtime's only thread polls the request, then comes back here.
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert!(!waiting.is_finished(), "the request blocked the thread");
        server.resume();
        assert!(waiting.await.unwrap().unwrap());
    }

    #[test]
    fn ids_never_name_another_key() {
        for id in ["", "a}b", "a:b", "ABC", &"a".repeat(65)] {
            assert!(!plain_id(id), "{id}");
        }
        assert!(plain_id("0123456789abcdef"));
    }
}
