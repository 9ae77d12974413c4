//! The resolved, language-neutral model of one `.tool` file.
//!
//! This is the contract between the resolver and every generator (JSON Schema, listings,
//! Rust). It is plain data: every name is resolved, every default is type-checked, every
//! attribute is validated and attached where it applies. It serializes to JSON for golden
//! tests and for tools (diff, formatter) that come later.

use std::collections::{HashMap, HashSet};
use std::fmt;

use serde::{Deserialize, Serialize};

mod member;
mod text;
mod wire;

pub use member::{
    Annotations, Csp, Keyword, Member, MemberKind, Permission, Resource, ResourceUi, ResultText,
    Service, TaskMode, TaskSupport, TextPart, Tool, Ui,
};

/// One `.tool` file, resolved together with everything it imports.
///
/// Its types are kept with an index by `(package, name)`, so [`Model::lookup`] takes constant
/// time: build a model with [`Model::new`] and read its types with [`Model::types`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(from = "wire::Model")]
pub struct Model {
    /// The file's package: its `package` declaration, else the file stem.
    pub package: String,
    /// Packages this file imports directly, in declaration order.
    pub imports: Vec<String>,
    /// See [`Model::types`].
    types: Vec<TypeDef>,
    /// The file's services, in declaration order.
    pub services: Vec<Service>,
    /// Where each of `types` stands, by package then name.
    #[serde(skip)]
    index: TypeIndex,
}

/// Positions in [`Model::types`] by package, then name.
#[derive(Clone, Default)]
struct TypeIndex(HashMap<String, HashMap<String, usize>>);

impl TypeIndex {
    fn of(types: &[TypeDef]) -> TypeIndex {
        let mut index: HashMap<String, HashMap<String, usize>> = HashMap::new();
        for (i, t) in types.iter().enumerate() {
            index
                .entry(t.package().to_owned())
                .or_default()
                .insert(t.name().to_owned(), i);
        }
        TypeIndex(index)
    }

    fn get(&self, package: &str, name: &str) -> Option<usize> {
        self.0.get(package)?.get(name).copied()
    }
}

impl fmt::Debug for TypeIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("TypeIndex")
    }
}

// A function of the types, which are compared themselves.
impl PartialEq for TypeIndex {
    fn eq(&self, _: &TypeIndex) -> bool {
        true
    }
}

/// A record or an enum.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TypeDef {
    /// `record Name { … }`.
    Record(Record),
    /// `enum Name { … }`.
    Enum(Enum),
    /// `type Name = @constraints T;`: a named type. Fields and parameters of this type
    /// hold `ty` and these constraints themselves (the alias is inlined); it is listed for
    /// generators that name it (a Rust `pub type`).
    Alias(Alias),
    /// `union Shape { circle: Circle, square: Square }`: a value of one of several types.
    Union(Union),
}

/// A resolved `union`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Union {
    /// The package that declares it.
    pub package: String,
    /// The name as declared.
    pub name: String,
    /// Doc comment lines as written (after `///`, one leading space removed).
    pub doc: Vec<String>,
    /// `@description`, else the doc comment, whitespace collapsed.
    pub description: Option<String>,
    /// `@tag("kind")`: the property whose value names the variant (each variant is then a
    /// record); `None` for an untagged union (the first variant that fits).
    pub tag: Option<String>,
    /// The variants, in declaration order.
    pub variants: Vec<UnionVariant>,
}

/// One variant of a union.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UnionVariant {
    /// The variant's name: its tag value in a tagged union.
    pub name: String,
    /// Doc comment lines as written (after `///`, one leading space removed).
    pub doc: Vec<String>,
    /// The variant's type.
    pub ty: Type,
    /// The constraints of a variant whose type is a constrained named type
    /// (`slug: Slug`): a value of the variant's type that breaks them does not fit it.
    #[serde(default, skip_serializing_if = "Constraints::is_empty")]
    pub constraints: Constraints,
}

/// A resolved `type Name = @constraints T;`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Alias {
    /// The package that declares it.
    pub package: String,
    /// The name as declared.
    pub name: String,
    /// Doc comment lines as written (after `///`, one leading space removed).
    pub doc: Vec<String>,
    /// `@description`, else the doc comment, whitespace collapsed; a field or parameter of
    /// this type without a description of its own takes it.
    pub description: Option<String>,
    /// The aliased type.
    pub ty: Type,
    /// The constraints written before the type.
    pub constraints: Constraints,
}

