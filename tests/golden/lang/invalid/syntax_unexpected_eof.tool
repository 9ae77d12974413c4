service S {
    tool ping(
