// Tool attributes: names (derived and explicit), title, description, hints, @ui.
service Annotated {
    /// Fetches a docket.
    /// Second line,   with   extra spaces.
    tool GetDocketAsync(id: string) -> string;

    tool HTTPRequest(url: uri) -> json;

    /// This doc comment loses to @description.
    @description("Explicit description.")
    @title("Delete everything") @destructive @idempotent(false) @read_only(false) @open_world(true)
    tool purge();

    @name("show-map") @ui("ui://maps/view.html", visibility: ["model", "app"])
    tool show_map(lat: f64, lon: f64) -> object;

    @ui("ui://maps/app-only.html", visibility: ["app"])
    tool app_only();

    @ui("ui://maps/default.html")
    tool default_visibility();

    @name("a_tool_name_that_is_exactly_sixty_five_characters_long_abcdefghij")
    tool long_name();

    /// Called by the app only, with no view of its own.
    @ui(visibility: ["app"])
    tool refresh();
}
