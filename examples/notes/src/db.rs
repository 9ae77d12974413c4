//! The SQLite store: one writer connection behind a mutex (every write is one transaction),
//! plus a reader connection for a file database in WAL mode, so reads go on while a long
//! import writes. Every statement is a constant; values are bound parameters only.
//!
//! All of it is blocking: callers run it on `tokio::task::spawn_blocking`.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Mutex, MutexGuard};

use rusqlite::{Connection, OpenFlags, OptionalExtension, Row, Transaction, params};

use crate::notes::{Note, Priority};

/// Why a database call did not produce its value.
#[derive(Debug)]
pub enum DbError {
    /// No note has this id.
    NotFound(i64),
    /// The caller's cancellation flag was set: the transaction was rolled back.
    Cancelled,
    /// SQLite failed, or a stored value could not be read back.
    Sqlite(rusqlite::Error),
    /// A stored value that this program did not write (a bad priority or metadata).
    Corrupt(String),
}

impl std::fmt::Display for DbError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DbError::NotFound(id) => write!(f, "No note with id {id}."),
            DbError::Cancelled => f.write_str("cancelled"),
            DbError::Sqlite(e) => write!(f, "SQLite: {e}"),
            DbError::Corrupt(what) => write!(f, "a stored value is not valid: {what}"),
        }
    }
}

impl std::error::Error for DbError {}

impl From<rusqlite::Error> for DbError {
    fn from(e: rusqlite::Error) -> Self {
        DbError::Sqlite(e)
    }
}

/// The schema. `AUTOINCREMENT` so a deleted note's id is never given to another one
/// (links such as `notes://7` and paging cursors stay meaningful).
const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS notes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    title TEXT NOT NULL,
    body TEXT NOT NULL,
    priority TEXT NOT NULL,
    due TEXT,
    metadata TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS note_tags (
    note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
    tag TEXT NOT NULL,
    PRIMARY KEY (note_id, tag)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS note_tags_by_tag ON note_tags(tag, note_id);
";

/// The current time as RFC 3339 UTC with milliseconds, computed by SQLite.
const NOW: &str = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/// The columns of a note, in the order [`read_note`] reads them. Tags come as one
/// space-separated text: a tag cannot hold a space (its pattern is `^[a-z0-9_-]+$`).
const NOTE_COLUMNS: &str = "id, title, body, priority, due, metadata, created_at, updated_at,
    (SELECT group_concat(tag, ' ') FROM note_tags WHERE note_id = notes.id)";

/// A note's fields as a write gives them.
#[derive(Debug, Clone)]
pub struct NoteInput {
    pub title: String,
    pub body: String,
    pub tags: Vec<String>,
    pub priority: Priority,
    pub due: Option<String>,
    pub metadata: BTreeMap<String, String>,
}

/// What `update` changes; `None` keeps the stored value.
#[derive(Debug, Clone, Default)]
pub struct NoteChanges {
    pub title: Option<String>,
    pub body: Option<String>,
    pub tags: Option<Vec<String>>,
    pub priority: Option<Priority>,
    /// `Some(None)` clears the due date.
    pub due: Option<Option<String>>,
    pub metadata: Option<BTreeMap<String, String>>,
}

/// A search's filters and page.
#[derive(Debug, Clone)]
pub struct Search {
    pub query: String,
    pub tag: Option<String>,
    pub priority: Option<Priority>,
    pub limit: u32,
    /// Only notes with a smaller id (the previous page's last id).
    pub before: Option<i64>,
}

/// The store.
pub struct Db {
    writer: Mutex<Connection>,
    /// For a file database: a second connection for reads (WAL lets it read while the
    /// writer writes). In memory, reads use the writer.
    reader: Option<Mutex<Connection>>,
}

/// Locks a connection; a poisoned lock is still usable: a panic mid-transaction dropped
/// the transaction, which rolled it back.
fn lock(m: &Mutex<Connection>) -> MutexGuard<'_, Connection> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn configure(conn: &Connection) -> rusqlite::Result<()> {
    conn.pragma_update(None, "foreign_keys", true)?;
    conn.busy_timeout(std::time::Duration::from_secs(10))?;
    Ok(())
}

