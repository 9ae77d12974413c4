//! What navigation needs of one file, from its syntax tree: the type names it declares,
//! every place it names a type, and how a name resolves (by the resolver's scope rules: the
//! file's own names, then those of its direct imports; `pkg.Name` in the file's own package
//! or a directly imported one).

use std::collections::HashMap;
use std::rc::Rc;

use toolidl::ast::{self, FieldDecl, Item, Span, TypeExpr};
use toolidl::source::{FileId, SourceId};

use super::text::LineIndex;
use super::workspace::Workspace;

/// One parsed file.
pub struct FileIndex {
    pub key: String,
    pub text: String,
    pub lines: LineIndex,
    /// `None` after a syntax error.
    pub ast: Option<ast::File>,
    pub package: String,
    /// Each import: its path's span and the key it names.
    pub imports: Vec<(Span, String)>,
    /// Every type name written (field, parameter and result types, type arguments, alias
    /// and union variant types, spreads).
    pub refs: Vec<TypeRef>,
}

/// A type name as written: `Page` or `acme.common.Page`.
#[derive(Debug, Clone)]
pub struct TypeRef {
    pub path: Vec<ast::Ident>,
    pub span: Span,
}

impl TypeRef {
    /// The span of the last segment (what a rename replaces).
    pub fn name_span(&self) -> Span {
        self.path.last().map_or(self.span, |i| i.span)
    }
}

/// A declared type: the file that declares it and its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub key: String,
    pub name: String,
}

impl FileIndex {
    pub fn new(workspace: &Workspace, key: &str, text: String) -> FileIndex {
        let parsed = toolidl::parser::parse(FileId(0), &text);
        let package = parsed
            .file
            .as_ref()
            .and_then(|f| f.package.as_ref())
            .map(|p| dotted(&p.path))
            .unwrap_or_else(|| SourceId::new(key).stem().to_string());
        let mut refs = Vec::new();
        let mut imports = Vec::new();
        match &parsed.file {
            Some(file) => {
                for import in &file.imports {
                    imports.push((import.path_span, workspace.import_key(key, &import.path)));
                }
                for item in &file.items {
                    item_refs(item, &mut refs);
                }
            }
            // While the file does not parse, its imports still name what is in scope
            // (completion needs them most then).
            None => {
                for (span, path) in lexical_imports(&text) {
                    imports.push((span, workspace.import_key(key, &path)));
                }
            }
        }
        FileIndex {
            key: key.to_string(),
            lines: LineIndex::new(&text),
            text,
            ast: parsed.file,
            package,
            imports,
            refs,
        }
    }

    /// The top-level record, enum, union or named type `name` (not a service).
    pub fn type_decl(&self, name: &str) -> Option<&Item> {
        self.ast
            .as_ref()?
            .items
            .iter()
            .find(|i| i.name().name == name && !matches!(i, Item::Service(_)))
    }

    /// The type name written at `offset`.
    pub fn ref_at(&self, offset: usize) -> Option<&TypeRef> {
        self.refs
            .iter()
            .find(|r| r.span.start <= offset && offset <= r.span.end)
    }

    /// The top-level declaration whose name is at `offset`.
    pub fn decl_at(&self, offset: usize) -> Option<&Item> {
        self.ast.as_ref()?.items.iter().find(|i| {
            let span = i.name().span;
            span.start <= offset && offset <= span.end
        })
    }

    /// The import whose path is at `offset`, and the key it names.
    pub fn import_at(&self, offset: usize) -> Option<&str> {
        self.imports
            .iter()
            .find(|(span, _)| span.start <= offset && offset <= span.end)
            .map(|(_, key)| key.as_str())
    }
}

/// `import "path";` lines, found without parsing: each path's span (with its quotes) and
/// text.
fn lexical_imports(text: &str) -> Vec<(Span, String)> {
    let mut out = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix("import")
            && let Some(quoted) = rest.trim_start().strip_prefix('"')
            && let Some(end) = quoted.find('"')
        {
            let start = offset + (line.len() - quoted.len()) - 1;
            out.push((Span::new(start, start + end + 2), quoted[..end].to_string()));
        }
        offset += line.len();
    }
    out
}

