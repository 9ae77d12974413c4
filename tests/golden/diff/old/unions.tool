// Unions: variants removed, added and changed, and the tag property.
record Circle { radius: f64 }
record Square { side: f64 }
record Dot {}

@tag("kind")
union Shape {
    circle: Circle,
    square: Square,
    dot: Dot,
}

union Id {
    text: string,
    number: i64,
}

service Draw {
    tool draw(shape: Shape) -> Id;
}
