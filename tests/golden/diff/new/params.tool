// Parameters: added, removed, renamed, reordered; types, constraints, defaults, docs.
enum Units { celsius, fahrenheit }

service S {
    tool add_params(a: string, req: string, opt: u8 = 0, nul: string?);
    tool remove_params(a: string);
    tool rename(@json_name("town") city_name: string, @json_name("old_ident") new_ident: string);
    tool reorder(b: u8, a: string);
    tool types(n: i32, m: u16, l: set<string>, o: string, x: i32, s: list<u8>);

    tool constraints(
        @range(0, 5) a: u8,
        @length(max: 20) b: string,
        @email c: string,
        @pattern("^b") d: string,
        @range(0, 4) e: u8,
        f: string,
        @length(1, 5) g: list<u8>,
    );

    tool defaults(a: u8 = 0, b: u8, c: u8 = 3, d: Units = fahrenheit);

    tool docs(
        /// New doc.
        a: string,
    );
}
