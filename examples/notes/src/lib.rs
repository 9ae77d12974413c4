//! A notes server over SQLite, generated from `tools/notes.tool` by `build.rs` and
//! implemented here. Every SQLite call runs on tokio's blocking pool; every write is one
//! transaction; a cancelled or failed write rolls back.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use serde_json::json;
use toolidl_runtime::args::{ArgError, Path as ArgPath, Pattern, check};
use toolidl_runtime::{
    LogLevel, RequestContext, RpcError, Server, ToolError, protocol::code, service::Completion,
    service::CompletionRequest,
};

pub mod db;
pub mod demo;

// The generated package `notes`: records, the `NotesTools` trait and `NotesToolsServer`.
toolidl_runtime::include_tools!();

use db::{Db, DbError, NoteChanges, NoteInput, Search};
use notes::{
    CreateNoteArgs, DeleteNoteArgs, GetNoteArgs, ImportNotesArgs, ImportReport, ListTagsArgs, Note,
    NoteArgs, NotePage, NotesTools, NotesToolsArgument, NotesToolsServer, SearchNotesArgs,
    SummarizeTagArgs, UpdateNoteArgs,
};

/// The pattern every tag must match: the one `notes.tool` puts on the `tag` parameters.
/// The language has no constraint on the items of a `set<string>`, so tags inside sets are
/// checked here, with the same error text the generated decoders write.
static TAG: Pattern = Pattern::new("^[a-z0-9_-]+$");
const TAG_MAX_CHARS: usize = 32;

/// The service: a handle on the database.
#[derive(Clone)]
pub struct Notes {
    db: Arc<Db>,
}

impl Notes {
    /// Notes in a private in-memory database.
    pub fn in_memory() -> Result<Notes, DbError> {
        Ok(Notes {
            db: Arc::new(Db::in_memory()?),
        })
    }

    /// Notes in a database file, created when missing.
    pub fn open(path: &Path) -> Result<Notes, DbError> {
        Ok(Notes {
            db: Arc::new(Db::open(path)?),
        })
    }

    /// Runs `f` on the blocking pool with the database.
    async fn blocking<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Db) -> Result<T, DbError> + Send + 'static,
    ) -> Result<T, DbError> {
        let db = Arc::clone(&self.db);
        match tokio::task::spawn_blocking(move || f(&db)).await {
            Ok(result) => result,
            Err(join) => Err(DbError::Corrupt(format!(
                "the database task failed: {join}"
            ))),
        }
    }
}

/// A database error as a tool error: a missing note is the model's to fix, anything else
/// is `The tool failed.` with the details in the log.
fn tool_error(e: DbError) -> ToolError {
    match e {
        DbError::NotFound(_) => ToolError::message(e.to_string()),
        DbError::Cancelled => ToolError::message("The call was cancelled; nothing was written."),
        other => ToolError::internal(other),
    }
}

/// A database error as a JSON-RPC error (resources, prompts, completion).
fn rpc_error(e: DbError) -> RpcError {
    match e {
        DbError::NotFound(_) => RpcError::resource_not_found(e.to_string()),
        other => {
            tracing::error!(error = %other, "database");
            RpcError::internal("Internal error.")
        }
    }
}

/// Checks each tag of a set against [`TAG`] and the length limit; `at` is the set's path.
fn check_tags(tags: &[String], at: &ArgPath<'_>) -> Result<(), ArgError> {
    for (i, tag) in tags.iter().enumerate() {
        let path = at.index(i);
        let chars = tag.chars().count();
        if chars == 0 {
            return Err(ArgError::new(&path, "Expected at least 1 character."));
        }
        if chars > TAG_MAX_CHARS {
            return Err(ArgError::new(&path, "Expected at most 32 characters."));
        }
        check::pattern(tag, &TAG, &path)?;
    }
    Ok(())
}

/// The tags of a new or changed note, checked and sorted.
fn tags_arg(tags: Option<Vec<String>>, at: &ArgPath<'_>) -> Result<Vec<String>, ArgError> {
    let mut tags = tags.unwrap_or_default();
    check_tags(&tags, at)?;
    tags.sort();
    Ok(tags)
}

