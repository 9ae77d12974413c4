//! `toolidl fmt`: the one canonical layout of a `.tool` file. Pure: text in, text out.
//!
//! The formatter walks the parse tree (not the AST, which drops `//` comments and the
//! spelling of literals) and writes every token as written, in order; only whitespace,
//! commas that end a list and the place of line breaks change. Every `//` comment is put
//! back between the two tokens it stood between (the private `emit` module). The layout rules are in
//! `docs/fmt.md`:
//!
//! - 4 spaces per level; lines of at most [`MAX_WIDTH`] columns where a rule can wrap;
//! - one blank line between top-level items and between the members of a service; a blank
//!   line between fields, parameters, variants or imports is kept (one at most);
//! - doc comments on their own lines; the attributes of an item or member on the line(s)
//!   before its keyword (one line when it fits, else one per line); those of a field,
//!   parameter or variant before its name on its line when the line fits, else above it;
//! - a record's fields one per line, each with a comma; an enum on one line when its members
//!   carry nothing and it fits, else one per line; a tool's parameters on its line when they
//!   carry no doc comment and the line fits, else one per line with a trailing comma.

mod emit;
mod lex;

use pest::iterators::Pair;

use crate::ast::Span;
use crate::diagnostics::Diagnostic;
use crate::parser::{self, Rule};
use crate::source::FileId;
use emit::{Emitter, Piece, width};

/// The widest line the layout makes where it has a choice.
pub const MAX_WIDTH: usize = 100;

/// Formats `text`, the contents of `file`. A file that does not parse (or whose literals are
/// invalid) is refused with its diagnostics; a file that parses but does not resolve (an
/// unknown type, say) is formatted.
pub fn format(file: FileId, text: &str) -> Result<String, Vec<Diagnostic>> {
    let parsed = parser::parse(file, text);
    let errors: Vec<Diagnostic> = parsed
        .diagnostics
        .into_iter()
        .filter(Diagnostic::is_error)
        .collect();
    if parsed.file.is_none() || !errors.is_empty() {
        return Err(errors);
    }
    let unexpected = || {
        vec![
            Diagnostic::error(
                "E0000",
                "internal error: the formatter met an unexpected tree",
            )
            .at(file, Span::new(0, 0))
            .help("please report this file to the toolidl maintainers"),
        ]
    };
    let formatted = layout(text).ok_or_else(unexpected)?;
    // Never lose a token or a comment: a layout that would is refused, not written.
    let kept = significant_tokens(&formatted) == significant_tokens(text)
        && comments(&formatted) == comments(text);
    if kept {
        Ok(formatted)
    } else {
        Err(unexpected())
    }
}

/// The significant tokens of `text` in order: every token but commas, doc comments without
/// trailing spaces. Two texts with the same significant tokens have the same syntax tree (up
/// to spans). `None` when `text` does not parse.
pub fn significant_tokens(text: &str) -> Option<Vec<&str>> {
    let root = parser::tree(text)?;
    let mut ranges = Vec::new();
    let mut commas = Vec::new();
    collect_commas(root.clone(), &mut commas);
    lex::tokens(root, &mut ranges);
    Some(
        ranges
            .into_iter()
            .filter(|range| !commas.contains(&range.0))
            .filter_map(|(start, end)| text.get(start..end))
            .map(|token| token.trim_end_matches([' ', '\t']))
            .collect(),
    )
}

fn collect_commas(pair: Pair<'_, Rule>, out: &mut Vec<usize>) {
    if pair.as_rule() == Rule::comma {
        out.push(pair.as_span().start());
    }
    for child in pair.into_inner() {
        collect_commas(child, out);
    }
}

/// The text of every `//` comment of `text` in order (trailing spaces removed). `None` when
/// `text` does not parse.
pub fn comments(text: &str) -> Option<Vec<&str>> {
    let root = parser::tree(text)?;
    let mut ranges = Vec::new();
    lex::tokens(root, &mut ranges);
    Some(
        lex::comments(text, &ranges)?
            .into_iter()
            .map(|c| c.text)
            .collect(),
    )
}

fn layout(text: &str) -> Option<String> {
    let root = parser::tree(text)?;
    let mut ranges = Vec::new();
    lex::tokens(root.clone(), &mut ranges);
    let comments = lex::comments(text, &ranges)?;
    let mut formatter = Formatter {
        e: Emitter::new(text, comments),
    };
    formatter.file(root)?;
    Some(formatter.e.finish())
}

