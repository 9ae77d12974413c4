// `integer`: any integer, `{"type":"integer"}` without bounds (read into an `i128`), with
// `@range`, defaults, as items, map values, set items, record fields and results.
package codegen.integers;

/// A count that may pass 64 bits.
record Tally {
    total: integer,
    @range(min: 0) seen: integer = 0,
    last: integer?,
}

service Integers {
    /// Adds counts up.
    tool count(
        n: integer,
        @range(min: 0) positive: integer,
        @range(-9223372036854775808, 18446744073709551615) wide: integer = -1,
        maybe: integer?,
        many: list<integer> = [1, 2],
        by_name: map<string, integer> = {},
        distinct?: set<integer>,
        tally?: Tally,
    ) -> Tally;

    /// The sum of the values.
    tool total(values: list<integer>) -> integer;
}
