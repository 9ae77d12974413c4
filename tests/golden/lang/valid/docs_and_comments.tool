//// Four slashes make an ordinary comment again.
// No package: the package is the file stem.

/// A record
///   documented over
/// three lines.
@description("Overrides the doc comment.")
record Documented {
    /// A field.
    // An ordinary comment between a doc comment and its field.
    field: string, // trailing comment
    ///
    /// Blank doc lines are kept.
    ///
    other: i32,
}

/// Enum doc.
enum Kind {
    /// First member.
    first,
    second, // no doc
}

/// Service doc.
service Documentation {
    /// Tool doc.
    tool documented(
        /// Parameter doc.
        @description("Parameter description.") kind: Kind,
        plain: Documented,
    ) -> Documented;
}
