//! Document symbols (the outline: types with their fields or members, services with their
//! tools, resources and prompts and their parameters) and folding ranges.

use lsp_types::{DocumentSymbol, FoldingRange, FoldingRangeKind, SymbolKind};
use toolidl::ast::{self, FieldDecl, Item, Keyword, Span};

use super::index::FileIndex;

#[allow(deprecated)] // `DocumentSymbol::deprecated`: the protocol keeps the field.
fn symbol(
    file: &FileIndex,
    name: &str,
    detail: Option<String>,
    kind: SymbolKind,
    span: Span,
    name_span: Span,
    children: Vec<DocumentSymbol>,
) -> DocumentSymbol {
    DocumentSymbol {
        name: name.to_string(),
        detail,
        kind,
        tags: None,
        deprecated: None,
        range: file.lines.range(&file.text, span),
        selection_range: file.lines.range(&file.text, name_span),
        children: (!children.is_empty()).then_some(children),
    }
}

fn written(file: &FileIndex, span: Span) -> Option<String> {
    file.text
        .get(span.start..span.end)
        .map(|t| t.trim().to_string())
}

/// A declaration with members: `detail` is its keyword.
fn declaration(
    file: &FileIndex,
    name: &ast::Ident,
    keyword: &str,
    kind: SymbolKind,
    span: Span,
    children: Vec<DocumentSymbol>,
) -> DocumentSymbol {
    symbol(
        file,
        &name.name,
        Some(keyword.into()),
        kind,
        span,
        name.span,
        children,
    )
}

/// An enum member or union variant.
fn leaf(file: &FileIndex, name: &ast::Ident, detail: Option<String>, span: Span) -> DocumentSymbol {
    symbol(
        file,
        &name.name,
        detail,
        SymbolKind::ENUM_MEMBER,
        span,
        name.span,
        Vec::new(),
    )
}

fn value(file: &FileIndex, f: &FieldDecl, kind: SymbolKind) -> DocumentSymbol {
    symbol(
        file,
        &f.name.name,
        written(file, f.ty.span),
        kind,
        f.span,
        f.name.span,
        Vec::new(),
    )
}

pub fn document_symbols(file: &FileIndex) -> Vec<DocumentSymbol> {
    let Some(ast) = &file.ast else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if let Some(p) = &ast.package {
        let name = super::index::dotted(&p.path);
        let name_span = p
            .path
            .first()
            .map_or(p.span, |f| f.span)
            .to(p.path.last().map_or(p.span, |l| l.span));
        out.push(symbol(
            file,
            &name,
            None,
            SymbolKind::PACKAGE,
            p.span,
            name_span,
            Vec::new(),
        ));
    }
    for item in &ast.items {
        out.push(item_symbol(file, item));
    }
    out
}

fn item_symbol(file: &FileIndex, item: &Item) -> DocumentSymbol {
    match item {
        Item::Record(r) => {
            let fields = r
                .fields
                .iter()
                .map(|f| value(file, f, SymbolKind::FIELD))
                .collect();
            declaration(file, &r.name, "record", SymbolKind::STRUCT, r.span, fields)
        }
        Item::Enum(e) => {
            let members = e
                .variants
                .iter()
                .map(|v| leaf(file, &v.name, None, v.span))
                .collect();
            declaration(file, &e.name, "enum", SymbolKind::ENUM, e.span, members)
        }
        Item::Union(u) => {
            let variants = u
                .variants
                .iter()
                .map(|v| leaf(file, &v.name, written(file, v.ty.span), v.span))
                .collect();
            declaration(file, &u.name, "union", SymbolKind::ENUM, u.span, variants)
        }
        Item::Alias(a) => symbol(
            file,
            &a.name.name,
            written(file, a.ty.span),
            SymbolKind::TYPE_PARAMETER,
            a.span,
            a.name.span,
            Vec::new(),
        ),
        Item::Service(s) => {
            let members = s
                .members
                .iter()
                .map(|m| {
                    let params = m
                        .params
                        .iter()
                        .map(|p| value(file, p, SymbolKind::VARIABLE))
                        .collect();
                    let kind = match m.kind {
                        Keyword::Tool => SymbolKind::FUNCTION,
                        Keyword::Resource => SymbolKind::FILE,
                        Keyword::Prompt => SymbolKind::STRING,
                    };
                    symbol(
                        file,
                        &m.name.name,
                        Some(m.kind.as_str().into()),
                        kind,
                        m.span,
                        m.name.span,
                        params,
                    )
                })
                .collect();
            declaration(
                file,
                &s.name,
                "service",
                SymbolKind::INTERFACE,
                s.span,
                members,
            )
        }
    }
}

/// A fold per braced declaration and per parameter list or doc comment spanning lines.
pub fn folding_ranges(file: &FileIndex) -> Vec<FoldingRange> {
    let Some(ast) = &file.ast else {
        return Vec::new();
    };
    let mut spans: Vec<(Span, Option<FoldingRangeKind>)> = Vec::new();
    let doc = |d: &ast::Doc, out: &mut Vec<(Span, Option<FoldingRangeKind>)>| {
        if let Some(span) = d.span {
            out.push((span, Some(FoldingRangeKind::Comment)));
        }
    };
    for item in &ast.items {
        let (item_doc, span) = match item {
            Item::Record(r) => (&r.doc, r.span),
            Item::Enum(e) => (&e.doc, e.span),
            Item::Union(u) => (&u.doc, u.span),
            Item::Alias(a) => (&a.doc, a.span),
            Item::Service(s) => (&s.doc, s.span),
        };
        doc(item_doc, &mut spans);
        spans.push((span, None));
        if let Item::Service(s) = item {
            for m in &s.members {
                doc(&m.doc, &mut spans);
                spans.push((m.span, None));
            }
        }
    }
    spans
        .into_iter()
        .filter_map(|(span, kind)| {
            let start = file.lines.position(&file.text, span.start).line;
            let end = file.lines.position(&file.text, span.end).line;
            (end > start).then_some(FoldingRange {
                start_line: start,
                start_character: None,
                end_line: end,
                end_character: None,
                kind,
                collapsed_text: None,
            })
        })
        .collect()
}
