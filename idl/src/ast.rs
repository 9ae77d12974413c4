//! The typed syntax tree of one `.tool` file, as written: byte spans on every node, doc
//! comments on every node that can carry one, nothing resolved yet.

/// A byte range in one source file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// `///` lines before a node, each without `///` and with one leading space removed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Doc {
    pub lines: Vec<String>,
    pub span: Option<Span>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct File {
    pub package: Option<Package>,
    pub imports: Vec<Import>,
    pub items: Vec<Item>,
}

/// `package acme.weather;`
#[derive(Debug, Clone, PartialEq)]
pub struct Package {
    pub doc: Doc,
    pub attrs: Vec<Attribute>,
    pub path: Vec<Ident>,
    pub span: Span,
}

/// `import "common.tool";`
#[derive(Debug, Clone, PartialEq)]
pub struct Import {
    pub doc: Doc,
    pub attrs: Vec<Attribute>,
    pub path: String,
    pub path_span: Span,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    Enum(EnumDecl),
    Record(RecordDecl),
    Service(ServiceDecl),
    Alias(AliasDecl),
    Union(UnionDecl),
}

impl Item {
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
    pub doc: Doc,
    /// Attributes before `type` (`@description`).
    pub attrs: Vec<Attribute>,
    pub name: Ident,
    /// Attributes after `=` (the constraints).
    pub type_attrs: Vec<Attribute>,
    pub ty: TypeExpr,
    pub span: Span,
}

/// `union Shape { circle: Circle, square: Square }`, tagged with `@tag("kind")` or untagged.
#[derive(Debug, Clone, PartialEq)]
pub struct UnionDecl {
    pub doc: Doc,
    pub attrs: Vec<Attribute>,
    pub name: Ident,
    pub variants: Vec<UnionVariantDecl>,
    pub span: Span,
}

/// `circle: Circle` in a union.
#[derive(Debug, Clone, PartialEq)]
pub struct UnionVariantDecl {
    pub doc: Doc,
    pub attrs: Vec<Attribute>,
    pub name: Ident,
    pub ty: TypeExpr,
    pub span: Span,
}

/// `..RepoRef` in a parameter list: the record's fields, spread as parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct Spread {
    pub path: Vec<Ident>,
    /// How many parameters are declared before it.
    pub index: usize,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct EnumDecl {
    pub doc: Doc,
    pub attrs: Vec<Attribute>,
    pub name: Ident,
    pub variants: Vec<VariantDecl>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct VariantDecl {
    pub doc: Doc,
    pub attrs: Vec<Attribute>,
    pub name: Ident,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RecordDecl {
    pub doc: Doc,
    pub attrs: Vec<Attribute>,
    pub name: Ident,
    pub fields: Vec<FieldDecl>,
    pub span: Span,
}

/// A record field or a parameter: `@range(1, 14) days: u8 = 3`.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldDecl {
    pub doc: Doc,
    pub attrs: Vec<Attribute>,
    pub name: Ident,
    /// The span of the `?` of `name?: T` (an optional field: absent allowed, no default).
    pub optional: Option<Span>,
    pub ty: TypeExpr,
    pub default: Option<Literal>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ServiceDecl {
    pub doc: Doc,
    pub attrs: Vec<Attribute>,
    pub name: Ident,
    pub members: Vec<MemberDecl>,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemberKind {
    Tool,
    Resource,
    Prompt,
}

impl MemberKind {
    pub fn keyword(self) -> &'static str {
        match self {
            MemberKind::Tool => "tool",
            MemberKind::Resource => "resource",
            MemberKind::Prompt => "prompt",
        }
    }
}

/// `tool name(params) -> T;`, `resource …`, `prompt …`.
#[derive(Debug, Clone, PartialEq)]
pub struct MemberDecl {
    pub kind: MemberKind,
    pub doc: Doc,
    pub attrs: Vec<Attribute>,
    pub name: Ident,
    pub params: Vec<FieldDecl>,
    /// `..Record` entries of the parameter list, in order.
    pub spreads: Vec<Spread>,
    pub returns: Option<TypeExpr>,
    pub span: Span,
}

/// `list<Forecast>?`: a (possibly qualified) name, type arguments, and one `?` per `nullable`.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeExpr {
    pub path: Vec<Ident>,
    pub args: Option<TypeArgs>,
    /// The span of each `?` after the type.
    pub nullable: Vec<Span>,
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

    pub fn path_span(&self) -> Span {
        let first = self.path.first().map(|i| i.span).unwrap_or(self.span);
        let last = self.path.last().map(|i| i.span).unwrap_or(self.span);
        first.to(last)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct TypeArgs {
    pub args: Vec<TypeExpr>,
    pub span: Span,
}

/// `@name(args)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Attribute {
    /// Without the `@`; its span covers the `@`.
    pub name: Ident,
    /// `None` when written without parentheses.
    pub args: Option<Vec<AttrArg>>,
    pub span: Span,
}

/// `value` or `name: value` inside an attribute's parentheses.
#[derive(Debug, Clone, PartialEq)]
pub struct AttrArg {
    pub name: Option<Ident>,
    pub value: Literal,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Literal {
    pub kind: LiteralKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum LiteralKind {
    String(String),
    Char(char),
    /// Any integer from `i64::MIN` to `u64::MAX` (larger ones are a syntax-level error).
    Int(i128),
    Float(f64),
    Bool(bool),
    Null,
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
    pub key: String,
    /// True when the key is a string literal (`"k": v`), false for a name (`k: v`).
    pub quoted: bool,
    pub key_span: Span,
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