fn start(pair: &Pair<'_, Rule>) -> usize {
    pair.as_span().start()
}

fn end(pair: &Pair<'_, Rule>) -> usize {
    pair.as_span().end()
}

/// A token of the source.
fn tok<'s>(pair: &Pair<'s, Rule>) -> Piece<'s> {
    let mut text = pair.as_str();
    if pair.as_rule() == Rule::doc_comment {
        text = text.trim_end_matches([' ', '\t']);
    }
    Piece {
        text,
        at: Some((start(pair), end(pair))),
        space: false,
    }
}

/// Text the formatter adds: a separator.
fn sep(text: &'static str) -> Piece<'static> {
    Piece {
        text,
        at: None,
        space: false,
    }
}

/// The children of a node but commas (which the layout writes itself).
fn children<'s>(pair: Pair<'s, Rule>) -> impl Iterator<Item = Pair<'s, Rule>> {
    pair.into_inner().filter(|p| p.as_rule() != Rule::comma)
}

/// `(a, b)`-like lists: the open token, the elements each through `element` with `, `
/// between them, the close token.
fn list<'s>(
    pair: Pair<'s, Rule>,
    out: &mut Vec<Piece<'s>>,
    element: fn(Pair<'s, Rule>, &mut Vec<Piece<'s>>),
) {
    let mut first = true;
    for child in children(pair) {
        match child.as_rule() {
            Rule::lparen | Rule::lbracket | Rule::langle => out.push(tok(&child)),
            Rule::rparen | Rule::rbracket | Rule::rangle => out.push(tok(&child)),
            _ => {
                if !first {
                    out.push(sep(","));
                }
                let at = out.len();
                element(child, out);
                if !first && let Some(piece) = out.get_mut(at) {
                    piece.space = true;
                }
                first = false;
            }
        }
    }
}

fn type_expr<'s>(pair: Pair<'s, Rule>, out: &mut Vec<Piece<'s>>) {
    for child in children(pair) {
        match child.as_rule() {
            Rule::type_args => list(child, out, type_expr),
            _ => out.push(tok(&child)),
        }
    }
}

fn literal<'s>(pair: Pair<'s, Rule>, out: &mut Vec<Piece<'s>>) {
    for child in children(pair) {
        match child.as_rule() {
            Rule::list_lit => list(child, out, literal),
            Rule::object_lit => object(child, out),
            _ => out.push(tok(&child)),
        }
    }
}

/// `{}`, or `{ key: value, … }` on one line.
fn object<'s>(pair: Pair<'s, Rule>, out: &mut Vec<Piece<'s>>) {
    let parts: Vec<_> = children(pair).collect();
    let (Some(open), Some(close)) = (parts.first(), parts.last()) else {
        return;
    };
    out.push(tok(open));
    let entries = &parts[1..parts.len() - 1];
    for (i, entry) in entries.iter().enumerate() {
        if i > 0 {
            out.push(sep(","));
        }
        for (j, part) in children(entry.clone()).enumerate() {
            let at = out.len();
            match part.as_rule() {
                Rule::literal => literal(part, out),
                _ => out.push(tok(&part)),
            }
            // A space after `{`, after each comma, and after the colon.
            if (j == 0 || j == 2)
                && let Some(piece) = out.get_mut(at)
            {
                piece.space = true;
            }
        }
    }
    let close = tok(close);
    out.push(if entries.is_empty() {
        close
    } else {
        close.spaced()
    });
}

/// `value` or `name: value`.
fn attr_arg<'s>(pair: Pair<'s, Rule>, out: &mut Vec<Piece<'s>>) {
    let mut named = false;
    for child in children(pair) {
        match child.as_rule() {
            Rule::literal => {
                let at = out.len();
                literal(child, out);
                if named && let Some(piece) = out.get_mut(at) {
                    piece.space = true;
                }
            }
            rule => {
                named |= rule == Rule::colon;
                out.push(tok(&child));
            }
        }
    }
}

fn attribute<'s>(pair: Pair<'s, Rule>, out: &mut Vec<Piece<'s>>) {
    for child in children(pair) {
        match child.as_rule() {
            Rule::attr_args => list(child, out, attr_arg),
            _ => out.push(tok(&child)),
        }
    }
}

/// Attributes written on one line, a space between them.
fn attribute_line<'s>(attrs: &[Pair<'s, Rule>]) -> Vec<Piece<'s>> {
    let mut out = Vec::new();
    for attr in attrs {
        let at = out.len();
        attribute(attr.clone(), &mut out);
        if at > 0
            && let Some(piece) = out.get_mut(at)
        {
            piece.space = true;
        }
    }
    out
}

