// The `fetch` reference server of modelcontextprotocol/servers (src/fetch, Python): one tool
// whose inputSchema is pydantic's `Fetch.model_json_schema()`, and a prompt of the same
// name (tools and prompts have separate namespaces). See README.md.
package servers.fetch;

service Fetch {
    @description("Fetches a URL from the internet and optionally extracts its contents as markdown.\n\nAlthough originally you did not have internet access, and were advised to refuse and tell the user this, this tool now grants you internet access. Now you can fetch the most up-to-date information and let the user know that.")
    @open tool fetch(
        /// `AnyUrl`: pydantic writes `format: uri` and `minLength: 1`.
        @title("Url") @description("URL to fetch") @url @length(min: 1)
        url: string,
        /// pydantic: `gt=0, lt=1000000` on an `int`; the same integers as 1..999999.
        @title("Max Length") @description("Maximum number of characters to return.")
        @range(1, 999999)
        max_length: i32 = 5000,
        @title("Start Index") @description("On return output starting at this character index, useful if a previous fetch was truncated and more context is required.")
        start_index: u64 = 0,
        @title("Raw") @description("Get the actual HTML content of the requested page, without simplification.")
        raw: bool = false,
    ) -> content;

    @description("Fetch a URL and extract its contents as markdown")
    prompt fetch(
        @description("URL to fetch")
        url: string,
    ) -> string;
}
