// Defaults of lists, sets, maps, records and json values.
enum Color { red, green }

record Point {
    x: i32,
    y: i32 = 0,
    label?: string,
}

record Box {
    corner: Point = { x: 1, y: 2 },
    corners: list<Point> = [{ x: 0 }, { x: 1, label: "b" }],
}

service Shapes {
    tool draw(
        tags: list<string> = [],
        colors: set<Color> = [red, green],
        @length(max: 2) sizes: list<u8>? = [1],
        labels: map<string, Color> = {"a": red},
        empty: map<string, u8> = {},
        box: Box = {},
        data: json = {"k": [1, 2.5, "x", null, false, {}]},
    );
}
