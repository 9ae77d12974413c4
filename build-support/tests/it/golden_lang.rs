//! Golden tests of the `.tool` language.
//!
//! - `tests/golden/lang/valid/<case>.tool` must resolve; `<case>.model.json` is the model,
//!   pretty-printed. When the file has warnings, `<case>.diagnostics.txt` pins them;
//!   otherwise that file must not exist.
//! - `tests/golden/lang/invalid/<case>.tool` must fail; `<case>.diagnostics.txt` is every
//!   diagnostic, rendered.
//!
//! Paths in diagnostics are relative to the case's folder, so the bytes do not depend on
//! where the repository lives. `TOOLIDL_BLESS=1` rewrites the expected files from the actual
//! output: read every rewritten file by eye against the contract before committing.

use std::fs;
use std::path::{Path, PathBuf};

use toolidl_build::compile::compile_in;

fn golden_dir(kind: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/golden/lang")
        .join(kind)
}

fn blessing() -> bool {
    std::env::var_os("TOOLIDL_BLESS").is_some_and(|v| v == "1")
}

/// The file names in `dir` ending with `suffix`, sorted.
fn files_ending(dir: &Path, suffix: &str) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(suffix))
        .collect();
    names.sort();
    names
}

fn stem(name: &str) -> &str {
    name.strip_suffix(".tool").unwrap()
}

fn first_difference(actual: &str, expected: &str) -> String {
    for (n, (a, e)) in actual.lines().zip(expected.lines()).enumerate() {
        if a != e {
            return format!("line {}:\n  actual:   {a}\n  expected: {e}", n + 1);
        }
    }
    format!(
        "one is a prefix of the other ({} vs {} lines)",
        actual.lines().count(),
        expected.lines().count()
    )
}

/// Compares `actual` with the file `path` (absent = `None`), or rewrites it when blessing.
/// Returns a failure message.
fn compare(path: &Path, actual: Option<&str>) -> Option<String> {
    let expected = fs::read_to_string(path).ok();
    if blessing() {
        match actual {
            Some(text) => fs::write(path, text).unwrap(),
            None if expected.is_some() => fs::remove_file(path).unwrap(),
            None => {}
        }
        return None;
    }
    let name = path.file_name().unwrap().to_string_lossy();
    match (actual, expected.as_deref()) {
        (Some(a), Some(e)) if a == e => None,
        (None, None) => None,
        (Some(a), Some(e)) => Some(format!("{name} differs at {}", first_difference(a, e))),
        (Some(a), None) => Some(format!("{name} is missing; the actual output is:\n{a}")),
        (None, Some(_)) => Some(format!("{name} exists, but there is no such output")),
    }
}

fn report(failures: Vec<String>) {
    assert!(
        failures.is_empty(),
        "{} golden mismatch(es) (TOOLIDL_BLESS=1 rewrites them; review by eye):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn valid_files_resolve_to_their_golden_models() {
    let dir = golden_dir("valid");
    let cases = files_ending(&dir, ".tool");
    assert!(cases.len() >= 5, "too few valid cases: {cases:?}");
    let mut failures = Vec::new();
    for case in &cases {
        let stem = stem(case);
        match compile_in(&dir, Path::new(case)) {
            Err(failed) => failures.push(format!("{case} should resolve:\n{}", failed.rendered)),
            Ok(compiled) => {
                let json = serde_json::to_string_pretty(&compiled.model).unwrap() + "\n";
                let warnings = (!compiled.warnings.is_empty()).then_some(compiled.warnings);
                failures.extend(compare(
                    &dir.join(format!("{stem}.model.json")),
                    Some(&json),
                ));
                failures.extend(compare(
                    &dir.join(format!("{stem}.diagnostics.txt")),
                    warnings.as_deref(),
                ));
            }
        }
    }
    report(failures);
}

/// A model read back from its JSON (the form `tools`, `resources` and `prompts` hold, not the
/// model's own list of members) is the model it was written from: the members come back in
/// their kinds and order, the type index is rebuilt, and writing it again gives the same bytes.
#[test]
fn golden_models_read_back_as_the_models_they_came_from() {
    let dir = golden_dir("valid");
    let mut failures = Vec::new();
    for case in &files_ending(&dir, ".tool") {
        let Ok(compiled) = compile_in(&dir, Path::new(case)) else {
            continue;
        };
        let json = serde_json::to_string_pretty(&compiled.model).unwrap();
        let read: toolidl::model::Model = match serde_json::from_str(&json) {
            Ok(model) => model,
            Err(e) => {
                failures.push(format!("{case}: the model's JSON does not read back: {e}"));
                continue;
            }
        };
        if read != compiled.model {
            failures.push(format!(
                "{case}: the model read back differs from the model"
            ));
        }
        if serde_json::to_string_pretty(&read).unwrap() != json {
            failures.push(format!("{case}: the model read back writes other JSON"));
        }
        for t in read.types() {
            if read.lookup(t.package(), t.name()) != Some(t) {
                failures.push(format!(
                    "{case}: `{}.{}` is not found",
                    t.package(),
                    t.name()
                ));
            }
        }
    }
    report(failures);
}

#[test]
fn invalid_files_fail_with_their_golden_diagnostics() {
    let dir = golden_dir("invalid");
    let cases = files_ending(&dir, ".tool");
    assert!(cases.len() >= 10, "too few invalid cases: {cases:?}");
    let mut failures = Vec::new();
    for case in &cases {
        let stem = stem(case);
        match compile_in(&dir, Path::new(case)) {
            Ok(_) => failures.push(format!("{case} should fail, but it resolves")),
            Err(failed) => {
                assert!(
                    failed.rendered.contains("error["),
                    "{case}: a failure without an error:\n{}",
                    failed.rendered
                );
                failures.extend(compare(
                    &dir.join(format!("{stem}.diagnostics.txt")),
                    Some(&failed.rendered),
                ));
            }
        }
    }
    report(failures);
}

/// Every expected file belongs to a `.tool` case: a renamed case leaves no stale golden.
#[test]
fn no_expected_file_without_its_case() {
    for kind in ["valid", "invalid"] {
        let dir = golden_dir(kind);
        let cases = files_ending(&dir, ".tool");
        for suffix in [".model.json", ".diagnostics.txt"] {
            for expected in files_ending(&dir, suffix) {
                let case = expected.replace(suffix, ".tool");
                assert!(
                    cases.contains(&case),
                    "{kind}/{expected} has no {kind}/{case}"
                );
            }
        }
    }
}

/// Every error of the invalid cases says what to do about it (a `= help:` line).
#[test]
fn every_error_has_a_help_line() {
    let dir = golden_dir("invalid");
    let mut missing = Vec::new();
    for name in files_ending(&dir, ".diagnostics.txt") {
        let text = fs::read_to_string(dir.join(&name)).unwrap();
        let mut block = String::new();
        for line in text.lines().chain(["error["]) {
            if line.starts_with("error[") || line.starts_with("warning[") {
                if block.starts_with("error[") && !block.contains("= help:") {
                    missing.push(format!("{name}: {}", block.lines().next().unwrap_or("")));
                }
                block.clear();
            }
            block.push_str(line);
            block.push('\n');
        }
    }
    assert!(
        missing.is_empty(),
        "errors without help:\n{}",
        missing.join("\n")
    );
}
