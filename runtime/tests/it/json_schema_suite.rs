//! The official JSON-Schema-Test-Suite (draft 2020-12) against the runtime's argument checks.
//!
//! A small interpreter maps each suite schema onto the calls a service makes for the
//! keywords toolidl advertises (`args::*` decoders, `check::*`), runs every instance
//! through them, and asserts the runtime accepts exactly the instances the suite calls
//! valid. Schemas with keywords outside that set are skipped and counted. Where the
//! runtime deliberately means something else, the case is a named entry in `DEVIATIONS`.
//!
//! `cargo test -p toolidl-runtime --test it json_schema_suite:: -- --nocapture` prints the summary.

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};

use serde_json::value::RawValue;
use serde_json::{Map, Value};
use toolidl_runtime::args::{self, ArgError, Decode, Format, Path, Pattern, Reader, check};

const SUITE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/fixtures/json-schema-test-suite/tests/draft2020-12/"
);

/// The suite files for the keywords the runtime enforces.
const FILES: &[&str] = &[
    "type.json",
    "enum.json",
    "minLength.json",
    "maxLength.json",
    "minimum.json",
    "maximum.json",
    "pattern.json",
    "minItems.json",
    "maxItems.json",
    "uniqueItems.json",
    "required.json",
    "properties.json",
    "additionalProperties.json",
    "optional/bignum.json",
    "optional/ecmascript-regex.json",
    "optional/format/date-time.json",
    "optional/format/date.json",
    "optional/format/time.json",
    "optional/format/email.json",
    "optional/format/uri.json",
    "optional/format/uuid.json",
];

/// A case where the runtime deliberately differs from JSON Schema.
struct Deviation {
    file: &'static str,
    group: &'static str,
    test: &'static str,
    /// Why `.tool`'s meaning differs; also in docs/runtime.md, "Reading arguments".
    reason: &'static str,
}

const DEVIATIONS: &[Deviation] = &[
    // `.tool`'s `time` is a local time of day (.NET's `TimeOnly`, seed 000), so the offset
    // that RFC 3339's `full-time` requires is optional; with one, it is checked as RFC 3339.
    Deviation {
        file: "optional/format/time.json",
        group: "validation of time strings",
        test: "no time offset",
        reason: "`time` is a local time of day: the offset is optional",
    },
    Deviation {
        file: "optional/format/time.json",
        group: "validation of time strings",
        test: "no time offset with second fraction",
        reason: "`time` is a local time of day: the offset is optional",
    },
    // Integers decode into Rust integers: `args::integer` reads at most 128 bits, and every
    // `.tool` integer type is at most 64 bits and advertises its `minimum`/`maximum`, so a
    // value this large breaks the advertised schema as well.
    Deviation {
        file: "optional/bignum.json",
        group: "integer",
        test: "a bignum is an integer",
        reason: "integers are bounded by their Rust type",
    },
    Deviation {
        file: "optional/bignum.json",
        group: "integer",
        test: "a negative bignum is an integer",
        reason: "integers are bounded by their Rust type",
    },
];

