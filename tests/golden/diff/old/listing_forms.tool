// Listing-level forms: titles apart, `$schema`, `execution.taskSupport`, open records.
@open(input)
record Entity {
    name: string,
}

@open
record Kept {
    name: string,
}

@open(input)
record Sent {
    name: string,
}

service Memory {
    @title("Same text") tool moved_to_tool();
    @title(annotations: "Read") tool moved_across();
    @title(tool: "A", annotations: "B") tool retitled();
    @title("Old") tool both_retitled();
    @execution(task_support: forbidden) tool listed();
    tool unlisted();
    @schema_dialect("http://json-schema.org/draft-07/schema#") tool dialect();
    @task @execution(task_support: optional) tool delisted();
    tool take(entity: Entity, kept: Kept) -> Sent;
}
