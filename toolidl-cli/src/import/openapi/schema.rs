//! OpenAPI Schema Objects → the JSON Schema the listing importer reads ([`super::super::types`]).
//!
//! What OpenAPI says in its own words becomes the JSON Schema that says the same:
//! `nullable: true` (3.0) a `"null"` type, boolean `exclusiveMinimum` (3.0) a number,
//! `format: int32`/`int64` the integer bounds, `format: byte` base64, `example`/`examples` a
//! line of the description, `allOf` of objects one object, `oneOf`/`anyOf` with a
//! `discriminator` records told apart by a `const` tag, component references `$defs`
//! references. `readOnly` members are left out of requests and `writeOnly` ones out of
//! responses, so a component with either has two forms: the response's keeps the
//! component's name, the request's is named `…Input`. Every schema object handed over carries
//! its JSON pointer in the document ([`POINTER`]), which warnings name.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value, json};

use super::document::{escape, resolve};
use crate::import::types::POINTER;

/// Which way a schema is used: what an agent sends, or what the API answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Request,
    Response,
}

const COMPONENTS: &str = "#/components/schemas/";

/// The document's component schemas, translated in both modes: `$defs` for every root.
pub struct Schemas<'a> {
    document: &'a Value,
    /// The components whose request form differs from their response form (a `readOnly` or
    /// `writeOnly` member, themselves or in a component they use).
    differs: BTreeSet<String>,
    /// Component key → the `$defs` key of its request form.
    input_names: BTreeMap<String, String>,
    /// Every form, by `$defs` key.
    pub defs: Map<String, Value>,
    /// The components whose branches of a discriminated union are being read.
    discriminating: RefCell<Vec<String>>,
}

