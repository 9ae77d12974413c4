// examples/manual's three tools, as a .tool file: compare src/lib.rs with examples/manual/src/lib.rs.
package manual;

/// Summary statistics of a list of numbers.
record Stats {
    /// How many numbers there are.
    count: u64,
    /// The smallest.
    min: f64,
    /// The largest.
    max: f64,
    /// The arithmetic mean.
    mean: f64,
}

/// Small tools to try a server with.
service ManualTools {
    /// Greets someone by name.
    tool greet(
        /// Who to greet.
        @length(min: 1) name: string,
    ) -> string;

    /// Adds two integers.
    @read_only @idempotent
    tool add(a: i32, b: i32) -> i64;

    /// Summarizes a list of numbers.
    @title("Summary statistics") @read_only
    tool stats(@length(1, 1000) values: list<f64>) -> Stats;
}
