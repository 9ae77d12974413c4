//! JSON Schema → the language's types: records, enums, unions and named types declared on the
//! way, constraints as attributes, and every construct the language cannot say kept as a
//! `json`-like type with a [`Gap`].
//!
//! The translation inverts `docs/schema-mapping.md`: what toolidl itself publishes comes back
//! as the declarations that publish it. Schemas written by other servers are read by the same
//! rules; where they say something the language cannot, the type is widened to `json`,
//! `object` or `array` (accepting everything the original did, and more), never narrowed, and
//! the place is reported.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::names;

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
    /// Declared names → the shape of their values (records, enums), for defaults.
    shapes: BTreeMap<String, Shape>,
    taken: Vec<String>,
    /// Where the schema being translated stands in the document it came from (a JSON
    /// pointer an OpenAPI import writes under [`POINTER`]); gaps name it instead of the path.
    pointer: Option<String>,
    /// The `$defs` of the schema being translated, and which of them are declared (by name).
    defs: Map<String, Value>,
    defs_declared: BTreeMap<String, String>,
    /// The records and unions whose declarations are being written, outermost first.
    building: Vec<String>,
    /// The outermost of `building` a type written since [`Types::union`] started refers to:
    /// a union whose variants reach it (or the union itself) would contain itself.
    reached: Option<usize>,
}

/// Where a schema stands: a property's description belongs to the field, anywhere else to the
/// declaration it names.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Position {
    Property,
    Inner,
}

impl Types {
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

