// Records and enums, where they flow in (parameters) and out (results).
enum Color { red, blue }
enum Status { open, closed, archived }

record Kind {
    a: u8,
}

record Query {
    text: string,
    limit: u8 = 10,
    page: u32,
    tag: string? = null,
}

/// One item found.
record Item {
    name: string,
    price: f64?,
    stock: u32,
}

record Fresh {
    y: u8,
}

service Shop {
    tool search(q: Query, color: Color, kind: Kind) -> list<Item>;
    tool status() -> Status;
}

service Admin {
    tool reset();
}
