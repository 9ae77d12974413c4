//! Syntax errors in words: what was expected and what was found, never pest's rule names;
//! and the nesting limit that keeps pest and the tree builder off a deep stack.

use pest::error::{ErrorVariant, InputLocation};

use super::{MAX_NESTING, Rule};
use crate::ast::Span;
use crate::diagnostics::Diagnostic;
use crate::source::FileId;

pub(super) fn syntax_error(
    file_id: FileId,
    text: &str,
    error: &pest::error::Error<Rule>,
) -> Diagnostic {
    let pos = match error.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    let mut expected: Vec<&'static str> = match &error.variant {
        ErrorVariant::ParsingError { positives, .. } => positives
            .iter()
            .flat_map(|r| describe_rule(*r))
            .copied()
            .collect(),
        ErrorVariant::CustomError { .. } => Vec::new(),
    };
    expected.sort_by_key(|e| (e.starts_with('\''), *e));
    expected.dedup();
    if let Some(doc) = dangling_doc(text, pos) {
        return Diagnostic::error("E0001", "syntax error: this doc comment documents nothing")
            .at(file_id, doc)
            .help(DOC_PLACEMENT);
    }
    let (found, found_len) = describe_found(&text[pos..]);
    // A missing comma is reported where it is missing, at the end of the line before, as
    // rustc does, rather than at the next line's first token.
    if expected.contains(&"','")
        && let Some(end) = end_of_previous_line(text, pos)
    {
        return Diagnostic::error(
            "E0001",
            format!(
                "syntax error: expected ',' at the end of this line, found {found} on the next"
            ),
        )
        .at(file_id, Span::new(end, end))
        .help("separate fields, parameters and enum members with `,`");
    }
    // `tool a() -> string` and then `/// Docs.` of the next member: the `;` is what is
    // missing, at the end of the declaration, not a misplaced doc comment.
    if expected.contains(&"';'")
        && text[pos..].starts_with("///")
        && let Some(end) = end_of_previous_line(text, pos)
    {
        return Diagnostic::error(
            "E0001",
            "syntax error: expected ';' at the end of this line, found a doc comment on the next",
        )
        .at(file_id, Span::new(end, end))
        .help("end the declaration before the doc comment with `;`: a `///` comment documents what follows it");
    }
    let message = match expected.as_slice() {
        [] => format!("syntax error: unexpected {found}"),
        [one] => format!("syntax error: expected {one}, found {found}"),
        many => format!(
            "syntax error: expected one of: {}; found {found}",
            many.join(", ")
        ),
    };
    let mut diagnostic =
        Diagnostic::error("E0001", message).at(file_id, Span::new(pos, pos + found_len));
    if let Some(help) = syntax_help(&text[pos..], &expected) {
        diagnostic = diagnostic.help(help);
    }
    diagnostic
}

/// The end of the code on the nearest line before the line of `pos` that holds code
/// (comments and blank lines skipped), when `pos` is the first token of its line.
fn end_of_previous_line(text: &str, pos: usize) -> Option<usize> {
    let before = text.get(..pos)?;
    let line_start = before.rfind('\n')? + 1;
    if !before[line_start..].trim().is_empty() {
        return None;
    }
    let mut end = line_start - 1;
    loop {
        let start = before[..end].rfind('\n').map_or(0, |i| i + 1);
        let code = code_part(&before[start..end]).trim_end();
        if !code.is_empty() {
            return Some(start + code.len());
        }
        if start == 0 {
            return None;
        }
        end = start - 1;
    }
}

/// A line without its `//` comment (a `//` inside a string is not one).
fn code_part(line: &str) -> &str {
    let mut in_string = false;
    let mut escaped = false;
    for (i, c) in line.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if in_string => escaped = true,
            '"' => in_string = !in_string,
            '/' if !in_string && line[i..].starts_with("//") => return &line[..i],
            _ => {}
        }
    }
    line
}

