// Named constrained types (`type Name = @constraints T;`) and parameter groups (`..Record`).
package golden.named_types;

/// How many items a page holds.
type PageSize = @range(1, 100) u8;
type Slug = @length(1, 40) @pattern("^[a-z0-9-]+$") string;
type Id = uuid;
type Tags = @length(max: 5) list<string>;
type MaybeName = string?;

/// Which repository.
@rename_all("camelCase")
record RepoRef {
    owner_name: Slug,
    repo: Slug,
    branch: string = "main",
}

service Issues {
    tool list_issues(
        ..RepoRef,
        /// Items per page.
        size: PageSize = 20,
        other_size: PageSize?,
        nick: MaybeName = null,
        id?: Id,
        tags: Tags = [],
        ids: list<Id> = [],
    );
    tool get_issue(number: u32, ..RepoRef);
}
