use super::*;

fn fmt(text: &str) -> String {
    match format(FileId(0), text) {
        Ok(out) => out,
        Err(diagnostics) => panic!("{diagnostics:?}"),
    }
}

#[test]
fn an_empty_file_stays_empty() {
    assert_eq!(fmt(""), "");
    assert_eq!(fmt("  \n\n"), "");
    assert_eq!(fmt("// only\n\n\n"), "// only\n");
}

#[test]
fn a_small_file() {
    assert_eq!(
        fmt(
            "package  a.b ;import \"x.tool\";enum E{a,b,}record R{x:list< u8 >?,@range(min:1,)y:u8=3}service S{tool t(a:E)->string;prompt p();}"
        ),
        "package a.b;\n\nimport \"x.tool\";\n\nenum E { a, b }\n\nrecord R {\n    x: list<u8>?,\n    @range(min: 1) y: u8 = 3,\n}\n\nservice S {\n    tool t(a: E) -> string;\n    prompt p();\n}\n"
    );
}
