//! JSON Schema → the language's types: records, enums, unions and named types declared on the
//! way, constraints as attributes, and every construct the language cannot say kept as a
//! `json`-like type with a [`Gap`].
//!
//! The translation inverts `docs/schema-mapping.md`: what toolidl itself publishes comes back
//! as the declarations that publish it. Schemas written by other servers are read by the same
//! rules; where they say something the language cannot, the type is widened to `json`,
//! `object` or `array` (accepting everything the original did, and more), never narrowed, and
//! the place is reported.

mod defaults;
mod enums;
mod pattern;
mod records;
mod scalars;
mod schema;
mod text;
mod unions;

use std::collections::{BTreeMap, HashMap};

use serde_json::{Map, Value};

use super::names;
pub use schema::required_set;
pub use text::docs;
use unions::keywords_of_kind;

/// One place where the imported file cannot say what the original schema says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gap {
    /// Where: `tool \`search\` parameter \`filter\``, with a path inside it.
    pub at: String,
    /// What the schema says and what the file says instead.
    pub what: String,
}

/// A translated type in a field's position: the attributes written before the field (its
/// constraints and annotations) and the type expression.
#[derive(Debug, Clone, Default)]
pub struct FieldType {
    pub attrs: Vec<String>,
    pub expr: String,
    /// The schema's description at this position, for the field's doc comment.
    pub description: Option<String>,
    /// How to write a default of this type, for [`Types::literal`].
    pub shape: Shape,
}

/// What a type is, as far as writing its defaults needs.
#[derive(Debug, Clone, Default)]
pub enum Shape {
    #[default]
    Json,
    Scalar,
    Char,
    Float,
    /// An enum: wire value → member name.
    Enum(BTreeMap<String, String>),
    List(Box<Shape>),
    Map(Box<Shape>),
    /// A record: wire name → (declared name, shape).
    Record(BTreeMap<String, (String, Shape)>),
    Nullable(Box<Shape>),
}

/// The declarations made while translating one listing, shared by all its tools so that the
/// same record used by two tools is declared once.
#[derive(Default)]
pub struct Types {
    /// Where the schema being translated stands (`tool \`search\`, parameter`): gaps name
    /// it, followed by the path inside it.
    pub context: String,
    /// The declaration being translated (a tool's name, as a type name): a name taken by
    /// another declaration is tried with it in front (`IssueWriteMethod`) before a number.
    pub scope: String,
    /// The declarations written above the services, in the order they were made: each one's
    /// whole text, doc comment included, without a trailing newline.
    pub decls: Vec<String>,
    pub gaps: Vec<Gap>,
    /// Structure (the schema without its description) and doc → declared name.
    by_shape: BTreeMap<(String, Option<String>), String>,
    /// Which side of a tool is being translated, and whether an object that accepts unknown
    /// members on the input side becomes an `@open(input)` record (a listing's import: the
    /// server ignores them) rather than an `@open` one that keeps them (an OpenAPI import
    /// forwards them to the API).
    pub side: Side,
    pub open_input: bool,
    /// The `@open(input)` records, by the structure each takes in an output schema (closed)
    /// and in an input schema (open): each side finds them only from its own.
    open_input_by_side: BTreeMap<(Side, String, Option<String>), String>,
    /// Declared names → the shape of their values (records, enums), for defaults.
    shapes: BTreeMap<String, Shape>,
    taken: Vec<String>,
    /// Where the schema being translated stands in the document it came from (a JSON
    /// pointer an OpenAPI import writes under [`POINTER`]); gaps name it instead of the path.
    pointer: Option<String>,
    /// The `$defs` of the schema being translated, and which of them are declared (by name).
    defs: Map<String, Value>,
    defs_declared: BTreeMap<String, String>,
    /// The whole input or output schema being translated, for a `$ref` that points into it
    /// elsewhere than `$defs` (zod writes `#/properties/a` for a schema used twice), and the
    /// pointers being followed (one that leads back into itself is not followed again).
    root: Value,
    following: Vec<String>,
    /// The records and unions whose declarations are being written, outermost first.
    building: Vec<String>,
    /// The outermost of `building` a type written since [`Types::union`] started refers to:
    /// a union whose variants reach it (or the union itself) would contain itself.
    reached: Option<usize>,
    /// What the compiler answered of each default probed ([`Types::default_problem`]).
    probes: HashMap<String, Option<String>>,
    /// The name each of `decls` declares, and the index of each name's declaration.
    decl_names: Vec<String>,
    decl_index: HashMap<String, usize>,
}

