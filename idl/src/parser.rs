//! `.tool` text → [`crate::ast::File`], with pest. Syntax errors name what was expected in words.

use pest::Parser as _;
use pest::iterators::Pair;

use crate::ast::*;
use crate::diagnostics::Diagnostic;
use crate::source::FileId;

mod syntax_error;

use syntax_error::{check_nesting, syntax_error};

// The grammar's rules are an implementation detail (the formatter and the syntax errors read
// them inside this crate), not part of the public API.
mod grammar {
    #[derive(pest_derive::Parser)]
    #[grammar = "tool.pest"]
    pub(crate) struct ToolParser;
}

pub(crate) use grammar::{Rule, ToolParser};

/// Deepest nesting of `(`, `[` and `<` accepted, so that no input can exhaust the stack.
const MAX_NESTING: usize = 64;

/// The result of parsing one file: the tree (absent after a syntax error) and diagnostics
/// (the syntax error, or problems inside literals such as a bad escape).
pub struct Parsed {
    /// The file's syntax tree; `None` after a syntax error.
    pub file: Option<File>,
    /// The syntax error, or problems inside literals, in source order.
    pub diagnostics: Vec<Diagnostic>,
}

/// Parses one file's text into its syntax tree; `file_id` is what diagnostics point at.
pub fn parse(file_id: FileId, text: &str) -> Parsed {
    if let Some(diagnostic) = check_nesting(file_id, text) {
        return Parsed {
            file: None,
            diagnostics: vec![diagnostic],
        };
    }
    match ToolParser::parse(Rule::file, text) {
        Ok(mut pairs) => {
            let mut builder = Builder {
                file_id,
                diagnostics: Vec::new(),
            };
            match pairs.next().and_then(|pair| builder.file(pair)) {
                Some(file) => Parsed {
                    file: Some(file),
                    diagnostics: builder.diagnostics,
                },
                // The tree's shape is fixed by the grammar; this guards a mismatch between
                // grammar and builder (a bug) without panicking on a user's file.
                None => Parsed {
                    file: None,
                    diagnostics: vec![
                        Diagnostic::error("E0000", "internal error: unexpected syntax tree")
                            .at(file_id, Span::new(0, 0))
                            .help("please report this file to the toolidl maintainers"),
                    ],
                },
            }
        }
        Err(error) => Parsed {
            file: None,
            diagnostics: vec![syntax_error(file_id, text, &error)],
        },
    }
}

/// The pest tree of `text`, after the same nesting check as [`parse`]: what the formatter
/// walks. `None` when [`parse`] would report a syntax error.
pub(crate) fn tree(text: &str) -> Option<Pair<'_, Rule>> {
    if check_nesting(FileId(0), text).is_some() {
        return None;
    }
    ToolParser::parse(Rule::file, text).ok()?.next()
}

/// The text of a `///` line: without `///` and one leading space, and without a trailing
/// ordinary comment (`//` after whitespace: `/// City name // e.g. 'Brussels'`; a URL's
/// `://` is not preceded by whitespace and stays).
fn doc_line(raw: &str) -> String {
    let body = raw.get(3..).unwrap_or_default();
    let bytes = body.as_bytes();
    let end = (1..bytes.len())
        .find(|&i| bytes[i - 1].is_ascii_whitespace() && body[i..].starts_with("//"))
        .unwrap_or(body.len());
    let body = &body[..end];
    let body = body.strip_prefix(' ').unwrap_or(body);
    body.trim_end_matches([' ', '\t', '\r']).to_string()
}

struct Builder {
    file_id: FileId,
    diagnostics: Vec<Diagnostic>,
}

fn span_of(pair: &Pair<'_, Rule>) -> Span {
    let s = pair.as_span();
    Span::new(s.start(), s.end())
}

fn ident(pair: Pair<'_, Rule>) -> Ident {
    Ident {
        name: pair.as_str().to_string(),
        span: span_of(&pair),
    }
}

