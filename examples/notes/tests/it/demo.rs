//! `--demo` plays its session with no client and exits 0.

use std::process::Command;

#[test]
fn demo_runs_alone_and_shows_the_argument_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_notes-example"))
        .arg("--demo")
        .output()
        .expect("run --demo");
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let server = format!(
        "← notes-example {}, protocol 2025-11-25",
        env!("CARGO_PKG_VERSION")
    );
    for shown in [
        "→ initialize",
        server.as_str(),
        "← 7 tools: create_note, get_note, update_note, delete_note, search_notes, list_tags, import_notes",
        "→ tools/call create_note {",
        "\"nextCursor\": \"before:2\"",
        "→ resources/read {\"uri\":\"notes://1\"}",
        "    # Buy milk",
        "← {\"completion\":{\"values\":[\"groceries\"],\"total\":1}}",
        "→ prompts/get",
        "← error result: Argument 'title' is not valid. Expected at least 1 character.",
        "← error result: No note with id 99.",
    ] {
        assert!(text.contains(shown), "missing {shown:?} in:\n{text}");
    }
    assert!(!text.contains("error -32"), "no protocol error:\n{text}");
}

#[test]
fn bad_command_lines_exit_2_with_the_usage() {
    for args in [
        &["--demo", "--db", "x.db"][..],
        &["--stateless"],
        &["--http", "nowhere"],
        &["--db"],
        &["--frobnicate"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_notes-example"))
            .args(args)
            .output()
            .expect("run");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("usage: notes-example"), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}
