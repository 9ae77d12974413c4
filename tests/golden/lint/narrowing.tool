// What a published variant narrows (L0314, L0315, L0316, under `--published`): openai-strict closes
// every object and requires every property. An optional parameter without a default takes
// `null` there (read as left out), a map is a list of `{key, value}` entries; what is left
// can no longer be sent.
package lint.narrowing;

/// Nothing to say.
record Empty {}

/// A place.
record Place {
    /// Its name.
    name: string,
    /// Its zip code, or null: optional and nullable.
    zip?: string?,
}

/// Whatever is given: open, with no fields.
@open
record Bag {}

service Narrowing {
    /// Tags a note.
    tool tag(
        /// A comment: published as a string or null (null leaves it out).
        note?: string,
        /// A rating, or null: null already means null, so it cannot be left out.
        rating?: i32?,
        /// Labels: published as entries.
        labels: map<string, string>,
        /// Anything: can only be `{}` under openai-strict.
        extra: object,
        /// A place.
        place: Place,
        /// Nothing: closed in the standard listing too.
        empty: Empty,
        /// A page, with a default the model sends.
        page: u32 = 1,
        /// Where to go on, or null: `= null` writes no `default`, but null and left out
        /// mean the same.
        cursor: string? = null,
        /// A bag: can only be `{}` under openai-strict.
        bag: Bag,
        /// Places by name: entries whose values keep `zip`.
        places: map<string, Place>,
        /// What to tag: an empty map cannot be sent under openai-strict.
        selection: Selection,
    );
}

/// Names, or counts by name: `[]` is both under openai-strict.
union Selection {
    names: list<string>,
    counts: map<string, u32>,
}
