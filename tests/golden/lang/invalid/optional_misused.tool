// `?:` with a default, and `?:` where it does not apply.
record Window {
    head?: u32 = 10,
    tail?: u32? = null,
}

service Lines {
    tool read(path: string, head?: u32 = 5);

    @uri("lines://{path}")
    resource file(path?: string) -> string;

    prompt summarize(path: string, focus?: string) -> string;
}
