// Optional fields and parameters: `name?: T` may be absent, refuses null unless `T` is
// nullable, and has no default.
package golden.optional;

record Window {
    /// Rows from the start.
    head?: u32,
    tail?: u32?,
    label: string?,
    @length(1, 3) tags?: list<string>,
}

service Lines {
    tool read(path: string, head?: u32, tail?: u32?, window?: Window);
}
