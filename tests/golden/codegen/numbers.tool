// Numbers judged exactly from their decimal text: integers whatever the spelling, and float
// bounds where f64 cannot tell a number from the bound.
package codegen.numbers;

service Numbers {
    /// Integers at the 64-bit bounds.
    tool wide(unsigned: u64, signed: i64);

    /// An integer of the common size.
    tool count(number: i32);

    /// Floats with inclusive and exclusive bounds.
    tool measure(
        @range(0.0, 2.5) level: f64,
        @range(exclusive_min: 0.0, exclusive_max: 0.1) share: f64 = 0.05,
        @range(min: 0.0) size: f32 = 1.0,
    );
}