/// The type names a text declares (`record Name`, `enum Name`, `union Name`,
/// `type Name`), found without parsing, with their keyword.
pub fn lexical_decls(text: &str) -> Vec<(String, &'static str)> {
    let mut out = Vec::new();
    let words: Vec<&str> = text
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .flat_map(|l| l.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')))
        .filter(|w| !w.is_empty())
        .collect();
    for pair in words.windows(2) {
        let keyword = match pair[0] {
            "record" => "record",
            "enum" => "enum",
            "union" => "union",
            "type" => "type",
            _ => continue,
        };
        out.push((pair[1].to_string(), keyword));
    }
    out
}

pub fn dotted(path: &[ast::Ident]) -> String {
    path.iter()
        .map(|i| i.name.as_str())
        .collect::<Vec<_>>()
        .join(".")
}

fn item_refs(item: &Item, out: &mut Vec<TypeRef>) {
    match item {
        Item::Record(r) => r.fields.iter().for_each(|f| field_refs(f, out)),
        Item::Alias(a) => type_refs(&a.ty, out),
        Item::Union(u) => u.variants.iter().for_each(|v| type_refs(&v.ty, out)),
        Item::Enum(_) => {}
        Item::Service(s) => {
            for m in &s.members {
                m.params.iter().for_each(|p| field_refs(p, out));
                for spread in &m.spreads {
                    out.push(TypeRef {
                        path: spread.path.clone(),
                        span: path_span(&spread.path, spread.span),
                    });
                }
                if let Some(ty) = &m.returns {
                    type_refs(ty, out);
                }
            }
        }
    }
}

fn field_refs(field: &FieldDecl, out: &mut Vec<TypeRef>) {
    type_refs(&field.ty, out);
}

fn type_refs(ty: &TypeExpr, out: &mut Vec<TypeRef>) {
    out.push(TypeRef {
        path: ty.path.clone(),
        span: ty.path_span(),
    });
    for arg in ty.args.iter().flat_map(|a| &a.args) {
        type_refs(arg, out);
    }
}

fn path_span(path: &[ast::Ident], fallback: Span) -> Span {
    match (path.first(), path.last()) {
        (Some(first), Some(last)) => first.span.to(last.span),
        _ => fallback,
    }
}

/// Parsed files by key, each parsed once per request.
pub struct Indexes<'a> {
    workspace: &'a Workspace,
    files: HashMap<String, Option<Rc<FileIndex>>>,
}

impl<'a> Indexes<'a> {
    pub fn new(workspace: &'a Workspace) -> Indexes<'a> {
        Indexes {
            workspace,
            files: HashMap::new(),
        }
    }

    pub fn workspace(&self) -> &'a Workspace {
        self.workspace
    }

    /// The index of `key`; `None` when it cannot be read.
    pub fn get(&mut self, key: &str) -> Option<Rc<FileIndex>> {
        if let Some(known) = self.files.get(key) {
            return known.clone();
        }
        let index = self
            .workspace
            .read(key)
            .ok()
            .map(|text| Rc::new(FileIndex::new(self.workspace, key, text)));
        self.files.insert(key.to_string(), index.clone());
        index
    }

    /// The declaration `path` names when written in the file `from`.
    pub fn resolve(&mut self, from: &str, path: &[ast::Ident]) -> Option<Target> {
        let (last, qualifier) = path.split_last()?;
        let qualifier = dotted(qualifier);
        let (own_package, imports) = {
            let file = self.get(from)?;
            let imports: Vec<String> = file.imports.iter().map(|(_, k)| k.clone()).collect();
            (file.package.clone(), imports)
        };
        let candidates = std::iter::once(from.to_string()).chain(imports);
        for key in candidates {
            let Some(file) = self.get(&key) else { continue };
            let package_fits = if qualifier.is_empty() {
                true
            } else if key == from {
                qualifier == own_package
            } else {
                qualifier == file.package
            };
            if package_fits && file.type_decl(&last.name).is_some() {
                return Some(Target {
                    key,
                    name: last.name.clone(),
                });
            }
        }
        None
    }

    /// The declaration of a target: its file and item.
    pub fn declaration(&mut self, target: &Target) -> Option<Rc<FileIndex>> {
        let file = self.get(&target.key)?;
        file.type_decl(&target.name)?;
        Some(file)
    }

    /// Every place, in every file of the workspace, that names `target` (the declaration
    /// itself not included), as (key, span of the last segment).
    pub fn references(&mut self, target: &Target) -> Vec<(String, Span)> {
        let mut out = Vec::new();
        for key in self.workspace.tool_files() {
            let Some(file) = self.get(&key) else { continue };
            for r in &file.refs {
                if self.resolve(&key, &r.path).as_ref() == Some(target) {
                    out.push((key.clone(), r.name_span()));
                }
            }
        }
        out
    }
}
