// `@range` bounds outside their integer type's range: each is an error at the bound, with
// the type that holds them (E0606).
record R {
    @range(max: -1) p: u32,
    @range(min: 300) q: u8?,
    @range(min: 255) ok: u8,
    @range(min: -128, max: -127) ok2: i8,
    @range(min: 9223372036854775808) big: i64,
    @range(1, 500) per_page: u8,
    @range(-129, 100) low: i8,
    @range(-1, 18446744073709551615) none: u64,
}
