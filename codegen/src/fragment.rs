//! One JSON Schema object under construction.
//!
//! Every keyword has its own slot and [`Fragment::into_value`] writes the slots in one fixed
//! order (`$schema` of a root that states one, then seed 000's list, then `anyOf`/`$ref`,
//! then `$defs`), so the key order of every
//! emitted schema is decided here and nowhere else.

use serde_json::{Map, Value};

#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Fragment {
    /// `$schema`: the dialect a root schema states (`@schema_dialect`), written first.
    pub dialect: Option<String>,
    /// A string, or an array of strings once `null` is added.
    pub ty: Option<Value>,
    pub format: Option<&'static str>,
    pub title: Option<String>,
    pub description: Option<String>,
    pub enumeration: Option<Vec<Value>>,
    /// `const`: a tagged union's tag property.
    pub constant: Option<Value>,
    pub minimum: Option<Value>,
    pub maximum: Option<Value>,
    pub exclusive_minimum: Option<Value>,
    pub exclusive_maximum: Option<Value>,
    pub min_length: Option<u64>,
    pub max_length: Option<u64>,
    pub pattern: Option<String>,
    pub content_encoding: Option<&'static str>,
    pub items: Option<Box<Fragment>>,
    pub min_items: Option<u64>,
    pub max_items: Option<u64>,
    pub unique_items: bool,
    pub properties: Option<Vec<(String, Fragment)>>,
    pub required: Vec<String>,
    pub additional_properties: Option<AdditionalProperties>,
    pub default: Option<Value>,
    pub deprecated: bool,
    /// `oneOf`: a tagged union's variants.
    pub one_of: Option<Vec<Fragment>>,
    /// `anyOf`: a nullable `$ref`, or an untagged union's variants; written where `$ref`
    /// would be.
    pub any_of: Option<Vec<Fragment>>,
    pub reference: Option<String>,
    pub defs: Option<Map<String, Value>>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum AdditionalProperties {
    /// `false`: a closed object.
    Closed,
    /// The schema of a map's values.
    Schema(Box<Fragment>),
}

impl Fragment {
    pub fn of_type(ty: &str) -> Self {
        Fragment {
            ty: Some(Value::String(ty.to_owned())),
            ..Fragment::default()
        }
    }

    pub fn reference(target: String) -> Self {
        Fragment {
            reference: Some(target),
            ..Fragment::default()
        }
    }

    /// True when the fragment names its JSON type(s), so `null` can be added to them.
    pub fn has_type(&self) -> bool {
        self.ty.is_some()
    }

    pub fn into_value(self) -> Value {
        let mut map = Map::new();
        let mut put = |key: &str, value: Value| {
            map.insert(key.to_owned(), value);
        };
        if let Some(dialect) = self.dialect {
            put("$schema", dialect.into());
        }
        if let Some(ty) = self.ty {
            put("type", ty);
        }
        if let Some(format) = self.format {
            put("format", format.into());
        }
        if let Some(title) = self.title {
            put("title", title.into());
        }
        if let Some(description) = self.description {
            put("description", description.into());
        }
        if let Some(values) = self.enumeration {
            put("enum", Value::Array(values));
        }
        if let Some(value) = self.constant {
            put("const", value);
        }
        if let Some(minimum) = self.minimum {
            put("minimum", minimum);
        }
        if let Some(maximum) = self.maximum {
            put("maximum", maximum);
        }
        if let Some(minimum) = self.exclusive_minimum {
            put("exclusiveMinimum", minimum);
        }
        if let Some(maximum) = self.exclusive_maximum {
            put("exclusiveMaximum", maximum);
        }
        if let Some(n) = self.min_length {
            put("minLength", n.into());
        }
        if let Some(n) = self.max_length {
            put("maxLength", n.into());
        }
        if let Some(pattern) = self.pattern {
            put("pattern", pattern.into());
        }
        if let Some(encoding) = self.content_encoding {
            put("contentEncoding", encoding.into());
        }
        if let Some(items) = self.items {
            put("items", items.into_value());
        }
        if let Some(n) = self.min_items {
            put("minItems", n.into());
        }
        if let Some(n) = self.max_items {
            put("maxItems", n.into());
        }
        if self.unique_items {
            put("uniqueItems", true.into());
        }
        if let Some(properties) = self.properties {
            let properties = properties
                .into_iter()
                .map(|(name, fragment)| (name, fragment.into_value()))
                .collect::<Map<_, _>>();
            put("properties", Value::Object(properties));
        }
        if !self.required.is_empty() {
            let names = self.required.into_iter().map(Value::String).collect();
            put("required", Value::Array(names));
        }
        match self.additional_properties {
            Some(AdditionalProperties::Closed) => put("additionalProperties", false.into()),
            Some(AdditionalProperties::Schema(values)) => {
                put("additionalProperties", values.into_value())
            }
            None => {}
        }
        if let Some(default) = self.default {
            put("default", default);
        }
        if self.deprecated {
            put("deprecated", true.into());
        }
        if let Some(alternatives) = self.one_of {
            let alternatives = alternatives.into_iter().map(Fragment::into_value).collect();
            put("oneOf", Value::Array(alternatives));
        }
        if let Some(alternatives) = self.any_of {
            let alternatives = alternatives.into_iter().map(Fragment::into_value).collect();
            put("anyOf", Value::Array(alternatives));
        }
        if let Some(reference) = self.reference {
            put("$ref", reference.into());
        }
        if let Some(defs) = self.defs {
            put("$defs", Value::Object(defs));
        }
        Value::Object(map)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_come_out_in_contract_order_whatever_the_fill_order() {
        // Filled in reverse order on purpose.
        let fragment = Fragment {
            default: Some(1.into()),
            maximum: Some(9.into()),
            minimum: Some(0.into()),
            description: Some("n".into()),
            ty: Some("integer".into()),
            ..Fragment::default()
        };
        let text = serde_json::to_string(&fragment.into_value()).unwrap();
        assert_eq!(
            text,
            r#"{"type":"integer","description":"n","minimum":0,"maximum":9,"default":1}"#
        );
    }

    #[test]
    fn empty_required_is_left_out_and_empty_properties_kept() {
        let fragment = Fragment {
            properties: Some(Vec::new()),
            additional_properties: Some(AdditionalProperties::Closed),
            ..Fragment::of_type("object")
        };
        let text = serde_json::to_string(&fragment.into_value()).unwrap();
        assert_eq!(
            text,
            r#"{"type":"object","properties":{},"additionalProperties":false}"#
        );
    }
}
