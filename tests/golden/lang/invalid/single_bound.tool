// A lone unnamed bound is ambiguous (a minimum? an exact size?): it must be named.
record Sizes {
    @length(3) code: string,
    @range(5) level: u8,
    @length(min: 3) named_min: string,
    @range(max: 5) named_max: u8,
    @range(1, max: 9) mixed: u8,
}
