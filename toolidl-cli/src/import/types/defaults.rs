//! Defaults: a JSON value written as a literal of the imported type, when it is one the
//! compiler accepts.

use serde_json::Value;

use super::{FieldType, Shape, Types, names};

impl Types {
    /// Why the language refuses `literal` as the default of a field of type `ty` (not a value
    /// of the type, outside its constraints, not in its format: E0501 to E0504), if it does:
    /// asked of the compiler, on a record of that one field after the declarations so far.
    pub(super) fn default_problem(&self, ty: &FieldType, literal: &str) -> Option<String> {
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
        super::super::refusal(text, &["E0501", "E0502", "E0503", "E0504"])
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

/// Whether `value` is one `schema` accepts, as far as the language checks a default (its
/// format, length, bounds, enum members): one that is not is left out, as the compiler
/// would refuse it.
pub(super) fn default_fits(schema: &Value, value: &Value) -> bool {
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
