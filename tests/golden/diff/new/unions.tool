// Unions: variants removed, added and changed, and the tag property.
record Circle { radius: f64 }
record Square { side: f64 }
record Dot {}

@tag("type")
union Shape {
    circle: Circle,
    square: Circle,
}

union Id {
    text: string,
    number: i64,
    many: list<string>,
}

service Draw {
    tool draw(shape: Shape) -> Id;
}
