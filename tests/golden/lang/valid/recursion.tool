// Recursion through list, set, map and `?` is allowed.
record Tree {
    label: string,
    children: list<Tree>,
}

record Node {
    value: i64,
    next: Node?,
}

/// Mutual recursion through a map and a nullable field.
record Folder {
    files: map<string, File>,
    parent: Folder?,
}

record File {
    name: string,
    folder: Folder?,
}

record Graph {
    nodes: set<Graph>,
}

service Trees {
    tool walk(tree: Tree, start: Node?) -> Folder;
}
