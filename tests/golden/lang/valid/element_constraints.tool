// Constrained named types as the items of lists and sets, the values of maps, the variants
// of unions, and inside other named types: each item carries its type's constraints.
package golden.lang.element_constraints;

/// A label: lower-case words and dashes.
type Tag = @length(1, 32) @pattern("^[a-z0-9-]+$") string;
type IssueNumber = @range(min: 1) u32;
type Ratio = @range(exclusive_min: 0.0, max: 1.0) f32;
type Contact = @email string;
type Login = @length(1, 39) string;
/// A named type of a named type: a tag of at most 16 characters.
type ShortTag = @length(max: 16) Code;
type Code = @pattern("^[A-Z]+$") string;
/// A named type whose items are constrained.
type TagSet = @length(max: 5) set<Tag>;
/// A link to a GitHub page: a `uri` with a pattern.
type GithubLink = @pattern("^https://github\\.com/") uri;

/// A login or an issue number.
union Assignee {
    /// A GitHub login.
    login: Login,
    number: IssueNumber,
}

record Label {
    name: Tag,
    aliases: list<Tag> = [],
}

service Issues {
    tool tag(
        tags: set<Tag>,
        numbers: list<IssueNumber> = [1, 2],
        weights: map<string, Ratio> = {},
        contacts: list<Contact?> = [],
        codes: list<ShortTag> = [],
        groups: list<list<Tag>> = [],
        limited: TagSet = [],
        assignees: list<Assignee> = [],
        labels: list<Label> = [],
        links: list<GithubLink> = [],
        @pattern("^https://") homepage?: uri,
    );
}
