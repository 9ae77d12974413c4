// Composite types: lists, sets, maps keyed by string, nullable at every level.
enum Color { red, green, blue }

record Point { x: f64, y: f64 }

record Shapes {
    points: list<Point>,
    tags: set<string>,
    colors: set<Color>?,
    by_name: map<string, Point>,
    grid: list<list<i32?>>,
    index: map<string, list<u64>>?,
    nested: map<string, map<string, Color?>>,
    maybe_points: list<Point?>?,
}

service Drawing {
    tool draw(shapes: Shapes, palette: list<Color>? = null) -> set<Point>;
}
