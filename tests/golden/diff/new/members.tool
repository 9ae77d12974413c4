// Tools, resources and prompts: removed, renamed, added, moved, and what changes on them.
service Tools {
    /// Gets the current weather.
    tool get_weather(city: string) -> string;

    @name("forecast.weekly")
    tool forecast(city: string) -> list<string>;

    tool count() -> u64;

    @title("New title") @read_only(false)
    tool titled();

    @ui("ui://app.html", visibility: ["app"])
    tool app();

    @name("rename_method")
    tool renamed_method();

    @uri("docs://v2/{id}") @mime("text/markdown")
    resource doc(id: string) -> string;

    @name("beta") @uri("docs://a")
    resource alpha() -> string;

    @uri("docs://extra")
    resource extra() -> string;

    @name("summarize-city")
    prompt summarize(city: string) -> string;

    tool added();
    prompt added_prompt() -> string;
    tool moving();
}
