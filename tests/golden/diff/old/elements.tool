// Constraints of items, map values and union variants, before.
package diff.elements;

type Tag = @length(1, 32) string;
type Id = @range(min: 1) u32;
type Login = string;

union Who {
    login: Login,
    id: Id,
}

service Tags {
    tool tag(
        tags: list<Tag>,
        ids: set<Id>,
        weights: map<string, Id>,
        who: list<Who>,
        loose: list<Tag>,
    ) -> list<Tag>;
}
