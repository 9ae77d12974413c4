// A notes server over SQLite: see examples/notes/README.md.
package notes;

/// How urgent a note is.
enum Priority { low, normal, high, urgent }

/// A stored note.
@rename_all("camelCase")
record Note {
    /// The note's id, assigned by the server (at most 2^53 - 1, exact in JavaScript).
    @range(1, 9007199254740991) id: i64,
    title: string,
    /// The text (Markdown).
    body: string,
    /// Tags, sorted.
    tags: set<string>,
    priority: Priority,
    /// When the note is due, if ever.
    due: date?,
    /// Free-form key/value pairs.
    metadata: map<string, string>,
    /// When the note was created (UTC).
    created_at: datetime,
    /// When the note was last changed (UTC).
    updated_at: datetime,
}

/// One page of search results, newest first.
@rename_all("camelCase")
record NotePage {
    notes: list<Note>,
    /// Pass as `cursor` to get the next page; null on the last page.
    next_cursor: string?,
}

/// A note to import.
record NewNote {
    @length(1, 200) title: string,
    @length(max: 1048576) body: string = "",
    /// Each tag: lowercase letters, digits, `-` and `_`, 1 to 32 characters.
    @length(max: 20) tags: set<string>? = null,
    priority: Priority = normal,
    due: date? = null,
    metadata: map<string, string>? = null,
}

/// What an import did.
@rename_all("camelCase")
record ImportReport {
    /// How many notes were added.
    imported: u64,
    /// How many batches were written (all in one transaction).
    batches: u32,
    /// The id of the first note added, if any.
    first_id: i64?,
    /// The id of the last note added, if any.
    last_id: i64?,
}

/// Notes kept in SQLite: create, read, update, delete, search, import.
/// Served with authorization (`--auth-issuer`), reading needs the scope `notes:read`
/// and writing `notes:write`.
@scopes("notes:read")
service NotesTools {
    /// Creates a note and returns it with its id and timestamps.
    @title("Create a note") @destructive(false) @scopes("notes:write")
    tool create_note(
        /// A short title, 1 to 200 characters.
        @length(1, 200) title: string,
        /// The text (Markdown), up to 1 MiB of characters.
        @length(max: 1048576) body: string = "",
        /// Tags: lowercase letters, digits, `-` and `_`, 1 to 32 characters each.
        @length(max: 20) tags: set<string>? = null,
        priority: Priority = normal,
        /// When the note is due.
        due: date? = null,
        /// Free-form key/value pairs.
        metadata: map<string, string>? = null,
    ) -> Note;

    /// Returns one note.
    @title("Get a note") @read_only @idempotent
    tool get_note(@range(1, 9007199254740991) id: i64) -> Note;

    /// Changes the given fields of a note; fields left out keep their value.
    @title("Update a note") @destructive @idempotent @scopes("notes:write")
    tool update_note(
        @range(1, 9007199254740991) id: i64,
        @length(1, 200) title: string? = null,
        @length(max: 1048576) body: string? = null,
        /// Replaces every tag.
        @length(max: 20) tags: set<string>? = null,
        priority: Priority? = null,
        /// A new due date (`clear_due` removes it).
        due: date? = null,
        /// Removes the due date.
        clear_due: bool = false,
        /// Replaces the metadata.
        metadata: map<string, string>? = null,
    ) -> Note;

    /// Deletes a note and returns what it was.
    @title("Delete a note") @destructive @idempotent @scopes("notes:write")
    tool delete_note(@range(1, 9007199254740991) id: i64) -> Note;

    /// Searches notes, newest first, a page at a time.
    @title("Search notes") @read_only @idempotent
    tool search_notes(
        /// Text to find in titles and bodies (case-insensitive for ASCII); empty matches all.
        @length(max: 200) query: string = "",
        /// Only notes with this tag.
        @pattern("^[a-z0-9_-]+$") @length(1, 32) tag: string? = null,
        /// Only notes of this priority.
        priority: Priority? = null,
        /// Notes per page.
        @range(1, 100) limit: u32 = 20,
        /// The `nextCursor` of the previous page.
        cursor: string? = null,
    ) -> NotePage;

    /// Every tag in use, with how many notes have it.
    @title("List tags") @read_only @idempotent
    tool list_tags() -> map<string, u64>;

    /// Adds many notes at once, all or nothing: progress after each batch, a log line per
    /// batch, and cancellation leaves the notes as they were.
    @title("Import notes") @destructive(false) @scopes("notes:write")
    tool import_notes(
        @length(1, 100000) notes: list<NewNote>,
        /// Notes written between progress notifications.
        @range(1, 10000) batch_size: u32 = 1000,
    ) -> ImportReport;

    // `notes://{id}` also matches `notes://index`; generated code tries listed URIs
    // before templates, so the order of these two declarations does not matter.
    /// The 50 newest notes, as a Markdown list of links.
    @uri("notes://index") @mime("text/markdown") @title("Newest notes")
    resource index() -> string;

    /// One note as Markdown.
    @uri("notes://{id}") @mime("text/markdown") @title("Note")
    resource note(@range(1, 9007199254740991) id: i64) -> string;

    /// Asks for a summary of the notes that have a tag.
    prompt summarize_tag(
        /// The tag.
        @pattern("^[a-z0-9_-]+$") @length(1, 32) tag: string,
        /// At most this many notes, newest first.
        @range(1, 50) max_notes: u8 = 20,
    ) -> string;
}
