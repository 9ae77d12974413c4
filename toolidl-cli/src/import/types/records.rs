//! Objects and arrays: records (declared once per shape), their fields, lists, sets and maps.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::defaults::default_fits;
use super::schema::{required_set, structure};
use super::text::{docs, indent};
use super::{FieldType, Position, Shape, Side, Types, names, plain, with_attrs};

impl Types {
    pub(super) fn array(&mut self, object: &Map<String, Value>, hint: &str, at: &str) -> FieldType {
        self.ignored_keywords(
            object,
            at,
            &["items", "uniqueItems", "minItems", "maxItems"],
        );
        let length = self.length_attr(
            object.get("minItems").and_then(Value::as_u64),
            object.get("maxItems").and_then(Value::as_u64),
            "minItems",
            at,
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
    pub(super) fn item(&mut self, schema: &Value, hint: &str, at: &str) -> FieldType {
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

    pub(super) fn object(
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
    pub(super) fn record(
        &mut self,
        object: &Map<String, Value>,
        hint: &str,
        at: &str,
        doc: Option<&str>,
    ) -> String {
        if let Some(name) = self.known_record(object, doc) {
            self.refer(&name);
            return name;
        }
        let name = self.reserve(hint);
        self.remember_record(object, doc, &name);
        self.record_body(object, &name, at, doc)
    }

    /// The record already declared for an object schema (with `doc`) on this side, if any.
    pub(super) fn known_record(
        &self,
        object: &Map<String, Value>,
        doc: Option<&str>,
    ) -> Option<String> {
        let doc = doc.map(str::to_owned);
        let structure = structure(object);
        self.open_input_by_side
            .get(&(self.side, structure.clone(), doc.clone()))
            .or_else(|| self.by_shape.get(&(structure, doc)))
            .cloned()
    }

    /// Notes that record `name` is declared for `object`: an `@open(input)` one under the
    /// structures it has on each side, any other under its one structure.
    pub(super) fn remember_record(
        &mut self,
        object: &Map<String, Value>,
        doc: Option<&str>,
        name: &str,
    ) {
        let doc = doc.map(str::to_owned);
        if !self.is_open_input(object) {
            self.by_shape
                .insert((structure(object), doc), name.to_owned());
            return;
        }
        self.open_input_by_side.insert(
            (Side::Input, structure(object), doc.clone()),
            name.to_owned(),
        );
        // Found from an output schema only where that schema is this one closed, and only
        // when nothing inside it would read otherwise there: no record of its own (each
        // side's records are told apart), no `$ref`, no property named "" (left out).
        let inside = object.get("properties").cloned().unwrap_or(Value::Null);
        if !has_record_or_ref(&inside)
            && !object
                .get("properties")
                .and_then(Value::as_object)
                .is_some_and(|p| p.contains_key(""))
        {
            let mut closed = object.clone();
            closed.insert("additionalProperties".into(), Value::Bool(false));
            self.open_input_by_side
                .insert((Side::Output, structure(&closed), doc), name.to_owned());
        }
    }

    /// Whether an object schema is declared `@open(input)`: a listing's input side, an object
    /// that takes any unknown member (no `additionalProperties`, or `true`).
    fn is_open_input(&self, object: &Map<String, Value>) -> bool {
        self.open_input
            && self.side == Side::Input
            && matches!(
                object.get("additionalProperties"),
                None | Some(Value::Bool(true))
            )
    }

    /// Writes the declaration of record `name` (already reserved) from its object schema.
    pub(super) fn record_body(
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
        let open_input = self.is_open_input(object);
        let mut open = object.get("additionalProperties") != Some(&Value::Bool(false));
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
        open |= fields.open;
        self.building.pop();
        // A reference to this record from inside it says nothing to the unions around it.
        if self.reached.is_some_and(|r| r >= self.building.len()) {
            self.reached = None;
        }
        let mut text = docs(doc, "");
        if open_input {
            text.push_str("@open(input)\n");
        } else if open {
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
            if wire.is_empty() {
                // `@json_name("")` is refused (E0302): no field can carry the name.
                self.gap(
                    at,
                    "a property named \"\" cannot be declared: left out, and the object takes unknown members (`@open`)",
                );
                out.open = true;
                continue;
            }
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
}

/// The fields of an object schema, written.
#[derive(Default)]
pub struct Fields {
    pub lines: Vec<String>,
    /// Every property's wire name is the camelCase of its snake_case name (and some have an
    /// upper-case letter): the record says `@rename_all("camelCase")`.
    pub camel: bool,
    pub shapes: BTreeMap<String, (String, Shape)>,
    /// A property was left out (its name is empty): the object must take unknown members
    /// (`@open`), or it would refuse what the schema accepts.
    pub open: bool,
}

/// Whether a schema holds an object schema with `properties` (a record) or a `$ref`.
fn has_record_or_ref(schema: &Value) -> bool {
    match schema {
        Value::Object(o) => {
            o.contains_key("$ref")
                || o.contains_key("properties")
                || o.values().any(has_record_or_ref)
        }
        Value::Array(items) => items.iter().any(has_record_or_ref),
        _ => false,
    }
}