/// A resolved `record`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The package that declares it.
    pub package: String,
    /// The name as declared.
    pub name: String,
    /// Doc comment lines as written (after `///`, one leading space removed).
    pub doc: Vec<String>,
    /// `@description`, else the doc comment with whitespace collapsed to single spaces.
    pub description: Option<String>,
    /// `@rename_all("camelCase")`: how the fields' wire names derive from their declared names.
    pub rename_all: Option<RenamePolicy>,
    /// The fields, in declaration order.
    pub fields: Vec<Field>,
    /// `@open`: unknown members are kept (no `additionalProperties: false`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub open: bool,
    /// `@open(input)`: unknown members are accepted and ignored where the record is read
    /// (no `additionalProperties: false` in an input schema, nothing kept), and the record
    /// is closed where it is sent (an output schema).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub open_input: bool,
}

/// A `@rename_all` policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum RenamePolicy {
    /// `snake_case` names on the wire as `camelCase`.
    CamelCase,
}

/// A resolved `enum`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Enum {
    /// The package that declares it.
    pub package: String,
    /// The name as declared.
    pub name: String,
    /// Doc comment lines as written (after `///`, one leading space removed).
    pub doc: Vec<String>,
    /// `@description`, else the doc comment, whitespace collapsed.
    pub description: Option<String>,
    /// The members, in declaration order.
    pub variants: Vec<Variant>,
    /// `@document_members`: the members' doc comments are listed in the enum's schema
    /// description.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub document_members: bool,
}

/// One member of an enum.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Variant {
    /// The member name as declared (generators derive identifiers from it); also its wire
    /// value unless `value` says otherwise.
    pub name: String,
    /// Doc comment lines as written (after `///`, one leading space removed).
    pub doc: Vec<String>,
    /// `@value("…")`: the wire value, when it differs from the name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
}

impl Variant {
    /// The member's value on the wire.
    pub fn wire(&self) -> &str {
        self.value.as_deref().unwrap_or(&self.name)
    }
}

/// A record field, or a parameter of a tool, resource or prompt.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Field {
    /// The name as declared (generators derive identifiers from it).
    pub name: String,
    /// The name on the wire: `@json_name`, else the record's `@rename_all` policy applied,
    /// else `name`.
    pub json_name: String,
    /// Doc comment lines as written (after `///`, one leading space removed).
    pub doc: Vec<String>,
    /// `@description`, else the doc comment, whitespace collapsed. Not the type's doc:
    /// generators fall back to that themselves where the contract says so.
    pub description: Option<String>,
    /// The declared type, aliases inlined.
    pub ty: Type,
    /// The declared default; `Some(Value::Null)` for `= null`.
    pub default: Option<Value>,
    /// True unless a default is declared (`= null` included) or the field is optional
    /// (`name?: T`). An optional field is `required: false` without a `default`: absent
    /// allowed, `null` only when its type is nullable. See [`Field::is_optional`].
    pub required: bool,
    /// The constraints that apply to the value (its own and its alias's).
    pub constraints: Constraints,
}

/// A type expression, fully resolved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Type {
    /// A built-in scalar or JSON type.
    Primitive {
        /// Which one.
        name: Primitive,
    },
    /// `list<T>`: an array.
    List {
        /// The items' type.
        item: Box<Type>,
        /// The constraints of each item (`list<Tag>` with `type Tag = @length(1, 32) string;`),
        /// checked like a field's against the item's type (for `T?`, against `T`).
        #[serde(default, skip_serializing_if = "Constraints::is_empty")]
        each: Box<Constraints>,
    },
    /// `set<T>`: an array of unique items.
    Set {
        /// The items' type.
        item: Box<Type>,
        /// The constraints of each item, as for [`Type::List`].
        #[serde(default, skip_serializing_if = "Constraints::is_empty")]
        each: Box<Constraints>,
    },
    /// `map<string, T>`: keys are always strings.
    Map {
        /// The values' type.
        value: Box<Type>,
        /// The constraints of each value, as for [`Type::List`].
        #[serde(default, skip_serializing_if = "Constraints::is_empty")]
        each: Box<Constraints>,
    },
    /// A record, enum or union, by its package and name; look it up in `Model::types`.
    Named {
        /// The package that declares it.
        package: String,
        /// Its name in that package.
        name: String,
        /// What it is.
        def: DefKind,
    },
    /// `T?`: accepts null. Never directly nested (`T??` is rejected).
    Nullable {
        /// The type a non-null value has.
        inner: Box<Type>,
    },
}

