//! Quick fixes, where a diagnostic's help names a mechanical fix: `did you mean `X`?`
//! (a type or keyword typo), a missing `,`, `@range` on a text or list (`@length`), and an
//! unknown type that another `.tool` file of the workspace declares (add its import).

use std::collections::HashMap;
use std::path::Path;

use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, Diagnostic, NumberOrString, Position, Range,
    TextEdit, Url, WorkspaceEdit,
};

use super::completion::relative;
use super::index::Indexes;

fn fix(
    title: String,
    uri: &Url,
    diagnostic: &Diagnostic,
    edits: Vec<TextEdit>,
) -> CodeActionOrCommand {
    let mut changes = HashMap::new();
    changes.insert(uri.clone(), edits);
    CodeActionOrCommand::CodeAction(CodeAction {
        title,
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![diagnostic.clone()]),
        edit: Some(WorkspaceEdit::new(changes)),
        is_preferred: Some(true),
        ..Default::default()
    })
}

fn code(d: &Diagnostic) -> &str {
    match &d.code {
        Some(NumberOrString::String(code)) => code,
        _ => "",
    }
}

/// The text between the first pair of backticks after `prefix` in the diagnostic's help.
fn suggestion<'m>(message: &'m str, prefix: &str) -> Option<&'m str> {
    let help = message.split("\nhelp: ").nth(1)?;
    let rest = help.strip_prefix(prefix)?;
    let rest = rest.strip_prefix('`')?;
    Some(&rest[..rest.find('`')?])
}

/// `did you mean "path"?` (a missing import with a likely typo).
fn quoted_suggestion(message: &str) -> Option<&str> {
    let help = message.split("\nhelp: ").nth(1)?;
    let rest = help.strip_prefix("did you mean \"")?;
    Some(&rest[..rest.find('"')?])
}

pub fn quick_fixes(
    indexes: &mut Indexes<'_>,
    key: &str,
    uri: &Url,
    diagnostics: &[Diagnostic],
) -> Vec<CodeActionOrCommand> {
    let mut out = Vec::new();
    for d in diagnostics {
        if d.source.as_deref() != Some("toolidl") {
            continue;
        }
        if let Some(path) = quoted_suggestion(&d.message) {
            out.push(fix(
                format!("Import \"{path}\""),
                uri,
                d,
                vec![TextEdit::new(d.range, format!("\"{path}\""))],
            ));
        } else if let Some(replacement) = suggestion(&d.message, "did you mean ") {
            out.push(fix(
                format!("Replace with `{replacement}`"),
                uri,
                d,
                vec![TextEdit::new(d.range, replacement.to_string())],
            ));
        } else if code(d) == "E0001" && d.message.contains("expected ',' at the end of this line") {
            out.push(fix(
                "Add the missing `,`".into(),
                uri,
                d,
                vec![TextEdit::new(
                    Range::new(d.range.start, d.range.start),
                    ",".into(),
                )],
            ));
        } else if code(d) == "E0601" {
            let start = d.range.start;
            let end = Position::new(start.line, start.character + "@range".len() as u32);
            out.push(fix(
                "Use `@length` (the length of a text or list)".into(),
                uri,
                d,
                vec![TextEdit::new(Range::new(start, end), "@length".into())],
            ));
        } else if code(d) == "E0101"
            && let Some(action) = add_import(indexes, key, uri, d)
        {
            out.push(action);
        }
    }
    out
}

/// `unknown type `Name``: an `import` of the workspace file that declares `Name`, after the
/// file's last import (or its package declaration).
fn add_import(
    indexes: &mut Indexes<'_>,
    key: &str,
    uri: &Url,
    d: &Diagnostic,
) -> Option<CodeActionOrCommand> {
    let name = d
        .message
        .strip_prefix("unknown type `")?
        .split('`')
        .next()?;
    let file = indexes.get(key)?;
    let ast = file.ast.as_ref()?;
    let dir = Path::new(key).parent()?;
    let declaring = indexes
        .workspace()
        .tool_files()
        .into_iter()
        .filter(|k| k != key)
        .find(|k| indexes.get(k).is_some_and(|f| f.type_decl(name).is_some()))?;
    let path = relative(dir, Path::new(&declaring))?;
    let after = ast
        .imports
        .last()
        .map(|i| i.span.end)
        .or(ast.package.as_ref().map(|p| p.span.end));
    let (at, text) = match after {
        Some(end) => (
            file.lines.position(&file.text, end),
            format!("\nimport \"{path}\";"),
        ),
        None => (Position::new(0, 0), format!("import \"{path}\";\n")),
    };
    Some(fix(
        format!("Import \"{path}\" (declares `{name}`)"),
        uri,
        d,
        vec![TextEdit::new(Range::new(at, at), text)],
    ))
}
