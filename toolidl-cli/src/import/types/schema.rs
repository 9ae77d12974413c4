//! Reading schemas: what identifies a declaration's schema, `required`, and the document
//! pointers an OpenAPI import writes into them.

use serde_json::{Map, Value};

use super::POINTER;

/// What identifies a declaration's schema: the schema without its description, and without
/// `null` among its types or enum values (a nullable use of a record is the same record).
pub(super) fn structure(object: &Map<String, Value>) -> String {
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

/// Whether a pointer is written anywhere inside `value`.
pub(super) fn has_pointer(value: &Value) -> bool {
    match value {
        Value::Object(o) => o.contains_key(POINTER) || o.values().any(has_pointer),
        Value::Array(items) => items.iter().any(has_pointer),
        _ => false,
    }
}

/// Removes every pointer written inside `object`.
pub(super) fn strip_pointers(object: &mut Map<String, Value>) {
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
