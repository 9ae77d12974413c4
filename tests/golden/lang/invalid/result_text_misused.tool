// `@text` misused: E0710 to E0714.
package golden.result_text_misused;

record Deleted {
    success: bool,
    message: string,
    tags: list<string>,
    note?: string,
}

service Misused {
    // E0710: a string result is its own text.
    @text("Done")
    tool plain() -> string;

    // E0710: a nullable record.
    @text(pretty)
    tool maybe() -> Deleted?;

    // E0710: no result.
    @text("Done")
    tool nothing();

    // E0711: no such field (did you mean `message`?).
    @text(pretty: mesage)
    tool typo() -> Deleted;

    // E0711: in a template.
    @text("Deleted {count} entities")
    tool count() -> Deleted;

    // E0712: a list in a sentence, and an optional field.
    @text("Tagged {tags}; {note}")
    tool tags() -> Deleted;

    // E0713: a brace never closed.
    @text("Deleted {message")
    tool open_brace() -> Deleted;

    // E0713: a brace that closes nothing.
    @text("Deleted } {message}")
    tool close_brace() -> Deleted;

    // E0714: an unknown form (did you mean `pretty`?).
    @text(prety)
    tool unknown() -> Deleted;

    // E0714: two forms.
    @text("Done", pretty: message)
    tool both() -> Deleted;

    // E0714: an empty sentence.
    @text("")
    tool empty() -> Deleted;

    // E0714: no form.
    @text
    tool bare() -> Deleted;
}
