package fetch;

service Fetch {
    @open
    tool fetch(
        /// URL to fetch
        @length(min: 1) @url @title("Url") url: string,
        /// Maximum number of characters to return.
        @range(1, 999999) @title("Max Length") max_length: u32 = 5000,
        /// On return output starting at this character index, useful if a previous fetch was truncated and more context is required.
        @range(min: 0) @title("Start Index") start_index: integer = 0,
        /// Get the actual HTML content of the requested page, without simplification.
        @title("Raw") raw: bool = false,
    ) -> content;
}
