enum Level { low, high }

record Defaults {
    a: string = 3,
    b: u8 = 256,
    c: i8 = -129,
    d: bool = "true",
    e: char = "x",
    f: Level = medium,
    g: Level = "low",
    h: f64 = true,
    i: u8 = 1.5,
    j: string = null,
    k: list<string> = null,
    l: list<string>? = [],
    m: string = hello,
    n: Thing? = 3,
    o: object? = 1,
}

record Thing { x: u8 }
