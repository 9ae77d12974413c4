//! Types of the model → JSON Schema (dialect 2020-12; a `$schema` key only where the tool's
//! `@schema_dialect` asks for one).
//!
//! [`input_schema`] and [`output_schema`] write one root schema each; records that cannot (or,
//! with hoisting, need not) be inline go to that root's `$defs`.

use std::collections::BTreeMap;

use serde_json::{Map, Value};
use toolidl::model::{
    Bounds, Constraints, DefKind, Field, Member, Model, Number, Primitive, Record, Returns, Type,
    TypeDef, Value as Literal,
};

use crate::fragment::{AdditionalProperties, Fragment};
use crate::hoist::{Cycles, Plan, TypeKey, find_record};
pub use crate::options::{SchemaError, SchemaOptions};

/// The `[-][d.]hh:mm:ss[.fffffff]` form of a duration (.NET's invariant `c` format): an
/// optional sign, optional days (at most 8 digits, as a TimeSpan has), hours 00-23, minutes
/// and seconds 00-59, and 1 to 7 fractional digits.
pub const DURATION_PATTERN: &str = r"^-?(\d{1,8}\.)?([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,7})?$";

/// The MIME type of a `ui://` resource (MCP Apps) when `@mime` does not say otherwise.
pub const MCP_APP_MIME: &str = "text/html;profile=mcp-app";

/// The `inputSchema` of a tool (a member of any kind: its parameters): always an object, inline, with `$defs` last when needed.
pub fn input_schema(
    model: &Model,
    tool: &Member,
    options: &SchemaOptions,
) -> Result<Value, SchemaError> {
    let cycles = Cycles::of(model)?;
    input_schema_with(model, &cycles, tool, options, &mut Vec::new())
}

/// The `outputSchema` of a tool: only for a record or map result (`T?` of those included,
/// still `"type":"object"`, because most protocol revisions require an object).
pub fn output_schema(
    model: &Model,
    tool: &Member,
    options: &SchemaOptions,
) -> Result<Option<Value>, SchemaError> {
    let cycles = Cycles::of(model)?;
    output_schema_with(model, &cycles, tool, options, &mut Vec::new())
}

/// A note for each record of `plan` whose `$defs` key got a numeric suffix.
fn note_suffixes(plan: &Plan, tool: &Member, schema: &str, notes: &mut Vec<String>) {
    for ((package, name), key) in plan.suffixed() {
        notes.push(format!(
            "tool `{}`: in its {schema}, record `{package}.{name}` is `$defs/{key}`, because another record of that schema is named `{name}`",
            tool.name
        ));
    }
}

pub(crate) fn input_schema_with(
    model: &Model,
    cycles: &Cycles,
    tool: &Member,
    options: &SchemaOptions,
    notes: &mut Vec<String>,
) -> Result<Value, SchemaError> {
    let roots: Vec<&Type> = tool.params.iter().map(|p| &p.ty).collect();
    let plan = Plan::for_root(model, cycles, &roots, options)?;
    note_suffixes(&plan, tool, "inputSchema", notes);
    let mut writer = Writer::new(model, plan, Direction::Input);
    let mut root = writer.object(&tool.params, None)?;
    if tool.tool().is_some_and(|t| t.open) {
        // `@open` on a tool: arguments it does not declare are accepted (and ignored).
        root.additional_properties = None;
    }
    root.dialect = dialect(tool);
    writer.finish(root)
}

