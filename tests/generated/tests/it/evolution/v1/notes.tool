// Version 1 of an interface; v2/notes.tool adds an optional parameter to each member and
// reorders one tool's parameters. tests/it/evolution.rs implements both with one handler body.
package evolution;

service Notes {
    /// Changes a note's title.
    tool rename_note(id: i64, title: string) -> string;

    /// Asks for a summary of a tag.
    prompt summarize(tag: string) -> string;

    /// A note.
    @uri("notes://{id}")
    resource note(id: i64) -> string;
}
