//! The listing a client profile accepts (feature `publish`): a tool's name and input schema
//! rewritten for the client, one implementation shared by the generator (`toolidl lint`,
//! `toolidl schema --profile`) and the runtime, which derives each profile's listing of a
//! generated tool from its standard listing when a server serves that profile.
//!
//! A variant changes only what is listed. The server still enforces the `.tool` file's
//! constraints: a keyword a client rejects is moved into the property's description as text,
//! never dropped from the checks. The facts behind each rule are in `docs/lint.md`.

use serde_json::{Map, Value};

use crate::Profile;

/// The `format`s OpenAI strict mode accepts.
pub const OPENAI_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];
/// The `format`s Gemini accepts on strings.
pub const GEMINI_FORMATS: &[&str] = &["date-time", "enum"];
/// The schema keywords Gemini's `Schema` object has.
pub const GEMINI_KEYWORDS: &[&str] = &[
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "maxItems",
    "minItems",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "example",
    "anyOf",
    "propertyOrdering",
    "default",
    "items",
    "minimum",
    "maximum",
];
/// The schema keywords OpenAI strict mode accepts (others are refused).
pub const OPENAI_KEYWORDS: &[&str] = &[
    "type",
    "description",
    "title",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "anyOf",
    "$ref",
    "$defs",
    "pattern",
    "format",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "minItems",
    "maxItems",
];
/// Gemini has no `$ref`: recursive records are written out this many levels deep.
pub const GEMINI_RECURSION_DEPTH: usize = 3;

/// The name `profile` publishes for the tool `name`: as written under `standard`; elsewhere
/// every character outside A-Z a-z 0-9 _ - becomes `_` (a leading one too, for Gemini) and
/// the name is cut to 64 bytes. Generated servers answer to the published name.
pub fn published_name(name: &str, profile: Profile) -> String {
    if profile == Profile::Standard {
        return name.to_owned();
    }
    let mut out: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if !out.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        out.insert(0, '_');
    }
    out.truncate(64);
    out
}

/// Rewrites `entry`, a `Tool` object of the standard listing, into what `profile`'s client
/// accepts: its `name` ([`published_name`]) and its `inputSchema` ([`publish_schema`]); the
/// other keys are kept as they are, in their order. `standard` leaves it as it is.
pub fn publish_tool(entry: &mut Value, profile: Profile) {
    if profile == Profile::Standard {
        return;
    }
    let Value::Object(entry) = entry else {
        return;
    };
    if let Some(name) = entry.get("name").and_then(Value::as_str) {
        let name = published_name(name, profile);
        entry.insert("name".into(), name.into());
    }
    if let Some(schema) = entry.get_mut("inputSchema") {
        *schema = publish_schema(schema, profile);
    }
}

/// [`publish_tool`] over a `Tool` object's JSON text: the name and the JSON text `profile`
/// publishes, `None` when the text is not a JSON object with a string `name`.
pub fn publish_tool_json(json: &str, profile: Profile) -> Option<(String, String)> {
    let mut entry: Value = serde_json::from_str(json).ok()?;
    entry.get("name")?.as_str()?;
    publish_tool(&mut entry, profile);
    let name = entry.get("name")?.as_str()?.to_owned();
    Some((name, entry.to_string()))
}

/// The input schema `profile`'s client accepts.
pub fn publish_schema(schema: &Value, profile: Profile) -> Value {
    match profile {
        Profile::Standard | Profile::Claude => schema.clone(),
        Profile::OpenAiStrict => {
            let mut out = schema.clone();
            openai(&mut out);
            out
        }
        Profile::Gemini => {
            let defs = schema
                .get("$defs")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default();
            gemini(schema, &defs, 0)
        }
    }
}

