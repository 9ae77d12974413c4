//! The typed syntax tree of one `.tool` file, as written: byte spans on every node, doc
//! comments on every node that can carry one, nothing resolved yet.

/// The keyword that declares a service member (`tool`, `resource`, `prompt`): the model's.
pub use crate::model::Keyword;

/// A byte range in one source file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Span {
    /// The offset of the first byte.
    pub start: usize,
    /// The offset just past the last byte.
    pub end: usize,
}

impl Span {
    /// The range from `start` up to (not including) `end`.
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// The smallest range that covers both `self` and `other`.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

/// A name as written, with where it was written.
#[derive(Debug, Clone, PartialEq)]
pub struct Ident {
    /// The name, without any quoting.
    pub name: String,
    /// Where the name is.
    pub span: Span,
}

/// `///` lines before a node, each without `///` and with one leading space removed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Doc {
    /// The comment's lines, in order.
    pub lines: Vec<String>,
    /// Where the comment is; `None` when there is none.
    pub span: Option<Span>,
}

/// A whole file: its package line, its imports and its declarations, in source order.
#[derive(Debug, Clone, PartialEq)]
pub struct File {
    /// The `package` line, if the file has one.
    pub package: Option<Package>,
    /// The `import` lines, in order.
    pub imports: Vec<Import>,
    /// The declarations, in order.
    pub items: Vec<Item>,
}

/// `package acme.weather;`
#[derive(Debug, Clone, PartialEq)]
pub struct Package {
    /// The doc comment before it.
    pub doc: Doc,
    /// Its attributes, in order.
    pub attrs: Vec<Attribute>,
    /// The dotted name: `acme`, `weather`.
    pub path: Vec<Ident>,
    /// Where it is in the source.
    pub span: Span,
}

/// `import "common.tool";`
#[derive(Debug, Clone, PartialEq)]
pub struct Import {
    /// The doc comment before it.
    pub doc: Doc,
    /// Its attributes, in order.
    pub attrs: Vec<Attribute>,
    /// The imported file's path, as written between the quotes.
    pub path: String,
    /// Where the quoted path is.
    pub path_span: Span,
    /// Where it is in the source.
    pub span: Span,
}

/// A top-level declaration.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// `enum Units { … }`.
    Enum(EnumDecl),
    /// `record Forecast { … }`.
    Record(RecordDecl),
    /// `service WeatherTools { … }`.
    Service(ServiceDecl),
    /// `type PageSize = …;`.
    Alias(AliasDecl),
    /// `union Shape { … }`.
    Union(UnionDecl),
}

impl Item {
    /// The declared name.
    pub fn name(&self) -> &Ident {
        match self {
            Item::Enum(e) => &e.name,
            Item::Record(r) => &r.name,
            Item::Service(s) => &s.name,
            Item::Alias(a) => &a.name,
            Item::Union(u) => &u.name,
        }
    }
}

/// `type PageSize = @range(1, 100) u8;`: a named type, with the constraints written before
/// its type expression.
#[derive(Debug, Clone, PartialEq)]
pub struct AliasDecl {
    /// The doc comment before it.
    pub doc: Doc,
    /// Attributes before `type` (`@description`).
    pub attrs: Vec<Attribute>,
    /// The declared name.
    pub name: Ident,
    /// Attributes after `=` (the constraints).
    pub type_attrs: Vec<Attribute>,
    /// The aliased type.
    pub ty: TypeExpr,
    /// Where it is in the source.
    pub span: Span,
}

/// `union Shape { circle: Circle, square: Square }`, tagged with `@tag("kind")` or untagged.
#[derive(Debug, Clone, PartialEq)]
pub struct UnionDecl {
    /// The doc comment before it.
    pub doc: Doc,
    /// Its attributes, in order.
    pub attrs: Vec<Attribute>,
    /// The declared name.
    pub name: Ident,
    /// The variants, in order.
    pub variants: Vec<UnionVariantDecl>,
    /// Where it is in the source.
    pub span: Span,
}

/// `circle: Circle` in a union.
#[derive(Debug, Clone, PartialEq)]
pub struct UnionVariantDecl {
    /// The doc comment before it.
    pub doc: Doc,
    /// Its attributes, in order.
    pub attrs: Vec<Attribute>,
    /// The declared name.
    pub name: Ident,
    /// The variant's type.
    pub ty: TypeExpr,
    /// Where it is in the source.
    pub span: Span,
}

/// `..RepoRef` in a parameter list: the record's fields, spread as parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct Spread {
    /// The record's (possibly qualified) name.
    pub path: Vec<Ident>,
    /// How many parameters are declared before it.
    pub index: usize,
    /// Where it is in the source.
    pub span: Span,
}

/// `enum Units { celsius, fahrenheit }`.
#[derive(Debug, Clone, PartialEq)]
pub struct EnumDecl {
    /// The doc comment before it.
    pub doc: Doc,
    /// Its attributes, in order.
    pub attrs: Vec<Attribute>,
    /// The declared name.
    pub name: Ident,
    /// The members, in order.
    pub variants: Vec<VariantDecl>,
    /// Where it is in the source.
    pub span: Span,
}

/// One member of an enum: `celsius`.
#[derive(Debug, Clone, PartialEq)]
pub struct VariantDecl {
    /// The doc comment before it.
    pub doc: Doc,
    /// Its attributes, in order.
    pub attrs: Vec<Attribute>,
    /// The declared name.
    pub name: Ident,
    /// Where it is in the source.
    pub span: Span,
}

