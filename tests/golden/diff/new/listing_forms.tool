// Listing-level forms: titles apart, `$schema`, `execution.taskSupport`, open records.
record Entity {
    name: string,
}

@open(input)
record Kept {
    name: string,
}

@open
record Sent {
    name: string,
}

service Memory {
    @title(tool: "Same text") tool moved_to_tool();
    @title(tool: "Read") tool moved_across();
    @title(tool: "A", annotations: "C") tool retitled();
    @title("New") tool both_retitled();
    tool listed();
    @execution(task_support: forbidden) tool unlisted();
    @schema_dialect("https://json-schema.org/draft/2020-12/schema") tool dialect();
    @task tool delisted();
    tool take(entity: Entity, kept: Kept) -> Sent;
}
