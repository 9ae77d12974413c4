// Tagged unions (`oneOf` of records told apart by a tag property) and untagged ones
// (`anyOf` of their variants), below the top level of an input schema.
package golden.unions;

record Circle {
    @range(exclusive_min: 0.0) radius: f64,
}

@rename_all("camelCase")
record Square {
    side_length: u32,
    label?: string,
}

record Empty {}

/// A shape to draw.
@tag("kind")
union Shape {
    /// A round one.
    circle: Circle,
    square: Square,
    nothing: Empty,
}

/// A name or a number.
union Id {
    text: string,
    number: i64,
    many: list<u8>,
}

record Layer {
    shapes: list<Shape>,
    id?: Id,
}

service Canvas {
    tool draw(
        shape: Shape,
        maybe: Shape?,
        id: Id? = null,
        ids: map<string, Id> = {},
        layers: list<Layer> = [],
    );
}
