// The listing-level forms a real server may need: a tool's `title` and `annotations.title`
// apart, `$schema` per service or tool, a listed `execution.taskSupport`, and a record open
// on input and closed on output.
package golden.listing_forms;

/// An entity; members it does not declare are accepted and ignored when it is read.
@open(input)
record Entity {
    name: string,
    observations: list<string>,
}

record Graph {
    entities: list<Entity>,
}

@schema_dialect("http://json-schema.org/draft-07/schema#")
service Memory {
    /// Creates entities.
    @title(tool: "Create entities") @execution(task_support: forbidden)
    tool create_entities(entities: list<Entity>) -> Graph;

    /// Reads the graph.
    @title(annotations: "Read graph") @read_only
    tool read_graph() -> Graph;

    @title(tool: "Search", annotations: "Search nodes")
    tool search_nodes(query: string) -> Graph;

    @title("Both places") @schema_dialect("https://json-schema.org/draft/2020-12/schema")
    tool both(@title("A parameter title") a: u8 = 1);
}

service Plain {
    tool keep(entity: Entity);
}
