// Only what the file declares is listed: no tools gives "tools": [], and no static resource
// leaves "resources" out while "resourceTemplates" and "prompts" stay.
package golden.listings_partial;

enum Style { brief, long }

service OnlyTemplates {
    /// Ignored: the attribute wins.
    @description("One   entry, by key.")
    @uri("notes://{key}{?style}")
    resource entry(key: string, style: Style?) -> string;
}

service OnlyPrompts {
    /// Reviews   a
    ///    change.
    prompt Review(
        @description("What to review.") diff: string,
        /// How to answer.
        style: Style = brief,
        lines: u32?,
    ) -> string;
}
