// Tools, resources and prompts: removed, renamed, added, moved, and what changes on them.
service Tools {
    /// Gets the weather.
    tool get_weather(city: string) -> string;

    @name("forecast.daily")
    tool forecast(city: string) -> list<string>;

    tool remove_me();
    tool count() -> u32;

    @title("Old title") @read_only
    tool titled();

    @ui("ui://app.html")
    tool app();

    tool rename_method();

    @uri("docs://{id}") @mime("text/plain")
    resource doc(id: string) -> string;

    @uri("docs://index")
    resource index() -> string;

    @uri("docs://a")
    resource alpha() -> string;

    prompt summarize(city: string) -> string;
    prompt gone() -> string;
}

service Other {
    tool moving();
}
