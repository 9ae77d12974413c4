// Record fields: the rules of parameters, by where the record flows (in or out).
@rename_all("camelCase")
record Options {
    @json_name("q") query: string,
    old_ident: string,
    count: i64,
    kind: string,
    @range(0, 10) level: u8,
    @length(max: 5) tags: list<string>,
    @pattern("^a") code: string,
    page: u32,
    size: u32 = 10,
    sort: string = "name",
    /// Old doc.
    note: string?,
}

record Report {
    total: i64,
    @range(0, 100) percent: u8,
}

service S {
    tool search(options: Options) -> Report;
}
