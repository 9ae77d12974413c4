// `@scopes` holds RFC 6749 scope tokens: printable ASCII without space, `"` and `\`.
service S {
    @scopes("notes:read notes:write") tool space();
    @scopes("") tool empty();
    @scopes("caf\u{e9}") tool not_ascii();
    @scopes("back\\slash") tool backslash();
    @scopes("quote\"d") tool quote();
    @scopes("tab\there") tool tab();
    @scopes("a", "a") tool twice();
    @scopes(read) tool not_a_string();
    @scopes(scope: "a") tool named();
    @scopes tool no_parentheses();
    @scopes("a") @scopes("b") tool given_twice();
}

@scopes("a")
record R { @scopes("b") x: u8 }
