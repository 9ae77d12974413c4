// MCP Apps views: their `_meta.ui` changed.
package golden.views;

service Weather {
    @uri("ui://weather/forecast.html")
    @csp(connect_domains: ["https://api.weather.example"])
    @prefers_border
    resource forecast_view() -> string;

    @uri("ui://weather/radar.html") @permissions(camera) @domain("radar.example.com")
    resource radar_view() -> string;

    @uri("ui://weather/map.html")
    resource map_view() -> string;

    @uri("ui://weather/same.html") @csp(frame_domains: ["https://www.youtube.com"])
    resource same_view() -> string;
}
