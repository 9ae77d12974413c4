//! `toolidl check` and `toolidl schema` as a user runs them: exit codes, where output goes, what it says.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn lang_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/golden/lang")
}

/// Runs `toolidl <args>` from the golden language folder.
fn toolidl(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_toolidl"))
        .args(args)
        .current_dir(lang_dir())
        .output()
        .unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

#[test]
fn a_valid_file_exits_0_and_prints_its_warnings() {
    let output = toolidl(&["check", "valid/design_example.tool"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        "valid/design_example.tool: ok (package acme.weather: 2 types, 1 service, 2 tools, 1 resource, 1 prompt)\n"
    );
    let err = stderr(&output);
    assert!(err.contains("warning[W0401]"), "{err}");
    assert!(err.contains("--> valid/design_example.tool:25:11"), "{err}");
    assert!(!err.contains("error["), "{err}");
}

#[test]
fn a_clean_file_prints_nothing_on_stderr() {
    let output = toolidl(&["check", "valid/common.tool", "valid/imports.tool"]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stderr(&output), "");
    assert_eq!(stdout(&output).lines().count(), 2);
}

#[test]
fn an_invalid_file_exits_1_with_rendered_diagnostics_on_stderr() {
    let output = toolidl(&["check", "invalid/many_errors.tool"]);
    assert_eq!(output.status.code(), Some(1));
    let err = stderr(&output);
    let golden =
        std::fs::read_to_string(lang_dir().join("invalid/many_errors.diagnostics.txt")).unwrap();
    // The same diagnostics as the golden file, with the path as given on the command line.
    let expected = golden.replace("--> many_errors.tool", "--> invalid/many_errors.tool");
    assert!(err.starts_with(&expected), "{err}");
    assert!(
        err.ends_with("toolidl check: 1 of 1 file failed\n"),
        "{err}"
    );
    assert_eq!(stdout(&output), "");
}

#[test]
fn one_bad_file_among_good_ones_fails_the_run_but_checks_every_file() {
    let output = toolidl(&[
        "check",
        "valid/common.tool",
        "invalid/unknown_types.tool",
        "valid/paging.tool",
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stdout(&output).lines().count(), 2, "{}", stdout(&output));
    let err = stderr(&output);
    assert!(err.contains("error[E0101]: unknown type `Strin`"), "{err}");
    assert!(
        err.ends_with("toolidl check: 1 of 3 files failed\n"),
        "{err}"
    );
}

/// `toolidl check main.tool` in the folder of `main.tool`: the folder of a bare file name is
/// the current one, where the "did you mean" of a missing import looks.
#[test]
fn a_missing_import_of_a_bare_file_name_gets_a_suggestion() {
    let output = Command::new(env!("CARGO_BIN_EXE_toolidl"))
        .args(["check", "import_typo.tool"])
        .current_dir(lang_dir().join("invalid"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let err = stderr(&output);
    assert!(
        err.contains("help: did you mean \"attributes.tool\"? (import paths are relative to the importing file)"),
        "{err}"
    );
}

#[test]
fn an_unreadable_file_exits_1() {
    for path in ["no/such/file.tool", "valid"] {
        let output = toolidl(&["check", path]);
        assert_eq!(output.status.code(), Some(1), "{path}");
        let err = stderr(&output);
        assert!(err.contains("error[E1000]: cannot read"), "{err}");
        assert!(err.contains(path), "{err}");
    }
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(toolidl(&["check"]).status.code(), Some(2));
    assert_eq!(toolidl(&["chek", "x.tool"]).status.code(), Some(2));
}

#[test]
fn binary_input_does_not_panic() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("binary.tool");
    std::fs::write(&path, [0xff, 0xfe, 0x00, b'r', 0x80]).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_toolidl"))
        .arg("check")
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let err = stderr(&output);
    assert!(err.contains("not UTF-8"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn schema_of_a_file_with_warnings_prints_json_on_stdout_and_warnings_on_stderr() {
    let output = toolidl(&["schema", "valid/design_example.tool"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert!(json["tools"].is_array());
    assert!(stdout(&output).ends_with("}\n"));
    let err = stderr(&output);
    assert!(err.contains("warning[W0401]"), "{err}");
    assert!(!err.contains("error["), "{err}");
}

#[test]
fn schema_of_an_unreadable_or_invalid_file_exits_1_with_nothing_on_stdout() {
    for (path, code) in [
        ("no/such/file.tool", "error[E1000]"),
        ("invalid/many_errors.tool", "error[E0"),
    ] {
        let output = toolidl(&["schema", path]);
        assert_eq!(output.status.code(), Some(1), "{path}");
        assert_eq!(stdout(&output), "", "{path}");
        assert!(
            stderr(&output).contains(code),
            "{path}: {}",
            stderr(&output)
        );
    }
}

#[test]
fn schema_usage_errors_exit_2() {
    assert_eq!(toolidl(&["schema"]).status.code(), Some(2));
    assert_eq!(
        toolidl(&["schema", "valid/common.tool", "valid/imports.tool"])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn a_name_with_a_dot_longer_than_64_characters_gets_both_warnings() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("names.tool");
    let long = format!("a.{}", "b".repeat(70));
    std::fs::write(
        &path,
        format!("service S {{ @name(\"{long}\") tool t(); tool FetchAllTheThingsAsync(); }}\n"),
    )
    .unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_toolidl"))
        .arg("check")
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let err = stderr(&output);
    assert!(err.contains("warning[W0401]"), "{err}");
    assert!(err.contains("warning[W0402]"), "{err}");
    assert_eq!(err.matches("warning[").count(), 2, "{err}");
}

#[test]
fn schema_notes_a_defs_key_that_got_a_suffix() {
    let output = toolidl(&["schema", "../schema/pages.tool"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        stderr(&output),
        "note: tool `browse`: in its inputSchema, record `golden.common.Page` is `$defs/Page2`, \
         because another record of that schema is named `Page`\n"
    );
    assert!(stdout(&output).contains("\"#/$defs/Page2\""));
}

#[test]
fn check_runs_the_generator_s_checks_too() {
    // Names that only clash once they are Rust names (E11xx): the build would fail, so
    // `check` does too.
    let output = toolidl(&["check", "../codegen/invalid/clashes.tool"]);
    assert_eq!(output.status.code(), Some(1));
    let err = stderr(&output);
    assert!(err.contains("error[E1101]"), "{err}");
    assert!(stdout(&output).is_empty());
}
