// Version 2 of v1/notes.tool: one optional parameter more on each member, and
// `rename_note`'s parameters in another order.
package evolution;

service Notes {
    /// Changes a note's title.
    tool rename_note(title: string, id: i64, notify: bool = false) -> string;

    /// Asks for a summary of a tag.
    prompt summarize(tag: string, @range(1, 50) max_notes: u8 = 20) -> string;

    /// A note.
    @uri("notes://{id}")
    resource note(id: i64) -> string;
}
