service Bookmarks {
    /// Adds a bookmark.
    tool add(url: uri) -> u64
    /// Removes one.
    tool remove(id: u64);
}