/// What follows the prefix of a field, parameter or variant: `name`, `name: T`,
/// `name: T = value`.
fn field_body<'s>(pairs: &[Pair<'s, Rule>]) -> Vec<Piece<'s>> {
    let mut out = Vec::new();
    for pair in pairs {
        let at = out.len();
        match pair.as_rule() {
            Rule::type_expr => type_expr(pair.clone(), &mut out),
            Rule::literal => literal(pair.clone(), &mut out),
            _ => out.push(tok(pair)),
        }
        if matches!(pair.as_rule(), Rule::type_expr | Rule::literal | Rule::eq)
            && let Some(piece) = out.get_mut(at)
        {
            piece.space = true;
        }
    }
    out
}

/// A field, parameter or variant split in its parts.
struct Element<'s> {
    /// Doc comments and attributes that go on lines of their own.
    above: Vec<Pair<'s, Rule>>,
    /// The attributes after the last doc comment: before the name when the line fits.
    inline: Vec<Pair<'s, Rule>>,
    body: Vec<Pair<'s, Rule>>,
}

impl<'s> Element<'s> {
    fn split(pair: Pair<'s, Rule>) -> Option<Element<'s>> {
        if pair.as_rule() == Rule::spread {
            // `..Record`: no prefix.
            return Some(Element {
                above: Vec::new(),
                inline: Vec::new(),
                body: children(pair).collect(),
            });
        }
        let mut inner = children(pair);
        let mut above: Vec<Pair<'s, Rule>> = inner.next()?.into_inner().collect();
        let last_doc = above
            .iter()
            .rposition(|p| p.as_rule() == Rule::doc_comment)
            .map_or(0, |i| i + 1);
        let inline = above.split_off(last_doc);
        Some(Element {
            above,
            inline,
            body: inner.collect(),
        })
    }

    /// Whether it can stand inside a line (no doc comment).
    fn is_plain(&self) -> bool {
        self.above.is_empty()
    }

    /// Its text on one line: inline attributes, then the body.
    fn line(&self) -> Vec<Piece<'s>> {
        let mut out = attribute_line(&self.inline);
        let body = field_body(&self.body);
        let at = out.len();
        out.extend(body);
        if at > 0
            && let Some(piece) = out.get_mut(at)
        {
            piece.space = true;
        }
        out
    }
}

struct Formatter<'s> {
    e: Emitter<'s>,
}

impl<'s> Formatter<'s> {
    fn file(&mut self, root: Pair<'s, Rule>) -> Option<()> {
        let mut first = true;
        let mut after_package = false;
        for child in children(root) {
            match child.as_rule() {
                Rule::package_decl => {
                    self.e.line_start_keep_blank();
                    self.statement(child)?;
                    after_package = true;
                }
                Rule::import_decl => {
                    if after_package {
                        self.e.blank_line();
                    } else {
                        self.e.line_start_keep_blank();
                    }
                    self.statement(child)?;
                    after_package = false;
                }
                Rule::enum_decl | Rule::record_decl | Rule::service_decl | Rule::union_decl => {
                    if !first {
                        self.e.blank_line();
                    }
                    self.item(child)?;
                }
                Rule::type_decl => {
                    if !first {
                        self.e.blank_line();
                    }
                    self.type_decl(child)?;
                }
                _ => continue,
            }
            first = false;
        }
        Some(())
    }

