// A tool name used by two services of one file is a warning (W0403), not an error: the
// services may be served apart, but a server given both keeps only the first.
service Reader {
    tool get(id: string) -> string;
    tool list() -> list<string>;
}

service Writer {
    tool get(id: string) -> string;
    @name("list") tool list_all() -> list<string>;
    tool put(id: string, text: string);
}
