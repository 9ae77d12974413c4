// Constraints of items, map values and union variants, after: tags and ids tightened
// (breaking), weights changed, who's login gains a length, loose loosened (breaks only the
// implementer); the result's items tightened (a changed result, as every result type change).
package diff.elements;

type Tag = @length(1, 16) string;
type Id = @range(min: 10) u32;
type Wide = @length(min: 1) string;
type Weight = @range(min: 0, max: 100) u32;
type Login = @length(1, 39) string;

union Who {
    login: Login,
    id: Id,
}

service Tags {
    tool tag(
        tags: list<Tag>,
        ids: set<Id>,
        weights: map<string, Weight>,
        who: list<Who>,
        loose: list<Wide>,
    ) -> list<Tag>;
}
