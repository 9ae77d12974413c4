// Layout and comments only: no change.
service S {
    // A new comment.
    tool ping(
        a: u8,
        b: string = "x",
    ) -> string;
}