/// What a named type refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DefKind {
    /// A record.
    Record,
    /// An enum.
    Enum,
    /// A named type (`type Name = T;`): only while resolving, never in a resolved [`Type`].
    Alias,
    /// A union.
    Union,
}

/// The built-in types, by their names in the language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Primitive {
    /// `bool`.
    Bool,
    /// `i8`.
    I8,
    /// `i16`.
    I16,
    /// `i32`.
    I32,
    /// `i64`.
    I64,
    /// `u8`.
    U8,
    /// `u16`.
    U16,
    /// `u32`.
    U32,
    /// `u64`.
    U64,
    /// `integer`: any integer, with no bounds in its schema (`{"type": "integer"}`); read
    /// exactly into an `i128`, so a value beyond ±1.7 × 10^38 is refused.
    Integer,
    /// `f32`.
    F32,
    /// `f64`.
    F64,
    /// `string`.
    String,
    /// `char`: a string of exactly one character.
    Char,
    /// `uuid`: a string in RFC 9562 form.
    Uuid,
    /// `datetime`: an RFC 3339 date-time string.
    Datetime,
    /// `date`: an RFC 3339 full-date string.
    Date,
    /// `time`: an RFC 3339 full-time string.
    Time,
    /// `duration`: `[-][d.]hh:mm:ss[.fffffff]` (.NET's invariant `c` form, a fixed length; not
    /// ISO 8601).
    Duration,
    /// `uri`: an RFC 3986 URI string.
    Uri,
    /// `bytes`: a base64 string.
    Bytes,
    /// Any JSON value.
    Json,
    /// Any JSON object.
    Object,
    /// Any JSON array.
    Array,
}

/// Validation constraints, already checked to apply to the field's type (for `T?`, to `T`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Constraints {
    /// `@range`: inclusive bounds on a number. Not intersected with an integer type's own
    /// range (generators do that).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub range: Option<Bounds<Number>>,
    /// `@length`: characters of a string, or items of a list or set.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub length: Option<Bounds<u64>>,
    /// `@pattern`: an ECMA-262 regular expression, checked to compile.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub pattern: Option<String>,
    /// `@email`.
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub email: bool,
    /// `@url`.
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub url: bool,
    /// `@range(exclusive_min: x, exclusive_max: y)`: exclusive bounds on a float.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub exclusive: Option<Bounds<Number>>,
    // Annotations of the field's schema rather than constraints; kept here, beside them,
    // because every generator reads a field's constraints already.
    /// `@title("…")` of a field or parameter: its schema's `title`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub title: Option<String>,
    /// `@deprecated`: its schema's `deprecated: true`.
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub deprecated: bool,
}

// Bounds are finite numbers (the resolver refuses others), so equality is an equivalence and
// a [`Type`] holding constraints can be `Eq`.
impl Eq for Constraints {}

impl Constraints {
    /// True when nothing is constrained nor annotated.
    pub fn is_empty(&self) -> bool {
        *self == Constraints::default()
    }

    /// True when a value is checked against something (annotations aside).
    pub fn checks_anything(&self) -> bool {
        self.range.is_some()
            || self.length.is_some()
            || self.pattern.is_some()
            || self.email
            || self.url
            || self.exclusive.is_some()
    }
}

/// A minimum and a maximum, either of which may be absent.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Bounds<T> {
    /// The lower bound, if any.
    pub min: Option<T>,
    /// The upper bound, if any.
    pub max: Option<T>,
}

/// A numeric literal, kept in the form it was written.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Number {
    /// Non-negative integers that fit in u64.
    UInt(u64),
    /// Negative integers.
    Int(i64),
    /// A number written with a fraction or an exponent.
    Float(f64),
}

