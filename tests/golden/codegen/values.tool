// Defaults of every kind, three-state nullables, bytes, sets and formats inside composites.
package codegen.values;

enum Level { low, mid, high }

record Tag {
    name: string,
    weight: f64 = 1.0,
}

service Values {
    /// Every default is applied by the decoder: the handler sees plain values.
    tool defaults(
        flag: bool = true,
        count: i16 = -3,
        ratio: f32 = 0.5,
        big: u64 = 18446744073709551615,
        name: string = "anon",
        empty: string = "",
        letter: char = 'x',
        level: Level = mid,
        blob: bytes = "aGk=",
        any: json = 3,
        day: date = "2024-02-29",
    );

    /// `T? = v`: absent is `v`, `null` is None, a value is itself.
    tool three_states(limit: u8? = 3, label: string? = "x", cleared: i32? = null, required_null: bool?);

    tool collections(
        ids: list<uuid>,
        unique_ids: set<uuid>,
        levels: set<Level>,
        weights: set<f64>,
        tags: set<Tag>,
        blobs: set<bytes>,
        docs: set<json>,
        when: map<string, datetime>,
        nested: map<string, list<date?>>,
        maybe_ids: list<uuid>?,
        raw: bytes?,
        obj: object,
        arr: array,
    ) -> bytes;

    tool strings(
        @email email: string,
        @url site: string,
        @pattern("^\\p{Lu}") @length(2, 8) code: string,
        @pattern("^[a-z]+$") slug: string? = null,
        gap: duration,
        at: time,
    ) -> list<Tag>;
}
