// Every result kind of the seed's table.
package codegen.results;

enum Mood { happy, sad }

record Note {
    id: uuid,
    text: string,
}

service Results {
    tool nothing();
    tool text() -> string;
    tool maybe_text() -> string?;
    tool mood() -> Mood;
    tool maybe_mood() -> Mood?;
    tool count() -> u32;
    tool flag() -> bool;
    tool when() -> datetime;
    tool notes() -> list<Note>;
    tool note() -> Note;
    tool maybe_note() -> Note?;
    tool index() -> map<string, Note>;
    tool maybe_index() -> map<string, u8>?;
    tool stamps() -> map<string, date>;
    tool blocks() -> content;
    tool raw() -> call_result;
    tool value() -> json;
    tool obj() -> object;
}
