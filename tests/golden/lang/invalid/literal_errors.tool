record Literals {
    a: string = "bad \q escape",
    b: char = 'ab',
    c: u64 = 18446744073709551616,
    d: f64 = 1e999,
}
