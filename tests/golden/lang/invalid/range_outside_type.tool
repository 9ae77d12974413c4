record R {
    @range(max: -1) p: u32,
    @range(min: 300) q: u8?,
    @range(min: 255) ok: u8,
    @range(min: -129, max: -128) ok2: i8,
    @range(min: 9223372036854775808) big: i64,
}
