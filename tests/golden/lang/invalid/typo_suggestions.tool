// Typos of declared names (a transposition) and type names of other languages: each help
// says how a `.tool` file writes it.
type Tag = @length(1, 32) string;

record Bookmark {
    tag: Tga,
    count: int,
    title: str,
    read: boolean,
    score: float,
    tags: Vec<Tag>,
    note: Option<string>,
    extra: HashMap<String, u32>,
    seen: HashSet<u64>,
    link: Url,
}
