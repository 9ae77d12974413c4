//! Helpers shared by the golden tests of `toolidl schema` (golden_schema.rs,
//! golden_servers.rs, import_cli.rs).

use serde_json::{Map, Value};

/// Compares each `<stem>.json` of `dir` with `actual(stem)`; with `TOOLIDL_BLESS=1`, writes
/// it instead. Panics listing every difference.
pub fn check_golden_json(dir: &std::path::Path, stems: &[String], actual: impl Fn(&str) -> String) {
    let bless = std::env::var_os("TOOLIDL_BLESS").is_some_and(|v| v == "1");
    let mut failures = Vec::new();
    for stem in stems {
        let actual = actual(stem);
        let path = dir.join(format!("{stem}.json"));
        if bless {
            std::fs::write(&path, &actual).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&path).unwrap_or_default();
        if actual != expected {
            failures.push(format!(
                "{stem}: output differs from {stem}.json, {}",
                first_difference(&actual, &expected)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The first line where two texts differ, for a failure message.
pub fn first_difference(actual: &str, expected: &str) -> String {
    for (n, (a, e)) in actual.lines().zip(expected.lines()).enumerate() {
        if a != e {
            return format!("line {}:\n  actual:   {a}\n  expected: {e}", n + 1);
        }
    }
    format!(
        "one is a prefix of the other ({} vs {} lines)",
        actual.lines().count(),
        expected.lines().count()
    )
}

/// The array under `key`, or none.
pub fn list<'a>(spec: &'a Map<String, Value>, key: &str) -> &'a [Value] {
    spec.get(key)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// The invalid instances of a spec: `invalid`, then `invalid_changes` and `invalid_missing`
/// applied to the first valid instance.
pub fn invalid_instances(spec: &Map<String, Value>) -> Vec<Value> {
    let mut out: Vec<Value> = list(spec, "invalid").to_vec();
    let base = list(spec, "valid").first().and_then(Value::as_object);
    for change in list(spec, "invalid_changes") {
        let mut instance = base
            .cloned()
            .expect("invalid_changes needs an object valid[0]");
        for (key, value) in change.as_object().expect("a change is an object") {
            instance.insert(key.clone(), value.clone());
        }
        out.push(Value::Object(instance));
    }
    for key in list(spec, "invalid_missing") {
        let mut instance = base
            .cloned()
            .expect("invalid_missing needs an object valid[0]");
        let key = key.as_str().expect("a missing key is a string");
        assert!(instance.remove(key).is_some(), "valid[0] has no key {key}");
        out.push(Value::Object(instance));
    }
    out
}

/// A JSON Schema 2020-12 validator asserting formats, after checking the schema against the
/// 2020-12 metaschema.
pub fn validator(schema: &Value) -> Result<jsonschema::Validator, String> {
    jsonschema::draft202012::meta::validate(schema)
        .map_err(|e| format!("not a valid 2020-12 schema: {e}"))?;
    jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(schema)
        .map_err(|e| format!("does not compile: {e}"))
}