impl<'a> Schemas<'a> {
    pub fn new(document: &'a Value) -> Schemas<'a> {
        let components = document
            .pointer("/components/schemas")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        let mut schemas = Schemas {
            document,
            differs: BTreeSet::new(),
            input_names: BTreeMap::new(),
            defs: Map::new(),
            discriminating: RefCell::new(Vec::new()),
        };
        // A component differs when it marks a member itself, or uses one that differs.
        let mut uses: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (key, schema) in &components {
            if marks_members(schema) {
                schemas.differs.insert(key.clone());
            }
            let mut refs = BTreeSet::new();
            component_refs(schema, &mut refs);
            uses.insert(key.clone(), refs);
        }
        loop {
            let before = schemas.differs.len();
            for (key, refs) in &uses {
                if refs.iter().any(|r| schemas.differs.contains(r)) {
                    schemas.differs.insert(key.clone());
                }
            }
            if schemas.differs.len() == before {
                break;
            }
        }
        for key in &schemas.differs {
            let mut name = format!("{key}Input");
            let mut n = 2;
            while components.contains_key(&name) {
                name = format!("{key}Input{n}");
                n += 1;
            }
            schemas.input_names.insert(key.clone(), name);
        }
        for (key, schema) in &components {
            let pointer = format!("{COMPONENTS}{}", escape(key));
            let response = schemas.normalize(schema, Mode::Response, &pointer);
            schemas.defs.insert(key.clone(), response);
            if let Some(input) = schemas.input_names.get(key).cloned() {
                let request = schemas.normalize(schema, Mode::Request, &pointer);
                schemas.defs.insert(input, request);
            }
        }
        schemas
    }

    /// `root` with the `$defs` it uses (and those they use), as the importer reads a root.
    pub fn rooted(&self, mut root: Value) -> Value {
        let mut needed = BTreeSet::new();
        let mut queue = Vec::new();
        defs_refs(&root, &mut queue);
        while let Some(key) = queue.pop() {
            if needed.insert(key.clone())
                && let Some(def) = self.defs.get(&key)
            {
                defs_refs(def, &mut queue);
            }
        }
        if !needed.is_empty()
            && let Some(object) = root.as_object_mut()
        {
            let defs: Map<String, Value> = needed
                .into_iter()
                .filter_map(|k| self.defs.get(&k).map(|d| (k, d.clone())))
                .collect();
            object.insert("$defs".into(), Value::Object(defs));
        }
        root
    }

    /// The `$defs` entry a reference to component `key` names in `mode`.
    fn def_name(&self, key: &str, mode: Mode) -> String {
        match (mode, self.input_names.get(key)) {
            (Mode::Request, Some(input)) => input.clone(),
            _ => key.to_owned(),
        }
    }

    /// `schema` (at `pointer` in the document) as JSON Schema for `mode`.
    pub fn normalize(&self, schema: &Value, mode: Mode, pointer: &str) -> Value {
        self.normalize_depth(schema, mode, pointer, 0)
    }

    fn normalize_depth(&self, schema: &Value, mode: Mode, pointer: &str, depth: usize) -> Value {
        let Some(object) = schema.as_object() else {
            return schema.clone();
        };
        if depth > 64 {
            return json!({});
        }
        let sub = |value: &Value, path: &str| {
            self.normalize_depth(value, mode, &format!("{pointer}/{path}"), depth + 1)
        };
        let mut out = Map::new();
        out.insert(POINTER.into(), Value::from(pointer));
        if let Some(reference) = object.get("$ref").and_then(Value::as_str) {
            let target = if let Some(key) = reference.strip_prefix(COMPONENTS) {
                let key = unescape(key);
                json!({"$ref": format!("#/$defs/{}", self.def_name(&key, mode))})
            } else if reference.starts_with('#') {
                // Another local reference: what it points at, inline.
                match resolve(self.document, schema) {
                    Some((target, at)) => {
                        let at = if at.is_empty() {
                            pointer.to_owned()
                        } else {
                            at
                        };
                        self.normalize_depth(target, mode, &at, depth + 1)
                    }
                    None => json!({"$ref": reference}),
                }
            } else {
                json!({"$ref": reference})
            };
            let mut target = target;
            if let Some(t) = target.as_object_mut() {
                t.entry(POINTER).or_insert_with(|| Value::from(pointer));
            }
            let description = self.describe(object);
            let nullable = object.get("nullable") == Some(&Value::Bool(true));
            let mut wrapped = if nullable {
                json!({"anyOf": [target, {"type": "null"}]})
            } else {
                target
            };
            if let Some(w) = wrapped.as_object_mut() {
                if let Some(d) = description {
                    w.insert("description".into(), Value::from(d));
                }
                for key in ["title", "deprecated", "default"] {
                    if let Some(v) = object.get(key) {
                        w.insert(key.into(), v.clone());
                    }
                }
                if nullable {
                    w.insert(POINTER.into(), Value::from(pointer));
                }
            }
            return wrapped;
        }
        if let Some(branches) = object.get("allOf").and_then(Value::as_array)
            && let Some(merged) = self.merge_all_of(object, branches, mode, pointer, depth)
        {
            return merged;
        }
        for (key, value) in object {
            match key.as_str() {
                _ if key.starts_with("x-") => {}
                "example" | "examples" | "xml" | "externalDocs" | "nullable" | "readOnly"
                | "writeOnly" | "discriminator" => {}
                "description" => {}
                "exclusiveMinimum" | "exclusiveMaximum" if value.is_boolean() => {}
                "format" => match value.as_str() {
                    Some("int32" | "int64" | "float" | "double" | "password") => {}
                    Some("byte") => {
                        out.insert("contentEncoding".into(), Value::from("base64"));
                    }
                    Some("binary") => {}
                    _ => {
                        out.insert(key.clone(), value.clone());
                    }
                },
                "properties" => {
                    let mut properties = Map::new();
                    for (name, property) in value.as_object().into_iter().flatten() {
                        if !member_in_mode(property, mode) {
                            continue;
                        }
                        properties.insert(
                            name.clone(),
                            sub(property, &format!("properties/{}", escape(name))),
                        );
                    }
                    out.insert(key.clone(), Value::Object(properties));
                }
                "items"
                | "additionalProperties"
                | "not"
                | "contains"
                | "propertyNames"
                | "if"
                | "then"
                | "else"
                | "unevaluatedItems"
                | "unevaluatedProperties"
                    if value.is_object() =>
                {
                    out.insert(key.clone(), sub(value, key));
                }
                "patternProperties" | "dependentSchemas" => {
                    let mut map = Map::new();
                    for (name, schema) in value.as_object().into_iter().flatten() {
                        map.insert(
                            name.clone(),
                            sub(schema, &format!("{key}/{}", escape(name))),
                        );
                    }
                    out.insert(key.clone(), Value::Object(map));
                }
                "allOf" | "anyOf" | "oneOf" | "prefixItems" => {
                    let items: Vec<Value> = value
                        .as_array()
                        .into_iter()
                        .flatten()
                        .enumerate()
                        .map(|(i, b)| sub(b, &format!("{key}/{i}")))
                        .collect();
                    out.insert(key.clone(), Value::Array(items));
                }
                _ => {
                    out.insert(key.clone(), value.clone());
                }
            }
        }
        // `required` without the members this mode leaves out.
        if let Some(Value::Array(required)) = out.get_mut("required") {
            let properties = object.get("properties").and_then(Value::as_object);
            required.retain(|name| {
                name.as_str()
                    .and_then(|n| properties.and_then(|p| p.get(n)))
                    .is_none_or(|p| member_in_mode(p, mode))
            });
            if required.is_empty() {
                out.remove("required");
            }
        }
        self.numbers(object, &mut out);
        if !out.contains_key("type") {
            if out.contains_key("properties") || out.contains_key("additionalProperties") {
                out.insert("type".into(), Value::from("object"));
            } else if out.contains_key("items") {
                out.insert("type".into(), Value::from("array"));
            }
        }
        if object.get("nullable") == Some(&Value::Bool(true)) {
            nullable(&mut out);
        }
        if let Some(description) = self.describe(object) {
            out.insert("description".into(), Value::from(description));
        }
        if let Some(discriminator) = object.get("discriminator") {
            self.discriminate(&mut out, discriminator, mode, pointer);
        }
        // The pointer last; none on `{"type": "null"}`, which the importer reads as "nullable"
        // only when it stands alone.
        if let Some(p) = out.shift_remove(POINTER)
            && !(out.len() == 1 && out.get("type") == Some(&Value::from("null")))
        {
            out.insert(POINTER.into(), p);
        }
        Value::Object(out)
    }

    /// The description, with the examples after it.
    fn describe(&self, object: &Map<String, Value>) -> Option<String> {
        let description = object
            .get("description")
            .and_then(Value::as_str)
            .map(str::trim_end);
        let example = object.get("example").or_else(|| {
            object
                .get("examples")
                .and_then(Value::as_array)
                .and_then(|e| e.first())
        });
        examples_line(description, example)
    }

    /// `format: int32`/`int64` as the bounds they are, 3.0's boolean exclusive bounds as
    /// 2020-12's numbers.
    fn numbers(&self, object: &Map<String, Value>, out: &mut Map<String, Value>) {
        for (flag, bound) in [
            ("exclusiveMinimum", "minimum"),
            ("exclusiveMaximum", "maximum"),
        ] {
            if object.get(flag) == Some(&Value::Bool(true))
                && let Some(value) = out.remove(bound)
            {
                out.insert(flag.into(), value);
            }
        }
        let (lo, hi): (i64, i64) = match object.get("format").and_then(Value::as_str) {
            Some("int32") => (i32::MIN.into(), i32::MAX.into()),
            Some("int64") => (i64::MIN, i64::MAX),
            _ => return,
        };
        let is_integer = match out.get("type") {
            Some(Value::String(t)) => t == "integer",
            Some(Value::Array(ts)) => ts.iter().any(|t| t == "integer"),
            _ => false,
        };
        if !is_integer {
            return;
        }
        // A bound the schema gives that is tighter than the format's stays.
        let keeps = |out: &Map<String, Value>, key: &str, bound: i64, pick: fn(f64, f64) -> f64| {
            out.get(key)
                .and_then(Value::as_f64)
                .is_some_and(|v| pick(v, bound as f64) == v)
        };
        if !keeps(out, "minimum", lo, f64::max) && !out.contains_key("exclusiveMinimum") {
            out.insert("minimum".into(), Value::from(lo));
        }
        if !keeps(out, "maximum", hi, f64::min) && !out.contains_key("exclusiveMaximum") {
            out.insert("maximum".into(), Value::from(hi));
        }
    }

    /// `allOf` whose branches are objects (directly or by reference) that leave extra members
    /// open and do not give one member two schemas: one object with every member and every
    /// `required`. `None` when they cannot be merged exactly (then `allOf` is reported).
    fn merge_all_of(
        &self,
        object: &Map<String, Value>,
        branches: &[Value],
        mode: Mode,
        pointer: &str,
        depth: usize,
    ) -> Option<Value> {
        // `allOf: [{$ref}]` with a description beside it: the reference, described.
        if let [only] = branches
            && only.get("$ref").is_some()
            && object.keys().all(|k| {
                [
                    "allOf",
                    "description",
                    "title",
                    "nullable",
                    "deprecated",
                    "example",
                    "default",
                ]
                .contains(&k.as_str())
                    || k.starts_with("x-")
            })
        {
            let mut single = object.clone();
            single.remove("allOf");
            if let Some(Value::Object(reference)) =
                only.as_object().map(|o| Value::Object(o.clone()))
            {
                single.extend(reference);
            }
            return Some(self.normalize_depth(
                &Value::Object(single),
                mode,
                &format!("{pointer}/allOf/0"),
                depth + 1,
            ));
        }
        let mut properties = Map::new();
        let mut required: Vec<Value> = Vec::new();
        let mut parts: Vec<(Value, String)> = Vec::new();
        for (i, branch) in branches.iter().enumerate() {
            let (target, at) = resolve(self.document, branch)?;
            let at = if at.is_empty() {
                format!("{pointer}/allOf/{i}")
            } else {
                at
            };
            parts.push((target.clone(), at));
        }
        let mut own = object.clone();
        own.remove("allOf");
        let own_has_members = own.contains_key("properties") || own.contains_key("required");
        if own_has_members {
            parts.push((Value::Object(own.clone()), pointer.to_owned()));
        }
        for (part, at) in &parts {
            // A part that is itself an `allOf`: merged first.
            let part = self.normalize_depth(part, mode, at, depth + 1);
            let part = part.as_object()?;
            let is_object = part.get("type").and_then(Value::as_str) == Some("object");
            let only_object_keywords = part.keys().all(|k| {
                [
                    "type",
                    "properties",
                    "required",
                    "description",
                    "title",
                    POINTER,
                    "$defs",
                ]
                .contains(&k.as_str())
            });
            if !is_object || !only_object_keywords {
                return None;
            }
            for (name, schema) in part
                .get("properties")
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
            {
                let merged = match properties.get(name) {
                    Some(existing) => combine(existing, schema)?,
                    None => schema.clone(),
                };
                properties.insert(name.clone(), merged);
            }
            for name in part
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if !required.contains(name) {
                    required.push(name.clone());
                }
            }
        }
        let mut merged = Map::new();
        merged.insert("type".into(), Value::from("object"));
        if let Some(title) = object.get("title") {
            merged.insert("title".into(), title.clone());
        }
        if let Some(description) = self.describe(object) {
            merged.insert("description".into(), Value::from(description));
        }
        merged.insert("properties".into(), Value::Object(properties));
        if !required.is_empty() {
            merged.insert("required".into(), Value::Array(required));
        }
        if object.get("nullable") == Some(&Value::Bool(true)) {
            nullable(&mut merged);
        }
        merged.insert(POINTER.into(), Value::from(pointer));
        Some(Value::Object(merged))
    }

