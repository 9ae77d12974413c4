//! Tasks kept in a directory, one JSON file each, shared by the processes that open it.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::SystemTime;

use super::{StoreFuture, TaskEdit, TaskRecord, TaskStore, plain_id};

/// Expired files are swept on every this many creations of a task or single-use record (by
/// the process that creates).
const SWEEP_EVERY: u64 = 64;

/// Tasks in a directory: `<id>.json` per task, written whole to a temporary file and renamed
/// into place, so a reader never sees half a record. Updates of every process take an
/// exclusive lock on `<dir>/.lock` (an OS advisory file lock), so concurrent
/// `tasks/update` and `tasks/cancel` through different instances do not lose each other's
/// changes.
///
/// A single-use token ([`TaskStore::use_once`]) is a file `<token>.once` holding its expiry,
/// created exclusively (`O_EXCL`), so that of two processes recording the same token only one
/// succeeds; it is swept with the expired tasks once it has expired.
///
/// For instances on one machine (a local directory) or on several that mount one file
/// system whose locks work across machines. A record outlives the process that wrote it:
/// a restarted instance still answers `tasks/get` for it (a handler that was running in a
/// process that died leaves its task `working` until it expires).
#[derive(Debug)]
pub struct DirTaskStore {
    dir: PathBuf,
    creates: AtomicU64,
}

impl DirTaskStore {
    /// Opens (creating it if needed) the store in `dir`.
    pub fn open(dir: impl Into<PathBuf>) -> io::Result<Self> {
        let dir = dir.into();
        fs::create_dir_all(&dir)?;
        Ok(DirTaskStore {
            dir,
            creates: AtomicU64::new(0),
        })
    }

    /// The store's directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file of task `id`; `None` for an id the runtime cannot have made (only lowercase
    /// hex), so a client's `taskId` can never name another path.
    fn file(&self, id: &str) -> Option<PathBuf> {
        plain_id(id).then(|| self.dir.join(format!("{id}.json")))
    }

    fn locked(&self) -> io::Result<File> {
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(self.dir.join(".lock"))?;
        lock.lock()?;
        Ok(lock)
    }

    /// The file recording the single-use token `token`; `None` for one the runtime cannot
    /// have made.
    fn once_file(&self, token: &str) -> Option<PathBuf> {
        plain_id(token).then(|| self.dir.join(format!("{token}.once")))
    }

    /// Sweeps (under the lock) on every [`SWEEP_EVERY`]th creation.
    fn maybe_sweep(&self) -> io::Result<()> {
        if self.creates.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY == SWEEP_EVERY - 1 {
            let _lock = self.locked()?;
            if let Err(e) = self.sweep() {
                tracing::warn!(error = %e, dir = %self.dir.display(), "sweeping expired tasks failed");
            }
        }
        Ok(())
    }

    fn write(&self, path: &Path, record: &TaskRecord) -> io::Result<()> {
        let json = serde_json::to_vec(record).map_err(io::Error::other)?;
        let mut tmp = tempfile_in(&self.dir, &record.id)?;
        tmp.1.write_all(&json)?;
        drop(tmp.1);
        fs::rename(&tmp.0, path).inspect_err(|_| {
            let _ = fs::remove_file(&tmp.0);
        })
    }

    fn read(path: &Path) -> io::Result<Option<TaskRecord>> {
        let bytes = match fs::read(path) {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e),
        };
        let record: TaskRecord = serde_json::from_slice(&bytes)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
        Ok((!record.expired(SystemTime::now())).then_some(record))
    }

    /// Removes the files of expired tasks and single-use tokens (and leftovers of interrupted
    /// writes).
    fn sweep(&self) -> io::Result<()> {
        let now = SystemTime::now();
        for entry in fs::read_dir(&self.dir)? {
            let path = entry?.path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name.ends_with(".once") {
                let until = fs::read_to_string(&path)
                    .ok()
                    .and_then(|t| t.trim().parse::<u64>().ok());
                let stale = match until {
                    Some(ms) => super::from_ms(ms) < now,
                    // Created but never written (its process died): gone after a minute.
                    None => entry_age(&path).is_some_and(|age| age.as_secs() > 60),
                };
                if stale {
                    let _ = fs::remove_file(&path);
                }
            } else if name.ends_with(".json") && !name.starts_with('.') {
                let stale = match fs::read(&path) {
                    Ok(bytes) => serde_json::from_slice::<TaskRecord>(&bytes)
                        .map_or(true, |r| r.expired(now)),
                    Err(_) => false,
                };
                if stale {
                    let _ = fs::remove_file(&path);
                }
            } else if name.ends_with(".tmp") {
                let old = entry_age(&path).is_some_and(|age| age.as_secs() > 60);
                if old {
                    let _ = fs::remove_file(&path);
                }
            }
        }
        Ok(())
    }
}

