// MCP Apps views: their `_meta.ui` changed.
package golden.views;

service Weather {
    @uri("ui://weather/forecast.html")
    @csp(connect_domains: ["https://api.weather.example", "https://backup.weather.example"])
    @prefers_border(false)
    resource forecast_view() -> string;

    @uri("ui://weather/radar.html") @permissions(camera, microphone)
    resource radar_view() -> string;

    @uri("ui://weather/map.html") @csp()
    resource map_view() -> string;

    @uri("ui://weather/same.html") @csp(frame_domains: ["https://www.youtube.com"])
    resource same_view() -> string;
}
