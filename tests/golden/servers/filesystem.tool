// The `filesystem` reference server of modelcontextprotocol/servers (src/filesystem,
// TypeScript, `McpServer.registerTool` with zod raw shapes; zod 4, whose `toJSONSchema` the
// SDK calls with target draft-7 and io "input"). See README.md for what differs.
package servers.filesystem;

// `ReadTextFileArgsSchema`, shared by read_file and read_text_file (not named `ReadTextFileArgs`:
// that is the Rust name of read_text_file's generated arguments).
record ReadTextRange {
    path: string,
    @description("If provided, returns only the last N lines of the file")
    tail?: f64,
    @description("If provided, returns only the first N lines of the file")
    head?: f64,
}

// One edit of edit_file. In io "input" zod writes no additionalProperties for an object, so
// other members are allowed: @open.
@open
@rename_all("camelCase")
record EditOperation {
    @description("Text to search for - must match exactly")
    old_text: string,
    @description("Text to replace with")
    new_text: string,
}

enum SortBy {
    name,
    size,
}

// `outputSchema: { content: z.string() }` (io "output": closed).
record TextContent {
    content: string,
}

// read_media_file's structured content: items of
// `z.union([{type: "image"|"audio", data, mimeType}, {type: "resource", resource: {…}}])`
// (zod: `anyOf` of two closed objects), here a union tagged by `type` (`oneOf` of three).
@rename_all("camelCase")
record ImageBlock {
    data: string,
    mime_type: string,
}

@rename_all("camelCase")
record AudioBlock {
    data: string,
    mime_type: string,
}

@rename_all("camelCase")
record BlobResource {
    uri: string,
    mime_type?: string,
    blob: string,
}

record ResourceBlock {
    resource: BlobResource,
}

@tag("type")
union MediaItem {
    image: ImageBlock,
    audio: AudioBlock,
    resource: ResourceBlock,
}

record MediaContent {
    content: list<MediaItem>,
}

service Filesystem {
    @title("Read File (Deprecated)")
    @description("Read the complete contents of a file as text. DEPRECATED: Use read_text_file instead.")
    @read_only @open_world(false)
    @open tool read_file(..ReadTextRange) -> TextContent;

    @title("Read Text File")
    @description("Read the complete contents of a file from the file system as text. Handles various text encodings and provides detailed error messages if the file cannot be read. Use this tool when you need to examine the contents of a single file. Use the 'head' parameter to read only the first N lines of a file, or the 'tail' parameter to read only the last N lines of a file. Operates on the file as text regardless of extension. Only works within allowed directories.")
    @read_only @open_world(false)
    @open tool read_text_file(..ReadTextRange) -> TextContent;

    @title("Read Media File")
    @description("Read a file and return it as a base64-encoded content block with its MIME type. Image and audio files are returned as image/audio content; any other file type is returned as an embedded resource. Only works within allowed directories.")
    @read_only @open_world(false)
    @open tool read_media_file(path: string) -> MediaContent;

    @title("Read Multiple Files")
    @description("Read the contents of multiple files simultaneously. This is more efficient than reading files one by one when you need to analyze or compare multiple files. Each file's content is returned with its path as a reference. Failed reads for individual files won't stop the entire operation. Only works within allowed directories.")
    @read_only @open_world(false)
    @open tool read_multiple_files(
        @description("Array of file paths to read. Each path must be a string pointing to a valid file within allowed directories.")
        @length(min: 1)
        paths: list<string>,
    ) -> TextContent;

    @title("Write File")
    @description("Create a new file or completely overwrite an existing file with new content. Use with caution as it will overwrite existing files without warning. Handles text content with proper encoding. Only works within allowed directories.")
    @read_only(false) @idempotent @destructive @open_world(false)
    @open tool write_file(path: string, content: string) -> TextContent;

    @title("Edit File")
    @description("Make line-based edits to a text file. Each edit replaces exact line sequences with new content. Returns a git-style diff showing the changes made. Only works within allowed directories.")
    @read_only(false) @idempotent(false) @destructive @open_world(false)
    @rename_all("camelCase")
    @open tool edit_file(
        path: string,
        edits: list<EditOperation>,
        @description("Preview changes using git-style diff format")
        dry_run: bool = false,
    ) -> TextContent;

    @title("Create Directory")
    @description("Create a new directory or ensure a directory exists. Can create multiple nested directories in one operation. If the directory already exists, this operation will succeed silently. Perfect for setting up directory structures for projects or ensuring required paths exist. Only works within allowed directories.")
    @read_only(false) @idempotent @destructive(false) @open_world(false)
    @open tool create_directory(path: string) -> TextContent;

    @title("List Directory")
    @description("Get a detailed listing of all files and directories in a specified path. Results clearly distinguish between files and directories with [FILE] and [DIR] prefixes. This tool is essential for understanding directory structure and finding specific files within a directory. Only works within allowed directories.")
    @read_only @open_world(false)
    @open tool list_directory(path: string) -> TextContent;

    @title("List Directory with Sizes")
    @description("Get a detailed listing of all files and directories in a specified path, including sizes. Results clearly distinguish between files and directories with [FILE] and [DIR] prefixes. This tool is useful for understanding directory structure and finding specific files within a directory. Only works within allowed directories.")
    @read_only @open_world(false)
    @rename_all("camelCase")
    @open tool list_directory_with_sizes(
        path: string,
        @description("Sort entries by name or size")
        sort_by: SortBy = name,
    ) -> TextContent;

    @title("Directory Tree")
    @description("Get a recursive tree view of files and directories as a JSON structure. Each entry includes 'name', 'type' (file/directory), and 'children' for directories. Files have no children array, while directories always have a children array (which may be empty). The output is formatted with 2-space indentation for readability. Only works within allowed directories.")
    @read_only @open_world(false)
    @rename_all("camelCase")
    @open tool directory_tree(path: string, exclude_patterns: list<string> = []) -> TextContent;

    @title("Move File")
    @description("Move or rename files and directories. Can move files between directories and rename them in a single operation. If the destination exists, the operation will fail. Works across different directories and can be used for simple renaming within the same directory. Both source and destination must be within allowed directories.")
    @read_only(false) @idempotent(false) @destructive @open_world(false)
    @open tool move_file(source: string, destination: string) -> TextContent;

    @title("Search Files")
    @description("Recursively search for files and directories matching a pattern. The patterns should be glob-style patterns that match paths relative to the working directory. Use pattern like '*.ext' to match files in current directory, and '**/*.ext' to match files in all subdirectories. Returns full paths to all matching items. Great for finding files when you don't know their exact location. Only searches within allowed directories.")
    @read_only @open_world(false)
    @rename_all("camelCase")
    @open tool search_files(path: string, pattern: string, exclude_patterns: list<string> = []) -> TextContent;

    @title("Get File Info")
    @description("Retrieve detailed metadata about a file or directory. Returns comprehensive information including size, creation time, last modified time, permissions, and type. This tool is perfect for understanding file characteristics without reading the actual content. Only works within allowed directories.")
    @read_only @open_world(false)
    @open tool get_file_info(path: string) -> TextContent;

    @title("List Allowed Directories")
    @description("Returns the list of directories that this server is allowed to access. Subdirectories within these allowed directories are also accessible. Use this to understand which directories and their nested paths are available before trying to access files.")
    @read_only @open_world(false)
    @open tool list_allowed_directories() -> TextContent;
}
