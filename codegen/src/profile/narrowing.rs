//! [`narrowing`]: where a profile's variant of a tool accepts less than the standard listing.

use serde_json::{Map, Value};
use toolidl_formats::publish::{accepts_null, is_type, required_keys};

use super::{Finding, Profile, Severity, escape};

/// Where `profile`'s variant of a tool accepts less than the standard listing in a way a model
/// cannot work around (L0314, L0315, L0316, errors): `standard` and `published` are the tool's
/// entries in the standard listing and in the variant. Their input schemas are walked in
/// parallel (properties by key, `items`, a standard map's values against the variant's
/// `{key, value}` entries, `$ref` in each side's own `$defs`, `oneOf`/`anyOf` branches by
/// index, the variant's `anyOf: [X, {"type": "null"}]` unwrapped to `X`). Pointers are into
/// the published entry. Nothing under `standard`, whose variant is the listing itself.
///
/// `name: T? = null` writes no `default`, so it is reported as `name?: T?` is (L0315): a
/// caller with the model drops those findings (there `null` and left out mean the same), as
/// `toolidl lint` does.
pub fn narrowing(standard: &Value, published: &Value, profile: Profile) -> Vec<Finding> {
    if profile == Profile::Standard {
        return Vec::new();
    }
    let (Some(std_schema), Some(pub_schema)) =
        (standard.get("inputSchema"), published.get("inputSchema"))
    else {
        return Vec::new();
    };
    let defs = |schema: &Value| schema.get("$defs").and_then(Value::as_object).cloned();
    let mut walk = Narrowing {
        tool: published.get("name").and_then(Value::as_str).unwrap_or(""),
        std_defs: defs(std_schema).unwrap_or_default(),
        pub_defs: defs(pub_schema).unwrap_or_default(),
        visited: std::collections::HashSet::new(),
        findings: Vec::new(),
    };
    walk.compare(std_schema, pub_schema, "/inputSchema".into(), 0);
    walk.findings
}

struct Narrowing<'a> {
    tool: &'a str,
    std_defs: Map<String, Value>,
    pub_defs: Map<String, Value>,
    /// The `$ref` targets already followed (standard, published or where it stands).
    visited: std::collections::HashSet<(String, String)>,
    findings: Vec<Finding>,
}

/// A walk deeper than this stops (Gemini writes recursion out a few levels only).
const NARROWING_MAX_DEPTH: usize = 64;

impl Narrowing<'_> {
    fn push(&mut self, code: &'static str, at: &str, message: String) {
        self.findings.push(Finding {
            code,
            severity: Severity::Error,
            tool: self.tool.to_owned(),
            pointer: at.to_owned(),
            message,
        });
    }

    fn compare(&mut self, standard: &Value, published: &Value, at: String, depth: usize) {
        if depth > NARROWING_MAX_DEPTH {
            return;
        }
        let std_ref = ref_name(standard);
        let pub_ref = ref_name(published);
        if std_ref.is_some() || pub_ref.is_some() {
            let pub_at = match pub_ref {
                Some(name) => format!("/inputSchema/$defs/{}", escape(name)),
                None => at.clone(),
            };
            let key = (std_ref.unwrap_or("").to_owned(), pub_at.clone());
            if !self.visited.insert(key) {
                return;
            }
            let standard = match std_ref {
                Some(name) => self.std_defs.get(name).cloned(),
                None => Some(standard.clone()),
            };
            let published = match pub_ref {
                Some(name) => self.pub_defs.get(name).cloned(),
                None => Some(published.clone()),
            };
            if let (Some(s), Some(p)) = (standard, published) {
                self.compare(&s, &p, pub_at, depth + 1);
            }
            return;
        }
        let (Value::Object(s), Value::Object(p)) = (standard, published) else {
            return;
        };
        let std_branches = s
            .get("oneOf")
            .or_else(|| s.get("anyOf"))
            .and_then(Value::as_array);
        let (pub_key, pub_branches) = match (p.get("anyOf"), p.get("oneOf")) {
            (Some(Value::Array(b)), _) => ("anyOf", Some(b)),
            (_, Some(Value::Array(b))) => ("oneOf", Some(b)),
            _ => ("anyOf", None),
        };
        match (std_branches, pub_branches) {
            (Some(sb), Some(pb)) => {
                self.list_and_map(sb, pb, &format!("{at}/{pub_key}"));
                for (i, (sv, pv)) in sb.iter().zip(pb).enumerate() {
                    self.compare(sv, pv, format!("{at}/{pub_key}/{i}"), depth + 1);
                }
                return;
            }
            // The variant's `anyOf: [X, {"type": "null"}]` wrapper.
            (None, Some(pb)) if pb.len() == 2 && pb[1] == serde_json::json!({"type": "null"}) => {
                self.compare(standard, &pb[0], format!("{at}/{pub_key}/0"), depth + 1);
                return;
            }
            _ => {}
        }
        // An `@open` tool's input schema: its undeclared arguments are ignored, so closing it
        // loses nothing.
        if closed_empty(p) && accepts_members(s) && at != "/inputSchema" {
            let what = if matches!(s.get("additionalProperties"), Some(Value::Object(_))) {
                "a map"
            } else {
                "an open object"
            };
            self.push(
                "L0314",
                &at,
                format!(
                    "{what} in the standard listing is an object that can only be `{{}}` in this variant"
                ),
            );
            return;
        }
        if let (Some(Value::Object(sp)), Some(Value::Object(pp))) =
            (s.get("properties"), p.get("properties"))
        {
            let std_required = required_keys(s);
            let pub_required = required_keys(p);
            for (key, sv) in sp {
                let Some(pv) = pp.get(key) else { continue };
                let here = format!("{at}/properties/{}", escape(key));
                let omittable =
                    !std_required.contains(&key.as_str()) && sv.get("default").is_none();
                if omittable
                    && pub_required.contains(&key.as_str())
                    // A `null` the variant adds is read as left out.
                    && (admits_null(sv) || !accepts_null(pv))
                {
                    let message = if admits_null(sv) {
                        format!(
                            "the property `{key}` may be left out in the standard listing, but is required in this variant, where `null` already means null: a model cannot leave it out"
                        )
                    } else {
                        format!(
                            "the property `{key}` may be left out in the standard listing, but is required in this variant without taking `null`: a model cannot leave it out"
                        )
                    };
                    self.push("L0315", &here, message);
                }
                self.compare(sv, pv, here, depth + 1);
            }
        }
        if let (Some(si), Some(pi)) = (s.get("items"), p.get("items")) {
            self.compare(si, pi, format!("{at}/items"), depth + 1);
        }
        if let Some(sv @ Value::Object(_)) = s.get("additionalProperties") {
            if let Some(pv @ Value::Object(_)) = p.get("additionalProperties") {
                self.compare(sv, pv, format!("{at}/additionalProperties"), depth + 1);
            } else if let Some(pv) = p.get("items").and_then(|i| i.pointer("/properties/value")) {
                // A map published as `{key, value}` entries.
                self.compare(sv, pv, format!("{at}/items/properties/value"), depth + 1);
            }
        }
    }
}

