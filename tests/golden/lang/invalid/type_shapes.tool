record Shapes {
    a: map<u32, string>,
    b: string??,
    c: list<string, u8>,
    d: list,
    e: u8<string>,
    f: list<content>,
    g: map<Key, string>,
}

enum Key { one }

service S {
    tool t() -> call_result?;
}

record MoreShapes {
    h: list<map<string, u8>>???,
}
