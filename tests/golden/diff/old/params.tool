// Parameters: added, removed, renamed, reordered; types, constraints, defaults, docs.
enum Units { celsius, fahrenheit }

service S {
    tool add_params(a: string);
    tool remove_params(a: string, b: u8 = 1);
    tool rename(@json_name("city") city_name: string, old_ident: string);
    tool reorder(a: string, b: u8);
    tool types(n: i64, m: u8, l: list<string>, o: string?, x: string, s: set<u8>);

    tool constraints(
        @range(0, 10) a: u8,
        @length(max: 10) b: string,
        c: string,
        @pattern("^a") d: string,
        @range(1, 5) e: u8,
        @pattern("^a") f: string,
        @length(1, 5) g: list<u8>,
    );

    tool defaults(a: u8, b: u8 = 1, c: u8 = 2, d: Units = celsius);

    tool docs(
        /// Old doc.
        a: string,
    );
}