    /// `oneOf`/`anyOf` of component references with a `discriminator`: each branch the
    /// component's members, its tag member a `const` of the branch's value, first and
    /// required, as the importer reads a tagged union.
    fn discriminate(
        &self,
        out: &mut Map<String, Value>,
        discriminator: &Value,
        mode: Mode,
        pointer: &str,
    ) {
        let Some(property) = discriminator.get("propertyName").and_then(Value::as_str) else {
            return;
        };
        let keyword = if out.contains_key("oneOf") {
            "oneOf"
        } else if out.contains_key("anyOf") {
            "anyOf"
        } else {
            // A discriminator on a base schema (inheritance through `allOf`): it says how to
            // pick a subtype, and checks nothing of its own here.
            return;
        };
        let mapping: Vec<(String, String)> = discriminator
            .get("mapping")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .filter_map(|(value, target)| Some((value.clone(), target.as_str()?.to_owned())))
            .collect();
        let Some(Value::Array(branches)) = out.get(keyword) else {
            return;
        };
        let mut tagged = Vec::new();
        for branch in branches {
            let Some(reference) = branch.get("$ref").and_then(Value::as_str) else {
                out.insert("discriminator".into(), discriminator.clone());
                return;
            };
            let Some(key) = reference.strip_prefix("#/$defs/") else {
                out.insert("discriminator".into(), discriminator.clone());
                return;
            };
            let component = self
                .input_names
                .iter()
                .find(|(_, input)| *input == key)
                .map_or(key, |(component, _)| component.as_str());
            let value = mapping
                .iter()
                .find(|(_, target)| {
                    target.strip_prefix(COMPONENTS).map(unescape).as_deref() == Some(component)
                        || target == component
                })
                .map_or(component.to_owned(), |(value, _)| value.clone());
            // The component as this mode sees it, unless it is being told apart already (a
            // branch that refers back to its union through `allOf`).
            let at = format!("{COMPONENTS}{}", escape(component));
            let raw = self
                .document
                .pointer(&format!("/components/schemas/{}", escape(component)));
            let entered = self.discriminating.borrow().contains(&at);
            let (Some(raw), false) = (raw, entered) else {
                out.insert("discriminator".into(), discriminator.clone());
                return;
            };
            self.discriminating.borrow_mut().push(at.clone());
            let def = self.normalize(raw, mode, &at);
            self.discriminating.borrow_mut().pop();
            let Value::Object(mut def) = def else {
                out.insert("discriminator".into(), discriminator.clone());
                return;
            };
            let mut properties = Map::new();
            properties.insert(
                property.into(),
                json!({"type": "string", "const": value, POINTER: format!("{pointer}/discriminator")}),
            );
            for (name, schema) in def
                .get("properties")
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
            {
                if name != property {
                    properties.insert(name.clone(), schema.clone());
                }
            }
            def.insert("type".into(), Value::from("object"));
            def.insert("properties".into(), Value::Object(properties));
            let mut required = vec![Value::from(property)];
            for name in def
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if name != property {
                    required.push(name.clone());
                }
            }
            def.insert("required".into(), Value::Array(required));
            tagged.push(Value::Object(def));
        }
        out.insert(keyword.into(), Value::Array(tagged));
    }
}

