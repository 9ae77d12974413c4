//! Tasks kept in the process.

use std::collections::HashMap;
use std::io;
use std::sync::Mutex;
use std::time::SystemTime;

use super::{StoreFuture, TaskEdit, TaskRecord, TaskStore};

/// The default store: a map in the process, at most `capacity` unexpired tasks (10 000 by
/// default). Expired tasks are dropped when a task is created. Single-use tokens
/// ([`TaskStore::use_once`]) are kept in a map of their own, at most 100 000 unexpired
/// (more fail, so a retry carrying a state gets -32603 until some expire).
#[derive(Debug)]
pub struct MemoryTaskStore {
    tasks: Mutex<HashMap<String, TaskRecord>>,
    capacity: usize,
    /// Single-use tokens and when each may be forgotten.
    used: Mutex<HashMap<String, SystemTime>>,
}

/// At most this many unexpired single-use tokens are kept.
const USED_CAPACITY: usize = 100_000;

impl MemoryTaskStore {
    /// An empty store for at most 10 000 unexpired tasks.
    pub fn new() -> Self {
        Self::with_capacity(10_000)
    }

    /// An empty store for at most `capacity` unexpired tasks.
    pub fn with_capacity(capacity: usize) -> Self {
        MemoryTaskStore {
            tasks: Mutex::new(HashMap::new()),
            capacity,
            used: Mutex::new(HashMap::new()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, TaskRecord>> {
        self.tasks.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn use_once_now(&self, token: &str, until: SystemTime) -> io::Result<bool> {
        let now = SystemTime::now();
        let mut used = self.used.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(expires) = used.get(token)
            && *expires >= now
        {
            return Ok(false);
        }
        if used.len() >= USED_CAPACITY {
            used.retain(|_, expires| *expires >= now);
            if used.len() >= USED_CAPACITY {
                return Err(io::Error::other("too many single-use tokens"));
            }
        }
        used.insert(token.to_owned(), until);
        Ok(true)
    }
}

impl Default for MemoryTaskStore {
    fn default() -> Self {
        Self::new()
    }
}

impl MemoryTaskStore {
    fn create_now(&self, record: &TaskRecord) -> io::Result<()> {
        let now = SystemTime::now();
        let mut tasks = self.lock();
        tasks.retain(|_, t| !t.expired(now));
        if tasks.len() >= self.capacity {
            return Err(io::Error::other("too many tasks"));
        }
        tasks.insert(record.id.clone(), record.clone());
        Ok(())
    }

    fn update_now(&self, id: &str, edit: TaskEdit<'_>) -> Option<TaskRecord> {
        let now = SystemTime::now();
        let mut tasks = self.lock();
        let task = tasks.get_mut(id).filter(|t| !t.expired(now))?;
        let mut edited = task.clone();
        if edit(&mut edited) {
            *task = edited.clone();
        }
        Some(edited)
    }
}

// Everything is done at once, under the map's lock: the futures are ready.
impl TaskStore for MemoryTaskStore {
    fn create<'a>(&'a self, record: &'a TaskRecord) -> StoreFuture<'a, ()> {
        Box::pin(std::future::ready(self.create_now(record)))
    }

    fn get<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<TaskRecord>> {
        let now = SystemTime::now();
        let found = self.lock().get(id).filter(|t| !t.expired(now)).cloned();
        Box::pin(std::future::ready(Ok(found)))
    }

    fn update<'a>(
        &'a self,
        id: &'a str,
        edit: TaskEdit<'a>,
    ) -> StoreFuture<'a, Option<TaskRecord>> {
        Box::pin(std::future::ready(Ok(self.update_now(id, edit))))
    }

    fn is_shared(&self) -> bool {
        false
    }

    fn use_once<'a>(&'a self, token: &'a str, until: SystemTime) -> StoreFuture<'a, bool> {
        Box::pin(std::future::ready(self.use_once_now(token, until)))
    }
}