pub(crate) fn output_schema_with(
    model: &Model,
    cycles: &Cycles,
    tool: &Member,
    options: &SchemaOptions,
    notes: &mut Vec<String>,
) -> Result<Option<Value>, SchemaError> {
    let Returns::Value { ty } = &tool.returns else {
        return Ok(None);
    };
    let ty = match ty {
        Type::Nullable { inner } => inner.as_ref(),
        other => other,
    };
    match ty {
        Type::Named {
            package,
            name,
            def: DefKind::Record,
        } => {
            let record = find_record(model, &(package.clone(), name.clone()))?;
            let roots: Vec<&Type> = record.fields.iter().map(|f| &f.ty).collect();
            let plan = Plan::for_root(model, cycles, &roots, options)?;
            note_suffixes(&plan, tool, "outputSchema", notes);
            let mut writer = Writer::new(model, plan, Direction::Output);
            let mut root = writer.record(record)?;
            root.dialect = dialect(tool);
            writer.finish(root).map(Some)
        }
        Type::Map { .. } => {
            let plan = Plan::for_root(model, cycles, &[ty], options)?;
            note_suffixes(&plan, tool, "outputSchema", notes);
            let mut writer = Writer::new(model, plan, Direction::Output);
            let mut root = writer.ty(ty)?;
            root.dialect = dialect(tool);
            writer.finish(root).map(Some)
        }
        _ => Ok(None),
    }
}

/// The `$schema` a tool's schemas state: its `@schema_dialect`, or its service's or file's.
fn dialect(tool: &Member) -> Option<String> {
    tool.tool().and_then(|t| t.schema_dialect.clone())
}

/// Which way the values of a schema flow: an `@open(input)` record is open in an input
/// schema and closed in an output schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Direction {
    Input,
    Output,
}

/// Writes the fragments of one root and collects the `$defs` they refer to.
struct Writer<'m> {
    model: &'m Model,
    plan: Plan,
    direction: Direction,
    /// Hoisted records referred to so far and not yet written.
    pending: Vec<(String, TypeKey)>,
    defs: BTreeMap<String, Option<Value>>,
}

impl<'m> Writer<'m> {
    fn new(model: &'m Model, plan: Plan, direction: Direction) -> Self {
        Writer {
            model,
            plan,
            direction,
            pending: Vec::new(),
            defs: BTreeMap::new(),
        }
    }

    /// Writes every referred `$defs` entry (keys sorted) and puts them last in the root.
    fn finish(mut self, mut root: Fragment) -> Result<Value, SchemaError> {
        while let Some((def_key, key)) = self.pending.pop() {
            let record = find_record(self.model, &key)?;
            let fragment = self.record(record)?;
            self.defs.insert(def_key, Some(fragment.into_value()));
        }
        if !self.defs.is_empty() {
            let defs: Map<String, Value> = self
                .defs
                .into_iter()
                .filter_map(|(key, value)| value.map(|value| (key, value)))
                .collect();
            root.defs = Some(defs);
        }
        Ok(root.into_value())
    }

    /// A closed object of `fields`, in declaration order, by wire name.
    fn object(
        &mut self,
        fields: &[Field],
        description: Option<&str>,
    ) -> Result<Fragment, SchemaError> {
        let mut properties = Vec::with_capacity(fields.len());
        let mut required = Vec::new();
        for field in fields {
            properties.push((field.json_name.clone(), self.field(field)?));
            if field.required {
                required.push(field.json_name.clone());
            }
        }
        Ok(Fragment {
            description: description.map(str::to_owned),
            properties: Some(properties),
            required,
            additional_properties: Some(AdditionalProperties::Closed),
            ..Fragment::of_type("object")
        })
    }

    fn record(&mut self, record: &Record) -> Result<Fragment, SchemaError> {
        let mut fragment = self.object(&record.fields, record.description.as_deref())?;
        if record.open || (record.open_input && self.direction == Direction::Input) {
            // `@open`: other members are allowed (and kept); `@open(input)`: allowed (and
            // ignored) where the record is read, refused where it is sent.
            fragment.additional_properties = None;
        }
        Ok(fragment)
    }

