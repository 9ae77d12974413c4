//! Defaults: a JSON value written as a literal of the imported type, when it is one the
//! compiler accepts.

use std::collections::BTreeSet;

use serde_json::Value;

use super::{FieldType, Shape, Types, names};

impl Types {
    /// Why the language refuses `literal` as the default of a field of type `ty` (not a value
    /// of the type, outside its constraints, not in its format: E0501 to E0504), if it does:
    /// asked of the compiler, on a record of that one field after the declarations it needs.
    pub(super) fn default_problem(&mut self, ty: &FieldType, literal: &str) -> Option<String> {
        // `type_name` never makes a name with `_`: no declaration has this one.
        let probe = format!(
            "record Probe_Default {{\n    {} x: {} = {literal},\n}}\n",
            ty.attrs.join(" "),
            ty.expr
        );
        if let Some(answer) = self.probes.get(&probe) {
            return answer.clone();
        }
        // Only the declarations the field's type reaches: compiling every declaration so far
        // for each default made importing a large document quadratic (GitHub's: minutes).
        let mut text = String::from("package probe;\n\n");
        for i in self.reached_decls(&probe) {
            text.push_str(&self.decls[i]);
            text.push_str("\n\n");
        }
        text.push_str(&probe);
        let answer = super::super::refusal(
            text,
            &[
                "E0501", "E0502", "E0503", "E0504", "E0506", "E0507", "E0508",
            ],
        );
        // A declared name means one declaration for the whole import: the answer holds.
        self.probes.insert(probe, answer.clone());
        answer
    }

    /// The indices (in order) of the declarations `text` names, and those they name in turn.
    fn reached_decls(&mut self, text: &str) -> Vec<usize> {
        for i in self.decl_names.len()..self.decls.len() {
            let name = declared_name(&self.decls[i]).unwrap_or_default().to_owned();
            self.decl_index.entry(name.clone()).or_insert(i);
            self.decl_names.push(name);
        }
        let mut reached = BTreeSet::new();
        let mut queue: Vec<&str> = words(text).collect();
        while let Some(word) = queue.pop() {
            if let Some(&i) = self.decl_index.get(word)
                && reached.insert(i)
            {
                queue.extend(words(&self.decls[i]));
            }
        }
        reached.into_iter().collect()
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

/// The name a declaration's text declares (`record X {`, `enum X {`, `union X {`, `type X =`),
/// past its doc comment and attributes.
fn declared_name(decl: &str) -> Option<&str> {
    decl.lines().find_map(|line| {
        let rest = ["record ", "enum ", "union ", "type "]
            .iter()
            .find_map(|keyword| line.strip_prefix(keyword))?;
        rest.split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .next()
            .filter(|name| !name.is_empty())
    })
}

/// The identifier-like words of a piece of `.tool` text (a superset of the names it refers to).
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_probe_takes_the_declarations_its_type_reaches_and_no_others() {
        let mut types = Types::default();
        for decl in [
            "/// A colour.\nenum Color {\n    red,\n}",
            "record Unrelated {\n    x: i32,\n}",
            "@open\nrecord Paint {\n    color: Color,\n}",
            "type Paints = list<Paint>;",
            "union Other {\n    a: Unrelated,\n}",
        ] {
            types.decls.push(decl.to_owned());
        }
        assert_eq!(types.reached_decls("x: Paints = []"), [0, 2, 3]);
        assert_eq!(types.reached_decls("x: Other"), [1, 4]);
        assert!(types.reached_decls("x: i32 = 1").is_empty());
    }

    #[test]
    fn a_default_of_a_declared_type_is_still_asked_of_the_compiler() {
        let mut types = Types::default();
        types
            .decls
            .push("enum Color {\n    red,\n    blue,\n}".to_owned());
        types
            .decls
            .push("record Filler {\n    x: i32,\n}".to_owned());
        let color = FieldType {
            attrs: Vec::new(),
            expr: "Color".into(),
            description: None,
            shape: Shape::Json,
        };
        assert_eq!(types.default_problem(&color, "red"), None);
        let refused = types.default_problem(&color, "green");
        assert!(refused.is_some(), "{refused:?}");
        // Asked again, the same answer (from the probes already made).
        assert_eq!(types.default_problem(&color, "green"), refused);
    }

    /// One tool `t` whose input has the properties `properties`, imported.
    fn imported(properties: serde_json::Value) -> crate::import::Imported {
        let listing = serde_json::json!({"tools": [{
            "name": "t",
            "inputSchema": {"type": "object", "properties": properties},
        }]});
        crate::import::import(&listing, "p", "S").unwrap()
    }

    #[test]
    fn a_default_of_an_untagged_union_is_kept() {
        let out = imported(serde_json::json!({
            "dynamic": {"anyOf": [{"type": "boolean"}, {"type": "string"}], "default": false},
            "name": {"anyOf": [{"type": "boolean"}, {"type": "string"}], "default": "auto"},
        }));
        assert!(
            out.text.contains("dynamic: Dynamic = false"),
            "{}",
            out.text
        );
        assert!(out.text.contains("name: Name = \"auto\""), "{}", out.text);
        assert!(
            out.gaps.iter().all(|g| !g.what.contains("default")),
            "{:?}",
            out.gaps
        );
    }

    #[test]
    fn an_integer_without_both_bounds_is_an_integer_with_the_bounds_it_has() {
        let out = imported(serde_json::json!({
            "any": {"type": "integer"},
            "count": {"type": "integer", "minimum": 0},
            "below": {"type": "integer", "maximum": 10},
            "small": {"type": "integer", "minimum": 0, "maximum": 255},
            "huge": {"type": "integer", "minimum": 1e30},
        }));
        for expected in [
            "any?: integer",
            "@range(min: 0) count?: integer",
            "@range(max: 10) below?: integer",
            "small?: u8",
            "huge?: integer",
        ] {
            assert!(out.text.contains(expected), "{expected}:\n{}", out.text);
        }
        let gaps: Vec<&str> = out.gaps.iter().map(|g| g.what.as_str()).collect();
        assert_eq!(gaps.len(), 1, "{gaps:?}");
        assert!(
            gaps[0].starts_with("`minimum: 1e+30` is no integer"),
            "{gaps:?}"
        );
    }
}