/// OpenAI strict: every property required, `additionalProperties: false` on every object,
/// unsupported keywords moved into descriptions. What a parameter means is kept: one with a
/// default says it in its description; an optional one without (`name?: T`) also takes
/// `null`, which a server serving this profile reads as left out; a map is a list of
/// `{key, value}` entries, which such a server decodes into the same map.
fn openai(schema: &mut Value) {
    let Value::Object(obj) = schema else {
        return;
    };
    if is_map(obj) {
        map_as_entries(obj);
    }
    let omittable: Vec<String> = match obj.get("properties") {
        Some(Value::Object(props)) => {
            let required = required_keys(obj);
            props
                .iter()
                .filter(|(k, v)| !required.contains(&k.as_str()) && v.get("default").is_none())
                .map(|(k, _)| k.clone())
                .collect()
        }
        _ => Vec::new(),
    };
    let mut notes = Vec::new();
    if let Some(Value::Object(props)) = obj.get_mut("properties") {
        for value in props.values_mut() {
            openai(value);
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(value @ Value::Object(_)) = obj.get_mut(key) {
            openai(value);
        }
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(branches)) = obj.get_mut(key) {
            branches.iter_mut().for_each(openai);
        }
    }
    if let Some(Value::Object(defs)) = obj.get_mut("$defs") {
        defs.values_mut().for_each(openai);
    }
    if let Some(format) = obj.get("format").and_then(Value::as_str)
        && !OPENAI_FORMATS.contains(&format)
    {
        notes.push(format!("Format: {format}."));
        obj.shift_remove("format");
    }
    // OpenAI strict has `anyOf`, not `oneOf` (the server still allows exactly one).
    if let Some(branches) = obj.shift_remove("oneOf") {
        obj.insert("anyOf".into(), branches);
    }
    let unsupported: Vec<String> = obj
        .keys()
        .filter(|k| !OPENAI_KEYWORDS.contains(&k.as_str()) && k.as_str() != "$schema")
        .cloned()
        .collect();
    for key in unsupported {
        if let Some(value) = obj.shift_remove(&key) {
            notes.push(keyword_note(&key, &value));
        }
    }
    if let Some(Value::Object(props)) = obj.get_mut("properties") {
        for key in &omittable {
            if let Some(property) = props.get_mut(key) {
                null_as_absent(property);
            }
        }
    }
    if obj.contains_key("properties") || is_type(obj, "object") {
        obj.insert("additionalProperties".into(), Value::Bool(false));
        if let Some(Value::Object(props)) = obj.get("properties") {
            let keys: Vec<Value> = props.keys().cloned().map(Value::String).collect();
            obj.insert("required".into(), Value::Array(keys));
        }
    }
    append_notes(obj, notes);
}

/// The note an optional property without a default gets under openai-strict.
pub const NULL_AS_ABSENT_NOTE: &str = "Null leaves it out.";

/// The note a map gets under openai-strict.
pub const MAP_ENTRIES_NOTE: &str = "A list of {key, value} entries, each key once.";

/// A map's schema: an object whose other properties all have one schema.
fn is_map(obj: &Map<String, Value>) -> bool {
    matches!(obj.get("additionalProperties"), Some(Value::Object(_)))
        && !obj.contains_key("properties")
}

