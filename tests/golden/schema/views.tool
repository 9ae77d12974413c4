// MCP Apps views: `ui://` resources with their `_meta.ui` (CSP origins, permissions, a
// dedicated domain, the border preference), listed and sent with the content.
package golden.views;

service Weather {
    /// Shows the forecast in its view.
    @ui("ui://weather/forecast.html")
    tool forecast(city: string) -> string;

    /// The forecast view.
    @uri("ui://weather/forecast.html")
    @csp(connect_domains: ["https://api.weather.example", "wss://live.weather.example:8443"], resource_domains: ["https://cdn.jsdelivr.net", "https://*.cloudflare.com"], frame_domains: ["https://www.youtube.com"], base_uri_domains: ["https://cdn.weather.example"])
    @permissions(geolocation, clipboard_write)
    @domain("a904794854a047f6.claudemcpcontent.com")
    @prefers_border
    resource forecast_view() -> string;

    /// A view that reaches nothing outside, without a border.
    @uri("ui://weather/radar.html") @csp() @permissions() @prefers_border(false)
    resource radar_view() -> string;

    /// Only some origins.
    @uri("ui://weather/{city}/map.html") @csp(resource_domains: []) @permissions(camera)
    resource city_map(city: string) -> string;
}