fn entry_age(path: &Path) -> Option<std::time::Duration> {
    let modified = fs::metadata(path).ok()?.modified().ok()?;
    SystemTime::now().duration_since(modified).ok()
}

/// A new file `.<id>.<pid>.<n>.tmp` in `dir`, created exclusively.
fn tempfile_in(dir: &Path, id: &str) -> io::Result<(PathBuf, File)> {
    static N: AtomicU64 = AtomicU64::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let path = dir.join(format!(".{id}.{}.{n}.tmp", std::process::id()));
    let file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)?;
    Ok((path, file))
}

impl DirTaskStore {
    fn create_now(&self, record: &TaskRecord) -> io::Result<()> {
        let path = self
            .file(&record.id)
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a task id"))?;
        self.maybe_sweep()?;
        self.write(&path, record)
    }

    fn use_once_now(&self, token: &str, until: SystemTime) -> io::Result<bool> {
        let path = self
            .once_file(token)
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a token"))?;
        self.maybe_sweep()?;
        match OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(mut file) => {
                file.write_all(super::to_ms(until).to_string().as_bytes())?;
                Ok(true)
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(false),
            Err(e) => Err(e),
        }
    }

    fn get_now(&self, id: &str) -> io::Result<Option<TaskRecord>> {
        match self.file(id) {
            Some(path) => Self::read(&path),
            None => Ok(None),
        }
    }

    fn update_now(&self, id: &str, edit: TaskEdit<'_>) -> io::Result<Option<TaskRecord>> {
        let Some(path) = self.file(id) else {
            return Ok(None);
        };
        let _lock = self.locked()?;
        let Some(mut record) = Self::read(&path)? else {
            return Ok(None);
        };
        if edit(&mut record) {
            self.write(&path, &record)?;
        }
        Ok(Some(record))
    }
}

// A local file system answers in microseconds (the lock is held for one read and one
// rename): the work is done at once and the futures are ready.
impl TaskStore for DirTaskStore {
    fn create<'a>(&'a self, record: &'a TaskRecord) -> StoreFuture<'a, ()> {
        Box::pin(std::future::ready(self.create_now(record)))
    }

    fn get<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<TaskRecord>> {
        Box::pin(std::future::ready(self.get_now(id)))
    }

    fn update<'a>(
        &'a self,
        id: &'a str,
        edit: TaskEdit<'a>,
    ) -> StoreFuture<'a, Option<TaskRecord>> {
        Box::pin(std::future::ready(self.update_now(id, edit)))
    }

    fn use_once<'a>(&'a self, token: &'a str, until: SystemTime) -> StoreFuture<'a, bool> {
        Box::pin(std::future::ready(self.use_once_now(token, until)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::tasks::suite::record;

    #[test]
    fn ids_never_name_another_path() {
        let dir = tempfile::tempdir().unwrap();
        let store = DirTaskStore::open(dir.path()).unwrap();
        for id in ["", "../x", "a/b", ".lock", "ABC", "a.json", &"a".repeat(65)] {
            assert!(store.file(id).is_none(), "{id}");
            assert!(store.get_now(id).unwrap().is_none());
            assert!(store.create_now(&record(id, 1000)).is_err());
        }
        assert!(store.file("0123456789abcdef").is_some());
    }

    #[test]
    fn expired_files_are_swept() {
        let dir = tempfile::tempdir().unwrap();
        let store = DirTaskStore::open(dir.path()).unwrap();
        store.create_now(&record("aa", 60_000)).unwrap();
        store.create_now(&record("bb", 0)).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(5));
        store.sweep().unwrap();
        assert!(!dir.path().join("bb.json").exists());
        assert!(dir.path().join("aa.json").exists());
    }
}
