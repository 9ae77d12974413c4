// `T?` of the kinds nullable.tool leaves out: json, object, array, the string formats,
// duration, a map of records, a list of a nullable enum, a nullable field with a default.
package golden.nullable_kinds;

enum Level { low, high }

record Tag {
    name: string,
}

service NullableKinds {
    tool more_nullables(
        any: json?,
        obj: object?,
        arr: array?,
        id: uuid?,
        day: date?,
        at: time?,
        link: uri?,
        wait: duration?,
        tags: map<string, Tag>?,
        levels: list<Level?>,
        label: string? = "none",
        level: Level? = low,
        gone: u8? = null,
    );
}