    /// Doc comments and attributes each on lines of their own; a run of attributes on one
    /// line when it fits and holds no comment, else one per line.
    fn prefix_lines(&mut self, prefix: &[Pair<'s, Rule>]) {
        let mut rest = prefix;
        while let Some(first) = rest.first() {
            if first.as_rule() == Rule::doc_comment {
                self.e.line_start();
                self.e.pieces(&[tok(first)]);
                rest = &rest[1..];
                continue;
            }
            let run = rest
                .iter()
                .position(|p| p.as_rule() != Rule::attribute)
                .unwrap_or(rest.len());
            self.attribute_lines(&rest[..run]);
            rest = &rest[run..];
        }
    }

    fn attribute_lines(&mut self, attrs: &[Pair<'s, Rule>]) {
        let (Some(first), Some(last)) = (attrs.first(), attrs.last()) else {
            return;
        };
        let line = attribute_line(attrs);
        if !self.e.has_comment(start(first), end(last)) && self.e.fits(width(&line)) {
            self.e.line_start();
            self.e.pieces(&line);
            return;
        }
        for attr in attrs {
            self.e.line_start();
            self.e.pieces(&attribute_line(std::slice::from_ref(attr)));
        }
    }

    /// `type Name = @constraints T;` on one line (its doc comment and attributes above).
    fn type_decl(&mut self, pair: Pair<'s, Rule>) -> Option<()> {
        self.e.line_start_keep_blank();
        let mut inner = children(pair);
        let prefix: Vec<_> = inner.next()?.into_inner().collect();
        self.prefix_lines(&prefix);
        self.e.line_start();
        let mut line = Vec::new();
        for (i, part) in inner.enumerate() {
            let at = line.len();
            match part.as_rule() {
                Rule::type_attrs => {
                    line.extend(attribute_line(&part.into_inner().collect::<Vec<_>>()))
                }
                Rule::type_expr => type_expr(part, &mut line),
                _ => line.push(tok(&part)),
            }
            // Spaces between `type`, the name, `=`, the attributes and the type; none
            // before `;`.
            if i > 0
                && line.len() > at
                && line[at].text != ";"
                && let Some(piece) = line.get_mut(at)
            {
                piece.space = true;
            }
        }
        self.e.pieces(&line);
        Some(())
    }

    /// `package …;` or `import …;`.
    fn statement(&mut self, pair: Pair<'s, Rule>) -> Option<()> {
        let mut inner = children(pair);
        let prefix: Vec<_> = inner.next()?.into_inner().collect();
        self.prefix_lines(&prefix);
        self.e.line_start();
        for (i, part) in inner.enumerate() {
            let piece = tok(&part);
            self.e
                .pieces(&[if i == 1 { piece.spaced() } else { piece }]);
        }
        Some(())
    }

    fn item(&mut self, pair: Pair<'s, Rule>) -> Option<()> {
        self.e.line_start_keep_blank();
        let rule = pair.as_rule();
        let mut inner = children(pair);
        let prefix: Vec<_> = inner.next()?.into_inner().collect();
        self.prefix_lines(&prefix);
        let keyword = inner.next()?;
        let name = inner.next()?;
        let head = [tok(&keyword), tok(&name).spaced()];
        self.e.line_start();
        self.e.pieces(&head);
        let rest: Vec<_> = inner.collect();
        let (open, close) = (rest.first()?, rest.last()?);
        let elements = &rest[1..rest.len() - 1];
        let empty = elements.is_empty() && !self.e.has_comment(start(open), end(close));
        if empty {
            self.e.pieces(&[tok(open).spaced(), tok(close)]);
            return Some(());
        }
        if rule == Rule::enum_decl && self.enum_on_one_line(&head, open, elements, close)? {
            return Some(());
        }
        self.e.pieces(&[tok(open).spaced()]);
        self.e.open_block();
        let mut previous_one_line = false;
        for (i, element) in elements.iter().enumerate() {
            if rule != Rule::service_decl {
                self.element(element.clone())?;
                continue;
            }
            let member = Member::split(element.clone())?;
            let one_line = member.is_one_line(&self.e);
            if i > 0 && !(one_line && previous_one_line) {
                self.e.blank_line();
            }
            self.e.line_start_keep_blank();
            previous_one_line = one_line;
            self.member(&member)?;
        }
        self.e.close_block(start(close));
        self.e.pieces(&[tok(close)]);
        Some(())
    }

    /// `enum Units { celsius, fahrenheit }` when no member has a doc comment or an attribute,
    /// nothing between the braces is a comment, and the line fits. Returns whether it wrote it.
    fn enum_on_one_line(
        &mut self,
        head: &[Piece<'s>],
        open: &Pair<'s, Rule>,
        variants: &[Pair<'s, Rule>],
        close: &Pair<'s, Rule>,
    ) -> Option<bool> {
        if self.e.has_comment(start(open), end(close)) {
            return Some(false);
        }
        let mut line = vec![tok(open).spaced()];
        for (i, variant) in variants.iter().enumerate() {
            let element = Element::split(variant.clone())?;
            if !element.is_plain() || !element.inline.is_empty() {
                return Some(false);
            }
            if i > 0 {
                line.push(sep(","));
            }
            line.extend(element.line().into_iter().map(Piece::spaced));
        }
        line.push(tok(close).spaced());
        if !self.e.fits(width(head) + width(&line)) {
            return Some(false);
        }
        self.e.pieces(&line);
        Some(true)
    }

    /// A field, parameter or variant on its own line(s), with a comma.
    fn element(&mut self, pair: Pair<'s, Rule>) -> Option<()> {
        let element = Element::split(pair)?;
        self.e.line_start_keep_blank();
        self.prefix_lines(&element.above);
        let mut line = element.line();
        line.push(sep(","));
        let inline_comment = match (element.inline.first(), element.inline.last()) {
            (Some(first), Some(last)) => self.e.has_comment(start(first), end(last)),
            _ => false,
        };
        if !element.inline.is_empty() && (inline_comment || !self.e.fits(width(&line))) {
            self.attribute_lines(&element.inline);
            line = field_body(&element.body);
            line.push(sep(","));
        }
        self.e.line_start();
        self.e.pieces(&line);
        Some(())
    }

    /// `tool name(params) -> T;`: parameters on the line when none has a doc comment, no
    /// comment stands between `(` and `;`, and the line fits; else one per line.
    fn member(&mut self, member: &Member<'s>) -> Option<()> {
        self.prefix_lines(&member.prefix);
        self.e.line_start();
        self.e.pieces(&member.head);
        if let Some(line) = member.flat_line(&self.e) {
            self.e.pieces(&line);
            return Some(());
        }
        let (open, close) = (&member.open, &member.close);
        self.e.pieces(&[tok(open)]);
        if member.params.is_empty() && !self.e.has_comment(start(open), end(close)) {
            self.e.pieces(&[tok(close)]);
        } else {
            self.e.open_block();
            for param in &member.params {
                self.element(param.clone())?;
            }
            self.e.close_block(start(close));
            self.e.pieces(&[tok(close)]);
        }
        self.e.pieces(&member.tail);
        Some(())
    }
}

/// A tool, resource or prompt split in its parts.
struct Member<'s> {
    prefix: Vec<Pair<'s, Rule>>,
    /// `tool name`
    head: [Piece<'s>; 2],
    open: Pair<'s, Rule>,
    params: Vec<Pair<'s, Rule>>,
    close: Pair<'s, Rule>,
    /// ` -> T;`
    tail: Vec<Piece<'s>>,
    span: (usize, usize),
}

impl<'s> Member<'s> {
    fn split(pair: Pair<'s, Rule>) -> Option<Member<'s>> {
        let span = (start(&pair), end(&pair));
        let mut inner = children(pair);
        let prefix: Vec<_> = inner.next()?.into_inner().collect();
        let keyword = inner.next()?;
        let name = inner.next()?;
        let mut params: Vec<_> = children(inner.next()?).collect();
        let close = params.pop()?;
        let open = params.remove(0);
        let mut tail = Vec::new();
        for part in inner {
            if part.as_rule() == Rule::returns {
                // ` -> T`
                for child in children(part) {
                    let at = tail.len();
                    if child.as_rule() == Rule::type_expr {
                        type_expr(child, &mut tail);
                    } else {
                        tail.push(tok(&child));
                    }
                    if let Some(piece) = tail.get_mut(at) {
                        piece.space = true;
                    }
                }
            } else {
                tail.push(tok(&part));
            }
        }
        Some(Member {
            prefix,
            head: [tok(&keyword), tok(&name).spaced()],
            open,
            params,
            close,
            tail,
            span,
        })
    }

    /// `(params) -> T;` on the line of `tool name`, when no parameter has a doc comment, no
    /// comment stands between `(` and the end, and the line fits.
    fn flat_line(&self, e: &Emitter<'s>) -> Option<Vec<Piece<'s>>> {
        if e.has_comment(start(&self.open), self.span.1) {
            return None;
        }
        let mut line = vec![tok(&self.open)];
        for (i, param) in self.params.iter().enumerate() {
            let element = Element::split(param.clone())?;
            if !element.is_plain() {
                return None;
            }
            if i > 0 {
                line.push(sep(","));
            }
            let at = line.len();
            line.extend(element.line());
            if i > 0
                && let Some(piece) = line.get_mut(at)
            {
                piece.space = true;
            }
        }
        line.push(tok(&self.close));
        line.extend(self.tail.iter().copied());
        e.fits(width(&self.head) + width(&line)).then_some(line)
    }

    /// One line with no attribute, doc comment or comment: such members may stand without a
    /// blank line between them.
    fn is_one_line(&self, e: &Emitter<'s>) -> bool {
        self.prefix.is_empty()
            && !e.has_comment(self.span.0, self.span.1)
            && self.flat_line(e).is_some()
    }
}

#[cfg(test)]
mod tests;
