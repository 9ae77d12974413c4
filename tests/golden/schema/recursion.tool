// Recursion and mutual recursion: the records of a cycle go to the root's $defs.
package golden.recursion;

/// A directory tree.
record Dir {
    name: string,
    children: list<Dir>,
    files: map<string, File>,
}

/// A file in a directory.
record File {
    size: u64,
    parent: Dir?,
}

/// An expression.
record Expr {
    op: string,
    args: list<Term>,
}

record Term {
    value: f64?,
    sub: Expr?,
}

/// Not in a cycle, used twice.
record Meta {
    key: string,
}

service Recursive {
    tool walk(
        root: Dir,
        @description("Where to start.") start: File?,
        meta: Meta,
        other_meta: Meta?,
    ) -> Dir;

    tool eval(expr: Expr) -> map<string, Term>;
}
