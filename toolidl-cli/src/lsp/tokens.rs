//! Semantic tokens: what each name is (a record, an enum, a tool, a parameter, an
//! attribute…), beyond what a syntax grammar can tell.

use lsp_types::{SemanticToken, SemanticTokenType, SemanticTokens, SemanticTokensLegend};
use toolidl::ast::{Item, Span};

use super::hover::all_attributes;
use super::index::{FileIndex, Indexes};

/// The legend's types, in the order their indexes are sent.
const TYPES: [SemanticTokenType; 10] = [
    SemanticTokenType::NAMESPACE,
    SemanticTokenType::STRUCT,
    SemanticTokenType::ENUM,
    SemanticTokenType::TYPE,
    SemanticTokenType::INTERFACE,
    SemanticTokenType::FUNCTION,
    SemanticTokenType::PARAMETER,
    SemanticTokenType::PROPERTY,
    SemanticTokenType::ENUM_MEMBER,
    SemanticTokenType::DECORATOR,
];

const NAMESPACE: u32 = 0;
const STRUCT: u32 = 1;
const ENUM: u32 = 2;
const TYPE: u32 = 3;
const INTERFACE: u32 = 4;
const FUNCTION: u32 = 5;
const PARAMETER: u32 = 6;
const PROPERTY: u32 = 7;
const ENUM_MEMBER: u32 = 8;
const DECORATOR: u32 = 9;

pub fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: TYPES.to_vec(),
        token_modifiers: Vec::new(),
    }
}

fn item_kind(item: &Item) -> u32 {
    match item {
        Item::Record(_) => STRUCT,
        Item::Enum(_) | Item::Union(_) => ENUM,
        Item::Alias(_) => TYPE,
        Item::Service(_) => INTERFACE,
    }
}

pub fn tokens(indexes: &mut Indexes<'_>, file: &FileIndex) -> SemanticTokens {
    let mut found: Vec<(Span, u32)> = Vec::new();
    if let Some(ast) = &file.ast {
        if let Some(p) = &ast.package {
            found.extend(p.path.iter().map(|i| (i.span, NAMESPACE)));
        }
        found.extend(all_attributes(ast).iter().map(|a| (a.name.span, DECORATOR)));
        for item in &ast.items {
            found.push((item.name().span, item_kind(item)));
            match item {
                Item::Record(r) => found.extend(r.fields.iter().map(|f| (f.name.span, PROPERTY))),
                Item::Enum(e) => {
                    found.extend(e.variants.iter().map(|v| (v.name.span, ENUM_MEMBER)))
                }
                Item::Union(u) => {
                    found.extend(u.variants.iter().map(|v| (v.name.span, ENUM_MEMBER)))
                }
                Item::Alias(_) => {}
                Item::Service(s) => {
                    for m in &s.members {
                        found.push((m.name.span, FUNCTION));
                        found.extend(m.params.iter().map(|p| (p.name.span, PARAMETER)));
                    }
                }
            }
        }
        for r in &file.refs {
            let (qualifier, last) = match r.path.split_last() {
                Some((last, qualifier)) => (qualifier, last),
                None => continue,
            };
            found.extend(qualifier.iter().map(|i| (i.span, NAMESPACE)));
            let kind = indexes
                .resolve(&file.key, &r.path)
                .and_then(|t| Some(item_kind(indexes.declaration(&t)?.type_decl(&t.name)?)))
                .unwrap_or(TYPE);
            found.push((last.span, kind));
        }
    }
    found.sort_by_key(|(span, _)| span.start);
    found.dedup_by_key(|(span, _)| span.start);
    let mut data = Vec::with_capacity(found.len());
    let (mut line, mut start) = (0, 0);
    for (span, kind) in found {
        let from = file.lines.position(&file.text, span.start);
        let to = file.lines.position(&file.text, span.end);
        if to.line != from.line {
            continue;
        }
        let delta_line = from.line - line;
        let delta_start = if delta_line == 0 {
            from.character - start
        } else {
            from.character
        };
        data.push(SemanticToken {
            delta_line,
            delta_start,
            length: to.character - from.character,
            token_type: kind,
            token_modifiers_bitset: 0,
        });
        line = from.line;
        start = from.character;
    }
    SemanticTokens {
        result_id: None,
        data,
    }
}