/// Whether a member is sent in `mode`: `readOnly` ones are not sent in requests, `writeOnly`
/// ones not in responses.
fn member_in_mode(property: &Value, mode: Mode) -> bool {
    let flag = match mode {
        Mode::Request => "readOnly",
        Mode::Response => "writeOnly",
    };
    property.get(flag) != Some(&Value::Bool(true))
}

/// Whether a schema marks a member (not crossing component references) `readOnly` or
/// `writeOnly`.
fn marks_members(schema: &Value) -> bool {
    match schema {
        Value::Object(o) => {
            let marked = o
                .get("properties")
                .and_then(Value::as_object)
                .is_some_and(|p| {
                    p.values().any(|m| {
                        m.get("readOnly") == Some(&Value::Bool(true))
                            || m.get("writeOnly") == Some(&Value::Bool(true))
                    })
                });
            marked || o.iter().any(|(k, v)| k != "$ref" && marks_members(v))
        }
        Value::Array(items) => items.iter().any(marks_members),
        _ => false,
    }
}

/// The component keys a schema references.
fn component_refs(schema: &Value, out: &mut BTreeSet<String>) {
    match schema {
        Value::Object(o) => {
            if let Some(key) = o
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix(COMPONENTS))
            {
                out.insert(unescape(key));
            }
            o.values().for_each(|v| component_refs(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| component_refs(v, out)),
        _ => {}
    }
}

/// The `$defs` keys a translated schema references.
fn defs_refs(schema: &Value, out: &mut Vec<String>) {
    match schema {
        Value::Object(o) => {
            if let Some(key) = o
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix("#/$defs/"))
            {
                out.push(key.to_owned());
            }
            o.iter()
                .filter(|(k, _)| *k != "$defs")
                .for_each(|(_, v)| defs_refs(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| defs_refs(v, out)),
        _ => {}
    }
}

/// A pointer segment's `~1` and `~0` undone.
fn unescape(segment: &str) -> String {
    segment.replace("~1", "/").replace("~0", "~")
}

/// `"null"` added to what a schema accepts.
fn nullable(out: &mut Map<String, Value>) {
    match out.get_mut("type") {
        Some(Value::String(t)) => {
            let t = std::mem::take(t);
            out.insert("type".into(), json!([t, "null"]));
        }
        Some(Value::Array(types)) if !types.iter().any(|t| t == "null") => {
            types.push(Value::from("null"));
        }
        _ => {}
    }
    if let Some(Value::Array(values)) = out.get_mut("enum")
        && !values.contains(&Value::Null)
    {
        values.push(Value::Null);
    }
}

/// One schema that accepts what both `a` and `b` accept (what `allOf` of a member given
/// twice means), where it is simple to say: either is `{}`, they are the same, or they are
/// arrays whose items combine, or objects whose members do. `None` otherwise.
fn combine(a: &Value, b: &Value) -> Option<Value> {
    let (sa, sb) = (strip(a), strip(b));
    let bare = |s: &Value| {
        s.as_object()
            .is_some_and(|o| o.keys().all(|k| k == "description" || k == "title"))
    };
    if bare(&sb) || sa == sb {
        return Some(a.clone());
    }
    if bare(&sa) {
        return Some(b.clone());
    }
    // Any object, and a reference (to a component, which is an object here): the reference.
    let any_object = |s: &Value| {
        s.as_object().is_some_and(|o| {
            o.get("type") == Some(&Value::from("object"))
                && o.keys()
                    .all(|k| ["type", "description", "title"].contains(&k.as_str()))
        })
    };
    if any_object(&sa) && b.get("$ref").is_some() {
        return Some(b.clone());
    }
    if any_object(&sb) && a.get("$ref").is_some() {
        return Some(a.clone());
    }
    let kind = |s: &Value| s.get("type").and_then(Value::as_str).map(str::to_owned);
    let (oa, ob) = (a.as_object()?, b.as_object()?);
    match (kind(&sa).as_deref(), kind(&sb).as_deref()) {
        (Some("array"), Some("array")) => {
            let others = |o: &Map<String, Value>| {
                o.keys().all(|k| {
                    ["type", "items", "description", "title", POINTER].contains(&k.as_str())
                })
            };
            if !others(oa) || !others(ob) {
                return None;
            }
            let items = match (oa.get("items"), ob.get("items")) {
                (Some(x), Some(y)) => combine(x, y)?,
                (Some(x), None) | (None, Some(x)) => x.clone(),
                (None, None) => return Some(a.clone()),
            };
            let mut out = oa.clone();
            out.insert("items".into(), items);
            Some(Value::Object(out))
        }
        (Some("object"), Some("object")) => {
            let simple = |o: &Map<String, Value>| {
                o.keys().all(|k| {
                    [
                        "type",
                        "properties",
                        "required",
                        "description",
                        "title",
                        POINTER,
                    ]
                    .contains(&k.as_str())
                })
            };
            if !simple(oa) || !simple(ob) {
                return None;
            }
            let mut properties = oa
                .get("properties")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default();
            for (name, schema) in ob
                .get("properties")
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
            {
                let merged = match properties.get(name) {
                    Some(existing) => combine(existing, schema)?,
                    None => schema.clone(),
                };
                properties.insert(name.clone(), merged);
            }
            let mut required: Vec<Value> = oa
                .get("required")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            for name in ob
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if !required.contains(name) {
                    required.push(name.clone());
                }
            }
            let mut out = oa.clone();
            out.insert("properties".into(), Value::Object(properties));
            if !required.is_empty() {
                out.insert("required".into(), Value::Array(required));
            }
            Some(Value::Object(out))
        }
        _ => None,
    }
}

/// The schema without the pointers written in it, to compare two.
fn strip(value: &Value) -> Value {
    match value {
        Value::Object(o) => Value::Object(
            o.iter()
                .filter(|(k, _)| *k != POINTER)
                .map(|(k, v)| (k.clone(), strip(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(strip).collect()),
        other => other.clone(),
    }
}

/// A description followed by its example (`Example: \`available\``).
pub fn examples_line(description: Option<&str>, example: Option<&Value>) -> Option<String> {
    let example = example.map(|e| match e {
        Value::String(s) => format!("Example: `{s}`."),
        other => format!("Example: `{other}`."),
    });
    match (description.filter(|d| !d.is_empty()), example) {
        (Some(d), Some(e)) => Some(format!("{d}\n\n{e}")),
        (Some(d), None) => Some(d.to_owned()),
        (None, Some(e)) => Some(e),
        (None, None) => None,
    }
}
