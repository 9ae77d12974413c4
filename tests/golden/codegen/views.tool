// MCP Apps views: a `ui://` resource's `_meta.ui` goes with the content it returns.
package codegen.views;

service Views {
    @ui("ui://views/map.html")
    tool show_map(city: string) -> string;

    @uri("ui://views/map.html")
    @csp(connect_domains: ["https://tiles.example.com"])
    @permissions(geolocation)
    @prefers_border
    resource map() -> string;

    @uri("ui://views/{city}/chart.html") @prefers_border(false)
    resource chart(city: string) -> bytes;

    @uri("ui://views/plain.html")
    resource plain() -> string;
}
