//! `toolidl::diff` over the repository's `.tool` files: a file compared with itself, or with
//! its formatted text, has no change. (The rules are pinned by the golden pairs of
//! `tests/golden/diff`, run through the CLI in `toolidl-cli/tests/it/diff_cli.rs`.)

use crate::corpus;

use corpus::{corpus, model};
use toolidl::diff::diff;
use toolidl::source::FileId;

#[test]
fn a_file_against_itself_or_its_formatting_has_no_change() {
    let mut compared = 0;
    for (path, text) in corpus() {
        let Some(m) = model(path, text) else {
            continue;
        };
        assert_eq!(diff(&m, &m), vec![], "{path}");
        let formatted = toolidl::fmt::format(FileId(0), text).unwrap();
        let f = model(path, &formatted).unwrap();
        assert_eq!(diff(&m, &f), vec![], "{path}");
        compared += 1;
    }
    assert!(compared > 30, "{compared}");
}

#[test]
fn a_renamed_package_is_one_change() {
    let text = "package a.v1;\nrecord R { x: u8 }\nservice S { tool t(r: R) -> R; }\n";
    let old = model("a.tool", text).unwrap();
    let new = model("a.tool", &text.replace("a.v1", "a.v2")).unwrap();
    let codes: Vec<_> = diff(&old, &new).iter().map(|c| c.code.as_str()).collect();
    assert_eq!(codes, vec!["PACKAGE_CHANGED"]);
}

#[test]
fn a_64_bit_integer_to_integer_widens_and_back_narrows() {
    let old_text = "service S { tool t(n: i64, m: u64) -> integer; }\n";
    let new_text = "service S { tool t(n: integer, m: integer) -> i64; }\n";
    let old = model("a.tool", old_text).unwrap();
    let new = model("a.tool", new_text).unwrap();
    let codes: Vec<_> = diff(&old, &new).iter().map(|c| c.code.as_str()).collect();
    assert_eq!(
        codes,
        vec!["RESULT_CHANGED", "PARAM_TYPE_WIDENED", "PARAM_TYPE_WIDENED"]
    );
    let back: Vec<_> = diff(&new, &old).iter().map(|c| c.code.as_str()).collect();
    assert_eq!(
        back,
        vec![
            "RESULT_CHANGED",
            "PARAM_TYPE_NARROWED",
            "PARAM_TYPE_NARROWED"
        ]
    );
}