impl Db {
    /// A private in-memory database: one connection, so every call sees the same data.
    pub fn in_memory() -> Result<Db, DbError> {
        let conn = Connection::open_in_memory()?;
        configure(&conn)?;
        conn.execute_batch(SCHEMA)?;
        Ok(Db {
            writer: Mutex::new(conn),
            reader: None,
        })
    }

    /// A database file (created when missing), in WAL mode with full synchronous commits:
    /// a committed write survives a crash of the process or of the machine.
    pub fn open(path: &Path) -> Result<Db, DbError> {
        let writer = Connection::open(path)?;
        configure(&writer)?;
        let mode: String =
            writer.pragma_update_and_check(None, "journal_mode", "wal", |r| r.get(0))?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(DbError::Corrupt(format!("journal_mode is {mode}, not wal")));
        }
        writer.pragma_update(None, "synchronous", "FULL")?;
        writer.execute_batch(SCHEMA)?;
        let reader = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        configure(&reader)?;
        Ok(Db {
            writer: Mutex::new(writer),
            reader: Some(Mutex::new(reader)),
        })
    }

    /// Runs `f` in one write transaction: committed when it returns `Ok`, rolled back
    /// otherwise (and when it panics).
    pub fn write<T>(
        &self,
        f: impl FnOnce(&Transaction<'_>) -> Result<T, DbError>,
    ) -> Result<T, DbError> {
        let mut conn = lock(&self.writer);
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let value = f(&tx)?;
        tx.commit()?;
        Ok(value)
    }

    /// Runs `f` on a consistent snapshot (one read transaction).
    pub fn read<T>(&self, f: impl FnOnce(&Connection) -> Result<T, DbError>) -> Result<T, DbError> {
        let mut conn = lock(self.reader.as_ref().unwrap_or(&self.writer));
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Deferred)?;
        let value = f(&tx)?;
        tx.finish()?;
        Ok(value)
    }
}

/// Inserts a note and returns its id.
pub fn insert(tx: &Connection, note: &NoteInput) -> Result<i64, DbError> {
    let metadata = metadata_json(&note.metadata)?;
    let mut insert = tx.prepare_cached(&format!(
        "INSERT INTO notes (title, body, priority, due, metadata, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, {NOW}, {NOW})"
    ))?;
    insert.execute(params![
        note.title,
        note.body,
        note.priority.as_str(),
        note.due,
        metadata
    ])?;
    let id = tx.last_insert_rowid();
    set_tags(tx, id, &note.tags)?;
    Ok(id)
}

fn set_tags(tx: &Connection, id: i64, tags: &[String]) -> Result<(), DbError> {
    tx.prepare_cached("DELETE FROM note_tags WHERE note_id = ?1")?
        .execute([id])?;
    let mut insert = tx.prepare_cached("INSERT INTO note_tags (note_id, tag) VALUES (?1, ?2)")?;
    for tag in tags {
        insert.execute(params![id, tag])?;
    }
    Ok(())
}

fn metadata_json(metadata: &BTreeMap<String, String>) -> Result<String, DbError> {
    serde_json::to_string(metadata).map_err(|e| DbError::Corrupt(e.to_string()))
}

/// Changes a note; `NotFound` when there is none.
pub fn update(tx: &Connection, id: i64, changes: &NoteChanges) -> Result<(), DbError> {
    let metadata = changes.metadata.as_ref().map(metadata_json).transpose()?;
    // Each column keeps its value when its parameter is NULL; `due` has its own flag,
    // as NULL is also the value that clears it.
    let changed = tx
        .prepare_cached(&format!(
            "UPDATE notes SET
                title = coalesce(?2, title),
                body = coalesce(?3, body),
                priority = coalesce(?4, priority),
                due = CASE WHEN ?5 THEN ?6 ELSE due END,
                metadata = coalesce(?7, metadata),
                updated_at = {NOW}
             WHERE id = ?1"
        ))?
        .execute(params![
            id,
            changes.title,
            changes.body,
            changes.priority.map(Priority::as_str),
            changes.due.is_some(),
            changes.due.clone().flatten(),
            metadata,
        ])?;
    if changed == 0 {
        return Err(DbError::NotFound(id));
    }
    if let Some(tags) = &changes.tags {
        set_tags(tx, id, tags)?;
    }
    Ok(())
}