const DOC_PLACEMENT: &str = "a `///` doc comment must come right before an item, field, parameter, variant or service member";

/// The span of a whole-line `///` comment that ends right before `pos`, when `pos` holds
/// something no doc comment can document (end of file, a closing bracket, a separator).
fn dangling_doc(text: &str, pos: usize) -> Option<Span> {
    let next = text[pos..].chars().next();
    if !matches!(next, None | Some('}' | ')' | ']' | '>' | ',' | ';')) {
        return None;
    }
    let before = text[..pos].trim_end();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = &before[line_start..];
    let doc_start = line_start + trailing_doc_start(line)?;
    Some(Span::new(doc_start, before.len()))
}

/// Where a `///` doc comment starts on a line that ends with one: at the start of the line
/// or after code (`tool t(); /// note`), outside string and char literals; `////` is a plain
/// comment.
fn trailing_doc_start(line: &str) -> Option<usize> {
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in line.char_indices() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' => quote = Some(c),
            '/' if line[i..].starts_with("//") => {
                let comment = &line[i..];
                let is_doc = comment.starts_with("///") && !comment.starts_with("////");
                let after_space = line[..i]
                    .chars()
                    .next_back()
                    .is_none_or(char::is_whitespace);
                return (is_doc && after_space).then_some(i);
            }
            _ => {}
        }
    }
    None
}

fn syntax_help(rest: &str, expected: &[&str]) -> Option<String> {
    if let Some(body) = rest.strip_prefix('"')
        && !closes_on_its_line(body)
    {
        return Some(
            "end the string with `\"` on the same line (write a line break as `\\n`)".into(),
        );
    }
    if rest.starts_with("///") && expected.iter().all(|e| *e != "doc comment") {
        return Some(DOC_PLACEMENT.into());
    }
    if expected.contains(&"','")
        && rest
            .trim_start()
            .starts_with(|c: char| c.is_alphabetic() || c == '@' || c == '_')
    {
        return Some("separate fields, parameters and enum members with `,`".into());
    }
    if expected.contains(&"';'") {
        return Some("declarations of packages, imports and service members end with `;`".into());
    }
    if rest.trim().is_empty() {
        return Some("the file ends inside a declaration: close it".into());
    }
    let word: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    let keywords = expected
        .iter()
        .filter_map(|e| e.strip_prefix('\'')?.strip_suffix('\''));
    if let Some(close) = crate::diagnostics::suggest(&word, keywords) {
        return Some(format!("did you mean `{close}`?"));
    }
    Some("the tokens this place allows are listed above".into())
}

/// The token found at a syntax error, in words, and its length in bytes.
fn describe_found(rest: &str) -> (String, usize) {
    let Some(first) = rest.chars().next() else {
        return ("end of file".into(), 0);
    };
    if first.is_alphanumeric() || first == '_' {
        let len = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        return (format!("`{}`", &rest[..len]), len);
    }
    if first == '\n' || first == '\r' {
        return ("end of line".into(), 0);
    }
    if rest.starts_with("///") {
        return ("doc comment".into(), 3);
    }
    if first == '"' && !closes_on_its_line(&rest[1..]) {
        return ("a string without its closing `\"`".into(), 1);
    }
    (format!("`{first}`"), first.len_utf8())
}

/// Whether a string literal's body (after its opening `"`) has its closing `"` on the same
/// line, skipping escaped characters.
fn closes_on_its_line(body: &str) -> bool {
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return true,
            '\\' => {
                chars.next();
            }
            '\n' | '\r' => return false,
            _ => {}
        }
    }
    false
}

