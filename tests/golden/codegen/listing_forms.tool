// `@open(input)`: a record that accepts and ignores members it does not declare where it is
// read (no `extra` field, its decoder skips them) and is closed where it is sent; and the
// listing-level forms, which change the embedded listings only.
@schema_dialect("http://json-schema.org/draft-07/schema#")
package codegen.listing_forms;

/// An entity of the graph.
@open(input)
record Entity {
    name: string,
    observations: list<string> = [],
}

/// A relation between two entities.
@open(input)
record Relation {
    from: string,
    to: string,
}

/// A node of the graph; the record variant ignores unknown members too.
@tag("kind")
union Node {
    relation: Relation,
}

record Graph {
    entities: list<Entity>,
}

service Memory {
    /// Creates entities.
    @title(tool: "Create entities") @execution(task_support: forbidden)
    tool create_entities(entities: list<Entity>, node?: Node) -> Graph;

    /// Reads the graph.
    @title(annotations: "Read graph") @read_only
    tool read_graph() -> Graph;
}