/// The side of a tool a schema describes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Side {
    #[default]
    Input,
    Output,
}

/// Where a schema stands: a property's description belongs to the field, anywhere else to the
/// declaration it names.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Position {
    Property,
    Inner,
}

impl Types {
    /// Notes that the type being written refers to declaration `name`, which may be one whose
    /// declaration is still being written (a recursive record, or a union reached again).
    fn refer(&mut self, name: &str) {
        if let Some(i) = self.building.iter().position(|b| b == name) {
            self.reached = Some(self.reached.map_or(i, |r| r.min(i)));
        }
    }

    /// Reserves `name` (or `name2`, `name3`, … when taken) for a declaration.
    pub fn reserve(&mut self, wanted: &str) -> String {
        let scoped = format!("{}{wanted}", self.scope);
        let wanted = if self.taken.iter().any(|t| t == wanted)
            && !self.scope.is_empty()
            && !wanted.starts_with(&self.scope)
        {
            scoped.as_str()
        } else {
            wanted
        };
        let mut name = wanted.to_owned();
        let mut n = 2;
        while self.taken.iter().any(|t| t == &name) {
            name = format!("{wanted}{n}");
            n += 1;
        }
        self.taken.push(name.clone());
        name
    }

    /// Translates a whole input or output schema's `$defs` context, then `f` inside it.
    pub fn with_defs<T>(&mut self, root: &Value, f: impl FnOnce(&mut Types) -> T) -> T {
        let defs = root
            .get("$defs")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        let saved = std::mem::replace(&mut self.defs, defs);
        let saved_declared = std::mem::take(&mut self.defs_declared);
        let saved_root = std::mem::replace(&mut self.root, root.clone());
        let out = f(self);
        self.defs = saved;
        self.defs_declared = saved_declared;
        self.root = saved_root;
        out
    }

    /// The type of a property (or parameter) `name` with schema `schema`, at `at`.
    pub fn field(&mut self, schema: &Value, name: &str, at: &str) -> FieldType {
        self.translate(schema, &names::type_name(name), at, Position::Property)
    }

    /// The type of a value that is not a property (a tool's result), named `hint`.
    pub fn value(&mut self, schema: &Value, hint: &str, at: &str) -> FieldType {
        self.translate(schema, hint, at, Position::Inner)
    }

    fn gap(&mut self, path: &str, what: impl Into<String>) {
        let at = if let Some(pointer) = &self.pointer {
            format!("{}, `{pointer}`", self.context)
        } else if path.is_empty() {
            self.context.clone()
        } else {
            format!("{} `{path}`", self.context)
        };
        self.gaps.push(Gap {
            at,
            what: what.into(),
        });
    }

    fn translate(&mut self, schema: &Value, hint: &str, at: &str, pos: Position) -> FieldType {
        let Some(object) = schema.as_object() else {
            // `true` accepts everything; `false` nothing, which no type says.
            if schema == &Value::Bool(false) {
                self.gap(at, "the schema `false` accepts nothing; imported as `json`");
            }
            return plain("json", Shape::Json);
        };
        let description = object
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let mut out = self.translate_object(object, hint, at, pos, description.as_deref());
        if pos == Position::Property {
            out.description = description;
        }
        if let Some(title) = object.get("title").and_then(Value::as_str)
            && pos == Position::Property
        {
            out.attrs
                .push(format!("@title({})", names::string_literal(title)));
        }
        if object.get("deprecated") == Some(&Value::Bool(true)) && pos == Position::Property {
            out.attrs.push("@deprecated".into());
        }
        out
    }

    fn translate_object(
        &mut self,
        object: &Map<String, Value>,
        hint: &str,
        at: &str,
        pos: Position,
        description: Option<&str>,
    ) -> FieldType {
        let saved = self.enter(object);
        let out = self.translate_kind(object, hint, at, pos, description);
        self.pointer = saved;
        out
    }