/// Edge cases of our own, in the suite's format, for what the suite leaves out.
const OWN_CASES: &str = r#"[
    {"description": "uniqueItems compares numbers by value", "schema": {"type": "array", "uniqueItems": true},
     "tests": [
        {"description": "1 and 1.0", "data": [1, 1.0], "valid": false},
        {"description": "0 and -0.0", "data": [0, -0.0], "valid": false},
        {"description": "nested 1 and 1.0", "data": [{"a": [1]}, {"a": [1.0]}], "valid": false},
        {"description": "member order", "data": [{"a": 1, "b": 2}, {"b": 2.0, "a": 1}], "valid": false},
        {"description": "long array, late repeat", "data": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 9.0], "valid": false},
        {"description": "long array, all differ", "data": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, true, false, null, "9"], "valid": true},
        {"description": "1 and true", "data": [1, true], "valid": true}
     ]},
    {"description": "lengths in code points", "schema": {"type": "string", "minLength": 2, "maxLength": 2},
     "tests": [
        {"description": "two astral characters", "data": "\ud83d\udca9\ud83d\udca9", "valid": true},
        {"description": "one astral character", "data": "\ud83d\udca9", "valid": false},
        {"description": "a combining mark is a code point", "data": "e\u0301", "valid": true},
        {"description": "three ASCII", "data": "abc", "valid": false}
     ]},
    {"description": "integers written with a fraction or exponent", "schema": {"type": "integer", "minimum": -1, "maximum": 100},
     "tests": [
        {"description": "1.0", "data": 1.0, "valid": true},
        {"description": "1e2", "data": 1e2, "valid": true},
        {"description": "1.5", "data": 1.5, "valid": false},
        {"description": "101.0", "data": 101.0, "valid": false},
        {"description": "-0", "data": -0, "valid": true}
     ]},
    {"description": "a record", "schema": {"type": "object", "properties": {"a": {"type": "string", "format": "date"}, "b": {"type": ["integer", "null"]}}, "required": ["a", "b"], "additionalProperties": false},
     "tests": [
        {"description": "both", "data": {"a": "2024-02-29", "b": null}, "valid": true},
        {"description": "b missing", "data": {"a": "2024-02-29"}, "valid": false},
        {"description": "extra", "data": {"a": "2024-02-29", "b": 1, "c": 1}, "valid": false},
        {"description": "bad date", "data": {"a": "2023-02-29", "b": 1}, "valid": false}
     ]},
    {"description": "a map", "schema": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string", "format": "uuid"}, "maxItems": 1}},
     "tests": [
        {"description": "ok", "data": {"x": ["2eb8aa08-aa98-11ea-b4aa-73b441d16380"], "y": []}, "valid": true},
        {"description": "two items", "data": {"x": ["2eb8aa08-aa98-11ea-b4aa-73b441d16380", "2eb8aa08-aa98-11ea-b4aa-73b441d16381"]}, "valid": false},
        {"description": "not a uuid", "data": {"x": ["nope"]}, "valid": false}
     ]}
]"#;

/// Keywords the interpreter maps onto runtime calls (annotations included).
const MAPPED: &[&str] = &[
    "$schema",
    "description",
    "type",
    "enum",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "items",
    "minItems",
    "maxItems",
    "uniqueItems",
    "properties",
    "required",
    "additionalProperties",
];

