// Every constraint on every type it applies to.
package golden.constraints;

service Constraints {
    /// @range on every integer type; a bound at an end of the type's own range adds nothing.
    tool integer_ranges(
        @range(-10, 10) a: i8,
        @range(-1000, 32767) b: i16,
        @range(min: 0) c: i32,
        @range(max: -1) d: i64,
        @range(1, 14) e: u8,
        @range(0, 255) f: u8,
        @range(min: 1000) g: u16,
        @range(0, 4294967295) h: u32,
        @range(1, 18446744073709551615) i: u64,
        @range(min: -9223372036854775808, max: 9223372036854775807) j: i64,
        @range(0, 100) k: u8?,
    );

    /// @range on floats, as written.
    tool float_ranges(
        @range(-0.5, 0.5) ratio: f64,
        @range(min: 0) weight: f32,
        @range(max: 1000.5) cap: f64,
        @range(min: -1.25) offset: f32?,
    );

    /// @length on strings, lists and sets.
    tool lengths(
        @length(1, 100) name: string,
        @length(min: 1) tags: list<string>,
        @length(max: 3) picks: set<u8>,
        @length(2, 2) pair: list<f64>,
        @length(max: 5) short: string?,
    );

    /// @pattern, @email and @url on strings.
    tool string_formats(
        @pattern("^[A-Z]{3}$") code: string,
        @email contact: string,
        @url homepage: string,
        @length(3, 20) @pattern("^[a-z_]+$") handle: string,
        @email backup: string?,
    );
}