impl Narrowing<'_> {
    /// L0316: a union with a list variant and a map variant, told apart in the standard
    /// listing (`[]` and `{}`), whose map this variant writes as a list of `{key, value}`
    /// entries: `[]` fits both there, and the server reads it as the first, so the other's
    /// empty value cannot be sent.
    fn list_and_map(&mut self, standard: &[Value], published: &[Value], at: &str) {
        let kind = |i: usize| {
            let (s, p) = (standard[i].as_object()?, published.get(i)?.as_object()?);
            let array_here = is_type(p, "array");
            if is_type(s, "array") && array_here {
                Some("list")
            } else if is_map(s) && array_here {
                Some("map")
            } else {
                None
            }
        };
        let kinds: Vec<_> = (0..standard.len()).map(kind).collect();
        let first_list = kinds.iter().position(|k| *k == Some("list"));
        let first_map = kinds.iter().position(|k| *k == Some("map"));
        let (Some(list), Some(map)) = (first_list, first_map) else {
            return;
        };
        let (first, shadowed, lost) = if list < map {
            ("list", map, "map")
        } else {
            ("map", list, "list")
        };
        self.push(
            "L0316",
            &format!("{at}/{shadowed}"),
            format!(
                "a union of a list and a map: this variant writes the map as a list of `{{key, value}}` entries, so `[]` fits both and is read as the {first}; an empty {lost} cannot be sent"
            ),
        );
    }
}

/// A map in the standard listing: an object whose members are all of one schema.
fn is_map(obj: &Map<String, Value>) -> bool {
    is_type(obj, "object")
        && matches!(obj.get("additionalProperties"), Some(Value::Object(_)))
        && !obj.contains_key("properties")
}

/// Whether the standard listing's `schema` accepts `null`: as written ([`accepts_null`]), or
/// as any JSON value (`json`'s `{}`, a schema with no type, reference or branches).
fn admits_null(schema: &Value) -> bool {
    const CONSTRAINING: [&str; 7] = ["type", "$ref", "enum", "const", "anyOf", "oneOf", "allOf"];
    accepts_null(schema)
        || schema
            .as_object()
            .is_some_and(|obj| !CONSTRAINING.iter().any(|k| obj.contains_key(*k)))
}

/// The `$defs` key a `{"$ref": "#/$defs/Name"}` schema refers to.
fn ref_name(schema: &Value) -> Option<&str> {
    schema
        .get("$ref")
        .and_then(Value::as_str)
        .map(|r| r.strip_prefix("#/$defs/").unwrap_or(r))
}

/// An object that can only be `{}`: type object, `additionalProperties: false`, no (or empty)
/// `properties`.
fn closed_empty(obj: &Map<String, Value>) -> bool {
    is_type(obj, "object")
        && obj.get("additionalProperties") == Some(&Value::Bool(false))
        && obj
            .get("properties")
            .and_then(Value::as_object)
            .is_none_or(Map::is_empty)
}

/// An object schema with no properties listed that accepts members: a map, or an open
/// object (`additionalProperties` absent or `true`).
fn accepts_members(obj: &Map<String, Value>) -> bool {
    let untyped = !obj.contains_key("type");
    (untyped || is_type(obj, "object"))
        && obj
            .get("properties")
            .and_then(Value::as_object)
            .is_none_or(Map::is_empty)
        && matches!(
            obj.get("additionalProperties"),
            None | Some(Value::Bool(true)) | Some(Value::Object(_))
        )
}