/// Why a schema cannot be mapped onto runtime calls, if it cannot.
fn unmapped(schema: &Value) -> Option<String> {
    let obj = match schema {
        Value::Bool(true) => return None,
        Value::Object(obj) => obj,
        other => return Some(format!("schema {other}")),
    };
    if let Some(key) = obj.keys().find(|k| !MAPPED.contains(&k.as_str())) {
        return Some(key.clone());
    }
    if let Some(t) = obj.get("type")
        && types(t).is_none()
    {
        return Some(format!("type {t}"));
    }
    // `.tool` enums have string members.
    if let Some(members) = obj.get("enum")
        && !members
            .as_array()
            .is_some_and(|m| m.iter().all(Value::is_string))
    {
        return Some("enum of non-strings".into());
    }
    if let Some(f) = obj.get("format")
        && f.as_str().and_then(format_named).is_none()
    {
        return Some(format!("format {f}"));
    }
    if let Some(why) = obj.get("items").and_then(unmapped) {
        return Some(why);
    }
    if let Some(props) = obj.get("properties").and_then(Value::as_object)
        && let Some(why) = props.values().find_map(unmapped)
    {
        return Some(why);
    }
    match obj.get("additionalProperties") {
        None | Some(Value::Bool(_)) => None,
        Some(schema) => unmapped(schema),
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Integer,
    Number,
    String,
    Boolean,
    Array,
    Object,
    Null,
}

fn kind_named(name: &str) -> Option<Kind> {
    Some(match name {
        "integer" => Kind::Integer,
        "number" => Kind::Number,
        "string" => Kind::String,
        "boolean" => Kind::Boolean,
        "array" => Kind::Array,
        "object" => Kind::Object,
        _ => return None,
    })
}

/// `type`: one `.tool` type, optionally with `"null"` (`T?`). Anything else has no mapping.
fn types(t: &Value) -> Option<(Kind, bool)> {
    let names: Vec<&str> = match t {
        Value::String(s) => vec![s],
        Value::Array(a) => a.iter().map(Value::as_str).collect::<Option<_>>()?,
        _ => return None,
    };
    let nullable = names.contains(&"null");
    let mut rest = names.iter().filter(|n| **n != "null");
    let kind = kind_named(rest.next()?)?;
    rest.next().is_none().then_some((kind, nullable))
}

fn format_named(name: &str) -> Option<Format> {
    Some(match name {
        "email" => Format::Email,
        "uri" => Format::Uri,
        "uuid" => Format::Uuid,
        "date" => Format::Date,
        "time" => Format::Time,
        "date-time" => Format::DateTime,
        _ => return None,
    })
}

/// The instance's own kind: without `type`, a keyword applies only to its kind of value.
fn instance_kind(raw: &str) -> Kind {
    match raw.as_bytes()[0] {
        b'"' => Kind::String,
        b'{' => Kind::Object,
        b'[' => Kind::Array,
        b't' | b'f' => Kind::Boolean,
        b'n' => Kind::Null,
        _ if raw.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')) => Kind::Number,
        _ => Kind::Integer,
    }
}

/// `minLength: 2.0` is `2`: `@length` takes integers.
fn count(obj: &Map<String, Value>, key: &str) -> Option<usize> {
    obj.get(key).and_then(Value::as_f64).map(|n| n as usize)
}

/// An integral bound as `i128`, if it is one.
fn integral(v: &Value) -> Option<i128> {
    v.as_i64()
        .map(i128::from)
        .or_else(|| v.as_u64().map(i128::from))
        .or_else(|| v.as_f64().filter(|f| f.fract() == 0.0).map(|f| f as i128))
}

/// Validates `raw` against `schema` with the runtime's decoders and checks.
fn validate(schema: &Value, raw: &str, path: &Path<'_>) -> Result<(), ArgError> {
    let Value::Object(obj) = schema else {
        // `true`: `json`, any value.
        return Value::read(&mut Reader::new(raw), path).map(drop);
    };
    let declared = obj.get("type").and_then(types);
    // `T?` is `Option<T>`: null is accepted before `T` is decoded.
    if declared.is_some_and(|(_, nullable)| nullable) && raw == "null" {
        return Ok(());
    }
    if let Some(Value::Array(members)) = obj.get("enum") {
        let members: Vec<&str> = members.iter().filter_map(Value::as_str).collect();
        args::enum_member(&mut Reader::new(raw), path, &members)?;
    }
    match declared.map_or_else(|| instance_kind(raw), |(kind, _)| kind) {
        kind @ (Kind::Integer | Kind::Number) => number(obj, raw, path, kind),
        Kind::String => string(obj, raw, path),
        Kind::Boolean => bool::read(&mut Reader::new(raw), path).map(drop),
        Kind::Array => array(obj, raw, path),
        Kind::Object => object(obj, raw, path),
        Kind::Null => Ok(()),
    }
}

/// An integer is decoded as one and compared exactly (`@range` on an integer type); with
/// a fractional bound, or as a `number`, it is an `f64` with an `f64` range.
fn number(
    obj: &Map<String, Value>,
    raw: &str,
    path: &Path<'_>,
    kind: Kind,
) -> Result<(), ArgError> {
    let (min, max) = (obj.get("minimum"), obj.get("maximum"));
    let bounds_integral =
        min.is_none_or(|v| integral(v).is_some()) && max.is_none_or(|v| integral(v).is_some());
    if kind == Kind::Integer {
        let v = args::integer(&mut Reader::new(raw), path, i128::MIN, i128::MAX)?;
        if bounds_integral {
            return check::range(v, min.and_then(integral), max.and_then(integral), path);
        }
    }
    let v = f64::read(&mut Reader::new(raw), path)?;
    let bound = |b: Option<&Value>| b.and_then(Value::as_f64);
    check::range(v, bound(min), bound(max), path)
}

fn string(obj: &Map<String, Value>, raw: &str, path: &Path<'_>) -> Result<(), ArgError> {
    let s = args::string(&mut Reader::new(raw), path)?;
    check::length(&s, count(obj, "minLength"), count(obj, "maxLength"), path)?;
    if let Some(Value::String(source)) = obj.get("pattern") {
        // Generated code declares a `static`; the test leaks one per use.
        let source: &'static str = Box::leak(source.clone().into_boxed_str());
        let pattern: &'static Pattern = Box::leak(Box::new(Pattern::new(source)));
        check::pattern(&s, pattern, path)?;
    }
    if let Some(f) = obj
        .get("format")
        .and_then(Value::as_str)
        .and_then(format_named)
    {
        check::format(&s, f, path)?;
    }
    Ok(())
}

fn array(obj: &Map<String, Value>, raw: &str, path: &Path<'_>) -> Result<(), ArgError> {
    let item_schema = obj.get("items");
    let mut items = Vec::new();
    args::array(&mut Reader::new(raw), path, |r, i| {
        let item = r.read_raw().map_err(|_| ArgError::bare(&path.index(i)))?;
        if let Some(schema) = item_schema {
            validate(schema, item, &path.index(i))?;
        }
        items.push(item);
        Ok(())
    })?;
    check::items(
        items.len(),
        count(obj, "minItems"),
        count(obj, "maxItems"),
        path,
    )?;
    if obj.get("uniqueItems") == Some(&Value::Bool(true)) {
        // `set<json>`: the items as JSON values.
        let values = items
            .iter()
            .enumerate()
            .map(|(i, item)| Value::read(&mut Reader::new(item), &path.index(i)))
            .collect::<Result<Vec<_>, _>>()?;
        check::unique_json(&values, path)?;
    }
    Ok(())
}

fn object(obj: &Map<String, Value>, raw: &str, path: &Path<'_>) -> Result<(), ArgError> {
    let empty = Map::new();
    let props = obj
        .get("properties")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let required: Vec<&str> = obj
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut seen = vec![false; required.len()];
    args::object(&mut Reader::new(raw), path, |r, key| {
        let value = r.read_raw().map_err(|_| ArgError::bare(&path.field(key)))?;
        if let Some(i) = required.iter().position(|r| *r == key) {
            seen[i] = true;
        }
        match (props.get(key), obj.get("additionalProperties")) {
            (Some(schema), _) => validate(schema, value, &path.field(key)),
            // A record: closed.
            (None, Some(Value::Bool(false))) => Err(ArgError::unknown(path, key)),
            // `map<string, T>`.
            (None, Some(schema @ Value::Object(_))) => validate(schema, value, &path.key(key)),
            // An open object: any other property.
            (None, _) => Value::read(&mut Reader::new(value), &path.field(key)).map(drop),
        }
    })?;
    for (name, present) in required.iter().zip(seen) {
        args::required(present.then_some(()), path, name)?;
    }
    Ok(())
}

/// The instance as JSON text with every non-ASCII character escaped (`\uXXXX`, surrogate
/// pairs beyond the BMP), so the decoders' unescaping path sees the same values.
fn ascii_json(v: &Value) -> String {
    match v {
        Value::String(s) => {
            let mut out = String::from("\"");
            for c in s.chars() {
                match c {
                    '"' => out.push_str("\\\""),
                    '\\' => out.push_str("\\\\"),
                    ' '..='~' => out.push(c),
                    _ => {
                        let mut units = [0u16; 2];
                        for u in c.encode_utf16(&mut units) {
                            out.push_str(&format!("\\u{u:04x}"));
                        }
                    }
                }
            }
            out.push('"');
            out
        }
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(ascii_json).collect();
            format!("[{}]", items.join(","))
        }
        Value::Object(map) => {
            let entries: Vec<String> = map
                .iter()
                .map(|(k, v)| {
                    let key = ascii_json(&Value::String(k.clone()));
                    format!("{key}:{}", ascii_json(v))
                })
                .collect();
            format!("{{{}}}", entries.join(","))
        }
        other => other.to_string(),
    }
}

