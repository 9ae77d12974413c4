package naming;

service Naming {
    /// Every item, oldest first.
    @title("List items") @read_only @idempotent
    tool list_items() -> list<string>;

    /// Create an item
    @title("Create an item") @destructive(false)
    tool create_item(@length(min: 1) name: string);

    @destructive @idempotent
    tool replace_item(id: i64, name?: string);

    /// Deprecated.
    @destructive @idempotent
    tool delete_item(id: i64);

    @destructive
    tool patch_items_id(id: i64, name?: string) -> string;

    @read_only @idempotent
    tool list_items_2() -> list<string>;
}
