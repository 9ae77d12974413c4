// Union defaults the resolver refuses: a literal no variant holds (E0506), a list default
// an earlier list variant may read (E0507), a default of a tagged union (E0508).
record Circle { radius: f64 }
record Square { side: u32 }

@tag("kind")
union Shape { circle: Circle, square: Square }

union Id { text: string, number: i64 }

type Name = @length(max: 3) string;

union Names { names: list<Name>, numbers: list<u32> }

enum Color { red, green }

union Paint { colors: list<Color>, words: list<string> }

service Defaults {
    tool bad(
        id: Id = true,
        far: Id = 1.5,
        names: Names = [1, 2],
        words: Names = ["long"],
        // `["red"]` is a list of strings as written, but the decoder reads its JSON as `colors`.
        paint: Paint = ["red"],
        shape: Shape = { radius: 1.0 },
        maybe: Shape? = { side: 2 },
    );
}