    /// Makes the pointer `object` carries (if any) the place gaps name; returns the one to
    /// restore afterwards.
    fn enter(&mut self, object: &Map<String, Value>) -> Option<String> {
        match object.get(POINTER).and_then(Value::as_str) {
            Some(pointer) => self.pointer.replace(pointer.to_owned()),
            None => self.pointer.clone(),
        }
    }

    fn translate_kind(
        &mut self,
        object: &Map<String, Value>,
        hint: &str,
        at: &str,
        pos: Position,
        description: Option<&str>,
    ) -> FieldType {
        // The declaration's own doc: at a property the description is the field's.
        let doc = match pos {
            Position::Property => None,
            Position::Inner => description,
        };
        if let Some(reference) = object.get("$ref").and_then(Value::as_str) {
            return self.reference(reference, hint, at);
        }
        for (keyword, tagged) in [("oneOf", true), ("anyOf", false)] {
            if let Some(branches) = object.get(keyword).and_then(Value::as_array) {
                // What else the schema says beside its branches is not checked.
                self.ignored_keywords(object, at, &[keyword, "default"]);
                return self.union(branches, tagged, hint, at, doc);
            }
        }
        // `const: "x"` on a string is an enum of one member (the same values).
        if let Some(Value::String(value)) = object.get("const")
            && matches!(
                object.get("type").and_then(Value::as_str),
                None | Some("string")
            )
            && !object.contains_key("enum")
        {
            let mut object = object.clone();
            let value = Value::from(value.as_str());
            object.remove("const");
            object.insert("type".into(), Value::from("string"));
            object.insert("enum".into(), Value::Array(vec![value]));
            return self.enumeration(&object, hint, at, doc);
        }
        let types: Vec<&str> = match object.get("type") {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let nullable = types.contains(&"null");
        let kinds: Vec<&str> = types.iter().copied().filter(|t| *t != "null").collect();
        if let Some(unknown) = kinds.iter().find(|k| !KINDS.contains(k)) {
            self.gap(
                at,
                format!("`type` `{unknown}` is no JSON Schema type; imported as `json`"),
            );
            return plain("json", Shape::Json);
        }
        let mut out = match kinds.as_slice() {
            [] if object.contains_key("enum") => self.enumeration(object, hint, at, doc),
            [] => {
                if nullable {
                    self.gap(at, "the schema accepts only `null`; imported as `json`");
                }
                self.ignored_keywords(object, at, &[]);
                plain("json", Shape::Json)
            }
            ["string"] if object.contains_key("enum") => self.enumeration(object, hint, at, doc),
            ["string"] => self.string(object, at),
            ["integer"] => self.integer(object, at),
            ["number"] => self.number(object, at),
            ["boolean"] => {
                self.ignored_keywords(object, at, &[]);
                plain("bool", Shape::Scalar)
            }
            ["array"] => self.array(object, hint, at),
            ["object"] => self.object(object, hint, at, doc),
            // `type: ["string", "number"]`: a value of one of those kinds, an untagged union of
            // one variant per kind, each with the keywords that apply to it.
            _ => {
                let branches: Vec<Value> = kinds
                    .iter()
                    .map(|kind| Value::Object(keywords_of_kind(object, kind)))
                    .collect();
                let mut union = self.union(&branches, false, hint, at, doc);
                union.attrs.clear();
                union
            }
        };
        if nullable {
            out.expr.push('?');
            out.shape = Shape::Nullable(Box::new(out.shape));
        }
        out
    }

    /// Keywords of `object` that the translation does not read, reported as a gap (the type
    /// is then wider than the original: it refuses less).
    fn ignored_keywords(&mut self, object: &Map<String, Value>, at: &str, read: &[&str]) {
        const ALWAYS: &[&str] = &[
            "type",
            "description",
            "title",
            "default",
            "deprecated",
            "$schema",
            // Read by `Types::with_defs`.
            "$defs",
            "$id",
            "$comment",
            "examples",
            "readOnly",
            "writeOnly",
            POINTER,
        ];
        for key in object.keys() {
            if !ALWAYS.contains(&key.as_str()) && !read.contains(&key.as_str()) {
                self.gap(
                    at,
                    format!("`{key}` is not expressible here and is not checked by the import"),
                );
            }
        }
    }

    fn reference(&mut self, reference: &str, hint: &str, at: &str) -> FieldType {
        let Some(key) = reference.strip_prefix("#/$defs/") else {
            return self.pointer_reference(reference, hint, at);
        };
        if let Some(name) = self.defs_declared.get(key).cloned() {
            self.refer(&name);
            let shape = self.shapes.get(&name).cloned().unwrap_or_default();
            return plain(&name, shape);
        }
        let Some(schema) = self.defs.get(key).cloned() else {
            self.gap(
                at,
                format!("`$ref: {reference}` names no `$defs` entry; imported as `json`"),
            );
            return plain("json", Shape::Json);
        };
        let description = schema
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let Some(object) = schema.as_object() else {
            return plain("json", Shape::Json);
        };
        // The same record hoisted by another tool's schema is the same declaration.
        if let Some(name) = self.known_record(object, description.as_deref()) {
            self.refer(&name);
            self.defs_declared.insert(key.to_owned(), name.clone());
            return plain(&name, self.shapes.get(&name).cloned().unwrap_or_default());
        }
        // Declared under its own key, reserved first so that it can refer to itself.
        let name = self.reserve(&names::type_name(key));
        self.defs_declared.insert(key.to_owned(), name.clone());
        let is_record = object.get("type").and_then(Value::as_str) == Some("object")
            && object.contains_key("properties");
        if !is_record {
            // A `$defs` entry that is not a record: inline it (only records are hoisted).
            self.taken.retain(|t| t != &name);
            self.defs_declared.remove(key);
            return self.translate_object(
                object,
                &name,
                at,
                Position::Inner,
                description.as_deref(),
            );
        }
        self.remember_record(object, description.as_deref(), &name);
        let record = self.record_body(object, &name, at, description.as_deref());
        plain(
            &record,
            self.shapes.get(&record).cloned().unwrap_or_default(),
        )
    }
}

impl Types {
    /// A `$ref` to a JSON pointer into the schema elsewhere than `#/$defs` (`#/properties/a`,
    /// `#/definitions/A`): the schema it points to, translated in its place.
    fn pointer_reference(&mut self, reference: &str, hint: &str, at: &str) -> FieldType {
        let target = reference
            .strip_prefix('#')
            .filter(|pointer| pointer.starts_with('/'))
            .and_then(|pointer| self.root.pointer(&unescape_fragment(pointer)))
            .cloned();
        let Some(target) = target else {
            self.gap(
                at,
                format!("`$ref: {reference}` points nowhere in the schema; imported as `json`"),
            );
            return plain("json", Shape::Json);
        };
        let Some(object) = target.as_object() else {
            if target == Value::Bool(false) {
                self.gap(at, "the schema `false` accepts nothing; imported as `json`");
            }
            return plain("json", Shape::Json);
        };
        if self.following.iter().any(|r| r == reference) {
            self.gap(
                at,
                format!("`$ref: {reference}` leads back into itself; imported as `json`"),
            );
            return plain("json", Shape::Json);
        }
        self.following.push(reference.to_owned());
        let description = object
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let out = self.translate_object(object, hint, at, Position::Inner, description.as_deref());
        self.following.pop();
        out
    }
}

/// A URI fragment's JSON pointer with its percent-escapes decoded (`%25` → `%`); `~0` and
/// `~1` are left to [`Value::pointer`].
fn unescape_fragment(pointer: &str) -> String {
    let bytes = pointer.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The key under which an OpenAPI import writes, in each schema object it hands over, the
/// JSON pointer of that schema in the document: warnings name the pointer, not a path
/// inside the tool's input. Listings never carry it.
pub const POINTER: &str = "x-toolidl-pointer";

/// The values of `type` besides `null`.
const KINDS: [&str; 6] = ["string", "integer", "number", "boolean", "array", "object"];

pub(super) fn plain(expr: &str, shape: Shape) -> FieldType {
    with_attrs(Vec::new(), expr, shape)
}

pub(super) fn with_attrs(attrs: Vec<String>, expr: impl Into<String>, shape: Shape) -> FieldType {
    FieldType {
        attrs,
        expr: expr.into(),
        description: None,
        shape,
    }
}