/// Deletes a note (its tags go with it).
pub fn delete(tx: &Connection, id: i64) -> Result<(), DbError> {
    let n = tx
        .prepare_cached("DELETE FROM notes WHERE id = ?1")?
        .execute([id])?;
    if n == 0 {
        return Err(DbError::NotFound(id));
    }
    Ok(())
}

/// One note.
pub fn get(conn: &Connection, id: i64) -> Result<Note, DbError> {
    conn.prepare_cached(&format!("SELECT {NOTE_COLUMNS} FROM notes WHERE id = ?1"))?
        .query_row([id], read_row)
        .optional()?
        .ok_or(DbError::NotFound(id))?
}

/// A page of notes, newest (highest id) first; the flag says whether more follow.
pub fn search(conn: &Connection, s: &Search) -> Result<(Vec<Note>, bool), DbError> {
    // One constant statement: each filter is off when its parameter is NULL.
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {NOTE_COLUMNS} FROM notes
         WHERE (?1 = '' OR title LIKE ?2 ESCAPE '\\' OR body LIKE ?2 ESCAPE '\\')
           AND (?3 IS NULL OR EXISTS (SELECT 1 FROM note_tags t WHERE t.note_id = notes.id AND t.tag = ?3))
           AND (?4 IS NULL OR priority = ?4)
           AND (?5 IS NULL OR id < ?5)
         ORDER BY id DESC
         LIMIT ?6"
    ))?;
    let like = format!("%{}%", escape_like(&s.query));
    let rows = stmt.query_map(
        params![
            s.query,
            like,
            s.tag,
            s.priority.map(Priority::as_str),
            s.before,
            i64::from(s.limit) + 1
        ],
        read_row,
    )?;
    let mut notes = Vec::new();
    for row in rows {
        notes.push(row??);
    }
    let more = notes.len() > s.limit as usize;
    notes.truncate(s.limit as usize);
    Ok((notes, more))
}

/// `%`, `_` and `\` taken literally in a `LIKE … ESCAPE '\'` pattern.
fn escape_like(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Every tag with its number of notes.
pub fn tag_counts(conn: &Connection) -> Result<BTreeMap<String, u64>, DbError> {
    let mut stmt = conn.prepare_cached("SELECT tag, count(*) FROM note_tags GROUP BY tag")?;
    let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))?;
    let mut out = BTreeMap::new();
    for row in rows {
        let (tag, n) = row?;
        out.insert(tag, u64::try_from(n).unwrap_or(0));
    }
    Ok(out)
}

/// The tags that start with `prefix`, in order: at most `limit`, and the number of matches.
pub fn tags_starting_with(
    conn: &Connection,
    prefix: &str,
    limit: usize,
) -> Result<(Vec<String>, u64), DbError> {
    // The index is ordered by tag: start at `prefix`, stop at the first tag without it.
    let mut stmt =
        conn.prepare_cached("SELECT DISTINCT tag FROM note_tags WHERE tag >= ?1 ORDER BY tag")?;
    let mut rows = stmt.query([prefix])?;
    let (mut values, mut total) = (Vec::new(), 0u64);
    while let Some(row) = rows.next()? {
        let tag: String = row.get(0)?;
        if !tag.starts_with(prefix) {
            break;
        }
        if values.len() < limit {
            values.push(tag);
        }
        total += 1;
    }
    Ok((values, total))
}

