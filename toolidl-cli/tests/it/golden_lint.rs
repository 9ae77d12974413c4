//! Golden tests of `toolidl lint`: for each `tests/golden/lint/<case>.tool` and each profile,
//! the command's stdout is `<case>.<profile>.txt` byte for byte (`TOOLIDL_BLESS=1` rewrites
//! them; read each by eye). Every finding is rendered like the language's diagnostics: at
//! the declaration (`file:line:col`, the line, a caret) with a help line; an error that the
//! profile's published variant avoids also says so (a note naming `--published` and
//! `configure().profile(…)`), and the variant indeed has none of those. For the cases in
//! [`PUBLISHED`], `--published` is pinned too (`<case>.<profile>.published.txt`): what the
//! variant narrows (L0314, L0315), located at the declarations.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

// Shared with the schema goldens, of which this test uses only `first_difference`.
use crate::support;
use support::first_difference;

const PROFILES: [&str; 4] = ["standard", "claude", "openai-strict", "gemini"];

/// The cases whose published variants are pinned as well.
const PUBLISHED: [&str; 1] = ["narrowing"];

fn lint_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/golden/lint")
}

fn cases() -> Vec<String> {
    let mut stems: Vec<String> = fs::read_dir(lint_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "tool"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    stems.sort();
    assert!(!stems.is_empty());
    stems
}

fn lint(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_toolidl"))
        .arg("lint")
        .args(args)
        .current_dir(lint_dir())
        .output()
        .unwrap();
    (out.status.code(), String::from_utf8(out.stdout).unwrap())
}

/// The rendered findings of a lint output: blocks that start with `error[` or `warning[`.
fn findings(text: &str) -> Vec<&str> {
    let mut starts: Vec<usize> = text
        .match_indices("\n")
        .map(|(i, _)| i + 1)
        .chain([0])
        .filter(|&i| text[i..].starts_with("error[") || text[i..].starts_with("warning["))
        .collect();
    starts.sort_unstable();
    starts
        .iter()
        .enumerate()
        .map(|(n, &start)| {
            let end = starts
                .get(n + 1)
                .copied()
                .unwrap_or_else(|| text.rfind('\n').map_or(text.len(), |i| i + 1));
            &text[start..end]
        })
        .collect()
}

#[test]
fn lint_output_equals_the_golden_files() {
    let bless = std::env::var_os("TOOLIDL_BLESS").is_some_and(|v| v == "1");
    let mut failures = Vec::new();
    for stem in cases() {
        for profile in PROFILES {
            let file = format!("{stem}.tool");
            let mut runs = vec![(
                vec!["--profile", profile, &file],
                format!("{stem}.{profile}.txt"),
            )];
            if PUBLISHED.contains(&stem.as_str()) {
                runs.push((
                    vec!["--profile", profile, "--published", &file],
                    format!("{stem}.{profile}.published.txt"),
                ));
            }
            for (args, golden) in runs {
                let (_, actual) = lint(&args);
                let path = lint_dir().join(&golden);
                if bless {
                    fs::write(&path, &actual).unwrap();
                    continue;
                }
                let expected = fs::read_to_string(&path).unwrap_or_default();
                if actual != expected {
                    failures.push(format!(
                        "{golden}: {}",
                        first_difference(&actual, &expected)
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_finding_is_located_with_a_help_and_errors_name_the_variant() {
    let mut failures = Vec::new();
    for stem in cases() {
        for profile in PROFILES {
            let file = format!("{stem}.tool");
            let (code, text) = lint(&["--profile", profile, &file]);
            let found = findings(&text);
            let mut promised: Vec<String> = Vec::new();
            let errors = found.iter().filter(|f| f.starts_with("error[")).count();
            assert_eq!(
                code,
                Some(i32::from(errors > 0)),
                "{stem} {profile}:\n{text}"
            );
            for finding in found {
                if !finding.contains(&format!("  --> {file}:")) {
                    failures.push(format!("{stem} {profile}: no location:\n{finding}"));
                }
                if !finding.contains("= help: ") {
                    failures.push(format!("{stem} {profile}: no help:\n{finding}"));
                }
                let variant = format!("toolidl lint --profile {profile} --published");
                let named = finding.contains(&variant) && finding.contains("configure().profile(");
                // Depth and size stay as declared in every variant.
                let kept =
                    finding.starts_with("error[L0310]") || finding.starts_with("error[L0311]");
                if profile != "standard" && finding.starts_with("error[L03") && named == kept {
                    failures.push(format!(
                        "{stem} {profile}: the variant is named exactly when it avoids the finding:\n{finding}"
                    ));
                }
                if named {
                    let code = &finding[..finding.find(']').map_or(0, |i| i + 1)];
                    promised.push(code.to_owned());
                }
            }
            // What the notes promise: the variant has none of those findings.
            let (_, published) = lint(&["--profile", profile, "--published", &file]);
            for code in &promised {
                if findings(&published)
                    .iter()
                    .any(|f| f.starts_with(code.as_str()))
                {
                    failures.push(format!(
                        "{stem} {profile} --published still has {code}:\n{published}"
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The narrowing case's openai-strict variant reports L0315 at `rating` and at `Place.zip`
/// (through `place` and through the entries of `places`) and L0314 at `extra` and `bag`, each an error located at its declaration with a help and no note
/// that a variant avoids it; `note`, `labels`, `empty`, `page` and `cursor` are not narrowed, and no
/// other profile's variant narrows anything.
#[test]
fn narrowings_are_located_at_the_declarations() {
    for profile in PROFILES {
        let (code, text) = lint(&["--profile", profile, "--published", "narrowing.tool"]);
        let mut at = Vec::new();
        for finding in findings(&text) {
            if !(finding.contains("[L0314]") || finding.contains("[L0315]")) {
                continue;
            }
            assert!(finding.starts_with("error["), "{profile}:\n{finding}");
            assert!(finding.contains("= help: "), "{profile}:\n{finding}");
            assert!(!finding.contains("--published"), "{profile}:\n{finding}");
            let code = &finding[..finding.find(']').unwrap() + 1];
            let location = finding.split("  --> ").nth(1).unwrap_or("");
            at.push(format!("{code} {}", location.lines().next().unwrap_or("")));
        }
        let expected: &[&str] = if profile == "openai-strict" {
            &[
                "error[L0315] narrowing.tool:28:9",
                "error[L0314] narrowing.tool:32:9",
                "error[L0315] narrowing.tool:15:5",
                "error[L0314] narrowing.tool:43:9",
                "error[L0315] narrowing.tool:15:5",
            ]
        } else {
            &[]
        };
        assert_eq!(at, expected, "{profile}:\n{text}");
        assert_eq!(code, Some(i32::from(!at.is_empty())), "{profile}:\n{text}");
    }
}

/// L0401 comes from the model, not from the listing (which is the same for `-> T` and
/// `-> T?`): a warning under every profile, in the standard listing and in the published
/// variant alike (no variant changes what the server sends for a null result), at each
/// nullable record or map result of `results.tool` and at nothing else.
#[test]
fn nullable_object_results_warn_under_every_profile_and_variant() {
    for profile in PROFILES {
        for published in [false, true] {
            let mut args = vec!["--profile", profile];
            if published {
                args.push("--published");
            }
            args.push("results.tool");
            let (_, text) = lint(&args);
            let mut at = Vec::new();
            for finding in findings(&text) {
                if !finding.contains("[L0401]") {
                    continue;
                }
                assert!(
                    finding.starts_with("warning[L0401]"),
                    "{profile} (published: {published}): L0401 is a warning:\n{finding}"
                );
                let location = finding.split("  --> ").nth(1).unwrap_or("");
                at.push(location.lines().next().unwrap_or("").to_owned());
            }
            assert_eq!(
                at,
                [
                    "results.tool:28:10",
                    "results.tool:34:10",
                    "results.tool:41:10",
                    "results.tool:44:22",
                ],
                "{profile} (published: {published}):\n{text}"
            );
            // The finding names the tool as the listing it lints does.
            let spot = if published && profile != "standard" {
                "tool `places_spot` /outputSchema"
            } else {
                "tool `places.spot` /outputSchema"
            };
            assert!(
                text.contains(spot),
                "{profile} (published: {published}):\n{text}"
            );
        }
    }
}
