// Records and enums, where they flow in (parameters) and out (results).
enum Color { red, green }
enum Status { open, closed }
enum Kind { a }

record Query {
    text: string,
    limit: u8 = 10,
    old_field: string,
}

record Item {
    name: string,
    price: f64,
}

record Gone {
    x: u8,
}

service Shop {
    tool search(q: Query, color: Color, kind: Kind) -> list<Item>;
    tool status() -> Status;
}
