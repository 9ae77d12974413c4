// Named types and parameter groups used where they do not fit.
type PageSize = @range(1, 100) u8;
type Slug = @length(1, 40) string;
type MaybeSlug = Slug?;
type Name = string?;
type Bad = @range(1, 2) string;
enum Color { red }

record RepoRef { owner: Slug, repo: Slug }

record Page {
    sizes: list<PageSize>,
    @range(1, 10) size: PageSize,
    name: Name?,
    size2: PageSize = 200,
}

service Issues {
    tool a(..RepoRef, owner: string);
    tool b(..Color);
    tool c(..RepoRef, ..RepoRef);
    prompt d(..RepoRef) -> string;
    tool e(..Missing);
}