/// The ids whose decimal text starts with `prefix`, newest first: at most `limit`, and
/// whether there are more.
pub fn ids_starting_with(
    conn: &Connection,
    prefix: &str,
    limit: usize,
) -> Result<(Vec<String>, bool), DbError> {
    let mut stmt = conn.prepare_cached(
        "SELECT id FROM notes WHERE substr(CAST(id AS TEXT), 1, length(?1)) = ?1
         ORDER BY id DESC LIMIT ?2",
    )?;
    let rows = stmt.query_map(params![prefix, limit as i64 + 1], |r| r.get::<_, i64>(0))?;
    let mut ids = Vec::new();
    for id in rows {
        ids.push(id?.to_string());
    }
    let more = ids.len() > limit;
    ids.truncate(limit);
    Ok((ids, more))
}

/// How many notes there are.
pub fn count(conn: &Connection) -> Result<u64, DbError> {
    let n: i64 = conn.query_row("SELECT count(*) FROM notes", [], |r| r.get(0))?;
    Ok(u64::try_from(n).unwrap_or(0))
}

/// Reads one row of [`NOTE_COLUMNS`]; the outer `Result` is SQLite's, the inner one says
/// whether the stored values are ones this program writes.
fn read_row(r: &Row<'_>) -> rusqlite::Result<Result<Note, DbError>> {
    let priority: String = r.get(3)?;
    let metadata: String = r.get(5)?;
    let tags: Option<String> = r.get(8)?;
    let Some(priority) = Priority::ALL.into_iter().find(|p| p.as_str() == priority) else {
        return Ok(Err(DbError::Corrupt(format!("priority {priority:?}"))));
    };
    let metadata: BTreeMap<String, String> = match serde_json::from_str(&metadata) {
        Ok(m) => m,
        Err(e) => return Ok(Err(DbError::Corrupt(format!("metadata: {e}")))),
    };
    let mut tags: Vec<String> = tags
        .map(|t| t.split(' ').map(str::to_owned).collect())
        .unwrap_or_default();
    tags.sort();
    Ok(Ok(Note {
        id: r.get(0)?,
        title: r.get(1)?,
        body: r.get(2)?,
        tags,
        priority,
        due: r.get(4)?,
        metadata,
        created_at: r.get(6)?,
        updated_at: r.get(7)?,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(title: &str, tags: &[&str]) -> NoteInput {
        NoteInput {
            title: title.into(),
            body: String::new(),
            tags: tags.iter().map(|t| (*t).to_owned()).collect(),
            priority: Priority::Normal,
            due: None,
            metadata: BTreeMap::new(),
        }
    }

    #[test]
    fn a_failed_write_changes_nothing() -> Result<(), DbError> {
        let db = Db::in_memory()?;
        db.write(|tx| insert(tx, &input("kept", &["a"])))?;
        let failed = db.write(|tx| {
            insert(tx, &input("lost", &["b"]))?;
            Err::<(), _>(DbError::Cancelled)
        });
        assert!(matches!(failed, Err(DbError::Cancelled)));
        db.read(|c| {
            assert_eq!(count(c)?, 1);
            assert_eq!(tag_counts(c)?, BTreeMap::from([("a".to_owned(), 1)]));
            Ok(())
        })
    }

    #[test]
    fn like_wildcards_are_literal() -> Result<(), DbError> {
        let db = Db::in_memory()?;
        db.write(|tx| {
            insert(tx, &input("100% sure", &[]))?;
            insert(tx, &input("100 sure", &[]))?;
            insert(tx, &input("a_b", &[]))?;
            insert(tx, &input("axb", &[]))
        })?;
        let titles = |query: &str| {
            let s = Search {
                query: query.into(),
                tag: None,
                priority: None,
                limit: 10,
                before: None,
            };
            db.read(|c| search(c, &s))
                .map(|(n, _)| n.into_iter().map(|n| n.title).collect::<Vec<_>>())
        };
        assert_eq!(titles("0%")?, ["100% sure"]);
        assert_eq!(titles("a_")?, ["a_b"]);
        Ok(())
    }
}