/// Runs one instance in one encoding; a panic is reported as such.
fn accepts(schema: &Value, json: String) -> Result<bool, String> {
    let raw = RawValue::from_string(json).map_err(|e| e.to_string())?;
    catch_unwind(AssertUnwindSafe(|| {
        validate(schema, raw.get(), &Path::Root.field("x")).is_ok()
    }))
    .map_err(|_| "panicked".to_string())
}

#[test]
fn runtime_checks_mean_what_json_schema_means() {
    let (mut run, mut skipped, mut deviated) = (0, 0, 0);
    let mut skip_reasons = BTreeMap::<String, usize>::new();
    let mut failures = Vec::new();
    let mut used = vec![false; DEVIATIONS.len()];
    let sources = FILES
        .iter()
        .map(|file| {
            (
                *file,
                std::fs::read_to_string(format!("{SUITE}{file}")).unwrap(),
            )
        })
        .chain([("(own cases)", OWN_CASES.to_string())]);
    for (file, text) in sources {
        let groups: Vec<Value> = serde_json::from_str(&text).unwrap();
        for group in &groups {
            let schema = &group["schema"];
            let tests = group["tests"].as_array().unwrap();
            let name = group["description"].as_str().unwrap();
            if let Some(why) = unmapped(schema) {
                skipped += tests.len();
                *skip_reasons.entry(why).or_default() += tests.len();
                continue;
            }
            for test in tests {
                run += 1;
                let desc = test["description"].as_str().unwrap();
                let valid = test["valid"].as_bool().unwrap();
                let data = &test["data"];
                let plain = accepts(schema, data.to_string());
                let escaped = accepts(schema, ascii_json(data));
                let deviation = DEVIATIONS
                    .iter()
                    .position(|d| d.file == file && d.group == name && d.test == desc);
                let outcome = match (&plain, &escaped) {
                    (Ok(a), Ok(b)) if a == b => Ok(*a),
                    _ => Err(format!("plain {plain:?}, escaped {escaped:?}")),
                };
                match (outcome, deviation) {
                    (Ok(got), None) if got == valid => {}
                    (Ok(got), Some(i)) if got != valid => {
                        used[i] = true;
                        deviated += 1;
                    }
                    (Ok(got), Some(_)) => failures.push(format!(
                        "{file} / {name} / {desc}: listed as a deviation, but the runtime agrees (accepts: {got})"
                    )),
                    (Ok(got), None) => failures.push(format!(
                        "{file} / {name} / {desc}: {data} valid={valid}, runtime accepts={got}"
                    )),
                    (Err(e), _) => failures.push(format!("{file} / {name} / {desc}: {data}: {e}")),
                }
            }
        }
    }
    println!(
        "JSON-Schema-Test-Suite: {run} cases run ({deviated} deliberate deviations), {skipped} skipped, {} failing",
        failures.len()
    );
    for (why, n) in &skip_reasons {
        println!("  skipped {n}: {why}");
    }
    for f in &failures {
        println!("  FAIL {f}");
    }
    for (d, used) in DEVIATIONS.iter().zip(used) {
        assert!(
            used,
            "deviation not met: {} / {} / {}",
            d.file, d.group, d.test
        );
        assert!(!d.reason.is_empty());
    }
    assert!(failures.is_empty(), "{} cases fail", failures.len());
}