impl NotesTools for Notes {
    async fn create_note(
        &self,
        _ctx: RequestContext,
        CreateNoteArgs {
            title,
            body,
            tags,
            priority,
            due,
            metadata,
            ..
        }: CreateNoteArgs,
    ) -> Result<Note, ToolError> {
        let input = NoteInput {
            title,
            body,
            tags: tags_arg(tags, &ArgPath::Root.field("tags"))?,
            priority,
            due,
            metadata: metadata.unwrap_or_default(),
        };
        self.blocking(move |db| {
            db.write(|tx| {
                let id = db::insert(tx, &input)?;
                db::get(tx, id)
            })
        })
        .await
        .map_err(tool_error)
    }

    async fn get_note(
        &self,
        _ctx: RequestContext,
        GetNoteArgs { id, .. }: GetNoteArgs,
    ) -> Result<Note, ToolError> {
        self.blocking(move |db| db.read(|c| db::get(c, id)))
            .await
            .map_err(tool_error)
    }

    async fn update_note(
        &self,
        _ctx: RequestContext,
        UpdateNoteArgs {
            id,
            title,
            body,
            tags,
            priority,
            due,
            clear_due,
            metadata,
            ..
        }: UpdateNoteArgs,
    ) -> Result<Note, ToolError> {
        if clear_due && due.is_some() {
            return Err(ArgError::new(
                &ArgPath::Root.field("clear_due"),
                "Give either due or clear_due, not both.",
            )
            .into());
        }
        let tags = match tags {
            Some(t) => Some(tags_arg(Some(t), &ArgPath::Root.field("tags"))?),
            None => None,
        };
        let changes = NoteChanges {
            title,
            body,
            tags,
            priority,
            due: if clear_due { Some(None) } else { due.map(Some) },
            metadata,
        };
        self.blocking(move |db| {
            db.write(|tx| {
                db::update(tx, id, &changes)?;
                db::get(tx, id)
            })
        })
        .await
        .map_err(tool_error)
    }

    async fn delete_note(
        &self,
        _ctx: RequestContext,
        DeleteNoteArgs { id, .. }: DeleteNoteArgs,
    ) -> Result<Note, ToolError> {
        self.blocking(move |db| {
            db.write(|tx| {
                let note = db::get(tx, id)?;
                db::delete(tx, id)?;
                Ok(note)
            })
        })
        .await
        .map_err(tool_error)
    }

    async fn search_notes(
        &self,
        _ctx: RequestContext,
        SearchNotesArgs {
            query,
            tag,
            priority,
            limit,
            cursor,
            ..
        }: SearchNotesArgs,
    ) -> Result<NotePage, ToolError> {
        let before = match cursor.as_deref() {
            None => None,
            Some(c) => Some(parse_cursor(c).ok_or_else(|| {
                ArgError::new(
                    &ArgPath::Root.field("cursor"),
                    "Expected the nextCursor of an earlier page.",
                )
            })?),
        };
        let search = Search {
            query,
            tag,
            priority,
            limit,
            before,
        };
        let (notes, more) = self
            .blocking(move |db| db.read(|c| db::search(c, &search)))
            .await
            .map_err(tool_error)?;
        let next_cursor = match notes.last() {
            Some(last) if more => Some(format!("before:{}", last.id)),
            _ => None,
        };
        Ok(NotePage { notes, next_cursor })
    }

    async fn list_tags(
        &self,
        _ctx: RequestContext,
        _: ListTagsArgs,
    ) -> Result<BTreeMap<String, u64>, ToolError> {
        self.blocking(|db| db.read(db::tag_counts))
            .await
            .map_err(tool_error)
    }

    async fn import_notes(
        &self,
        ctx: RequestContext,
        ImportNotesArgs {
            notes, batch_size, ..
        }: ImportNotesArgs,
    ) -> Result<ImportReport, ToolError> {
        // Check everything first: a bad note refuses the import before anything is written.
        let mut inputs = Vec::with_capacity(notes.len());
        let list = ArgPath::Root.field("notes");
        for (i, note) in notes.into_iter().enumerate() {
            let item = list.index(i);
            inputs.push(NoteInput {
                title: note.title,
                body: note.body,
                tags: tags_arg(note.tags, &item.field("tags"))?,
                priority: note.priority,
                due: note.due,
                metadata: note.metadata.unwrap_or_default(),
            });
        }
        let batch = batch_size.max(1) as usize;
        // The blocking task owns a clone of the context: it reports progress, logs, and
        // stops (rolling back) once the client cancels, even though the runtime has dropped
        // this future by then.
        let report = self
            .blocking(move |db| db.write(|tx| import(tx, &ctx, &inputs, batch)))
            .await
            .map_err(tool_error)?;
        Ok(report)
    }

