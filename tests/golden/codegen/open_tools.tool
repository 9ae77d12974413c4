// `@open` on a tool: arguments it does not declare are accepted and ignored, as the
// schemas of many servers allow (no `additionalProperties: false` on the inputSchema).
package codegen.open_tools;

service Fetch {
    /// Fetches a URL.
    @open
    tool fetch(url: uri, max_length?: u32);

    /// Takes no declared argument, and ignores any.
    @open
    tool ping();

    /// Closed, as usual.
    tool strict(url: uri);
}
