//! The formatter (`toolidl::fmt`).
//!
//! - Golden pairs: `tests/golden/fmt/<case>.tool` formats to `<case>.formatted.tool`, which
//!   is itself formatted. `TOOLIDL_BLESS=1` rewrites the `.formatted.tool` files: read every
//!   rewritten file by eye before committing.
//! - Every `.tool` file of the repository that parses, and mutations of the ones that resolve
//!   (whitespace, line breaks, comments inserted), keep their tokens and comments in order,
//!   format idempotently, and resolve to the same model (doc comments included).

use crate::corpus;

use std::fs;
use std::path::PathBuf;
use std::sync::OnceLock;

use corpus::{corpus, model_json, repo};
use proptest::prelude::*;
use toolidl::fmt::{comments, format, significant_tokens};
use toolidl::source::FileId;

fn fmt(text: &str) -> Result<String, String> {
    format(FileId(0), text).map_err(|d| format!("{d:?}"))
}

/// What formatting must keep, and that formatting is a fixed point. Returns the formatted
/// text.
fn check_formatting(path: &str, text: &str) -> String {
    let formatted = fmt(text).unwrap_or_else(|e| panic!("{path} does not format: {e}"));
    assert_eq!(
        significant_tokens(&formatted),
        significant_tokens(text),
        "{path}: tokens changed:\n{formatted}"
    );
    assert_eq!(
        comments(&formatted),
        comments(text),
        "{path}: comments changed:\n{formatted}"
    );
    let again = fmt(&formatted).unwrap();
    assert_eq!(again, formatted, "{path}: formatting is not idempotent");
    assert_eq!(
        model_json(path, &formatted),
        model_json(path, text),
        "{path}: the model changed"
    );
    formatted
}

#[test]
fn golden_pairs() {
    let dir = repo().join("tests/golden/fmt");
    let bless = std::env::var_os("TOOLIDL_BLESS").is_some_and(|v| v == "1");
    let mut cases: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.ends_with(".tool") && !name.ends_with(".formatted.tool")
        })
        .collect();
    cases.sort();
    assert!(cases.len() >= 4);
    let mut failures = Vec::new();
    for case in &cases {
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        let text = fs::read_to_string(case).unwrap();
        let formatted = check_formatting(&name, &text);
        let expected_path = case.with_extension("formatted.tool");
        if bless {
            fs::write(&expected_path, &formatted).unwrap();
            continue;
        }
        match fs::read_to_string(&expected_path) {
            Ok(expected) if expected == formatted => {}
            Ok(expected) => failures.push(format!(
                "{name}: the output differs from {}:\n{}",
                expected_path.display(),
                similar_lines(&formatted, &expected)
            )),
            Err(_) => failures.push(format!("{name}: no golden output; actual:\n{formatted}")),
        }
    }
    assert!(
        failures.is_empty(),
        "TOOLIDL_BLESS=1 rewrites the goldens (review by eye):\n{}",
        failures.join("\n\n")
    );
}

fn similar_lines(actual: &str, expected: &str) -> String {
    for (n, (a, e)) in actual.lines().zip(expected.lines()).enumerate() {
        if a != e {
            return format!("line {}:\n  actual:   {a}\n  expected: {e}", n + 1);
        }
    }
    "one is a prefix of the other".into()
}

#[test]
fn every_tool_file_of_the_repository() {
    let mut formatted = 0;
    for (path, text) in corpus() {
        if significant_tokens(text).is_none() {
            // A syntax error (a golden of the diagnostics): refused.
            assert!(fmt(text).is_err(), "{path}");
            continue;
        }
        if fmt(text).is_err() {
            // A literal error (`'ab'`, a bad escape): refused too.
            continue;
        }
        check_formatting(path, text);
        formatted += 1;
    }
    assert!(formatted > 50, "{formatted}");
}

#[test]
fn refused_files_carry_diagnostics() {
    let errors = fmt("record A { x: }").unwrap_err();
    assert!(errors.contains("E0001"), "{errors}");
    let errors = fmt(r#"record A { x: string = "\q" }"#).unwrap_err();
    assert!(errors.contains("invalid escape"), "{errors}");
}

#[test]
fn crlf_and_bom() {
    let text = "\u{FEFF}// c\r\nrecord A {\r\n    /// d\r\n    x: u8, // t\r\n}\r\n";
    assert_eq!(
        fmt(text).unwrap(),
        "// c\nrecord A {\n    /// d\n    x: u8, // t\n}\n"
    );
}

/// The files that resolve, as (path, text): the seeds of mutations.
fn seeds() -> &'static Vec<(String, String)> {
    static SEEDS: OnceLock<Vec<(String, String)>> = OnceLock::new();
    SEEDS.get_or_init(|| {
        corpus()
            .iter()
            .filter(|(path, text)| model_json(path, text).is_some())
            .map(|(p, t)| (p.clone(), t.clone()))
            .collect()
    })
}

/// A gap between two tokens of a file: whitespace and `//` comments.
struct Gap {
    start: usize,
    end: usize,
    /// It follows a doc comment: it must begin with a line break.
    after_doc: bool,
}

