record Misapplied {
    @length(1, 2) flag: bool,
    @range(1, 10) name: string,
    @pattern("x") count: u32,
    @email tags: list<string>,
    @url n: f64?,
    @length(1, 5) lookup: map<string, u8>,
    @range(1.5, 10) whole: u8,
    @range(10, 1) backwards: i32,
    @length(5, 2) backwards_len: string,
    @pattern("[unclosed") bad_regex: string,
    @pattern("(?<name") bad_group: string,
}
