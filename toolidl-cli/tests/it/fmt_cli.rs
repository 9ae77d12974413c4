//! `toolidl fmt` as a user runs it: in place, `--check` with a diff, stdin, refusals.

use crate::common;

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::{text, toolidl};

fn golden(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/golden/fmt")
        .join(name)
}

/// A temporary folder holding `name` with the contents of the golden input `case`.
fn scratch(case: &str, name: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::copy(golden(case), dir.path().join(name)).unwrap();
    dir
}

#[test]
fn formats_in_place_and_then_has_nothing_to_do() {
    let dir = scratch("layout.tool", "a.tool");
    let output = toolidl(dir.path(), &["fmt", "a.tool"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(text(&output.stdout), "");
    assert_eq!(
        fs::read_to_string(dir.path().join("a.tool")).unwrap(),
        fs::read_to_string(golden("layout.formatted.tool")).unwrap()
    );
    let output = toolidl(dir.path(), &["fmt", "--check", "a.tool"]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(text(&output.stdout), "");
    // Nothing but the file is left in the folder (the temporary file was renamed).
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn check_prints_a_unified_diff_and_exits_1_without_writing() {
    let dir = tempfile::tempdir().unwrap();
    let original = "record A { x: u8 }\nenum E {a,b}\n";
    fs::write(dir.path().join("a.tool"), original).unwrap();
    fs::write(dir.path().join("ok.tool"), "enum E { a }\n").unwrap();
    let output = toolidl(dir.path(), &["fmt", "--check", "a.tool", "ok.tool"]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        text(&output.stdout),
        "--- a.tool\n+++ a.tool (formatted)\n@@ -1,2 +1,5 @@\n-record A { x: u8 }\n-enum E {a,b}\n+record A {\n+    x: u8,\n+}\n+\n+enum E { a, b }\n"
    );
    assert_eq!(
        text(&output.stderr),
        "toolidl fmt --check: 1 file would change\n"
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("a.tool")).unwrap(),
        original
    );
}

#[test]
fn stdin_to_stdout() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolidl"))
        .args(["fmt", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"service S{tool t(a:u8)->u8;}")
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(
        text(&output.stdout),
        "service S {\n    tool t(a: u8) -> u8;\n}\n"
    );
}

#[test]
fn a_file_that_does_not_parse_is_refused_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let broken = "record A {\n    x: u8\n    y: u8\n}\n";
    fs::write(dir.path().join("broken.tool"), broken).unwrap();
    fs::write(dir.path().join("fine.tool"), "enum E {a}").unwrap();
    let output = toolidl(dir.path(), &["fmt", "broken.tool", "fine.tool"]);
    assert_eq!(output.status.code(), Some(1));
    let err = text(&output.stderr);
    assert!(err.starts_with("error[E0001]: syntax error"), "{err}");
    // Reported where the comma is missing: the end of line 2.
    assert!(err.contains("--> broken.tool:2:10"), "{err}");
    assert!(err.ends_with("toolidl fmt: 1 of 2 files failed\n"), "{err}");
    assert_eq!(
        fs::read_to_string(dir.path().join("broken.tool")).unwrap(),
        broken
    );
    // The other file is formatted all the same.
    assert_eq!(
        fs::read_to_string(dir.path().join("fine.tool")).unwrap(),
        "enum E { a }\n"
    );
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 2);
}

#[test]
fn a_file_that_does_not_resolve_is_formatted() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("a.tool"), "record A { x: Nope }").unwrap();
    let output = toolidl(dir.path(), &["fmt", "a.tool"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(
        fs::read_to_string(dir.path().join("a.tool")).unwrap(),
        "record A {\n    x: Nope,\n}\n"
    );
}

#[test]
fn unreadable_files_and_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let output = toolidl(dir.path(), &["fmt", "missing.tool"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stderr).contains("error[E1000]: cannot read `missing.tool`: no such file")
    );
    assert_eq!(toolidl(dir.path(), &["fmt"]).status.code(), Some(2));
}

#[cfg(unix)]
#[test]
fn permissions_and_links_are_kept() {
    use std::os::unix::fs::{PermissionsExt, symlink};
    let dir = scratch("layout.tool", "real.tool");
    let real = dir.path().join("real.tool");
    fs::set_permissions(&real, fs::Permissions::from_mode(0o640)).unwrap();
    symlink("real.tool", dir.path().join("link.tool")).unwrap();
    let output = toolidl(dir.path(), &["fmt", "link.tool"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(
        fs::symlink_metadata(dir.path().join("link.tool"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let mode = fs::metadata(&real).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
    assert_eq!(
        fs::read_to_string(&real).unwrap(),
        fs::read_to_string(golden("layout.formatted.tool")).unwrap()
    );
}
