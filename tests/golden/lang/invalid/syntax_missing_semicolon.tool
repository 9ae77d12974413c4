service S {
    tool ping() -> string
    tool pong();
}
