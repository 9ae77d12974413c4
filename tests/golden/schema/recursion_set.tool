// Mutual recursion through `set` and `map`, self-recursion through `?`, and a nullable
// recursive record as a result: its outputSchema keeps "type": "object" and has $defs.
package golden.recursion_set;

/// A group of members.
record Group {
    members: map<string, Member>,
}

/// A member of groups.
record Member {
    groups: set<Group>?,
    mentor: Member?,
}

service Groups {
    tool find(group: Group) -> Member?;
}
