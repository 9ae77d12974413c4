//! `enum` (and `const`) of strings: enums, declared once per shape.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::schema::structure;
use super::text::docs;
use super::{FieldType, Shape, Types, names, plain};

impl Types {
    pub(super) fn enumeration(
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
}
