// The text block beside a structured result: `@text` (docs/language.md, "Result text").
package codegen.result_text;

record Entity {
    name: string,
    entity_type: string,
    observations: list<string>,
}

record Entities {
    entities: list<Entity>,
}

record Deleted {
    success: bool,
    message: string,
}

enum Units { celsius, fahrenheit }

record Summary {
    count: u32,
    city: string,
    units: Units,
    mean: f64,
}

service ResultTexts {
    /// The field `entities` pretty-printed, as the memory server's `create_entities` sends it.
    @text(pretty: entities)
    tool create_entities(entities: list<Entity>) -> Entities;

    /// The whole result pretty-printed.
    @text(pretty)
    tool read_graph() -> Entities;

    /// A fixed sentence.
    @text("Entities deleted successfully")
    tool delete_entities(names: list<string>) -> Deleted;

    /// A template over the result's fields; `{{` and `}}` are braces.
    @text("Counted {count} in {city} ({units}, mean {mean}) {{ok}}")
    tool count(city: string) -> Summary;

    /// The handler chooses the text per call.
    @text(handler)
    tool summarize(city: string) -> Summary;

    /// A map result pretty-printed.
    @text(pretty)
    tool tally() -> map<string, u32>;
}
