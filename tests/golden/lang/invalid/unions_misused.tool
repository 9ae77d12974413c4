// Unions that cannot be.
record Circle { kind: string, radius: f64 }
record Square { side: u32 }

@tag("kind")
union Shape { circle: Circle, square: Square, number: i32 }

union Loose { @description("x") a: string, b: i32?, a: u8 }

union Nothing {}

@tag("")
union Blank { square: Square }

record Holder { inner: Again }
union Again { holder: Holder }

record Uses { id: Loose = "x" }
