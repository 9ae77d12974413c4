// Recursion through T? is boxed; through list, set and map it is not.
package codegen.recursion;

/// A node of a tree.
record Node {
    name: string,
    parent: Node?,
    children: list<Node>,
    labels: map<string, Node>,
}

/// Mutual recursion: only the fields that close the cycle inline are boxed.
record Left {
    right: Right?,
    depth: u32,
}

record Right {
    left: Left?,
    leaves: set<Left>,
}

service Trees {
    tool count(tree: Node) -> u64;
    tool mirror(left: Left) -> Left?;
}