    /// Notes that the type being written refers to declaration `name`, which may be one whose
    /// declaration is still being written (a recursive record, or a union reached again).
    fn refer(&mut self, name: &str) {
        if let Some(i) = self.building.iter().position(|b| b == name) {
            self.reached = Some(self.reached.map_or(i, |r| r.min(i)));
        }
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
        let out = f(self);
        self.defs = saved;
        self.defs_declared = saved_declared;
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
            return self.reference(reference, at);
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

    fn reference(&mut self, reference: &str, at: &str) -> FieldType {
        let Some(key) = reference.strip_prefix("#/$defs/") else {
            self.gap(
                at,
                format!("`$ref: {reference}` outside `#/$defs`; imported as `json`"),
            );
            return plain("json", Shape::Json);
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
        let shape_key = (structure(object), description.clone());
        if let Some(name) = self.by_shape.get(&shape_key) {
            let name = name.clone();
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
        self.by_shape.insert(shape_key, name.clone());
        let record = self.record_body(object, &name, at, description.as_deref());
        plain(
            &record,
            self.shapes.get(&record).cloned().unwrap_or_default(),
        )
    }

    fn string(&mut self, object: &Map<String, Value>, at: &str) -> FieldType {
        let mut read = vec![
            "minLength",
            "maxLength",
            "pattern",
            "format",
            "contentEncoding",
        ];
        let format = object.get("format").and_then(Value::as_str);
        let min = object.get("minLength").and_then(Value::as_u64);
        let max = object.get("maxLength").and_then(Value::as_u64);
        let mut pattern = object.get("pattern").and_then(Value::as_str);
        if let Some(problem) = pattern.and_then(pattern_problem) {
            self.gap(
                at,
                format!("{problem}, which the language does not accept; `pattern` left out"),
            );
            pattern = None;
        }
        if object.get("contentEncoding").and_then(Value::as_str) == Some("base64")
            && format.is_none()
            && pattern.is_none()
            && min.is_none()
            && max.is_none()
        {
            return plain("bytes", Shape::Scalar);
        }
        if object.contains_key("contentEncoding") {
            read.retain(|k| *k != "contentEncoding");
        }
        if pattern == Some(DURATION_PATTERN) && format.is_none() && min.is_none() && max.is_none() {
            return plain("duration", Shape::Scalar);
        }
        let mut attrs = Vec::new();
        let base = match format {
            None => "string",
            Some("uuid") => "uuid",
            Some("date-time") => "datetime",
            Some("date") => "date",
            Some("time") => "time",
            // `@url` on a string publishes the same format, and takes lengths too.
            Some("uri") if min.is_some() || max.is_some() => {
                attrs.push("@url".to_owned());
                "string"
            }
            Some("uri") => "uri",
            Some("email") => {
                attrs.push("@email".to_owned());
                "string"
            }
            Some(other) => {
                self.gap(
                    at,
                    format!("`format: {other}` has no type in the language; imported as `string`"),
                );
                "string"
            }
        };
        if base == "string"
            && min == Some(1)
            && max == Some(1)
            && pattern.is_none()
            && attrs.is_empty()
        {
            self.ignored_keywords(object, at, &read);
            return plain("char", Shape::Char);
        }
        if base != "string" && (min.is_some() || max.is_some()) {
            self.gap(
                at,
                format!(
                    "`minLength`/`maxLength` on `format: {}` cannot be declared; left out",
                    format.unwrap_or_default()
                ),
            );
        } else if let Some(length) = bounds_attr("@length", min, max) {
            attrs.insert(0, length);
        }
        if let Some(pattern) = pattern {
            attrs.push(format!("@pattern({})", names::string_literal(pattern)));
        }
        self.ignored_keywords(object, at, &read);
        with_attrs(attrs, base, Shape::Scalar)
    }

    fn integer(&mut self, object: &Map<String, Value>, at: &str) -> FieldType {
        self.ignored_keywords(
            object,
            at,
            &["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"],
        );
        // An exclusive bound of an integer is the inclusive one next to it; with both kinds
        // at one end, the tighter holds.
        let bound =
            |inclusive: &str, exclusive: &str, step: i128, tighter: fn(i128, i128) -> i128| {
                let a = object.get(inclusive).and_then(as_i128);
                let b = object.get(exclusive).and_then(as_i128).map(|x| x + step);
                match (a, b) {
                    (Some(a), Some(b)) => Some(tighter(a, b)),
                    (a, b) => a.or(b),
                }
            };
        let min = bound("minimum", "exclusiveMinimum", 1, i128::max);
        let max = bound("maximum", "exclusiveMaximum", -1, i128::min);
        if let Some(exact) = INTEGERS
            .iter()
            .find(|(_, lo, hi)| Some(*lo) == min && Some(*hi) == max)
        {
            return plain(exact.0, Shape::Scalar);
        }
        let lo = min.unwrap_or(i64::MIN.into());
        let hi = max.unwrap_or(if lo < 0 {
            i64::MAX.into()
        } else {
            u64::MAX.into()
        });
        let Some(holder) = INTEGERS
            .iter()
            .find(|(_, tlo, thi)| *tlo <= lo && hi <= *thi)
        else {
            self.gap(at, "integer bounds beyond 64 bits; imported as `json`");
            return plain("json", Shape::Json);
        };
        if min.is_none() || max.is_none() {
            let missing = match (min, max) {
                (None, None) => "any integer",
                (None, _) => "integers without a lower bound",
                _ => "integers without an upper bound",
            };
            self.gap(
                at,
                format!(
                    "the schema accepts {missing}; imported as `{}`, which has 64-bit bounds",
                    holder.0
                ),
            );
        }
        let attr = range_attr(
            min.filter(|m| *m != holder.1).map(|m| m.to_string()),
            max.filter(|m| *m != holder.2).map(|m| m.to_string()),
        );
        with_attrs(
            attr.into_iter().collect(),
            holder.0.to_owned(),
            Shape::Scalar,
        )
    }

    fn number(&mut self, object: &Map<String, Value>, at: &str) -> FieldType {
        self.ignored_keywords(
            object,
            at,
            &["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"],
        );
        // Bounds as written: `@range(-90, 90)` on a float publishes `-90`, `-90.0` publishes
        // `-90.0`.
        let text = |k: &str| {
            object
                .get(k)
                .filter(|v| v.is_number())
                .map(Value::to_string)
        };
        let mut attrs = Vec::new();
        let (min, max) = (text("minimum"), text("maximum"));
        let (xmin, xmax) = (text("exclusiveMinimum"), text("exclusiveMaximum"));
        let mut args = Vec::new();
        if let Some(v) = &min {
            args.push(format!("min: {}", v.clone()));
        }
        if let Some(v) = &xmin {
            args.push(format!("exclusive_min: {}", v.clone()));
        }
        if let Some(v) = &max {
            args.push(format!("max: {}", v.clone()));
        }
        if let Some(v) = &xmax {
            args.push(format!("exclusive_max: {}", v.clone()));
        }
        if xmin.is_none() && xmax.is_none() {
            if let Some(attr) = range_attr(min, max) {
                attrs.push(attr);
            }
        } else if !args.is_empty() {
            attrs.push(format!("@range({})", args.join(", ")));
        }
        with_attrs(attrs, "f64", Shape::Float)
    }

    fn array(&mut self, object: &Map<String, Value>, hint: &str, at: &str) -> FieldType {
        self.ignored_keywords(
            object,
            at,
            &["items", "uniqueItems", "minItems", "maxItems"],
        );
        let length = bounds_attr(
            "@length",
            object.get("minItems").and_then(Value::as_u64),
            object.get("maxItems").and_then(Value::as_u64),
        );
        let Some(items) = object.get("items") else {
            // `@length` applies to lists, not to `array`: a list of anything says the same.
            let (attrs, expr, shape) = match length {
                Some(length) => (
                    vec![length],
                    "list<json>",
                    Shape::List(Box::new(Shape::Json)),
                ),
                None => (Vec::new(), "array", Shape::Json),
            };
            if object.get("uniqueItems") == Some(&Value::Bool(true)) {
                self.gap(
                    at,
                    format!(
                        "`uniqueItems` without `items`: imported as `{expr}`, duplicates accepted"
                    ),
                );
            }
            return with_attrs(attrs, expr, shape);
        };
        let unique = object.get("uniqueItems") == Some(&Value::Bool(true));
        let item = self.item(items, &format!("{hint}Item"), &format!("{at}[]"));
        let kind = if unique { "set" } else { "list" };
        with_attrs(
            length.into_iter().collect(),
            format!("{kind}<{}>", item.expr),
            Shape::List(Box::new(item.shape)),
        )
    }

    /// The type of a list's items or a map's values: a type expression without attributes
    /// (constraints go into a named type declared for them).
    fn item(&mut self, schema: &Value, hint: &str, at: &str) -> FieldType {
        let mut item = self.translate(schema, hint, at, Position::Inner);
        if item.attrs.is_empty() {
            return item;
        }
        let (inner, nullable) = match item.expr.strip_suffix('?') {
            Some(inner) => (inner.to_owned(), true),
            None => (item.expr.clone(), false),
        };
        let text = format!("{} {inner}", item.attrs.join(" "));
        let key = (format!("type:{text}"), None);
        let name = match self.by_shape.get(&key) {
            Some(name) => name.clone(),
            None => {
                let name = self.reserve(hint);
                self.decls.push(format!("type {name} = {text};"));
                self.by_shape.insert(key, name.clone());
                name
            }
        };
        item.attrs.clear();
        item.expr = if nullable { format!("{name}?") } else { name };
        item
    }

    fn object(
        &mut self,
        object: &Map<String, Value>,
        hint: &str,
        at: &str,
        doc: Option<&str>,
    ) -> FieldType {
        if object.contains_key("properties") {
            let name = self.record(object, hint, at, doc);
            let shape = self.shapes.get(&name).cloned().unwrap_or_default();
            return plain(&name, shape);
        }
        match object.get("additionalProperties") {
            Some(value @ Value::Object(_)) => {
                self.ignored_keywords(object, at, &["additionalProperties"]);
                let value = self.item(value, &format!("{hint}Value"), &format!("{at}{{}}"));
                with_attrs(
                    Vec::new(),
                    format!("map<string, {}>", value.expr),
                    Shape::Map(Box::new(value.shape)),
                )
            }
            Some(Value::Bool(false)) => {
                // Only `{}`: an empty record says exactly that.
                let name = self.record(object, hint, at, doc);
                plain(&name, Shape::Json)
            }
            _ => {
                self.ignored_keywords(object, at, &["additionalProperties"]);
                plain("object", Shape::Json)
            }
        }
    }

    /// Declares (or finds) the record an object schema with `properties` describes.
    fn record(
        &mut self,
        object: &Map<String, Value>,
        hint: &str,
        at: &str,
        doc: Option<&str>,
    ) -> String {
        let key = (structure(object), doc.map(str::to_owned));
        if let Some(name) = self.by_shape.get(&key).cloned() {
            self.refer(&name);
            return name;
        }
        let name = self.reserve(hint);
        self.by_shape.insert(key, name.clone());
        self.record_body(object, &name, at, doc)
    }

    /// Writes the declaration of record `name` (already reserved) from its object schema.
    fn record_body(
        &mut self,
        object: &Map<String, Value>,
        name: &str,
        at: &str,
        doc: Option<&str>,
    ) -> String {
        let saved = self.enter(object);
        self.building.push(name.to_owned());
        self.ignored_keywords(
            object,
            at,
            &["properties", "required", "additionalProperties"],
        );
        let open = object.get("additionalProperties") != Some(&Value::Bool(false));
        if let Some(Value::Object(_)) = object.get("additionalProperties") {
            self.gap(at, "`additionalProperties` with a schema beside `properties`: imported as an `@open` record, extra members unchecked");
        }
        let empty = Map::new();
        let properties = object
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let required = required_set(object);
        let fields = self.fields(properties, &required, &format!("{at}."));
        self.building.pop();
        // A reference to this record from inside it says nothing to the unions around it.
        if self.reached.is_some_and(|r| r >= self.building.len()) {
            self.reached = None;
        }
        let mut text = docs(doc, "");
        if open {
            text.push_str("@open\n");
        }
        if fields.camel {
            text.push_str("@rename_all(\"camelCase\")\n");
        }
        text.push_str(&format!("record {name} {{\n"));
        for line in &fields.lines {
            text.push_str(&indent(line));
            text.push_str(",\n");
        }
        text.push('}');
        self.shapes
            .insert(name.to_owned(), Shape::Record(fields.shapes));
        self.decls.push(text);
        self.pointer = saved;
        name.to_owned()
    }

    /// The fields (or parameters) of an object schema, each written `docs attrs name: T = v`.
    pub fn fields(
        &mut self,
        properties: &Map<String, Value>,
        required: &[String],
        at: &str,
    ) -> Fields {
        let camel = !properties.is_empty()
            && properties
                .keys()
                .any(|k| k.chars().any(|c| c.is_ascii_uppercase()))
            && properties
                .keys()
                .all(|k| names::is_camel(k) && !names::is_unusable(&names::snake(k)));
        let mut out = Fields {
            camel,
            ..Fields::default()
        };
        for (wire, schema) in properties {
            let ident = if camel {
                names::snake(wire)
            } else {
                names::field_ident(wire)
            };
            let mut ty = self.field(schema, wire, &format!("{at}{wire}"));
            let mut line = docs(ty.description.as_deref(), "");
            if !camel && ident != *wire {
                ty.attrs
                    .insert(0, format!("@json_name({})", names::string_literal(wire)));
            }
            for attr in &ty.attrs {
                line.push_str(attr);
                line.push(' ');
            }
            let is_required = required.iter().any(|r| r == wire);
            let default = schema.get("default");
            line.push_str(&ident);
            match (is_required, default) {
                (true, _) => line.push_str(&format!(": {}", ty.expr)),
                (false, Some(value)) => match self
                    .literal(value, &ty.shape)
                    .filter(|_| default_fits(schema, value))
                {
                    // What the schema's keywords cannot tell (a default of another kind, on
                    // `array` or `object`), the compiler does.
                    Some(literal) => match self.default_problem(&ty, &literal) {
                        None => line.push_str(&format!(": {} = {literal}", ty.expr)),
                        Some(problem) => {
                            self.gap(
                                &format!("{at}{wire}"),
                                format!("the default {value} is refused: {problem}; left out"),
                            );
                            line.push_str(&format!("?: {}", ty.expr));
                        }
                    },
                    None => {
                        self.gap(
                            &format!("{at}{wire}"),
                            format!(
                                "the default {value} is not a value of `{}`; left out",
                                ty.expr
                            ),
                        );
                        line.push_str(&format!("?: {}", ty.expr));
                    }
                },
                // Optional without a default: absent allowed, and `null` only when the type
                // says so (as the schema does).
                (false, None) => line.push_str(&format!("?: {}", ty.expr)),
            }
            if is_required && default.is_some() {
                self.gap(
                    &format!("{at}{wire}"),
                    "a default on a required property means nothing to clients; left out",
                );
            }
            out.shapes.insert(wire.clone(), (ident, ty.shape));
            out.lines.push(line);
        }
        for name in required {
            if !properties.contains_key(name) {
                self.gap(
                    at.trim_end_matches('.'),
                    format!("`required` names `{name}`, which has no property; left out"),
                );
            }
        }
        out
    }

    fn enumeration(
        &mut self,
        object: &Map<String, Value>,
        hint: &str,
        at: &str,
        doc: Option<&str>,
    ) -> FieldType {
        self.ignored_keywords(object, at, &["enum"]);
        let values = object
            .get("enum")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let nullable_in_enum = values.iter().any(Value::is_null);
        let strings: Vec<&str> = values.iter().filter_map(Value::as_str).collect();
        if strings.len() + usize::from(nullable_in_enum) != values.len() || strings.is_empty() {
            self.gap(at, "an `enum` of values other than strings has no type in the language; imported as `json`");
            return plain("json", Shape::Json);
        }
        let key = (structure(object), doc.map(str::to_owned));
        let name = match self.by_shape.get(&key) {
            Some(name) => name.clone(),
            None => {
                let name = self.reserve(hint);
                self.by_shape.insert(key, name.clone());
                let mut members = BTreeMap::new();
                let mut lines = Vec::new();
                let mut used = Vec::new();
                let mut seen: Vec<&str> = Vec::new();
                for value in &strings {
                    // A value listed twice is one member (JSON Schema allows the repeat).
                    if seen.contains(value) {
                        continue;
                    }
                    seen.push(value);
                    let mut ident = names::member_ident(value);
                    let base = ident.clone();
                    let mut n = 2;
                    while used.contains(&ident) {
                        ident = format!("{base}_{n}");
                        n += 1;
                    }
                    used.push(ident.clone());
                    members.insert((*value).to_owned(), ident.clone());
                    if ident == *value {
                        lines.push(ident);
                    } else {
                        lines.push(format!("@value({}) {ident}", names::string_literal(value)));
                    }
                }
                let mut text = docs(doc, "");
                text.push_str(&format!("enum {name} {{\n"));
                for line in lines {
                    text.push_str(&format!("    {line},\n"));
                }
                text.push('}');
                self.shapes.insert(name.clone(), Shape::Enum(members));
                self.decls.push(text);
                name
            }
        };
        let shape = self.shapes.get(&name).cloned().unwrap_or_default();
        let mut out = plain(&name, shape);
        let typed_null =
            matches!(object.get("type"), Some(Value::Array(ts)) if ts.iter().any(|t| t == "null"));
        if nullable_in_enum && !typed_null {
            out.expr.push('?');
            out.shape = Shape::Nullable(Box::new(out.shape));
        }
        out
    }

    fn union(
        &mut self,
        branches: &[Value],
        tagged: bool,
        hint: &str,
        at: &str,
        doc: Option<&str>,
    ) -> FieldType {
        let nullable = branches.iter().any(|b| {
            b.get("type").and_then(Value::as_str) == Some("null")
                && b.as_object().is_some_and(|o| o.len() == 1)
        });
        let branches: Vec<&Value> = branches
            .iter()
            .filter(|b| {
                !(b.get("type").and_then(Value::as_str) == Some("null")
                    && b.as_object().is_some_and(|o| o.len() == 1))
            })
            .collect();
        // `anyOf: [X, null]`: a nullable X (a reference, most often).
        if branches.len() == 1 && nullable {
            let mut inner = self.translate(branches[0], hint, at, Position::Inner);
            inner.expr.push('?');
            inner.shape = Shape::Nullable(Box::new(inner.shape));
            return inner;
        }
        // A union an OpenAPI import meets again (the same component's, from another
        // operation) is the one declared already.
        let key = branches.iter().any(|b| has_pointer(b)).then(|| {
            let mut stripped: Vec<Value> = branches.iter().map(|b| (*b).clone()).collect();
            for branch in &mut stripped {
                if let Value::Object(o) = branch {
                    strip_pointers(o);
                }
            }
            (
                format!("union:{tagged}:{}", Value::Array(stripped)),
                doc.map(str::to_owned),
            )
        });
        if let Some(name) = key.as_ref().and_then(|k| self.by_shape.get(k)).cloned() {
            self.refer(&name);
            let mut out = plain(&name, Shape::Json);
            if nullable {
                out.expr.push('?');
            }
            return out;
        }
        // `anyOf` of records told apart by a `const` property is a tagged union too: the tag
        // values exclude each other, so `anyOf` and `oneOf` accept the same values.
        let tag = common_tag(&branches);
        if tagged && tag.is_none() {
            self.gap(at, "`oneOf` whose branches are not records told apart by a `const` property: imported as an untagged union (the first branch that fits)");
        }
        let name = self.reserve(hint);
        if let Some(key) = &key {
            self.by_shape.insert(key.clone(), name.clone());
        }
        let depth = self.building.len();
        self.building.push(name.clone());
        let outer = self.reached.take();
        let mut variants = Vec::new();
        let mut used: Vec<String> = Vec::new();
        for (i, branch) in branches.iter().enumerate() {
            let branch_at = format!("{at} (variant {})", i + 1);
            let (variant_name, ty, variant_doc) = match &tag {
                Some(tag) => {
                    let value = branch["properties"][tag.as_str()]["const"]
                        .as_str()
                        .unwrap_or_default()
                        .to_owned();
                    let mut object = branch.as_object().cloned().unwrap_or_default();
                    let variant_doc = object
                        .remove("description")
                        .and_then(|d| d.as_str().map(str::to_owned));
                    if let Some(Value::Object(properties)) = object.get_mut("properties") {
                        properties.shift_remove(tag.as_str());
                    }
                    if let Some(Value::Array(required)) = object.get_mut("required") {
                        required.retain(|r| r != tag.as_str());
                        if required.is_empty() {
                            object.remove("required");
                        }
                    }
                    let record = self.record(&object, &names::type_name(&value), &branch_at, None);
                    (value, record, variant_doc)
                }
                None => {
                    // The branch's description is the variant's doc.
                    let mut branch = (*branch).clone();
                    let variant_doc = branch
                        .as_object_mut()
                        .and_then(|o| o.remove("description"))
                        .and_then(|d| d.as_str().map(str::to_owned));
                    // Named for the kind of value it holds: `text`, `list`, `object`, …
                    let kind = kind_word(&branch);
                    let ty = self.item(
                        &branch,
                        &format!("{name}{}", names::type_name(kind)),
                        &branch_at,
                    );
                    let variant = match kind {
                        "reference" => names::variant_name(&ty.expr),
                        kind => kind.to_owned(),
                    };
                    (variant, ty.expr, variant_doc)
                }
            };
            let mut ident = names::member_ident(&variant_name);
            let base = ident.clone();
            let mut n = 2;
            while used.contains(&ident) {
                ident = format!("{base}{n}");
                n += 1;
            }
            used.push(ident.clone());
            if tag.is_some() && ident != variant_name {
                self.gap(&branch_at, format!("the tag value `{variant_name}` is not a name; the variant is `{ident}`, and the tag is written as its name"));
            }
            variants.push(format!(
                "{}{ident}: {ty}",
                doc_lines(variant_doc.as_deref())
            ));
        }
        self.building.pop();
        let reached = std::mem::replace(&mut self.reached, outer);
        if reached.is_some_and(|r| r <= depth) {
            // Its variants lead back to it, through a record that holds it or to the union
            // itself: the language has no recursive unions (E0902).
            self.taken.retain(|t| t != &name);
            if let Some(key) = &key {
                self.by_shape.remove(key);
            }
            self.gap(at, "a union whose variants contain it again (the language has no recursive unions); imported as `json`");
            return plain("json", Shape::Json);
        }
        let mut text = doc_lines(doc);
        if let Some(tag) = &tag {
            text.push_str(&format!("@tag({})\n", names::string_literal(tag)));
        }
        text.push_str(&format!("union {name} {{\n"));
        for variant in &variants {
            text.push_str(&indent(variant));
            text.push_str(",\n");
        }
        text.push('}');
        self.decls.push(text);
        let mut out = plain(&name, Shape::Json);
        if nullable {
            out.expr.push('?');
        }
        out
    }

    /// Why the language refuses `literal` as the default of a field of type `ty` (not a value
    /// of the type, outside its constraints, not in its format: E0501 to E0504), if it does:
    /// asked of the compiler, on a record of that one field after the declarations so far.
    fn default_problem(&self, ty: &FieldType, literal: &str) -> Option<String> {
        let mut text = String::from("package probe;\n\n");
        for decl in &self.decls {
            text.push_str(decl);
            text.push_str("\n\n");
        }
        // `type_name` never makes a name with `_`: no declaration has this one.
        text.push_str(&format!(
            "record Probe_Default {{\n    {} x: {} = {literal},\n}}\n",
            ty.attrs.join(" "),
            ty.expr
        ));
        super::refusal(text, &["E0501", "E0502", "E0503", "E0504"])
    }

    /// A default value written as a literal of the type `shape` describes.
    pub fn literal(&self, value: &Value, shape: &Shape) -> Option<String> {
        Some(match (shape, value) {
            (_, Value::Null) => "null".into(),
            (Shape::Nullable(inner), v) => self.literal(v, inner)?,
            (Shape::Enum(members), Value::String(s)) => members.get(s)?.clone(),
            (Shape::Enum(_), _) => return None,
            (Shape::Char, Value::String(s)) if s.chars().count() == 1 => names::char_literal(s),
            (Shape::Json, v) => json_literal(v),
            (_, Value::String(s)) => names::string_literal(s),
            (_, Value::Number(n)) => n.to_string(),
            (_, Value::Bool(b)) => b.to_string(),
            (Shape::List(item), Value::Array(items)) => {
                let items: Option<Vec<String>> =
                    items.iter().map(|v| self.literal(v, item)).collect();
                format!("[{}]", items?.join(", "))
            }
            (Shape::Map(value), Value::Object(entries)) => {
                let entries: Option<Vec<String>> = entries
                    .iter()
                    .map(|(k, v)| {
                        Some(format!(
                            "{}: {}",
                            names::string_literal(k),
                            self.literal(v, value)?
                        ))
                    })
                    .collect();
                format!("{{{}}}", entries?.join(", "))
            }
            (Shape::Record(fields), Value::Object(entries)) => {
                let entries: Option<Vec<String>> = entries
                    .iter()
                    .map(|(k, v)| {
                        let (ident, shape) = fields.get(k)?;
                        Some(format!("{ident}: {}", self.literal(v, shape)?))
                    })
                    .collect();
                format!("{{ {} }}", entries?.join(", "))
            }
            _ => return None,
        })
    }
}

/// The fields of an object schema, written.
#[derive(Default)]
pub struct Fields {
    pub lines: Vec<String>,
    /// Every property's wire name is the camelCase of its snake_case name (and some have an
    /// upper-case letter): the record says `@rename_all("camelCase")`.
    pub camel: bool,
    pub shapes: BTreeMap<String, (String, Shape)>,
}

/// A word for the kind of value a union branch holds, which names its variant.
fn kind_word(branch: &Value) -> &'static str {
    if branch.get("$ref").is_some() {
        return "reference";
    }
    if branch.get("enum").is_some() {
        return "choice";
    }
    let kind = match branch.get("type") {
        Some(Value::String(t)) => t.as_str(),
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .unwrap_or(""),
        _ => "",
    };
    match kind {
        "string" => "text",
        "integer" => "integer",
        "number" => "number",
        "boolean" => "flag",
        "array" => "list",
        "object"
            if branch.get("properties").is_none()
                && branch
                    .get("additionalProperties")
                    .is_some_and(Value::is_object) =>
        {
            "map"
        }
        "object" => "object",
        _ => "value",
    }
}

/// The keywords of `object` that apply to values of JSON type `kind`, with `type: kind`.
/// Why the language refuses `pattern` as a `@pattern` (E0603: not an ECMA-262 regular
/// expression in Unicode mode), if it does.
fn pattern_problem(pattern: &str) -> Option<String> {
    let text = format!(
        "package probe;\n\ntype Probe_Pattern = @pattern({}) string;\n",
        names::string_literal(pattern)
    );
    super::refusal(text, &["E0603"])
}

/// The values of `type` besides `null`.
const KINDS: [&str; 6] = ["string", "integer", "number", "boolean", "array", "object"];

fn keywords_of_kind(object: &Map<String, Value>, kind: &str) -> Map<String, Value> {
    let own: &[&str] = match kind {
        "string" => &[
            "minLength",
            "maxLength",
            "pattern",
            "format",
            "contentEncoding",
            "enum",
        ],
        "integer" | "number" => &[
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "multipleOf",
        ],
        "array" => &["items", "uniqueItems", "minItems", "maxItems"],
        "object" => &["properties", "required", "additionalProperties"],
        _ => &[],
    };
    let mut out = Map::new();
    out.insert("type".into(), Value::from(kind));
    for (key, value) in object {
        if own.contains(&key.as_str()) {
            out.insert(key.clone(), value.clone());
        }
    }
    out
}

/// What identifies a declaration's schema: the schema without its description, and without
/// `null` among its types or enum values (a nullable use of a record is the same record).
fn structure(object: &Map<String, Value>) -> String {
    let mut structure = object.clone();
    structure.remove("description");
    // Where a schema came from does not make it another type.
    if structure.contains_key(POINTER) || object.values().any(has_pointer) {
        strip_pointers(&mut structure);
    }
    if let Some(Value::Array(types)) = structure.get_mut("type") {
        types.retain(|t| t != "null");
        if types.len() == 1 {
            let only = types[0].clone();
            structure.insert("type".into(), only);
        }
    }
    if let Some(Value::Array(values)) = structure.get_mut("enum") {
        values.retain(|v| !v.is_null());
    }
    Value::Object(structure).to_string()
}

/// Whether `value` is one `schema` accepts, as far as the language checks a default (its
/// format, length, bounds, enum members): one that is not is left out, as the compiler
/// would refuse it.
fn default_fits(schema: &Value, value: &Value) -> bool {
    let Some(object) = schema.as_object() else {
        return true;
    };
    if let Some(Value::Array(values)) = object.get("enum")
        && !values.contains(value)
    {
        return false;
    }
    let number = |key: &str| object.get(key).and_then(Value::as_f64);
    if let Value::String(text) = value {
        let valid = match object.get("format").and_then(Value::as_str) {
            Some("uri") => toolidl_formats::is_uri(text),
            Some("uuid") => toolidl_formats::is_uuid(text),
            Some("date-time") => toolidl_formats::is_date_time(text),
            Some("date") => toolidl_formats::is_date(text),
            Some("time") => toolidl_formats::is_time(text),
            Some("email") => toolidl_formats::is_email(text),
            _ => true,
        };
        let length = text.chars().count() as f64;
        return valid
            && number("minLength").is_none_or(|min| length >= min)
            && number("maxLength").is_none_or(|max| length <= max);
    }
    if let Some(n) = value.as_f64() {
        return number("minimum").is_none_or(|min| n >= min)
            && number("maximum").is_none_or(|max| n <= max)
            && number("exclusiveMinimum").is_none_or(|min| n > min)
            && number("exclusiveMaximum").is_none_or(|max| n < max);
    }
    true
}

/// Whether a pointer is written anywhere inside `value`.
fn has_pointer(value: &Value) -> bool {
    match value {
        Value::Object(o) => o.contains_key(POINTER) || o.values().any(has_pointer),
        Value::Array(items) => items.iter().any(has_pointer),
        _ => false,
    }
}

/// Removes every pointer written inside `object`.
fn strip_pointers(object: &mut Map<String, Value>) {
    object.remove(POINTER);
    for value in object.values_mut() {
        match value {
            Value::Object(o) => strip_pointers(o),
            Value::Array(items) => items.iter_mut().for_each(|item| {
                if let Value::Object(o) = item {
                    strip_pointers(o);
                }
            }),
            _ => {}
        }
    }
}

/// `required`, as names.
pub fn required_set(object: &Map<String, Value>) -> Vec<String> {
    object
        .get("required")
        .and_then(Value::as_array)
        .map(|r| {
            r.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// The property every branch starts with, a required `{"type":"string","const":…}` with
/// distinct values: a tagged union's tag.
fn common_tag(branches: &[&Value]) -> Option<String> {
    let first = branches.first()?;
    let tag = first.get("properties")?.as_object()?.keys().next()?.clone();
    let mut seen = Vec::new();
    for branch in branches {
        let object = branch.as_object()?;
        if object.get("type")?.as_str()? != "object" {
            return None;
        }
        let property = object.get("properties")?.as_object()?.get(&tag)?;
        let value = property.get("const")?.as_str()?;
        if seen.contains(&value) || !required_set(object).iter().any(|r| r == &tag) {
            return None;
        }
        seen.push(value);
    }
    Some(tag)
}

/// The key under which an OpenAPI import writes, in each schema object it hands over, the
/// JSON pointer of that schema in the document: warnings name the pointer, not a path
/// inside the tool's input. Listings never carry it.
pub const POINTER: &str = "x-toolidl-pointer";

/// The pattern toolidl publishes for `duration`.
const DURATION_PATTERN: &str = r"^-?(\d{1,8}\.)?([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,7})?$";

/// The integer types, narrowest first: a bounded integer becomes the first that holds it.
const INTEGERS: &[(&str, i128, i128)] = &[
    ("u8", 0, u8::MAX as i128),
    ("i8", i8::MIN as i128, i8::MAX as i128),
    ("u16", 0, u16::MAX as i128),
    ("i16", i16::MIN as i128, i16::MAX as i128),
    ("u32", 0, u32::MAX as i128),
    ("i32", i32::MIN as i128, i32::MAX as i128),
    ("u64", 0, u64::MAX as i128),
    ("i64", i64::MIN as i128, i64::MAX as i128),
];

fn as_i128(value: &Value) -> Option<i128> {
    if let Some(i) = value.as_i64() {
        return Some(i.into());
    }
    if let Some(u) = value.as_u64() {
        return Some(u.into());
    }
    // `1.0` as an integer bound.
    let f = value.as_f64()?;
    (f.fract() == 0.0 && f.abs() < 1e18).then_some(f as i128)
}

fn plain(expr: &str, shape: Shape) -> FieldType {
    with_attrs(Vec::new(), expr, shape)
}

fn with_attrs(attrs: Vec<String>, expr: impl Into<String>, shape: Shape) -> FieldType {
    FieldType {
        attrs,
        expr: expr.into(),
        description: None,
        shape,
    }
}

fn bounds_attr(name: &str, min: Option<u64>, max: Option<u64>) -> Option<String> {
    match (min, max) {
        (Some(lo), Some(hi)) => Some(format!("{name}({lo}, {hi})")),
        (Some(lo), None) => Some(format!("{name}(min: {lo})")),
        (None, Some(hi)) => Some(format!("{name}(max: {hi})")),
        (None, None) => None,
    }
}

fn range_attr(min: Option<String>, max: Option<String>) -> Option<String> {
    match (min, max) {
        (Some(lo), Some(hi)) => Some(format!("@range({lo}, {hi})")),
        (Some(lo), None) => Some(format!("@range(min: {lo})")),
        (None, Some(hi)) => Some(format!("@range(max: {hi})")),
        (None, None) => None,
    }
}

/// Any JSON value as a literal of the language (a `json` default): objects with quoted keys.
fn json_literal(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => names::string_literal(s),
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(json_literal).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Object(entries) => {
            let entries: Vec<String> = entries
                .iter()
                .map(|(k, v)| format!("{}: {}", names::string_literal(k), json_literal(v)))
                .collect();
            format!("{{{}}}", entries.join(", "))
        }
    }
}

/// A description as the declaration's doc comment, each line followed by a newline; as
/// `@description("…")` when a doc comment would not give it back (the language collapses a
/// doc comment's whitespace).
pub fn docs(description: Option<&str>, prefix: &str) -> String {
    let Some(description) = description else {
        return String::new();
    };
    if collapse(description) != description {
        return format!(
            "{prefix}@description({})\n",
            names::string_literal(description)
        );
    }
    description
        .lines()
        .map(|line| {
            if line.trim().is_empty() {
                format!("{prefix}///\n")
            } else {
                format!("{prefix}/// {}\n", line.trim_end())
            }
        })
        .collect()
}

/// A doc comment's text as the language reads it: whitespace runs collapsed to one space.
fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Doc comment lines only, for declarations `@description` does not apply to (unions and their
/// variants): a description whose whitespace the language collapses comes back collapsed (a
/// normalisation `docs/import.md` lists).
pub fn doc_lines(description: Option<&str>) -> String {
    match description {
        Some(d) => docs(Some(&collapse(d)), ""),
        None => String::new(),
    }
}

fn indent(text: &str) -> String {
    text.lines()
        .map(|l| format!("    {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}
