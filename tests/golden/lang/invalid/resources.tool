record Filter { q: string }

service Docs {
    resource no_uri() -> string;

    @uri("docs://pages/{page}/{section}")
    resource missing_param(page: string) -> string;

    @uri("docs://static")
    resource extra_param(page: string) -> string;

    @uri("docs://search/{filter}/{tags}")
    resource not_text(filter: Filter, tags: list<string>) -> string;

    @uri("docs://broken/{page")
    resource bad_template(page: string) -> string;

    prompt ask(filter: Filter, data: json?, raw: bytes) -> string;
}