    /// A property: its type's fragment, then its own description, constraints and default.
    fn field(&mut self, field: &Field) -> Result<Fragment, SchemaError> {
        let mut fragment = self.ty(&field.ty)?;
        let base = match &field.ty {
            Type::Nullable { inner } => inner.as_ref(),
            other => other,
        };
        if let Some(description) = &field.description {
            fragment.description = Some(description.clone());
            // A documented enum's member list follows the field's own description too.
            if let Type::Named { package, name, .. } = base
                && let Some(TypeDef::Enum(e)) = self.model.lookup(package, name)
            {
                fragment.description = with_member_docs(fragment.description.take(), e);
            }
        }
        apply_constraints(&mut fragment, base, &field.constraints);
        if let Some(title) = &field.constraints.title {
            fragment.title = Some(title.clone());
        }
        fragment.deprecated = field.constraints.deprecated;
        if let Some(default) = field.default.as_ref() {
            fragment.default = default_value(self.model, &field.ty, default);
        }
        Ok(fragment)
    }

    fn ty(&mut self, ty: &Type) -> Result<Fragment, SchemaError> {
        Ok(match ty {
            Type::Primitive { name } => primitive(*name),
            Type::List { item, each } => Fragment {
                items: Some(Box::new(self.constrained(item, each)?)),
                ..Fragment::of_type("array")
            },
            Type::Set { item, each } => Fragment {
                items: Some(Box::new(self.constrained(item, each)?)),
                unique_items: true,
                ..Fragment::of_type("array")
            },
            Type::Map { value, each } => Fragment {
                additional_properties: Some(AdditionalProperties::Schema(Box::new(
                    self.constrained(value, each)?,
                ))),
                ..Fragment::of_type("object")
            },
            Type::Named { package, name, .. } => self.named(package, name)?,
            Type::Nullable { inner } => nullable(self.ty(inner)?),
        })
    }

    /// An item of a list, set or map, or a union variant: its type's fragment with the
    /// constraints of the named type it is (`items: {"type":"string","maxLength":32}`).
    fn constrained(&mut self, ty: &Type, each: &Constraints) -> Result<Fragment, SchemaError> {
        let mut fragment = self.ty(ty)?;
        let base = match ty {
            Type::Nullable { inner } => inner.as_ref(),
            other => other,
        };
        apply_constraints(&mut fragment, base, each);
        Ok(fragment)
    }

    fn named(&mut self, package: &str, name: &str) -> Result<Fragment, SchemaError> {
        let key = (package.to_owned(), name.to_owned());
        if let Some(def_key) = self.plan.key(&key) {
            let def_key = def_key.to_owned();
            if !self.defs.contains_key(&def_key) {
                // Reserve the key so each hoisted record is written once, cycles included.
                self.defs.insert(def_key.clone(), None);
                self.pending.push((def_key.clone(), key));
            }
            return Ok(Fragment::reference(format!("#/$defs/{def_key}")));
        }
        match self.model.lookup(package, name) {
            Some(TypeDef::Record(record)) => self.record(record),
            Some(TypeDef::Enum(e)) => Ok(Fragment {
                description: with_member_docs(e.description.clone(), e),
                enumeration: Some(e.variants.iter().map(|v| v.wire().into()).collect()),
                ..Fragment::of_type("string")
            }),
            Some(TypeDef::Union(u)) => self.union(u),
            // Named types are inlined: no `Type` names one.
            Some(TypeDef::Alias(_)) | None => Err(SchemaError::UnknownType {
                package: package.to_owned(),
                name: name.to_owned(),
            }),
        }
    }
}

/// `@document_members`: the description, then one line per member with its wire value and
/// doc comment (`- \`long-running\`: Runs for hours.`), so that a client that shows only
/// descriptions learns what each value means. Unchanged without the attribute.
fn with_member_docs(description: Option<String>, e: &toolidl::model::Enum) -> Option<String> {
    if !e.document_members {
        return description;
    }
    let mut text = description.unwrap_or_default();
    for v in &e.variants {
        if !text.is_empty() {
            text.push('\n');
        }
        let doc = v.doc.join(" ");
        let doc = doc.split_whitespace().collect::<Vec<_>>().join(" ");
        if doc.is_empty() {
            text.push_str(&format!("- `{}`", v.wire()));
        } else {
            text.push_str(&format!("- `{}`: {doc}", v.wire()));
        }
    }
    (!text.is_empty()).then_some(text)
}