/// The keys in the schema's `required`.
pub fn required_keys(obj: &Map<String, Value>) -> Vec<&str> {
    obj.get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// Rewrites a map's schema (`additionalProperties: V`) as an array of `{key, value}`
/// entries: OpenAI strict mode closes every object, so a map could only ever be `{}`.
fn map_as_entries(obj: &mut Map<String, Value>) {
    let Some(value) = obj.shift_remove("additionalProperties") else {
        return;
    };
    let entry = serde_json::json!({
        "type": "object",
        "properties": {"key": {"type": "string"}, "value": value},
        "required": ["key", "value"],
        "additionalProperties": false
    });
    let mut out = Map::new();
    for (key, v) in std::mem::take(obj) {
        match key.as_str() {
            "type" => {
                let array = |t: &Value| {
                    if t == "object" {
                        "array".into()
                    } else {
                        t.clone()
                    }
                };
                let types = match &v {
                    Value::Array(types) => Value::Array(types.iter().map(array).collect()),
                    t => array(t),
                };
                out.insert(key, types);
                out.insert("items".into(), entry.clone());
            }
            "minProperties" => {
                out.insert("minItems".into(), v);
            }
            "maxProperties" => {
                out.insert("maxItems".into(), v);
            }
            "default" => {
                out.insert(key, entries(&v));
            }
            _ => {
                out.insert(key, v);
            }
        }
    }
    if !out.contains_key("items") {
        out.insert("items".into(), entry);
    }
    append_notes(&mut out, vec![MAP_ENTRIES_NOTE.to_owned()]);
    *obj = out;
}

/// A map value as the list of `{key, value}` entries openai-strict publishes.
fn entries(map: &Value) -> Value {
    match map {
        Value::Object(m) => Value::Array(
            m.iter()
                .map(|(k, v)| serde_json::json!({"key": k, "value": v}))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Whether `schema` admits `null` as written (a type array, `null` among `anyOf`'s branches).
pub fn accepts_null(schema: &Value) -> bool {
    match schema.get("type") {
        Some(Value::String(t)) if t == "null" => return true,
        Some(Value::Array(types)) if types.iter().any(|t| t == "null") => return true,
        _ => {}
    }
    if schema.get("nullable") == Some(&Value::Bool(true)) {
        return true;
    }
    ["anyOf", "oneOf"].iter().any(|key| {
        schema
            .get(*key)
            .and_then(Value::as_array)
            .is_some_and(|branches| branches.iter().any(accepts_null))
    })
}

/// An optional property without a default, made to take `null` (read as "left out") now
/// that it is required.
fn null_as_absent(property: &mut Value) {
    if accepts_null(property) {
        // `name?: T?`: `null` already means null; lint's L0315 reports it.
        return;
    }
    let Value::Object(obj) = property else {
        return;
    };
    match obj.get_mut("type") {
        Some(Value::String(t)) => {
            let t = std::mem::take(t);
            obj.insert("type".into(), serde_json::json!([t, "null"]));
            if let Some(Value::Array(members)) = obj.get_mut("enum") {
                members.push(Value::Null);
            }
        }
        Some(Value::Array(types)) => types.push("null".into()),
        _ => {
            if let Some(Value::Array(branches)) = obj.get_mut("anyOf") {
                branches.push(serde_json::json!({"type": "null"}));
            } else {
                let description = obj.shift_remove("description");
                let inner = Value::Object(std::mem::take(obj));
                obj.insert("anyOf".into(), serde_json::json!([inner, {"type": "null"}]));
                if let Some(d) = description {
                    obj.insert("description".into(), d);
                }
            }
        }
    }
    append_notes(obj, vec![NULL_AS_ABSENT_NOTE.to_owned()]);
}

/// Gemini: nullable as `nullable: true`, `$ref` written out (recursion cut at
/// [`GEMINI_RECURSION_DEPTH`]), unsupported keywords and formats moved into descriptions.
fn gemini(schema: &Value, defs: &Map<String, Value>, depth: usize) -> Value {
    let Value::Object(obj) = schema else {
        return schema.clone();
    };
    if let Some(target) = obj.get("$ref").and_then(Value::as_str) {
        let name = target.strip_prefix("#/$defs/").unwrap_or(target);
        let mut out = match defs.get(name) {
            Some(def) if depth < GEMINI_RECURSION_DEPTH => gemini(def, defs, depth + 1),
            _ => {
                let mut cut = Map::new();
                cut.insert("type".into(), "object".into());
                cut.insert(
                    "description".into(),
                    format!("A {name} (nested too deep to describe here).").into(),
                );
                Value::Object(cut)
            }
        };
        if let (Some(description), Value::Object(o)) = (obj.get("description"), &mut out) {
            o.insert("description".into(), description.clone());
        }
        return out;
    }
    let mut out = Map::new();
    let mut notes = Vec::new();
    for (key, value) in obj {
        match key.as_str() {
            "$schema" | "$defs" | "additionalProperties" => {}
            "type" => match value {
                Value::Array(types) => {
                    let rest: Vec<&Value> = types.iter().filter(|t| *t != "null").collect();
                    match rest.as_slice() {
                        [one] => {
                            out.insert("type".into(), (*one).clone());
                        }
                        _ => notes.push(format!("Type: {}.", Value::Array(types.clone()))),
                    }
                    if rest.len() < types.len() {
                        out.insert("nullable".into(), Value::Bool(true));
                    }
                }
                other => {
                    out.insert("type".into(), other.clone());
                }
            },
            "format" => match value.as_str() {
                Some(f) if GEMINI_FORMATS.contains(&f) => {
                    out.insert(key.clone(), value.clone());
                }
                _ => notes.push(keyword_note(key, value)),
            },
            "properties" => {
                let mut props = Map::new();
                if let Value::Object(p) = value {
                    for (k, v) in p {
                        props.insert(k.clone(), gemini(v, defs, depth));
                    }
                }
                out.insert(key.clone(), Value::Object(props));
            }
            "items" => {
                out.insert(key.clone(), gemini(value, defs, depth));
            }
            // `oneOf` is `anyOf` for Gemini (the server still allows exactly one).
            "anyOf" | "oneOf" => {
                let branches = value
                    .as_array()
                    .map(|b| b.iter().map(|s| gemini(s, defs, depth)).collect())
                    .unwrap_or_default();
                out.insert("anyOf".into(), Value::Array(branches));
            }
            "const" if value.is_string() => {
                out.insert("enum".into(), Value::Array(vec![value.clone()]));
            }
            "enum" => match value.as_array() {
                // `null` among the members is `nullable`, which the type array gave.
                Some(values) if values.iter().all(|v| v.is_string() || v.is_null()) => {
                    let members = values.iter().filter(|v| v.is_string()).cloned();
                    out.insert(key.clone(), Value::Array(members.collect()));
                }
                _ => notes.push(keyword_note(key, value)),
            },
            k if GEMINI_KEYWORDS.contains(&k) => {
                out.insert(key.clone(), value.clone());
            }
            _ => notes.push(keyword_note(key, value)),
        }
    }
    append_notes(&mut out, notes);
    Value::Object(out)
}

/// A removed keyword, as a sentence the model can read.
fn keyword_note(key: &str, value: &Value) -> String {
    let shown = value.to_string();
    match key {
        "format" => format!("Format: {}.", value.as_str().unwrap_or(&shown)),
        "pattern" => format!("Matches the pattern {shown}."),
        "default" => format!("Default: {shown}."),
        "minLength" => format!("Length at least {shown}."),
        "maxLength" => format!("Length at most {shown}."),
        "minimum" => format!("At least {shown}."),
        "maximum" => format!("At most {shown}."),
        "exclusiveMinimum" => format!("Greater than {shown}."),
        "exclusiveMaximum" => format!("Less than {shown}."),
        "minItems" => format!("At least {shown} items."),
        "maxItems" => format!("At most {shown} items."),
        "uniqueItems" if value == &Value::Bool(true) => "Items are unique.".into(),
        "const" => format!("Always {shown}."),
        _ => format!("{key}: {shown}."),
    }
}

/// Appends `notes` to the schema's description (creating it).
fn append_notes(obj: &mut Map<String, Value>, notes: Vec<String>) {
    if notes.is_empty() {
        return;
    }
    let extra = notes.join(" ");
    let text = match obj.get("description").and_then(Value::as_str) {
        Some(d) if !d.is_empty() => format!("{d} {extra}"),
        _ => extra,
    };
    obj.insert("description".into(), text.into());
}

/// Whether the schema object's `type` is `name` or a type array with `name` among them.
pub fn is_type(obj: &Map<String, Value>, name: &str) -> bool {
    match obj.get("type") {
        Some(Value::String(t)) => t == name,
        Some(Value::Array(types)) => types.iter().any(|t| t == name),
        _ => false,
    }
}
