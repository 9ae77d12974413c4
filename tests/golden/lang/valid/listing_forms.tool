// Listing-level forms: `$schema` for the whole file (the package's `@schema_dialect`), a
// service's and a tool's own, titles apart, a listed `execution.taskSupport`, and a record
// open on input only.
@schema_dialect("http://json-schema.org/draft-07/schema#")
package golden.listing_forms;

@open(input)
record Entity {
    name: string,
}

service Memory {
    @title(tool: "Read graph") @execution(task_support: forbidden)
    tool read_graph() -> Entity;

    @title(annotations: "Open nodes") @task @execution(task_support: optional)
    tool open_nodes(names: list<string>) -> Entity;

    @title(tool: "Search", annotations: "Search nodes") @schema_dialect("https://example.com/dialect")
    tool search(query: string);

    @title("One title") @task(required) @execution(task_support: required)
    tool rebuild(entity: Entity);
}

@schema_dialect("https://json-schema.org/draft/2020-12/schema")
service Modern {
    tool ping();
}