impl Writer<'_> {
    /// A tagged union: `oneOf` its records, each with the tag property first
    /// (`{"const":"circle"}`) and required; an untagged one: `anyOf` its variants' types.
    fn union(&mut self, u: &toolidl::model::Union) -> Result<Fragment, SchemaError> {
        let mut branches = Vec::with_capacity(u.variants.len());
        for v in &u.variants {
            let mut branch = match (&u.tag, &v.ty) {
                (Some(tag), Type::Named { package, name, .. }) => {
                    let record = find_record(self.model, &(package.clone(), name.clone()))?;
                    let mut branch = self.record(record)?;
                    let tag_schema = Fragment {
                        constant: Some(v.name.clone().into()),
                        ..Fragment::of_type("string")
                    };
                    branch
                        .properties
                        .get_or_insert_with(Vec::new)
                        .insert(0, (tag.clone(), tag_schema));
                    branch.required.insert(0, tag.clone());
                    branch
                }
                _ => self.constrained(&v.ty, &v.constraints)?,
            };
            let doc = v.doc.join(" ");
            let doc = doc.split_whitespace().collect::<Vec<_>>().join(" ");
            if !doc.is_empty() {
                branch.description = Some(doc);
            }
            branches.push(branch);
        }
        Ok(if u.tag.is_some() {
            Fragment {
                description: u.description.clone(),
                one_of: Some(branches),
                ..Fragment::default()
            }
        } else {
            Fragment {
                description: u.description.clone(),
                any_of: Some(branches),
                ..Fragment::default()
            }
        })
    }
}

fn primitive(name: Primitive) -> Fragment {
    let string_with_format = |format| Fragment {
        format: Some(format),
        ..Fragment::of_type("string")
    };
    match name {
        Primitive::Bool => Fragment::of_type("boolean"),
        Primitive::I8
        | Primitive::I16
        | Primitive::I32
        | Primitive::I64
        | Primitive::U8
        | Primitive::U16
        | Primitive::U32
        | Primitive::U64 => {
            let (min, max) = integer_range(name).unwrap_or((i128::MIN, i128::MAX));
            Fragment {
                minimum: Some(integer_value(min)),
                maximum: Some(integer_value(max)),
                ..Fragment::of_type("integer")
            }
        }
        // Any integer: no bounds (what its Rust type cannot hold is refused when read).
        Primitive::Integer => Fragment::of_type("integer"),
        Primitive::F32 | Primitive::F64 => Fragment::of_type("number"),
        Primitive::String => Fragment::of_type("string"),
        Primitive::Char => Fragment {
            min_length: Some(1),
            max_length: Some(1),
            ..Fragment::of_type("string")
        },
        Primitive::Uuid => string_with_format("uuid"),
        Primitive::Datetime => string_with_format("date-time"),
        Primitive::Date => string_with_format("date"),
        Primitive::Time => string_with_format("time"),
        Primitive::Uri => string_with_format("uri"),
        Primitive::Duration => Fragment {
            pattern: Some(DURATION_PATTERN.to_owned()),
            ..Fragment::of_type("string")
        },
        Primitive::Bytes => Fragment {
            content_encoding: Some("base64"),
            ..Fragment::of_type("string")
        },
        Primitive::Json => Fragment::default(),
        Primitive::Object => Fragment::of_type("object"),
        Primitive::Array => Fragment::of_type("array"),
    }
}

/// The inclusive range of an integer primitive.
pub(crate) fn integer_range(name: Primitive) -> Option<(i128, i128)> {
    Some(match name {
        Primitive::I8 => (i8::MIN.into(), i8::MAX.into()),
        Primitive::I16 => (i16::MIN.into(), i16::MAX.into()),
        Primitive::I32 => (i32::MIN.into(), i32::MAX.into()),
        Primitive::I64 => (i64::MIN.into(), i64::MAX.into()),
        Primitive::U8 => (0, u8::MAX.into()),
        Primitive::U16 => (0, u16::MAX.into()),
        Primitive::U32 => (0, u32::MAX.into()),
        Primitive::U64 => (0, u64::MAX.into()),
        // Unbounded in the schema; the range of the `i128` it is read into.
        Primitive::Integer => (i128::MIN, i128::MAX),
        _ => return None,
    })
}

