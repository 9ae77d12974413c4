// outputSchema only for a record or map result; a nullable one stays "type": "object".
package golden.results;

/// A stored note.
record Note {
    id: uuid,
    text: string,
}

service Results {
    tool nothing();
    tool text() -> string;
    tool count() -> u32;
    tool notes() -> list<Note>;
    tool note() -> Note;
    tool maybe_note() -> Note?;
    tool index() -> map<string, Note>;
    tool maybe_index() -> map<string, u8>?;
    tool blocks() -> content;
    tool raw() -> call_result;
    tool value() -> json;
    tool obj() -> object;
}