/// `record Forecast { day: date, high: f64 }`.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordDecl {
    /// The doc comment before it.
    pub doc: Doc,
    /// Its attributes, in order.
    pub attrs: Vec<Attribute>,
    /// The declared name.
    pub name: Ident,
    /// The fields, in order.
    pub fields: Vec<FieldDecl>,
    /// Where it is in the source.
    pub span: Span,
}

/// A record field or a parameter: `@range(1, 14) days: u8 = 3`.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldDecl {
    /// The doc comment before it.
    pub doc: Doc,
    /// Its attributes, in order.
    pub attrs: Vec<Attribute>,
    /// The declared name.
    pub name: Ident,
    /// The span of the `?` of `name?: T` (an optional field: absent allowed, no default).
    pub optional: Option<Span>,
    /// The declared type.
    pub ty: TypeExpr,
    /// The value after `=`, if any.
    pub default: Option<Literal>,
    /// Where it is in the source.
    pub span: Span,
}

/// `service WeatherTools { … }`: a group of tools, resources and prompts.
#[derive(Debug, Clone, PartialEq)]
pub struct ServiceDecl {
    /// The doc comment before it.
    pub doc: Doc,
    /// Its attributes, in order.
    pub attrs: Vec<Attribute>,
    /// The declared name.
    pub name: Ident,
    /// The tools, resources and prompts, in order.
    pub members: Vec<MemberDecl>,
    /// Where it is in the source.
    pub span: Span,
}

/// `tool name(params) -> T;`, `resource …`, `prompt …`.
#[derive(Debug, Clone, PartialEq)]
pub struct MemberDecl {
    /// Tool, resource or prompt.
    pub kind: Keyword,
    /// The doc comment before it.
    pub doc: Doc,
    /// Its attributes, in order.
    pub attrs: Vec<Attribute>,
    /// The declared name.
    pub name: Ident,
    /// The parameters, in order (without the spreads).
    pub params: Vec<FieldDecl>,
    /// `..Record` entries of the parameter list, in order.
    pub spreads: Vec<Spread>,
    /// The type after `->`, if any.
    pub returns: Option<TypeExpr>,
    /// Where it is in the source.
    pub span: Span,
}

/// `list<Forecast>?`: a (possibly qualified) name, type arguments, and one `?` per `nullable`.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeExpr {
    /// The name's dotted parts: `acme`, `common`, `Page`.
    pub path: Vec<Ident>,
    /// The type arguments in `<…>`, if any.
    pub args: Option<TypeArgs>,
    /// The span of each `?` after the type.
    pub nullable: Vec<Span>,
    /// Where it is in the source.
    pub span: Span,
}

impl TypeExpr {
    /// The name as written: `acme.common.Page`.
    pub fn path_text(&self) -> String {
        self.path
            .iter()
            .map(|i| i.name.as_str())
            .collect::<Vec<_>>()
            .join(".")
    }

    /// Where the name is, without its type arguments or `?`.
    pub fn path_span(&self) -> Span {
        let first = self.path.first().map(|i| i.span).unwrap_or(self.span);
        let last = self.path.last().map(|i| i.span).unwrap_or(self.span);
        first.to(last)
    }
}

/// The `<…>` of a type expression.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeArgs {
    /// The type arguments, in order.
    pub args: Vec<TypeExpr>,
    /// Where it is in the source.
    pub span: Span,
}

/// `@name(args)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Attribute {
    /// Without the `@`; its span covers the `@`.
    pub name: Ident,
    /// `None` when written without parentheses.
    pub args: Option<Vec<AttrArg>>,
    /// Where it is in the source.
    pub span: Span,
}

/// `value` or `name: value` inside an attribute's parentheses.
#[derive(Debug, Clone, PartialEq)]
pub struct AttrArg {
    /// The name of a named argument (`name: value`).
    pub name: Option<Ident>,
    /// The value.
    pub value: Literal,
    /// Where it is in the source.
    pub span: Span,
}

/// A value written in the source: a default, or an attribute's argument.
#[derive(Debug, Clone, PartialEq)]
pub struct Literal {
    /// Which value.
    pub kind: LiteralKind,
    /// Where it is in the source.
    pub span: Span,
}

/// The kinds of value a literal can be.
#[derive(Debug, Clone, PartialEq)]
pub enum LiteralKind {
    /// `"text"`, with its escapes resolved.
    String(String),
    /// `'c'`.
    Char(char),
    /// Any integer from `i64::MIN` to `u64::MAX` (larger ones are a syntax-level error).
    Int(i128),
    /// A number with a fraction or an exponent.
    Float(f64),
    /// `true` or `false`.
    Bool(bool),
    /// `null`.
    Null,
    /// `[a, b]`.
    List(Vec<Literal>),
    /// `{ key: value, … }`: a record default (keys are field names) or a map default (keys
    /// are strings).
    Object(Vec<Entry>),
    /// A bare identifier: an enum member.
    Ident(String),
}

/// One `key: value` of an object literal.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The key, without quotes.
    pub key: String,
    /// True when the key is a string literal (`"k": v`), false for a name (`k: v`).
    pub quoted: bool,
    /// Where the key is.
    pub key_span: Span,
    /// The value.
    pub value: Literal,
}

impl LiteralKind {
    /// What kind of literal this is, in words, for messages.
    pub fn describe(&self) -> &'static str {
        match self {
            LiteralKind::String(_) => "a string",
            LiteralKind::Char(_) => "a char",
            LiteralKind::Int(_) => "an integer",
            LiteralKind::Float(_) => "a float",
            LiteralKind::Bool(_) => "a bool",
            LiteralKind::Null => "`null`",
            LiteralKind::List(_) => "a list",
            LiteralKind::Object(_) => "an object",
            LiteralKind::Ident(_) => "a name",
        }
    }
}
