//! Completion from the text before the cursor, which works while the file does not parse:
//! keywords where they fit, types in scope after `:`, `->` and `<`, attributes after `@`,
//! enum members after `=`, and `.tool` files inside `import "…"`.

use std::collections::BTreeMap;
use std::path::Path;

use lsp_types::{
    CompletionItem, CompletionItemKind, Documentation, InsertTextFormat, MarkupContent, MarkupKind,
};
use toolidl::ast::Item;

use super::attributes::ATTRIBUTES;
use super::index::{Indexes, lexical_decls};

/// The built-in type names (the resolver's primitives, then the generic types).
const BUILT_IN: &[&str] = &[
    "bool", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "integer", "f32", "f64",
    "string", "char", "uuid", "datetime", "date", "time", "duration", "uri", "bytes", "json",
    "object", "array", "list", "set", "map",
];

/// Result-only types (after `->`).
const RESULT_ONLY: &[&str] = &["content", "call_result"];

const TOP_LEVEL: &[&str] = &[
    "package", "import", "record", "enum", "union", "type", "service",
];
const IN_SERVICE: &[&str] = &["tool", "resource", "prompt"];

fn item(label: &str, kind: CompletionItemKind, detail: Option<String>) -> CompletionItem {
    CompletionItem {
        label: label.to_string(),
        kind: Some(kind),
        detail,
        ..Default::default()
    }
}

pub fn complete(indexes: &mut Indexes<'_>, key: &str, offset: usize) -> Vec<CompletionItem> {
    let Some(file) = indexes.get(key) else {
        return Vec::new();
    };
    let Some(before) = file.text.get(..offset) else {
        return Vec::new();
    };
    let line = before.rsplit('\n').next().unwrap_or(before);
    let code = strip_comment(line);
    if let Some(partial) = code.trim_start().strip_prefix("import \"") {
        return import_paths(indexes, key, partial);
    }
    if code.matches('"').count() % 2 == 1 {
        return Vec::new();
    }
    let word_start = before
        .char_indices()
        .rev()
        .find(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let rest = before[..word_start].trim_end();
    if before[..word_start].ends_with('@') {
        return attributes();
    }
    if rest.ends_with(':') || rest.ends_with("->") || rest.ends_with('<') || in_type_args(code) {
        return types(indexes, key, rest.ends_with("->"));
    }
    if rest.ends_with('=') {
        return default_values(indexes, key, rest);
    }
    match enclosing(before) {
        Enclosing::Top => keywords(TOP_LEVEL),
        Enclosing::Service => keywords(IN_SERVICE),
        Enclosing::Other => Vec::new(),
    }
}

fn strip_comment(line: &str) -> &str {
    match line.find("//") {
        Some(i) => &line[..i],
        None => line,
    }
}

fn keywords(words: &[&str]) -> Vec<CompletionItem> {
    words
        .iter()
        .map(|w| item(w, CompletionItemKind::KEYWORD, None))
        .collect()
}

fn attributes() -> Vec<CompletionItem> {
    ATTRIBUTES
        .iter()
        .map(|a| CompletionItem {
            documentation: Some(Documentation::MarkupContent(MarkupContent {
                kind: MarkupKind::Markdown,
                value: a.markdown(),
            })),
            ..item(
                a.name,
                CompletionItemKind::PROPERTY,
                Some(a.usage.to_string()),
            )
        })
        .collect()
}

/// A `,` inside an unclosed `<` of this line (`map<string, |`).
fn in_type_args(line: &str) -> bool {
    let trimmed = line.trim_end();
    let trimmed = trimmed
        .trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        .trim_end();
    trimmed.ends_with(',') && line.matches('<').count() > line.matches('>').count()
}

enum Enclosing {
    Top,
    Service,
    Other,
}

/// Where the cursor is: at the top level, in a service's braces, or elsewhere.
fn enclosing(before: &str) -> Enclosing {
    let mut opened: Vec<usize> = Vec::new();
    let mut in_string = false;
    let mut in_comment = false;
    let bytes = before.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'\n' => {
                in_comment = false;
                in_string = false;
            }
            _ if in_comment => {}
            b'"' => in_string = !in_string,
            _ if in_string => {}
            b'/' if bytes.get(i + 1) == Some(&b'/') => in_comment = true,
            b'{' | b'(' => opened.push(i),
            b'}' | b')' => {
                opened.pop();
            }
            _ => {}
        }
    }
    match opened.last() {
        None => Enclosing::Top,
        Some(&brace) if bytes[brace] == b'{' => {
            let head = before[..brace].trim_end();
            let head = head.trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_');
            if head.trim_end().ends_with("service") {
                Enclosing::Service
            } else {
                Enclosing::Other
            }
        }
        Some(_) => Enclosing::Other,
    }
}

