//! `oneOf`, `anyOf` and `type` arrays: unions, tagged when records are told apart by a
//! `const` property, and nullable types.

use serde_json::{Map, Value};

use super::schema::{has_pointer, required_set, strip_pointers};
use super::text::{doc_lines, indent};
use super::{FieldType, Position, Shape, Types, names, plain};

impl Types {
    pub(super) fn union(
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
pub(super) fn keywords_of_kind(object: &Map<String, Value>, kind: &str) -> Map<String, Value> {
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