/// A literal value: a default, or an attribute argument.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "value", rename_all = "snake_case")]
pub enum Value {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as written.
    Number(Number),
    /// A string.
    String(String),
    /// A char.
    Char(char),
    /// An enum member, by name (the enum is the field's type).
    Enum(String),
    /// A list or set default: `[a, b]`.
    List(Vec<Value>),
    /// A `map<string, T>` default: `{"k": v}`, entries in the order written.
    Map(Vec<MapEntry>),
    /// A record default: `{ x: 1 }`, keyed by the fields' declared names (not their wire
    /// names), in the order written; fields left out take their own defaults.
    Record(Vec<MapEntry>),
    /// An untagged union default: the value of the variant the decoder chooses when it reads
    /// the default's JSON (the first, in declaration order, that the value fits).
    Union {
        /// The variant's name.
        variant: String,
        /// Its value, as a value of the variant's type.
        value: Box<Value>,
    },
}

/// One entry of a map or record default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MapEntry {
    /// The map key, or the record field's declared name.
    pub key: String,
    /// The value.
    pub value: Value,
}

/// What a tool, resource or prompt returns.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Returns {
    /// No `->`.
    Nothing,
    /// `-> content`: a list of content blocks.
    Content,
    /// `-> call_result`: passed through.
    CallResult,
    /// `-> T`: a value of a declared type.
    Value {
        /// The declared type.
        ty: Type,
    },
}

impl Field {
    /// `name?: T`: may be absent, has no default.
    pub fn is_optional(&self) -> bool {
        !self.required && self.default.is_none()
    }
}

impl Model {
    /// A model of the file of package `package`, which imports `imports` and declares
    /// `services`, with `types`; of two types with one package and name, the first is kept.
    pub fn new(
        package: String,
        imports: Vec<String>,
        types: Vec<TypeDef>,
        services: Vec<Service>,
    ) -> Model {
        let mut seen: HashSet<(&str, &str)> = HashSet::with_capacity(types.len());
        let keep: Vec<bool> = types
            .iter()
            .map(|t| seen.insert((t.package(), t.name())))
            .collect();
        let types: Vec<TypeDef> = if keep.iter().all(|k| *k) {
            types
        } else {
            types
                .into_iter()
                .zip(keep)
                .filter_map(|(t, keep)| keep.then_some(t))
                .collect()
        };
        Model {
            package,
            imports,
            index: TypeIndex::of(&types),
            types,
            services,
        }
    }

    /// Every record, enum, union and named type the file can reach: its own first, in
    /// declaration order, then those of imported files (transitively), in load order. Unique
    /// by `(package, name)`.
    pub fn types(&self) -> &[TypeDef] {
        &self.types
    }

    /// The model's types, to take them apart.
    pub fn into_types(self) -> Vec<TypeDef> {
        self.types
    }

    /// Looks up a record, enum, union or named type by package and name.
    pub fn lookup(&self, package: &str, name: &str) -> Option<&TypeDef> {
        self.types.get(self.index.get(package, name)?)
    }
}

impl TypeDef {
    /// The package that declares it.
    pub fn package(&self) -> &str {
        match self {
            TypeDef::Record(r) => &r.package,
            TypeDef::Enum(e) => &e.package,
            TypeDef::Alias(a) => &a.package,
            TypeDef::Union(u) => &u.package,
        }
    }

    /// Its name, as declared.
    pub fn name(&self) -> &str {
        match self {
            TypeDef::Record(r) => &r.name,
            TypeDef::Enum(e) => &e.name,
            TypeDef::Alias(a) => &a.name,
            TypeDef::Union(u) => &u.name,
        }
    }

    /// Its description: `@description`, else its doc comment, whitespace collapsed.
    pub fn description(&self) -> Option<&str> {
        match self {
            TypeDef::Record(r) => r.description.as_deref(),
            TypeDef::Enum(e) => e.description.as_deref(),
            TypeDef::Alias(a) => a.description.as_deref(),
            TypeDef::Union(u) => u.description.as_deref(),
        }
    }
}

impl Returns {
    /// The declared type of a result that may be null although its `outputSchema` is an
    /// object (a nullable record or `map<string, T>`, named types seen through): a null
    /// result then has no structured content, and MCP clients refuse it (W0404, L0401).
    /// Other nullable results (`string?`, `list<T>?`, `Mood?`) have no `outputSchema`.
    pub fn null_without_structured_content(&self) -> Option<&Type> {
        let Returns::Value { ty } = self else {
            return None;
        };
        let Type::Nullable { inner } = ty else {
            return None;
        };
        match inner.as_ref() {
            Type::Named {
                def: DefKind::Record,
                ..
            }
            | Type::Map { .. } => Some(ty),
            _ => None,
        }
    }
}
