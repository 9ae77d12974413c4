// The MCP face of examples/axum's shop: the same stock its JSON API serves.
package shop;

/// An item and how many are in stock.
record Item {
    /// The stock keeping unit.
    sku: string,
    /// What it is.
    name: string,
    /// Units in stock.
    count: u32,
}

/// The shop's stock, for models.
service Stock {
    /// One item by its SKU.
    @read_only
    tool get_item(@length(min: 1) sku: string) -> Item;

    /// Every item in stock, by SKU.
    @read_only
    tool list_items() -> list<Item>;
}
