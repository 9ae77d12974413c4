// Titles, behaviour hints (listed only when assigned) and MCP Apps metadata.
package golden.annotations;

service Annotated {
    /// Returns the current weather for a city.
    @title("Get current weather") @read_only @idempotent @open_world @destructive(false)
    tool get_weather(city: string) -> string;

    @destructive @read_only(false)
    tool delete_city(city: string);

    @idempotent(false)
    tool only_idempotent();

    @title("Titled only")
    tool titled();

    @ui("ui://weather/view")
    tool show_weather(city: string) -> string;

    @ui("ui://weather/panel", visibility: ["app"]) @open_world(true)
    tool panel_only() -> content;

    @ui("ui://weather/both", visibility: ["model", "app"])
    tool both_visible() -> call_result;

    /// Refreshes the panel's data: its app calls it; no view of its own.
    @ui(visibility: ["app"])
    tool refresh_panel() -> content;
}
