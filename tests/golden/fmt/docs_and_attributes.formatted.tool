/// Units.      // a comment inside a doc comment stays as written
enum Units {
    /// Degrees Celsius.
    celsius,
    ///   Indented doc text is kept.
    fahrenheit,
}

@rename_all("camelCase")
/// A doc after an attribute.
record Forecast {
    @range(0, 100)
    /// Doc after the attribute.
    @json_name("h") humidity: u8?,
    ///
    /// Blank doc lines are kept.
    ///
    day: date,
}

service S {
    @title("T")
    /// Doc between attributes.
    @read_only
    tool t(
        @length(1, 2)
        /// doc
        city: string,
    );
}
