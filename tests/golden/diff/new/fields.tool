// Record fields: the rules of parameters, by where the record flows (in or out).
@rename_all("camelCase")
record Options {
    @json_name("query") query: string,
    @json_name("oldIdent") new_ident: string,
    count: i32,
    kind: u8,
    @range(0, 20) level: u8,
    @length(max: 3) tags: list<string>,
    @pattern("^b") code: string,
    page: u32 = 1,
    size: u32,
    sort: string = "date",
    /// New doc.
    note: string?,
}

record Report {
    total: i32,
    @range(0, 1000) percent: u16,
}

service S {
    tool search(options: Options) -> Report;
}
