//! The tokens of a parsed file, and the `//` comments between them.
//!
//! The grammar skips `//` comments, so the tree does not hold them; but between two
//! consecutive tokens of the tree there can be nothing but whitespace and comments, so the
//! comments are found again by scanning those gaps.

use pest::iterators::Pair;

use crate::parser::Rule;

/// A `//` comment (never a `///` doc comment, which is a token), as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Comment<'s> {
    /// From `//` to the end of its line, trailing spaces and tabs removed.
    pub text: &'s str,
    /// Byte offset of the `//`.
    pub start: usize,
    /// Byte offset of the end of the line's text.
    pub end: usize,
    /// The comment begins its line (else it follows a token on the token's line).
    pub own_line: bool,
    /// A blank line separates it from the token or comment before it.
    pub blank_before: bool,
}

/// Rules whose whole text is one token, although the tree has children inside them.
fn is_token_rule(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::path | Rule::attr_name | Rule::string_lit | Rule::char_lit
    )
}

/// The byte ranges of every token under `pair`, in order.
pub(super) fn tokens(pair: Pair<'_, Rule>, out: &mut Vec<(usize, usize)>) {
    let span = pair.as_span();
    if is_token_rule(pair.as_rule()) {
        out.push((span.start(), span.end()));
        return;
    }
    let mut inner = pair.into_inner().peekable();
    if inner.peek().is_none() {
        if span.start() < span.end() {
            out.push((span.start(), span.end()));
        }
        return;
    }
    for child in inner {
        tokens(child, out);
    }
}

/// Whitespace as the grammar defines it.
fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n' | '\u{FEFF}')
}

/// Whether `gap` (whitespace only) holds a line with nothing on it.
pub(super) fn has_blank_line(gap: &str) -> bool {
    let lines: Vec<&str> = gap.split('\n').collect();
    lines.len() > 2
        && lines[1..lines.len() - 1]
            .iter()
            .any(|line| line.chars().all(is_space))
}

/// The comments in the gaps between `tokens` (sorted, not overlapping), in order. `None` when
/// a gap holds anything else (the tokens do not come from `text`'s tree).
pub(super) fn comments<'s>(text: &'s str, tokens: &[(usize, usize)]) -> Option<Vec<Comment<'s>>> {
    let mut out = Vec::new();
    // The end of the previous token or comment; `None` at the start of the file.
    let mut prev_end: Option<usize> = None;
    let mut gap_start = 0;
    for bound in tokens.iter().copied().map(Some).chain([None]) {
        let gap_end = bound.map_or(text.len(), |(start, _)| start);
        let gap = text.get(gap_start..gap_end)?;
        let mut i = 0;
        while let Some(rest) = gap.get(i..).filter(|rest| !rest.is_empty()) {
            if rest.starts_with("//") {
                let len = rest.find(['\n', '\r']).unwrap_or(rest.len());
                let start = gap_start + i;
                let before = text.get(prev_end.unwrap_or(0)..start)?;
                out.push(Comment {
                    text: rest[..len].trim_end_matches([' ', '\t']),
                    start,
                    end: start + len,
                    own_line: prev_end.is_none() || before.contains(['\n', '\r']),
                    blank_before: has_blank_line(before),
                });
                prev_end = Some(start + len);
                i += len;
            } else {
                let c = rest.chars().next()?;
                if !is_space(c) {
                    return None;
                }
                i += c.len_utf8();
            }
        }
        if let Some((_, end)) = bound {
            prev_end = Some(end);
            gap_start = end;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_lines() {
        assert!(!has_blank_line(" \n  "));
        assert!(has_blank_line("\n\n"));
        assert!(has_blank_line("\r\n \t\r\n  "));
        assert!(!has_blank_line("\n,\n"));
    }

    #[test]
    fn comments_between_tokens() {
        let text = "// a\n\nx // b\n  // c\ny";
        let found = comments(text, &[(6, 7), (20, 21)]).unwrap();
        let summary: Vec<_> = found
            .iter()
            .map(|c| (c.text, c.own_line, c.blank_before))
            .collect();
        assert_eq!(
            summary,
            vec![
                ("// a", true, false),
                ("// b", false, false),
                ("// c", true, false)
            ]
        );
        assert!(comments("x ; y", &[(0, 1), (4, 5)]).is_none());
    }
}
