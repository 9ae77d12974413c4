//! Diagnostics: stable codes, messages, a primary span, and a plain-text rendering.
//!
//! Rendering (stable bytes: build scripts replay it and golden files compare it):
//!
//! ```text
//! error[E0101]: unknown type `Strin`
//!   --> weather.tool:7:11
//!    |
//!  7 |     city: Strin,
//!    |           ^^^^^
//!    = help: did you mean `string`?
//! ```
//!
//! Every code is listed in `docs/diagnostics.md`.

use std::fmt::Write as _;

use crate::ast::Span;
use crate::source::{FileId, SourceMap};

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// The file is refused: nothing is generated from it.
    Error,
    /// The file is accepted; something in it is probably not what was meant.
    Warning,
}

/// One problem found in a `.tool` file, with where it is and how to fix it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// `E0101`, `W0401`, …: stable, documented in `docs/diagnostics.md`.
    pub code: &'static str,
    /// What is wrong, in one line (no trailing period), naming the user's declaration.
    pub message: String,
    /// The primary span; `None` for diagnostics about a file as a whole (it cannot be read).
    pub location: Option<(FileId, Span)>,
    /// How to fix it, when there is a likely fix ("did you mean `string`?").
    pub help: Option<String>,
    /// Background that explains the rule.
    pub note: Option<String>,
    /// A second place the diagnostic points at, with its label (`first declared here`).
    pub secondary: Option<(FileId, Span, String)>,
}

impl Diagnostic {
    /// An error with `code` and `message`, not yet located.
    pub fn error(code: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            location: None,
            help: None,
            note: None,
            secondary: None,
        }
    }

    /// A warning with `code` and `message`, not yet located.
    pub fn warning(code: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, message)
        }
    }

    /// Also points at `span` of `file`, labelled (`first declared here`).
    pub fn also(mut self, file: FileId, span: Span, label: impl Into<String>) -> Diagnostic {
        self.secondary = Some((file, span, label.into()));
        self
    }

    /// Points the diagnostic at `span` of `file`.
    pub fn at(mut self, file: FileId, span: Span) -> Diagnostic {
        self.location = Some((file, span));
        self
    }

    /// Adds a `help:` line.
    pub fn help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    /// Adds a `note:` line.
    pub fn note(mut self, note: impl Into<String>) -> Diagnostic {
        self.note = Some(note.into());
        self
    }

    /// True for an error (the file is refused).
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// Renders this diagnostic as plain text, ending with a newline.
    pub fn render(&self, sources: &SourceMap) -> String {
        let mut out = String::new();
        let label = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let _ = writeln!(out, "{label}[{}]: {}", self.code, self.message);
        let mut pad = String::from("  ");
        if let Some((file, span)) = self.location {
            let file = sources.get(file);
            let (line, _) = file.line_col(span.start);
            let mut width = line.to_string().len();
            if let Some((other, second, _)) = &self.secondary {
                let (second_line, _) = sources.get(*other).line_col(second.start);
                width = width.max(second_line.to_string().len());
            }
            pad = " ".repeat(width + 2);
            place(&mut out, "-->", file, span, width);
            snippet(&mut out, file, span, width, '^', "");
            if let Some((other, second, label)) = &self.secondary {
                let other_file = sources.get(*other);
                let _ = writeln!(out, "{pad}|");
                if *other != self.location.map_or(*other, |l| l.0) {
                    place(&mut out, ":::", other_file, *second, width);
                }
                snippet(&mut out, other_file, *second, width, '-', label);
            }
        }
        if let Some(note) = &self.note {
            let _ = writeln!(out, "{pad}= note: {note}");
        }
        if let Some(help) = &self.help {
            let _ = writeln!(out, "{pad}= help: {help}");
        }
        out
    }
}

/// `--> file:line:col` (or `:::` for a second file), then an empty gutter line.
fn place(
    out: &mut String,
    arrow: &str,
    file: &crate::source::SourceFile,
    span: Span,
    width: usize,
) {
    let (line, col) = file.line_col(span.start);
    let _ = writeln!(
        out,
        "{}{arrow} {}:{line}:{col}",
        " ".repeat(width + 1),
        file.id.name
    );
    let _ = writeln!(out, "{}|", " ".repeat(width + 2));
}

/// One source line and the marks under `span` (`^` for the primary place, `-` and a label
/// for a secondary one).
fn snippet(
    out: &mut String,
    file: &crate::source::SourceFile,
    span: Span,
    width: usize,
    mark: char,
    label: &str,
) {
    let pad = " ".repeat(width + 2);
    let (line, col) = file.line_col(span.start);
    let text = file.line_text(line);
    let _ = writeln!(out, " {line:>width$} | {}", expand_tabs(text));
    // Marks: from the column to the span's end, clipped to this line, at least one.
    let before: String = text.chars().take(col - 1).collect();
    let (end_line, end_col) = file.line_col(span.end);
    let count = if end_line == line {
        end_col.saturating_sub(col)
    } else {
        text.chars().count().saturating_sub(col - 1)
    };
    let spanned: String = text.chars().skip(col - 1).take(count).collect();
    let marks = expand_tabs(&spanned).chars().count().max(1);
    let label = if label.is_empty() {
        String::new()
    } else {
        format!(" {label}")
    };
    let _ = writeln!(
        out,
        "{pad}| {}{}{label}",
        " ".repeat(expand_tabs(&before).chars().count()),
        mark.to_string().repeat(marks)
    );
}

fn expand_tabs(text: &str) -> String {
    text.replace('\t', "    ")
}

/// Renders diagnostics one after another, separated by blank lines.
pub fn render_all(diagnostics: &[Diagnostic], sources: &SourceMap) -> String {
    diagnostics
        .iter()
        .map(|d| d.render(sources))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Orders diagnostics by file (load order), then position, keeping the order of equal ones.
pub fn sort(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by_key(|d| d.location.map(|(f, s)| (f, s.start)));
}

/// The closest candidate to `word`, if one is close enough to be a likely typo (a swap of
/// neighbouring letters counts as one edit; a difference of case alone as none).
pub(crate) fn suggest<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    toolidl_formats::suggest::closest(word, candidates)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceId;

    #[test]
    fn renders_like_the_contract() {
        let mut sources = SourceMap::default();
        let text = "record A {\n    city: Strin,\n}\n";
        let file = sources.add(SourceId::new("weather.tool"), text.into());
        let start = text.find("Strin").unwrap();
        let d = Diagnostic::error("E0101", "unknown type `Strin`")
            .at(file, Span::new(start, start + 5))
            .help("did you mean `string`?");
        assert_eq!(
            d.render(&sources),
            "error[E0101]: unknown type `Strin`\n  --> weather.tool:2:11\n   |\n 2 |     city: Strin,\n   |           ^^^^^\n   = help: did you mean `string`?\n"
        );
    }

    #[test]
    fn suggestions() {
        assert_eq!(suggest("Strin", ["string", "bool"]), Some("string"));
        assert_eq!(suggest("String", ["string", "bool"]), Some("string"));
        assert_eq!(suggest("xyz", ["string", "bool"]), None);
        assert_eq!(suggest("Tga", ["Tag", "bool"]), Some("Tag"));
        assert_eq!(suggest("stirng", ["string", "bool"]), Some("string"));
    }
}
