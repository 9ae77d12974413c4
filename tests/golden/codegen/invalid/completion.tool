// Names only completion generates: a record named like the enum of completable arguments,
// and two prompt arguments whose variants are both `NoteTagId`.
record NotesArgument { x: string }

service Notes {
    prompt note_tag(id: string) -> string;
    prompt note(tag_id: string) -> string;
}
