// Optional fields and parameters (`name?: T`): absent allowed, not in `required`, no
// `default`; `null` only when the type is nullable (`name?: T?`).
package golden.optional;

enum Order { asc, desc }

record Window {
    head?: u32,
    tail?: u32?,
    label: string?,
    @length(1, 3) tags?: list<string>,
    order?: Order,
}

service Lines {
    tool read(
        path: string,
        @range(1, 1000) head?: u32,
        tail?: i64?,
        window?: Window,
        @pattern("^[a-z]+$") grep?: string,
        ratio?: f32,
        pick?: set<uuid>,
    );
}