/// The type names a file can write: (name, package, kind word) of its own declarations
/// and of its direct imports'.
fn types_in_scope(indexes: &mut Indexes<'_>, key: &str) -> Vec<(String, String, &'static str)> {
    let Some(file) = indexes.get(key) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let add = |f: &super::index::FileIndex, out: &mut Vec<(String, String, &'static str)>| {
        if f.ast.is_none() {
            for (name, word) in lexical_decls(&f.text) {
                out.push((name, f.package.clone(), word));
            }
        }
        for item in f.ast.iter().flat_map(|a| &a.items) {
            let word = match item {
                Item::Record(_) => "record",
                Item::Enum(_) => "enum",
                Item::Union(_) => "union",
                Item::Alias(_) => "type",
                Item::Service(_) => continue,
            };
            out.push((item.name().name.clone(), f.package.clone(), word));
        }
    };
    add(&file, &mut out);
    for (_, import) in &file.imports {
        if let Some(imported) = indexes.get(import) {
            add(&imported, &mut out);
        }
    }
    out
}

fn types(indexes: &mut Indexes<'_>, key: &str, result: bool) -> Vec<CompletionItem> {
    let mut out: Vec<CompletionItem> = BUILT_IN
        .iter()
        .chain(if result { RESULT_ONLY } else { &[] })
        .map(|t| item(t, CompletionItemKind::KEYWORD, Some("built-in type".into())))
        .collect();
    let declared = types_in_scope(indexes, key);
    let mut packages: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (name, package, _) in &declared {
        packages.entry(name).or_default().push(package);
    }
    for (name, package, word) in &declared {
        let ambiguous = packages.get(name.as_str()).is_some_and(|p| p.len() > 1);
        let label = if ambiguous {
            format!("{package}.{name}")
        } else {
            name.clone()
        };
        let kind = match *word {
            "record" => CompletionItemKind::STRUCT,
            "enum" | "union" => CompletionItemKind::ENUM,
            _ => CompletionItemKind::TYPE_PARAMETER,
        };
        out.push(item(
            &label,
            kind,
            Some(format!("{word} in package {package}")),
        ));
    }
    out
}

/// After `name: Type =`: the members of `Type` when it is an enum, and the literals.
fn default_values(indexes: &mut Indexes<'_>, key: &str, rest: &str) -> Vec<CompletionItem> {
    let mut out: Vec<CompletionItem> = ["true", "false", "null"]
        .iter()
        .map(|w| item(w, CompletionItemKind::KEYWORD, None))
        .collect();
    let written = rest.trim_end_matches('=').trim_end().trim_end_matches('?');
    let type_name: String = written
        .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
        .next()
        .unwrap_or("")
        .to_string();
    let path: Vec<toolidl::ast::Ident> = type_name
        .split('.')
        .map(|s| toolidl::ast::Ident {
            name: s.to_string(),
            span: Default::default(),
        })
        .collect();
    if let Some(target) = indexes.resolve(key, &path)
        && let Some(file) = indexes.declaration(&target)
        && let Some(Item::Enum(e)) = file.type_decl(&target.name)
    {
        for v in &e.variants {
            out.push(item(
                &v.name.name,
                CompletionItemKind::ENUM_MEMBER,
                Some(format!("member of {}", e.name.name)),
            ));
        }
    }
    out
}

/// `.tool` files of the workspace, as paths relative to the importing file.
fn import_paths(indexes: &mut Indexes<'_>, key: &str, partial: &str) -> Vec<CompletionItem> {
    let Some(dir) = Path::new(key).parent() else {
        return Vec::new();
    };
    let files = indexes.workspace().tool_files();
    files
        .iter()
        .filter(|k| k.as_str() != key)
        .filter_map(|k| relative(dir, Path::new(k)))
        .filter(|rel| rel.starts_with(partial) || partial.is_empty())
        .map(|rel| CompletionItem {
            insert_text_format: Some(InsertTextFormat::PLAIN_TEXT),
            ..item(&rel, CompletionItemKind::FILE, None)
        })
        .collect()
}

/// `to` relative to the folder `from` (with `../` where needed), `/`-separated.
pub fn relative(from: &Path, to: &Path) -> Option<String> {
    let from: Vec<_> = from.components().collect();
    let to_parts: Vec<_> = to.components().collect();
    let common = from
        .iter()
        .zip(&to_parts)
        .take_while(|(a, b)| a == b)
        .count();
    if common == 0 {
        return None;
    }
    let mut parts: Vec<String> = vec!["..".into(); from.len() - common];
    parts.extend(
        to_parts[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    Some(parts.join("/"))
}