fn integer_value(n: i128) -> Value {
    if let Ok(n) = u64::try_from(n) {
        n.into()
    } else if let Ok(n) = i64::try_from(n) {
        n.into()
    } else {
        // Out of every integer type's range: not reachable from `integer_range`.
        Value::Null
    }
}

/// `T?`: `null` joins the type (and an enum's values); a `$ref` becomes an `anyOf`.
fn nullable(mut fragment: Fragment) -> Fragment {
    if let Some(reference) = fragment.reference.take() {
        return Fragment {
            description: fragment.description.take(),
            any_of: Some(vec![
                Fragment::reference(reference),
                Fragment::of_type("null"),
            ]),
            ..Fragment::default()
        };
    }
    // A union: one more alternative.
    if let Some(branches) = fragment.one_of.as_mut().or(fragment.any_of.as_mut()) {
        branches.push(Fragment::of_type("null"));
        return fragment;
    }
    if !fragment.has_type() {
        // `json` already accepts null.
        return fragment;
    }
    fragment.ty = match fragment.ty.take() {
        Some(Value::String(ty)) => Some(Value::Array(vec![ty.into(), "null".into()])),
        other => other,
    };
    if let Some(values) = &mut fragment.enumeration {
        values.push(Value::Null);
    }
    fragment
}

fn apply_constraints(fragment: &mut Fragment, base: &Type, constraints: &Constraints) {
    if let Some(range) = &constraints.range {
        apply_range(fragment, base, range);
    }
    if let Some(Bounds { min, max }) = &constraints.exclusive {
        fragment.exclusive_minimum = min.map(number_value);
        fragment.exclusive_maximum = max.map(number_value);
    }
    if let Some(Bounds { min, max }) = constraints.length {
        if matches!(base, Type::List { .. } | Type::Set { .. }) {
            fragment.min_items = min.or(fragment.min_items);
            fragment.max_items = max.or(fragment.max_items);
        } else {
            fragment.min_length = tighter(fragment.min_length, min, u64::max);
            fragment.max_length = tighter(fragment.max_length, max, u64::min);
        }
    }
    if let Some(pattern) = &constraints.pattern {
        // A duration keeps its own pattern: it is what makes the string a duration.
        if fragment.pattern.is_none() {
            fragment.pattern = Some(pattern.clone());
        }
    }
    if fragment.format.is_none() {
        if constraints.email {
            fragment.format = Some("email");
        } else if constraints.url {
            fragment.format = Some("uri");
        }
    }
}

fn tighter(current: Option<u64>, new: Option<u64>, pick: fn(u64, u64) -> u64) -> Option<u64> {
    match (current, new) {
        (Some(a), Some(b)) => Some(pick(a, b)),
        (a, b) => a.or(b),
    }
}

/// `@range`: on an integer type, intersected with the type's own range; else as written.
fn apply_range(fragment: &mut Fragment, base: &Type, range: &Bounds<Number>) {
    let own = match base {
        Type::Primitive { name } => integer_range(*name),
        _ => None,
    };
    let Some((low, high)) = own else {
        if let Some(min) = range.min {
            fragment.minimum = Some(number_value(min));
        }
        if let Some(max) = range.max {
            fragment.maximum = Some(number_value(max));
        }
        return;
    };
    if let Some(min) = range.min
        && compare(min, low).is_gt()
    {
        fragment.minimum = Some(clamp(min, low, high));
    }
    if let Some(max) = range.max
        && compare(max, high).is_lt()
    {
        fragment.maximum = Some(clamp(max, low, high));
    }
}

/// Compares a bound with an end of an integer range, exactly for integer bounds.
fn compare(bound: Number, end: i128) -> std::cmp::Ordering {
    match exact_integer(bound) {
        Some(n) => n.cmp(&end),
        None => as_f64(bound)
            .partial_cmp(&(end as f64))
            .unwrap_or(std::cmp::Ordering::Equal),
    }
}