/// The significant children of a node: punctuation rules exist only so that syntax errors
/// can name them, and carry nothing.
fn children(pair: Pair<'_, Rule>) -> impl Iterator<Item = Pair<'_, Rule>> {
    pair.into_inner().filter(|p| {
        !matches!(
            p.as_rule(),
            Rule::semi
                | Rule::comma
                | Rule::colon
                | Rule::lbrace
                | Rule::rbrace
                | Rule::lparen
                | Rule::rparen
                | Rule::langle
                | Rule::rangle
                | Rule::lbracket
                | Rule::rbracket
                | Rule::eq
                | Rule::arrow
        )
    })
}

fn path(pair: Pair<'_, Rule>) -> Vec<Ident> {
    children(pair).map(ident).collect()
}

impl Builder {
    fn file(&mut self, pair: Pair<'_, Rule>) -> Option<File> {
        let mut file = File {
            package: None,
            imports: Vec::new(),
            items: Vec::new(),
        };
        for child in children(pair) {
            match child.as_rule() {
                Rule::package_decl => {
                    let span = span_of(&child);
                    let mut inner = children(child);
                    let (doc, attrs) = self.prefix(inner.next()?)?;
                    inner.next(); // kw_package
                    let path = path(inner.next()?);
                    file.package = Some(Package {
                        doc,
                        attrs,
                        path,
                        span,
                    });
                }
                Rule::import_decl => {
                    let span = span_of(&child);
                    let mut inner = children(child);
                    let (doc, attrs) = self.prefix(inner.next()?)?;
                    inner.next(); // kw_import
                    let lit = inner.next()?;
                    let path_span = span_of(&lit);
                    let path = self.string(lit)?;
                    file.imports.push(Import {
                        doc,
                        attrs,
                        path,
                        path_span,
                        span,
                    });
                }
                Rule::enum_decl => file.items.push(Item::Enum(self.enum_decl(child)?)),
                Rule::record_decl => file.items.push(Item::Record(self.record_decl(child)?)),
                Rule::service_decl => file.items.push(Item::Service(self.service_decl(child)?)),
                Rule::type_decl => file.items.push(Item::Alias(self.alias_decl(child)?)),
                Rule::union_decl => file.items.push(Item::Union(self.union_decl(child)?)),
                _ => {}
            }
        }
        Some(file)
    }

    fn prefix(&mut self, pair: Pair<'_, Rule>) -> Option<(Doc, Vec<Attribute>)> {
        let mut doc = Doc::default();
        let mut attrs = Vec::new();
        for child in children(pair) {
            match child.as_rule() {
                Rule::doc_comment => {
                    let span = span_of(&child);
                    doc.lines.push(doc_line(child.as_str()));
                    doc.span = Some(doc.span.map_or(span, |s| s.to(span)));
                }
                Rule::attribute => attrs.push(self.attribute(child)?),
                _ => {}
            }
        }
        Some((doc, attrs))
    }

    fn attribute(&mut self, pair: Pair<'_, Rule>) -> Option<Attribute> {
        let span = span_of(&pair);
        let mut inner = children(pair);
        let name_pair = inner.next()?;
        let name_span = span_of(&name_pair);
        let name = Ident {
            name: name_pair.as_str()[1..].to_string(),
            span: name_span,
        };
        let args = match inner.next() {
            None => None,
            Some(args) => Some(
                children(args)
                    .map(|arg| {
                        let span = span_of(&arg);
                        let mut parts: Vec<Pair<'_, Rule>> = children(arg).collect();
                        let value = self.literal(parts.pop()?)?;
                        let name = parts.pop().map(ident);
                        Some(AttrArg { name, value, span })
                    })
                    .collect::<Option<Vec<_>>>()?,
            ),
        };
        Some(Attribute { name, args, span })
    }

    fn enum_decl(&mut self, pair: Pair<'_, Rule>) -> Option<EnumDecl> {
        let span = span_of(&pair);
        let mut inner = children(pair);
        let (doc, attrs) = self.prefix(inner.next()?)?;
        inner.next(); // kw_enum
        let name = ident(inner.next()?);
        let variants = inner
            .filter(|p| p.as_rule() == Rule::variant)
            .map(|v| {
                let span = span_of(&v);
                let mut inner = children(v);
                let (doc, attrs) = self.prefix(inner.next()?)?;
                let name = ident(inner.next()?);
                Some(VariantDecl {
                    doc,
                    attrs,
                    name,
                    span,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(EnumDecl {
            doc,
            attrs,
            name,
            variants,
            span,
        })
    }

    fn record_decl(&mut self, pair: Pair<'_, Rule>) -> Option<RecordDecl> {
        let span = span_of(&pair);
        let mut inner = children(pair);
        let (doc, attrs) = self.prefix(inner.next()?)?;
        inner.next(); // kw_record
        let name = ident(inner.next()?);
        let fields = inner
            .filter(|p| p.as_rule() == Rule::field)
            .map(|f| self.field(f))
            .collect::<Option<Vec<_>>>()?;
        Some(RecordDecl {
            doc,
            attrs,
            name,
            fields,
            span,
        })
    }

    fn field(&mut self, pair: Pair<'_, Rule>) -> Option<FieldDecl> {
        let span = span_of(&pair);
        let mut inner = children(pair);
        let (doc, attrs) = self.prefix(inner.next()?)?;
        let name = ident(inner.next()?);
        let mut next = inner.next()?;
        let optional = if next.as_rule() == Rule::optional_mark {
            let span = span_of(&next);
            next = inner.next()?;
            Some(span)
        } else {
            None
        };
        let ty = self.type_expr(next)?;
        let default = match inner.next() {
            Some(lit) => Some(self.literal(lit)?),
            None => None,
        };
        Some(FieldDecl {
            doc,
            attrs,
            name,
            optional,
            ty,
            default,
            span,
        })
    }

    fn service_decl(&mut self, pair: Pair<'_, Rule>) -> Option<ServiceDecl> {
        let span = span_of(&pair);
        let mut inner = children(pair);
        let (doc, attrs) = self.prefix(inner.next()?)?;
        inner.next(); // kw_service
        let name = ident(inner.next()?);
        let members = inner.map(|m| self.member(m)).collect::<Option<Vec<_>>>()?;
        Some(ServiceDecl {
            doc,
            attrs,
            name,
            members,
            span,
        })
    }

    fn member(&mut self, pair: Pair<'_, Rule>) -> Option<MemberDecl> {
        let span = span_of(&pair);
        let kind = match pair.as_rule() {
            Rule::resource_decl => Keyword::Resource,
            Rule::prompt_decl => Keyword::Prompt,
            _ => Keyword::Tool,
        };
        let mut inner = children(pair);
        let (doc, attrs) = self.prefix(inner.next()?)?;
        inner.next(); // keyword
        let name = ident(inner.next()?);
        let mut params = Vec::new();
        let mut spreads = Vec::new();
        for p in inner.next().map(children).into_iter().flatten() {
            if p.as_rule() == Rule::spread {
                let span = span_of(&p);
                let path = path(children(p).nth(1)?);
                spreads.push(Spread {
                    path,
                    index: params.len(),
                    span,
                });
            } else {
                params.push(self.field(p)?);
            }
        }
        let returns = match inner.next() {
            Some(r) => Some(self.type_expr(children(r).next()?)?),
            None => None,
        };
        Some(MemberDecl {
            kind,
            doc,
            attrs,
            name,
            params,
            spreads,
            returns,
            span,
        })
    }

    fn union_decl(&mut self, pair: Pair<'_, Rule>) -> Option<UnionDecl> {
        let span = span_of(&pair);
        let mut inner = children(pair);
        let (doc, attrs) = self.prefix(inner.next()?)?;
        inner.next(); // kw_union
        let name = ident(inner.next()?);
        let variants = inner
            .filter(|p| p.as_rule() == Rule::union_variant)
            .map(|v| {
                let span = span_of(&v);
                let mut inner = children(v);
                let (doc, attrs) = self.prefix(inner.next()?)?;
                let name = ident(inner.next()?);
                let ty = self.type_expr(inner.next()?)?;
                Some(UnionVariantDecl {
                    doc,
                    attrs,
                    name,
                    ty,
                    span,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(UnionDecl {
            doc,
            attrs,
            name,
            variants,
            span,
        })
    }

    fn alias_decl(&mut self, pair: Pair<'_, Rule>) -> Option<AliasDecl> {
        let span = span_of(&pair);
        let mut inner = children(pair);
        let (doc, attrs) = self.prefix(inner.next()?)?;
        inner.next(); // kw_type
        let name = ident(inner.next()?);
        let type_attrs = children(inner.next()?)
            .map(|a| self.attribute(a))
            .collect::<Option<Vec<_>>>()?;
        let ty = self.type_expr(inner.next()?)?;
        Some(AliasDecl {
            doc,
            attrs,
            name,
            type_attrs,
            ty,
            span,
        })
    }

    fn type_expr(&mut self, pair: Pair<'_, Rule>) -> Option<TypeExpr> {
        let span = span_of(&pair);
        let mut path_idents = Vec::new();
        let mut args = None;
        let mut nullable = Vec::new();
        for child in children(pair) {
            match child.as_rule() {
                Rule::path => path_idents = path(child),
                Rule::type_args => {
                    let span = span_of(&child);
                    let list = children(child)
                        .map(|t| self.type_expr(t))
                        .collect::<Option<Vec<_>>>()?;
                    args = Some(TypeArgs { args: list, span });
                }
                Rule::question => nullable.push(span_of(&child)),
                _ => {}
            }
        }
        Some(TypeExpr {
            path: path_idents,
            args,
            nullable,
            span,
        })
    }

    fn literal(&mut self, pair: Pair<'_, Rule>) -> Option<Literal> {
        let span = span_of(&pair);
        let inner = children(pair).next()?;
        let kind = match inner.as_rule() {
            Rule::string_lit => LiteralKind::String(self.string(inner)?),
            Rule::char_lit => {
                let text = self.string(inner)?;
                let mut chars = text.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => LiteralKind::Char(c),
                    _ => {
                        self.diagnostics.push(
                            Diagnostic::error(
                                "E0002",
                                "a char literal must hold exactly one character",
                            )
                            .at(self.file_id, span)
                            .help("write strings with double quotes: \"…\""),
                        );
                        LiteralKind::Char(text.chars().next().unwrap_or(' '))
                    }
                }
            }
            Rule::int_lit => match inner.as_str().parse::<i128>() {
                Ok(n) if (i64::MIN as i128..=u64::MAX as i128).contains(&n) => LiteralKind::Int(n),
                _ => {
                    self.diagnostics.push(
                        Diagnostic::error(
                            "E0003",
                            "integer literal out of range",
                        )
                        .at(self.file_id, span)
                        .help("integers must lie between -9223372036854775808 and 18446744073709551615"),
                    );
                    LiteralKind::Int(0)
                }
            },
            Rule::float_lit => match inner.as_str().parse::<f64>() {
                Ok(f) if f.is_finite() => LiteralKind::Float(f),
                _ => {
                    self.diagnostics.push(
                        Diagnostic::error("E0003", "float literal out of range")
                            .at(self.file_id, span)
                            .help("a float holds magnitudes up to about 1.8e308"),
                    );
                    LiteralKind::Float(0.0)
                }
            },
            Rule::true_lit => LiteralKind::Bool(true),
            Rule::false_lit => LiteralKind::Bool(false),
            Rule::null_lit => LiteralKind::Null,
            Rule::list_lit => LiteralKind::List(
                children(inner)
                    .map(|l| self.literal(l))
                    .collect::<Option<Vec<_>>>()?,
            ),
            Rule::object_lit => LiteralKind::Object(
                children(inner)
                    .map(|entry| {
                        let mut parts = children(entry);
                        let key = parts.next()?;
                        let key_span = span_of(&key);
                        let (key, quoted) = if key.as_rule() == Rule::string_lit {
                            (self.string(key)?, true)
                        } else {
                            (key.as_str().to_string(), false)
                        };
                        let value = self.literal(parts.next()?)?;
                        Some(Entry {
                            key,
                            quoted,
                            key_span,
                            value,
                        })
                    })
                    .collect::<Option<Vec<_>>>()?,
            ),
            _ => LiteralKind::Ident(inner.as_str().to_string()),
        };
        Some(Literal { kind, span })
    }

    /// The value of a string or char literal, with escapes processed.
    fn string(&mut self, pair: Pair<'_, Rule>) -> Option<String> {
        let body = children(pair).next()?;
        let base = body.as_span().start();
        let raw = body.as_str();
        let mut out = String::with_capacity(raw.len());
        let mut chars = raw.char_indices();
        while let Some((i, c)) = chars.next() {
            if c != '\\' {
                out.push(c);
                continue;
            }
            let Some((_, e)) = chars.next() else { break };
            let escaped = match e {
                '"' => Some('"'),
                '\'' => Some('\''),
                '\\' => Some('\\'),
                '/' => Some('/'),
                'n' => Some('\n'),
                'r' => Some('\r'),
                't' => Some('\t'),
                '0' => Some('\0'),
                'u' => self.unicode_escape(&mut chars, raw),
                _ => None,
            };
            match escaped {
                Some(c) => out.push(c),
                None => {
                    let end = chars.clone().next().map_or(raw.len(), |(j, _)| j);
                    self.diagnostics.push(
                        Diagnostic::error("E0002", format!("invalid escape `{}`", &raw[i..end]))
                            .at(self.file_id, Span::new(base + i, base + end))
                            .help(r#"escapes are \" \' \\ \/ \n \r \t \0 and \u{…}; write a backslash as \\ (a regex `\d` as "\\d")"#),
                    );
                }
            }
        }
        Some(out)
    }

    /// After `\u`: `{hex}`; returns the char, or `None` (the caller reports it).
    fn unicode_escape(&mut self, chars: &mut std::str::CharIndices<'_>, raw: &str) -> Option<char> {
        let rest = chars.as_str();
        if !rest.starts_with('{') {
            return None;
        }
        let close = rest.find('}')?;
        let hex = &rest[1..close];
        let c = u32::from_str_radix(hex, 16)
            .ok()
            .filter(|_| !hex.is_empty() && hex.len() <= 6)
            .and_then(char::from_u32)?;
        let _ = raw;
        for _ in 0..=close {
            chars.next();
        }
        Some(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(text: &str) -> File {
        let parsed = parse(FileId(0), text);
        assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
        parsed.file.expect("parses")
    }

    fn err(text: &str) -> String {
        let parsed = parse(FileId(0), text);
        assert!(parsed.file.is_none());
        parsed.diagnostics[0].message.clone()
    }

    #[test]
    fn docs_attach_and_comments_vanish() {
        let file = ok("/// A.\n///  two\n// no\nrecord A { /// f\n @range(1, 2) x: u8 = 3, }");
        let Item::Record(r) = &file.items[0] else {
            panic!()
        };
        assert_eq!(r.doc.lines, vec!["A.", " two"]);
        assert_eq!(r.fields[0].doc.lines, vec!["f"]);
        assert_eq!(r.fields[0].attrs[0].name.name, "range");
        assert_eq!(
            r.fields[0].default.as_ref().unwrap().kind,
            LiteralKind::Int(3)
        );
    }

    #[test]
    fn doc_lines_drop_a_trailing_comment_but_keep_urls() {
        assert_eq!(doc_line("/// Units.     // a note"), "Units.");
        assert_eq!(
            doc_line("/// See https://x.org/a//b"),
            "See https://x.org/a//b"
        );
        assert_eq!(doc_line("///  indented  "), " indented");
        assert_eq!(doc_line("///"), "");
        assert_eq!(doc_line("/// // only a comment"), "");
    }

    #[test]
    fn literals() {
        let file = ok(
            r#"record A { a: string = "x\"\u{e9}\n", b: char = '\'', c: f64 = -1.5e3, d: i8 = -3, e: E = member, f: string? = null }"#,
        );
        let Item::Record(r) = &file.items[0] else {
            panic!()
        };
        let kinds: Vec<_> = r
            .fields
            .iter()
            .map(|f| f.default.clone().unwrap().kind)
            .collect();
        assert_eq!(kinds[0], LiteralKind::String("x\"é\n".into()));
        assert_eq!(kinds[1], LiteralKind::Char('\''));
        assert_eq!(kinds[2], LiteralKind::Float(-1500.0));
        assert_eq!(kinds[3], LiteralKind::Int(-3));
        assert_eq!(kinds[4], LiteralKind::Ident("member".into()));
        assert_eq!(kinds[5], LiteralKind::Null);
    }

    #[test]
    fn syntax_errors_speak_words() {
        assert_eq!(
            err("record A { x: }"),
            "syntax error: expected identifier, found `}`"
        );
        let m = err("record A { x: u8 y: u8 }");
        assert!(m.contains("','") && m.contains("'}'"), "{m}");
        assert!(!m.contains("rule"), "{m}");
    }

    #[test]
    fn deep_nesting_is_refused() {
        let text = format!(
            "record A {{ a: {}u8{} }}",
            "list<".repeat(200),
            ">".repeat(200)
        );
        assert!(err(&text).contains("nesting"));
    }
}
