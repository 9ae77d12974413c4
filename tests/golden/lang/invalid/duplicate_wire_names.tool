// Duplicates that only show on the wire (after @json_name, camelCase or @name, or in a
// derived tool name), and names shared across tools, resources, prompts and types.
record Field { a: string, @json_name("a") b: string }

@rename_all("camelCase")
record Camel { foo_bar: string, fooBar: string }

record Shared {}
service Shared {}

service S {
    tool params(a: string, @json_name("a") b: string);
    tool GetItemAsync();
    tool get_item();
    @uri("x://one") resource params() -> string;
    @uri("x://b") @name("page") resource page_b() -> string;
    @uri("x://c") @name("page") resource page_c() -> string;
    @name("ask") prompt ask_one() -> string;
    @name("ask") prompt ask_two() -> string;
    prompt item(item: string, item: string) -> string;
}

service Library {
    @uri("lib://books/{id}") resource book(id: string) -> string;
    @uri("lib://books/{id}") resource volume(id: string) -> string;
    @uri("lib://catalogue") resource catalogue() -> string;
    @uri("lib://catalogue") resource index() -> string;
}
