// List, set, map, record and json defaults: written as JSON `default`, applied by the decoder.
package codegen.composite_defaults;

enum Color { red, green, blue }

record Point {
    x: i32,
    y: i32 = 0,
    label?: string,
    note: string? = null,
}

@rename_all("camelCase")
record Style {
    line_width: f64 = 1.5,
    colors: list<Color> = [red],
    origin: Point = { x: 1 },
}

service Drawing {
    tool draw(
        shape: string,
        tags: list<string> = [],
        @length(1, 3) colors: set<Color> = [red, blue],
        sizes: list<u8>? = [1, 2, 3],
        labels: map<string, string> = {"en": "Hello", "fr": "Bonjour"},
        weights: map<string, list<f64>> = {},
        origin: Point = { x: 1, y: 2, label: "o" },
        style: Style = { line_width: 2.0, origin: { x: 0, note: "n" } },
        styles: list<Style> = [{}, { colors: [] }],
        extra: json = {"k": [1, "two", null, true]},
        grid: list<list<i32>> = [[1, 2], []],
    );
}
