// list, set, map, enums and records; a record used several times stays inline.
package golden.composites;

/// A colour.
enum Colour { red, green, blue }

/// A point on a plane.
record Point {
    x: f64,
    y: f64,
}

service Composites {
    tool collections(
        names: list<string>,
        tags: set<string>,
        scores: map<string, i32>,
        grid: list<list<u8>>,
        colour: Colour,
        palette: set<Colour>,
        origin: Point,
        path: list<Point>,
        named_points: map<string, Point>,
    );
}