    async fn note(
        &self,
        _ctx: RequestContext,
        NoteArgs { id, .. }: NoteArgs,
    ) -> Result<String, RpcError> {
        let note = self
            .blocking(move |db| db.read(|c| db::get(c, id)))
            .await
            .map_err(rpc_error)?;
        Ok(note_markdown(&note))
    }

    async fn index(&self, _ctx: RequestContext) -> Result<String, RpcError> {
        let search = Search {
            query: String::new(),
            tag: None,
            priority: None,
            limit: 50,
            before: None,
        };
        let (notes, more) = self
            .blocking(move |db| db.read(|c| db::search(c, &search)))
            .await
            .map_err(rpc_error)?;
        let mut out = String::from("# Notes\n\n");
        if notes.is_empty() {
            out.push_str("No notes yet.\n");
        }
        for n in &notes {
            out.push_str(&format!(
                "- [{}](notes://{}) ({}{})\n",
                markdown_link_text(&n.title),
                n.id,
                n.priority,
                tag_suffix(&n.tags)
            ));
        }
        if more {
            out.push_str("\nOlder notes: use the search_notes tool.\n");
        }
        Ok(out)
    }

    async fn summarize_tag(
        &self,
        _ctx: RequestContext,
        SummarizeTagArgs { tag, max_notes, .. }: SummarizeTagArgs,
    ) -> Result<String, RpcError> {
        let search = Search {
            query: String::new(),
            tag: Some(tag.clone()),
            priority: None,
            limit: u32::from(max_notes),
            before: None,
        };
        let (notes, _) = self
            .blocking(move |db| db.read(|c| db::search(c, &search)))
            .await
            .map_err(rpc_error)?;
        if notes.is_empty() {
            return Err(RpcError::new(
                code::INVALID_PARAMS,
                format!("No note has the tag '{tag}'."),
            ));
        }
        let mut out = format!(
            "Summarize these {} notes tagged '{tag}' in a few bullet points: what they are about, what is due and what is urgent.\n",
            notes.len()
        );
        for n in &notes {
            out.push_str("\n---\n");
            out.push_str(&note_markdown(n));
        }
        Ok(out)
    }

    async fn complete(
        &self,
        _ctx: RequestContext,
        argument: NotesToolsArgument,
        request: CompletionRequest,
    ) -> Result<Completion, RpcError> {
        const MAX: usize = 100;
        let typed = request.argument_value;
        match argument {
            NotesToolsArgument::SummarizeTagTag => {
                let (values, total) = self
                    .blocking(move |db| db.read(|c| db::tags_starting_with(c, &typed, MAX)))
                    .await
                    .map_err(rpc_error)?;
                Ok(Completion {
                    has_more: total > values.len() as u64,
                    values,
                    total: Some(total),
                })
            }
            NotesToolsArgument::NoteId if typed.bytes().all(|b| b.is_ascii_digit()) => {
                let (values, has_more) = self
                    .blocking(move |db| db.read(|c| db::ids_starting_with(c, &typed, MAX)))
                    .await
                    .map_err(rpc_error)?;
                Ok(Completion {
                    values,
                    total: None,
                    has_more,
                })
            }
            // Not an id, or `max_notes`: what the generated default suggests (nothing).
            other => Ok(Completion::members(other.members(), &typed)),
        }
    }
}

/// Writes `inputs` in batches inside the caller's transaction; stops with
/// [`DbError::Cancelled`] (so the transaction rolls back) once `ctx` is cancelled.
fn import(
    tx: &rusqlite::Connection,
    ctx: &RequestContext,
    inputs: &[NoteInput],
    batch: usize,
) -> Result<ImportReport, DbError> {
    let total = inputs.len();
    let (mut first_id, mut last_id, mut batches) = (None, None, 0u32);
    for (b, chunk) in inputs.chunks(batch).enumerate() {
        for (i, input) in chunk.iter().enumerate() {
            // Checked within a batch too, so a large batch stops soon after a cancel.
            if i % 256 == 0 && ctx.is_cancelled() {
                tracing::info!("import cancelled: rolling back");
                return Err(DbError::Cancelled);
            }
            let id = db::insert(tx, input)?;
            first_id.get_or_insert(id);
            last_id = Some(id);
        }
        batches += 1;
        let done = (b * batch + chunk.len()).min(total);
        ctx.progress(
            done as f64,
            Some(total as f64),
            Some(&format!("{done} of {total} notes written")),
        );
        ctx.log(
            LogLevel::Info,
            Some("notes.import"),
            json!({"batch": batches, "written": done, "total": total}),
        );
    }
    if ctx.is_cancelled() {
        return Err(DbError::Cancelled);
    }
    ctx.log(
        LogLevel::Notice,
        Some("notes.import"),
        json!({"committing": total}),
    );
    Ok(ImportReport {
        imported: total as u64,
        batches,
        first_id,
        last_id,
    })
}

