// Defaults of each kind; `= null` makes a parameter optional and writes no default.
package golden.defaults;

enum Units { celsius, fahrenheit }

record Options {
    verbose: bool = false,
    @range(1, 10) level: u8 = 5,
    label: string = "none",
    sep: char = ',',
    scale: f64 = 1.5,
    units: Units = fahrenheit,
    note: string? = null,
    extra: string?,
}

service Defaults {
    tool with_defaults(
        query: string,
        limit: u32 = 10,
        offset: i64 = -1,
        ratio: f32 = 0.25,
        exact: bool = true,
        prefix: string = "",
        marker: char = '*',
        units: Units = celsius,
        cursor: string? = null,
        @length(min: 1) tags: list<string>? = null,
        options: Options? = null,
    );
}
