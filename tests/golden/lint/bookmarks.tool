// What each profile's lint finds in the standard listing, rendered like the language's
// diagnostics: at the parameter or field, with a help line, and for a rule the profile's
// variant avoids, a note that the variant is what a build serves.
package lint.bookmarks;

/// A folder of bookmarks: it refers to itself, so it goes to `$defs`.
record Folder {
    /// Folders inside.
    folders: list<Folder>,
    /// A note, or null.
    note: string?,
}

/// Kinds of bookmark.
enum Kind { page, video }

/// Labels kept as given.
@open
record Labels {
    /// The main one.
    main: string,
}

service Bookmarks {
    /// Adds a bookmark.
    @name("bookmarks.add")
    tool add(
        /// Where it points.
        url: uri,
        /// What it is.
        kind: Kind?,
        /// Where it goes.
        folder: Folder,
        /// Its labels.
        labels: Labels,
        /// A short title.
        @length(1, 80) title: string,
        /// A comment.
        note?: string,
        /// When it was read.
        read_on: date,
    ) -> u64;

    tool remove(id: u64);

    @ui("ui://bookmarks/view")
    tool view();

    /// Resets a second factor: a name that starts with a digit.
    @name("2fa-reset")
    tool reset_second_factor();

    /// Imports bookmarks nested eleven lists deep.
    tool import_nested(
        /// The lists.
        nested: list<list<list<list<list<list<list<list<list<list<list<u8>>>>>>>>>>>,
    );
}