/// A cursor is `before:<id>`, the last id of the previous page.
fn parse_cursor(cursor: &str) -> Option<i64> {
    cursor
        .strip_prefix("before:")?
        .parse::<i64>()
        .ok()
        .filter(|id| *id > 0)
}

fn tag_suffix(tags: &[String]) -> String {
    tags.iter().map(|t| format!(", #{t}")).collect()
}

/// A title for inside `[…]`: brackets and backslashes escaped, line breaks as spaces.
fn markdown_link_text(title: &str) -> String {
    let mut out = String::with_capacity(title.len());
    for c in title.chars() {
        match c {
            '[' | ']' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}

/// A note as Markdown: its title, a line of facts, its metadata and its body.
pub fn note_markdown(n: &Note) -> String {
    let mut out = format!("# {}\n\n", n.title.replace(['\n', '\r'], " "));
    out.push_str(&format!("- id: {}\n- priority: {}\n", n.id, n.priority));
    if !n.tags.is_empty() {
        out.push_str(&format!("- tags: {}\n", n.tags.join(", ")));
    }
    if let Some(due) = &n.due {
        out.push_str(&format!("- due: {due}\n"));
    }
    for (k, v) in &n.metadata {
        out.push_str(&format!("- {k}: {v}\n"));
    }
    out.push_str(&format!(
        "- created: {}\n- updated: {}\n\n{}\n",
        n.created_at, n.updated_at, n.body
    ));
    out
}

/// The longest accepted stdio line: a 1 MiB body of characters that JSON escapes
/// (`\u0000` is six bytes) still fits, and so does an import of many notes.
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024 * 1024;

/// The server around `notes`.
pub fn server(notes: Notes) -> Server {
    server_with(notes, |builder| builder)
}

/// The same, with `shared` adding what instances behind a load balancer share
/// ([`ServerBuilder::redis`](toolidl_runtime::ServerBuilder::redis)).
pub fn server_with(
    notes: Notes,
    shared: impl FnOnce(toolidl_runtime::ServerBuilder) -> toolidl_runtime::ServerBuilder,
) -> Server {
    shared(Server::builder("notes-example", env!("CARGO_PKG_VERSION")))
        .title("Notes")
        .instructions(
            "Notes kept in SQLite. Search with search_notes (pass nextCursor back as cursor \
             for more); read one note with get_note or the resource notes://{id}.",
        )
        .service(NotesToolsServer::new(notes))
        .build()
}

/// Sends `tracing` output to stderr (stdout carries only protocol messages), filtered by
/// `RUST_LOG` (default `warn`). With feature `otel` (on by default) and an OTLP endpoint in
/// the environment (`OTEL_EXPORTER_OTLP_ENDPOINT`, or a signal's own), also exports the
/// server's spans and metrics over OTLP/HTTP (`docs/telemetry.md`). Keep what it returns
/// until the server has stopped: dropping it flushes and stops the export.
#[must_use = "dropping it stops the OpenTelemetry export"]
pub fn init_logging() -> Logging {
    use tracing_subscriber::Layer;
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    let filter =
        tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into());
    let logs = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_filter(filter);
    let registry = tracing_subscriber::registry().with(logs);
    #[cfg(feature = "otel")]
    {
        let otlp =
            toolidl_runtime::telemetry::Otlp::from_env("notes-example").unwrap_or_else(|e| {
                eprintln!("notes-example: {e}");
                None
            });
        // The request spans are at INFO, whatever RUST_LOG lets through to stderr. Without
        // an exporter no layer is added: the spans are not even made.
        let _ = match &otlp {
            Some(o) => registry
                .with(
                    o.layer()
                        .with_filter(tracing_subscriber::filter::LevelFilter::INFO),
                )
                .try_init(),
            None => registry.try_init(),
        };
        Logging { _otlp: otlp }
    }
    #[cfg(not(feature = "otel"))]
    {
        let _ = registry.try_init();
        Logging {}
    }
}

/// What [`init_logging`] set up: the OTLP exporter, flushed when this is dropped.
pub struct Logging {
    #[cfg(feature = "otel")]
    _otlp: Option<toolidl_runtime::telemetry::Otlp>,
}
