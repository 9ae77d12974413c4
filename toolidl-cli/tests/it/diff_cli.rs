//! Golden tests of `toolidl diff`, and `--against` in a git repository.
//!
//! For each `tests/golden/diff/old/<case>.tool` and `new/<case>.tool`, the output of
//! `toolidl diff old/<case>.tool new/<case>.tool` (run from `tests/golden/diff`) must equal
//! `<case>.txt`, and `<case>.json` for `--format json` where it exists. The exit code must be
//! 1 exactly when a change is `breaking` or `behaviour`. `TOOLIDL_BLESS=1` rewrites the
//! expected files: read each by eye against `docs/diff.md` before committing.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{text, toolidl};

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/golden/diff")
}

fn cases() -> Vec<String> {
    let mut stems: Vec<String> = fs::read_dir(golden_dir().join("old"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "tool"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    stems.sort();
    stems
}

#[test]
fn golden_diffs() {
    let bless = std::env::var_os("TOOLIDL_BLESS").is_some_and(|v| v == "1");
    let mut failures = Vec::new();
    for case in cases() {
        let old = format!("old/{case}.tool");
        let new = format!("new/{case}.tool");
        let mut runs = vec![("txt", toolidl(&golden_dir(), &["diff", &old, &new]))];
        if golden_dir().join(format!("{case}.json")).exists() || bless && case == "types" {
            let json = toolidl(&golden_dir(), &["diff", &old, &new, "--format", "json"]);
            runs.push(("json", json));
        }
        for (ext, output) in runs {
            let stdout = text(&output.stdout);
            assert_eq!(text(&output.stderr), "", "{case}");
            let failing = if ext == "txt" {
                stdout.contains("breaking[") || stdout.contains("behaviour[")
            } else {
                stdout.contains("\"client_breaking\": true")
            };
            assert_eq!(
                output.status.code(),
                Some(i32::from(failing)),
                "{case}: {stdout}"
            );
            let path = golden_dir().join(format!("{case}.{ext}"));
            if bless {
                fs::write(&path, &stdout).unwrap();
            } else if fs::read_to_string(&path).ok().as_deref() != Some(stdout.as_str()) {
                failures.push(format!("{}: actual output:\n{stdout}", path.display()));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "TOOLIDL_BLESS=1 rewrites them (review by eye):\n{}",
        failures.join("\n")
    );
}

/// Every code documented in docs/diff.md appears in some golden output, and every code in
/// the outputs is documented.
#[test]
fn every_documented_rule_has_a_golden_case() {
    let docs = fs::read_to_string(golden_dir().join("../../../docs/diff.md")).unwrap();
    let documented: Vec<&str> = docs
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next())
        .filter(|code| {
            code.contains('_') && code.chars().all(|c| c.is_ascii_uppercase() || c == '_')
        })
        .collect();
    assert!(documented.len() > 40, "{documented:?}");
    let mut outputs = String::new();
    for case in cases() {
        outputs += &fs::read_to_string(golden_dir().join(format!("{case}.txt"))).unwrap();
    }
    for code in &documented {
        assert!(
            outputs.contains(&format!("[{code}]")),
            "no golden case for {code}"
        );
    }
    for line in outputs.lines() {
        if let Some(code) = line.split('[').nth(1).and_then(|r| r.split(']').next()) {
            assert!(documented.contains(&code), "{code} is not in docs/diff.md");
        }
    }
}

#[test]
fn implementer_breaking_changes_fail_on_request() {
    let args = ["diff", "old/package.tool", "new/package.tool"];
    assert_eq!(toolidl(&golden_dir(), &args).status.code(), Some(0));
    let mut strict = args.to_vec();
    strict.push("--implementer-breaking");
    assert_eq!(toolidl(&golden_dir(), &strict).status.code(), Some(1));
}

#[test]
fn a_version_that_does_not_resolve_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("a.tool"), "record A { x: Nope }").unwrap();
    fs::write(dir.path().join("b.tool"), "record A { x: u8 }").unwrap();
    let output = toolidl(dir.path(), &["diff", "a.tool", "b.tool"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("error[E0101]"));
    assert_eq!(
        toolidl(dir.path(), &["diff", "a.tool"]).status.code(),
        Some(2)
    );
    let output = toolidl(dir.path(), &["diff", "missing.tool", "b.tool"]);
    assert_eq!(output.status.code(), Some(2));
}

fn git(dir: &Path, args: &[&str]) {
    let status = Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "git {args:?}: {}",
        text(&status.stderr)
    );
}

#[test]
fn against_a_git_revision() {
    let repo = tempfile::tempdir().unwrap();
    let dir = repo.path().join("tools");
    fs::create_dir(&dir).unwrap();
    fs::write(dir.join("common.tool"), "package c;\nenum Units { a, b }\n").unwrap();
    fs::write(
        dir.join("w.tool"),
        "import \"common.tool\";\nservice S {\n    tool t(u: Units);\n}\n",
    )
    .unwrap();
    git(repo.path(), &["init", "-q"]);
    git(repo.path(), &["add", "."]);
    git(repo.path(), &["commit", "-q", "-m", "one"]);
    fs::write(dir.join("common.tool"), "package c;\nenum Units { a }\n").unwrap();
    fs::write(
        dir.join("w.tool"),
        "import \"common.tool\";\nservice S {\n    tool t(u: Units, v: u8);\n}\n",
    )
    .unwrap();
    let output = toolidl(repo.path(), &["diff", "--against", "HEAD", "tools/w.tool"]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    assert_eq!(
        text(&output.stdout),
        "tools/w.tool:3:22: breaking[PARAM_ADDED_REQUIRED]: tool `t`: required parameter `v` added\n\
         tools/common.tool:2:6: breaking[ENUM_MEMBER_REMOVED]: enum `Units`: member `b` removed\n\
         2 changes: 2 breaking, 0 behaviour, 0 implementer, 0 compatible\n"
    );
    let output = toolidl(repo.path(), &["diff", "--against", "nope", "tools/w.tool"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("cannot read `nope:tools/w.tool`"));
}
