// Field wire names: as written, camelCase under @rename_all, @json_name always wins.
@rename_all("camelCase")
record Camel {
    first_name: string,
    last_name: string,
    @json_name("ID") user_id: u64,
    already: bool,
    HTTPStatus: u16,
}

record AsWritten {
    first_name: string,
    @json_name("last") last_name: string,
}

service People {
    tool find(@json_name("q") query: string, max_results: u8 = 10) -> list<Camel>;
}
