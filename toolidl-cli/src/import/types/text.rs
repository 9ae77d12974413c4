//! Writing declarations: doc comments (or `@description`) and indentation.

use super::names;

/// A description as the declaration's doc comment, each line followed by a newline; as
/// `@description("…")` when a doc comment would not give it back (the language collapses a
/// doc comment's whitespace).
pub fn docs(description: Option<&str>, prefix: &str) -> String {
    let Some(description) = description else {
        return String::new();
    };
    if collapse(description) != description {
        return format!(
            "{prefix}@description({})\n",
            names::string_literal(description)
        );
    }
    description
        .lines()
        .map(|line| {
            if line.trim().is_empty() {
                format!("{prefix}///\n")
            } else {
                format!("{prefix}/// {}\n", line.trim_end())
            }
        })
        .collect()
}

/// A doc comment's text as the language reads it: whitespace runs collapsed to one space.
pub(super) fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Doc comment lines only, for declarations `@description` does not apply to (unions and their
/// variants): a description whose whitespace the language collapses comes back collapsed (a
/// normalisation `docs/import.md` lists).
pub fn doc_lines(description: Option<&str>) -> String {
    match description {
        Some(d) => docs(Some(&collapse(d)), ""),
        None => String::new(),
    }
}

pub(super) fn indent(text: &str) -> String {
    text.lines()
        .map(|l| format!("    {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}