/// Words for a rule in an "expected" list; nothing for rules never worth naming. pest
/// reports the outermost rule that failed where it started, so a declaration rule stands
/// for its first token.
fn describe_rule(rule: Rule) -> &'static [&'static str] {
    match rule {
        Rule::EOI => &["end of file"],
        Rule::doc_comment => &["doc comment"],
        Rule::ident | Rule::path => &["identifier"],
        Rule::kw_package => &["'package'"],
        Rule::kw_import => &["'import'"],
        Rule::kw_enum => &["'enum'"],
        Rule::kw_record => &["'record'"],
        Rule::kw_service => &["'service'"],
        Rule::kw_tool => &["'tool'"],
        Rule::kw_resource => &["'resource'"],
        Rule::kw_prompt => &["'prompt'"],
        Rule::semi => &["';'"],
        Rule::comma => &["','"],
        Rule::colon => &["':'"],
        Rule::lbrace => &["'{'"],
        Rule::rbrace => &["'}'"],
        Rule::lparen => &["'('"],
        Rule::rparen => &["')'"],
        Rule::langle => &["'<'"],
        Rule::rangle => &["'>'"],
        Rule::lbracket => &["'['"],
        Rule::rbracket => &["']'"],
        Rule::eq => &["'='"],
        Rule::arrow => &["'->'"],
        Rule::question => &["'?'"],
        Rule::string_lit => &["string"],
        Rule::char_lit => &["char"],
        Rule::float_lit | Rule::int_lit => &["number"],
        Rule::true_lit | Rule::false_lit => &["'true' or 'false'"],
        Rule::null_lit => &["'null'"],
        Rule::list_lit => &["list"],
        Rule::literal => &["value"],
        Rule::attr_name | Rule::attribute => &["attribute"],
        Rule::attr_args => &["'('"],
        Rule::attr_arg => &["attribute argument"],
        Rule::type_expr => &["type"],
        Rule::type_args => &["'<'"],
        Rule::prefix => &["attribute"],
        Rule::package_decl => &["'package'"],
        Rule::import_decl => &["'import'"],
        Rule::enum_decl => &["'enum'"],
        Rule::record_decl => &["'record'"],
        Rule::service_decl => &["'service'"],
        Rule::variant => &["enum member"],
        Rule::field => &["identifier"],
        Rule::params => &["'('"],
        Rule::returns => &["'->'"],
        Rule::tool_decl => &["'tool'"],
        Rule::resource_decl => &["'resource'"],
        Rule::prompt_decl => &["'prompt'"],
        Rule::file => &[
            "'package'",
            "'import'",
            "'enum'",
            "'record'",
            "'service'",
            "attribute",
            "doc comment",
        ],
        _ => &[],
    }
}

/// Rejects inputs nested deeper than [`MAX_NESTING`] before pest or the tree builder recurse.
pub(super) fn check_nesting(file_id: FileId, text: &str) -> Option<Diagnostic> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut braces: Vec<bool> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            quote @ (b'"' | b'\'') => {
                i += 1;
                while i < bytes.len() && bytes[i] != quote && bytes[i] != b'\n' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'{' => {
                // Only an object literal's brace nests (after `=`, `:`, `,`, `[` or `(`), so
                // that the braces of declarations do not count.
                let literal = matches!(
                    bytes[..i].trim_ascii_end().last(),
                    Some(b'=' | b':' | b',' | b'[' | b'(')
                );
                braces.push(literal);
                if literal {
                    depth += 1;
                    if depth > MAX_NESTING {
                        return Some(too_deep(file_id, i));
                    }
                }
            }
            b'}' if braces.pop() == Some(true) => depth = depth.saturating_sub(1),
            b'(' | b'[' | b'<' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Some(too_deep(file_id, i));
                }
            }
            b')' | b']' => depth = depth.saturating_sub(1),
            b'>' if i == 0 || bytes[i - 1] != b'-' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    None
}

fn too_deep(file_id: FileId, at: usize) -> Diagnostic {
    Diagnostic::error(
        "E0001",
        format!("syntax error: nesting deeper than {MAX_NESTING} levels"),
    )
    .at(file_id, Span::new(at, at + 1))
    .help("name the inner parts: declare records, unions or named types for them")
}
