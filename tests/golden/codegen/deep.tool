// Inputs a client can nest as deep as it likes: each decoder below stops at the server's
// nesting limit (128 levels by default) instead of overflowing the stack. A union cannot
// be recursive (E0902), so the union case nests through a variant's `json`.
package codegen.deep;

/// A tree, recursive through a list.
record Tree {
    name: string,
    children: list<Tree>,
}

/// Mutual recursion through an optional field and a map.
record Branch {
    leaf: Leaf?,
}

record Leaf {
    branches: map<string, Branch>,
}

/// Text, or a document of any shape.
union Payload {
    text: string,
    doc: map<string, json>,
}

service Deep {
    /// Counts the nodes of a tree.
    tool walk(root: Tree) -> u64;

    /// Counts the leaves of a branch.
    tool grow(branch: Branch) -> u64;

    /// Reads a payload.
    tool send(payload: Payload) -> string;

    /// Counts the cells of a grid.
    tool cells(grid: list<list<list<i32>>>) -> u64;

    /// Echoes any JSON value.
    tool echo(value: json) -> json;

    /// Builds a tree `depth` levels deep.
    tool build(@range(0, 1000000) depth: u32) -> Tree;
}
