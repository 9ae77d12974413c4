package filesystem;

@open(input) @rename_all("camelCase")
record EditsItem {
    /// Text to search for - must match exactly
    old_text: string,
    /// Text to replace with
    new_text: string,
}

enum SortBy { name, size }

@schema_dialect("http://json-schema.org/draft-07/schema#")
service Filesystem {
    @open
    tool read_file(
        path: string,
        /// If provided, returns only the last N lines of the file
        tail?: f64,
        /// If provided, returns only the first N lines of the file
        head?: f64,
    ) -> content;

    @open
    tool read_text_file(
        path: string,
        /// If provided, returns only the last N lines of the file
        tail?: f64,
        /// If provided, returns only the first N lines of the file
        head?: f64,
    ) -> content;

    @open
    tool read_media_file(path: string) -> content;

    @open
    tool read_multiple_files(
        /// Array of file paths to read. Each path must be a string pointing to a valid file within allowed directories.
        @length(min: 1) paths: list<string>,
    ) -> content;

    @open
    tool write_file(path: string, content: string) -> content;

    @open @rename_all("camelCase")
    tool edit_file(
        path: string,
        edits: list<EditsItem>,
        /// Preview changes using git-style diff format
        dry_run: bool = false,
    ) -> content;

    @open
    tool create_directory(path: string) -> content;

    @open
    tool list_directory(path: string) -> content;

    @open @rename_all("camelCase")
    tool list_directory_with_sizes(
        path: string,
        /// Sort entries by name or size
        sort_by: SortBy = name,
    ) -> content;

    @open @rename_all("camelCase")
    tool directory_tree(path: string, exclude_patterns: list<string> = []) -> content;

    @open
    tool move_file(source: string, destination: string) -> content;

    @open @rename_all("camelCase")
    tool search_files(
        path: string,
        pattern: string,
        exclude_patterns: list<string> = [],
    ) -> content;

    @open
    tool get_file_info(path: string) -> content;

    @open
    tool list_allowed_directories() -> content;
}