fn exact_integer(n: Number) -> Option<i128> {
    match n {
        Number::UInt(n) => Some(i128::from(n)),
        Number::Int(n) => Some(i128::from(n)),
        Number::Float(_) => None,
    }
}

/// A bound inside `[low, high]` as written, else the nearer end of the type's range.
fn clamp(bound: Number, low: i128, high: i128) -> Value {
    match exact_integer(bound) {
        Some(n) => integer_value(n.clamp(low, high)),
        None if compare(bound, low).is_lt() => integer_value(low),
        None if compare(bound, high).is_gt() => integer_value(high),
        None => number_value(bound),
    }
}

fn as_f64(n: Number) -> f64 {
    match n {
        Number::UInt(n) => n as f64,
        Number::Int(n) => n as f64,
        Number::Float(f) => f,
    }
}

fn number_value(n: Number) -> Value {
    match n {
        Number::UInt(n) => n.into(),
        Number::Int(n) => n.into(),
        // A non-finite float has no JSON form; the resolver does not produce one.
        Number::Float(f) => serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number),
    }
}

/// A declared default as JSON; `= null` writes nothing.
fn default_value(model: &Model, ty: &Type, literal: &Literal) -> Option<Value> {
    match literal {
        Literal::Null => None,
        other => Some(json_value(model, ty, other)),
    }
}

/// A literal of type `ty` as JSON: a record's fields by their wire names.
fn json_value(model: &Model, ty: &Type, literal: &Literal) -> Value {
    let item = match ty {
        Type::Nullable { inner } => return json_value(model, inner, literal),
        Type::List { item, .. } | Type::Set { item, .. } => Some(item.as_ref()),
        Type::Map { value, .. } => Some(value.as_ref()),
        _ => None,
    };
    let json = Type::Primitive {
        name: Primitive::Json,
    };
    let item = item.unwrap_or(&json);
    match literal {
        Literal::Null => Value::Null,
        Literal::Bool(b) => (*b).into(),
        Literal::Number(n) => number_value(*n),
        Literal::String(s) => s.clone().into(),
        Literal::Char(c) => c.to_string().into(),
        Literal::Enum(member) => match ty {
            Type::Named { package, name, .. } => match model.lookup(package, name) {
                Some(TypeDef::Enum(e)) => e
                    .variants
                    .iter()
                    .find(|v| &v.name == member)
                    .map_or(member.as_str(), |v| v.wire())
                    .into(),
                _ => member.clone().into(),
            },
            _ => member.clone().into(),
        },
        Literal::List(items) => {
            Value::Array(items.iter().map(|v| json_value(model, item, v)).collect())
        }
        Literal::Map(entries) => Value::Object(
            entries
                .iter()
                .map(|e| (e.key.clone(), json_value(model, item, &e.value)))
                .collect(),
        ),
        Literal::Union { variant, value } => {
            let variant_ty = match ty {
                Type::Named { package, name, .. } => match model.lookup(package, name) {
                    Some(TypeDef::Union(u)) => u
                        .variants
                        .iter()
                        .find(|v| &v.name == variant)
                        .map(|v| &v.ty),
                    _ => None,
                },
                _ => None,
            };
            json_value(model, variant_ty.unwrap_or(&json), value)
        }
        Literal::Record(entries) => {
            let fields = match ty {
                Type::Named { package, name, .. } => match model.lookup(package, name) {
                    Some(TypeDef::Record(r)) => r.fields.as_slice(),
                    _ => &[],
                },
                _ => &[],
            };
            Value::Object(
                entries
                    .iter()
                    .map(|e| match fields.iter().find(|f| f.name == e.key) {
                        Some(f) => (f.json_name.clone(), json_value(model, &f.ty, &e.value)),
                        None => (e.key.clone(), json_value(model, &json, &e.value)),
                    })
                    .collect(),
            )
        }
    }
}
