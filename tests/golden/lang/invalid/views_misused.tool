// MCP Apps view metadata misused: on a resource that is not a view, origins that are not
// origins, permissions that do not exist.
package golden.views_misused;

service Views {
    // E0807: view metadata on a resource whose URI is not `ui://`.
    @uri("docs://readme") @csp(connect_domains: ["https://api.example.com"]) @prefers_border
    resource readme() -> string;

    // E0715: not origins, and one listed twice.
    @uri("ui://app/a.html")
    @csp(connect_domains: ["api.example.com", "https://api.example.com/v1", "https://x.example.com", "https://x.example.com"], resource_domains: ["https://cdn.*.example.com", "https://example.com:99999", "https://user@example.com"], frame_domains: ["ftp//example.com", 3, "https://"], base_uri_domains: "https://cdn.example.com")
    resource a() -> string;

    // E0716: an unknown permission, one listed twice, a string.
    @uri("ui://app/b.html") @permissions(camera, microphon, camera, "geolocation")
    resource b() -> string;

    // E0302: wrong arguments.
    @uri("ui://app/c.html") @csp @permissions @domain("") @prefers_border(1)
    resource c() -> string;

    @uri("ui://app/d.html") @csp(connect: ["https://api.example.com"]) @domain(3)
    resource d() -> string;

    // E0303: view metadata on a tool.
    @csp(connect_domains: []) @permissions(camera)
    tool e();
}
