// Composite defaults that do not fit their types.
enum Color { red, green }

record Point {
    x: i32,
    @range(0, 10) y: i32 = 0,
    label?: string,
}

record Wrong {
    a: list<u8> = [1, 300],
    b: set<Color> = [red, red],
    c: list<Color> = [blue],
    d: map<string, u8> = {k: 1},
    e: map<string, u8> = {"k": 1, "k": 2},
    f: Point = { y: 1 },
    g: Point = { x: 1, z: 2 },
    h: Point = { x: 1, y: 11 },
    i: Point = { x: 1, label: null },
    j: Point = { x: 1, x: 2 },
    @length(min: 1) k: list<string> = [],
    l: list<string> = {},
    m: map<string, u8> = [],
    n: string = ["a"],
    o: json = {k: 1},
    p: Point = { "x": 1 },
    q: list<Point> = [{ x: "1" }],
}