/// The gaps of a file that parses (found by a small lexer of its own, so that the test does
/// not trust the formatter's).
fn gaps(text: &str) -> Vec<Gap> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut gap_start: Option<usize> = Some(0);
    let mut after_doc = false;
    let line_end = |i: usize| text[i..].find(['\n', '\r']).map_or(text.len(), |n| i + n);
    while i < bytes.len() {
        let rest = &text[i..];
        if rest.starts_with([' ', '\t', '\r', '\n', '\u{FEFF}']) {
            gap_start.get_or_insert(i);
            i += rest.chars().next().map_or(1, char::len_utf8);
        } else if rest.starts_with("////") || rest.starts_with("//") && !rest.starts_with("///") {
            gap_start.get_or_insert(i);
            i = line_end(i);
        } else {
            if let Some(start) = gap_start.take() {
                out.push(Gap {
                    start,
                    end: i,
                    after_doc,
                });
            }
            after_doc = rest.starts_with("///");
            if after_doc {
                i = line_end(i);
            } else if let Some(quote) = rest.chars().next().filter(|c| matches!(c, '"' | '\'')) {
                // A string or char literal, escapes included.
                let mut escaped = false;
                let len = rest[1..]
                    .char_indices()
                    .find(|&(_, c)| {
                        let close = c == quote && !escaped;
                        escaped = c == '\\' && !escaped;
                        close
                    })
                    .map_or(rest.len(), |(at, _)| at + 2);
                i += len;
            } else {
                i += rest.chars().next().map_or(1, char::len_utf8);
            }
        }
    }
    if let Some(start) = gap_start {
        out.push(Gap {
            start,
            end: text.len(),
            after_doc,
        });
    }
    out
}

/// The comments of a gap, in order.
fn gap_comments(gap: &str) -> Vec<&str> {
    gap.lines()
        .filter_map(|line| line.find("//").map(|at| line[at..].trim_end()))
        .collect()
}

/// Rewrites the whitespace of every gap of `text` from `choices`, keeping its comments in
/// order (each followed by a line break) and inserting comments now and then.
fn mutate(text: &str, choices: &[u8]) -> String {
    let mut next = choices.iter().copied().cycle();
    let mut inserted = 0;
    rewrite_gaps(text, |gap, after_doc| {
        let mut out = String::new();
        let comments = gap_comments(gap);
        for slot in 0..=comments.len() {
            let c = next.next().unwrap_or(0);
            out.push_str(match c % 5 {
                0 | 1 => " ",
                2 => "\n",
                3 => "\n\n    ",
                _ => "\t ",
            });
            if c % 7 == 0 {
                inserted += 1;
                out.push_str(&format!("// inserted {inserted}\n"));
            }
            if let Some(comment) = comments.get(slot) {
                out.push_str(comment);
                out.push('\n');
            }
        }
        if after_doc && !out.starts_with('\n') {
            out.insert(0, '\n');
        }
        out
    })
}

/// Replaces every run of spaces and tabs of every gap by another non-empty one.
fn mutate_horizontally(text: &str, choices: &[u8]) -> String {
    let mut next = choices.iter().copied().cycle();
    rewrite_gaps(text, |gap, _| {
        let mut out = String::new();
        let mut in_comment = false;
        let mut in_run = false;
        for c in gap.chars() {
            match c {
                '/' if !in_run || in_comment => {
                    in_comment = true;
                    out.push(c);
                }
                ' ' | '\t' if !in_comment => {
                    if !in_run {
                        let n = next.next().unwrap_or(0);
                        out.push_str(["\t", " ", "   ", " \t"][usize::from(n % 4)]);
                    }
                    in_run = true;
                }
                '\n' => {
                    in_comment = false;
                    in_run = false;
                    out.push(c);
                }
                _ => {
                    in_comment |= c == '/';
                    in_run = false;
                    out.push(c);
                }
            }
        }
        out
    })
}

fn rewrite_gaps(text: &str, mut rewrite: impl FnMut(&str, bool) -> String) -> String {
    let mut out = String::new();
    let mut last = 0;
    for gap in gaps(text) {
        out.push_str(&text[last..gap.start]);
        out.push_str(&rewrite(&text[gap.start..gap.end], gap.after_doc));
        last = gap.end;
    }
    out.push_str(&text[last..]);
    out
}

#[test]
fn mutations_keep_the_tokens() {
    let text = "/// d\nrecord A { x: u8, // c\n  y: string = \"a // b\" }\n";
    let mutated = mutate(text, &[2, 7, 3]);
    assert_eq!(significant_tokens(&mutated), significant_tokens(text));
    let mutated = mutate_horizontally(text, &[2, 1]);
    assert_eq!(significant_tokens(&mutated), significant_tokens(text));
    assert_eq!(comments(&mutated), comments(text));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn mutated_files_format_the_same_way(
        index in 0usize..1000,
        choices in prop::collection::vec(any::<u8>(), 1..64),
    ) {
        let (path, text) = &seeds()[index % seeds().len()];
        let mutated = mutate(text, &choices);
        prop_assert_eq!(significant_tokens(&mutated), significant_tokens(text), "{}", mutated);
        let formatted = check_formatting(path, &mutated);
        prop_assert_eq!(model_json(path, &formatted), model_json(path, text));
    }

    #[test]
    fn horizontal_whitespace_does_not_change_the_output(
        index in 0usize..1000,
        choices in prop::collection::vec(any::<u8>(), 1..64),
    ) {
        let (path, text) = &seeds()[index % seeds().len()];
        let mutated = mutate_horizontally(text, &choices);
        prop_assert_eq!(comments(&mutated), comments(text), "{}", mutated);
        prop_assert_eq!(fmt(&mutated).unwrap(), fmt(text).unwrap(), "{}", path);
    }
}
