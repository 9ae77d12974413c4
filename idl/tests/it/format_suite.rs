//! The JSON-Schema-Test-Suite's format cases (draft 2020-12, optional/format) against the
//! build-time check of defaults: each string becomes the default of a parameter in a small
//! in-memory `.tool` file, and the compiler must report a format error exactly for the
//! strings the suite calls invalid. Deviations are named below, with their reason; they are
//! the runtime's too (`runtime/tests/it/json_schema_suite.rs`, docs/runtime.md).

use serde_json::Value;
use toolidl::source::{MemoryLoader, SourceId};

const SUITE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/fixtures/json-schema-test-suite/tests/draft2020-12/optional/format/"
);

/// Each format file and the parameters whose defaults must have that format.
const FORMATS: &[(&str, &[&str])] = &[
    ("date-time.json", &["x: datetime"]),
    ("date.json", &["x: date"]),
    ("time.json", &["x: time"]),
    ("uuid.json", &["x: uuid"]),
    ("uri.json", &["x: uri", "@url x: string"]),
    ("email.json", &["@email x: string"]),
];

/// Cases where `.tool` deliberately differs from JSON Schema: (file, test, reason).
const DEVIATIONS: &[(&str, &str, &str)] = &[
    // `.tool`'s `time` is a local time of day (.NET's `TimeOnly`), so RFC 3339's offset is
    // optional; with one, it is checked as RFC 3339.
    (
        "time.json",
        "no time offset",
        "`time` is a local time of day",
    ),
    (
        "time.json",
        "no time offset with second fraction",
        "`time` is a local time of day",
    ),
];

/// `s` as a `.tool` string literal: quotes and backslashes escaped, anything outside
/// printable ASCII as `\u{…}`.
fn tool_literal(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            ' '..='~' => out.push(c),
            _ => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
        }
    }
    out.push('"');
    out
}

/// Whether the compiler accepts `value` as the default of `param`. Any error other than a
/// default that breaks its format (E0504) or its constraint (E0502) fails the test.
fn default_accepted(param: &str, value: &str) -> bool {
    let text = format!("service S {{ tool t({param} = {}); }}", tool_literal(value));
    let output = toolidl::compile(&MemoryLoader::new(), SourceId::new("f.tool"), text);
    let errors: Vec<_> = output.diagnostics.iter().filter(|d| d.is_error()).collect();
    assert!(
        errors.iter().all(|d| matches!(d.code, "E0504" | "E0502")),
        "{}",
        output.render()
    );
    errors.is_empty()
}

#[test]
fn default_formats_mean_what_json_schema_means() {
    let (mut run, mut skipped, mut deviated) = (0, 0, 0);
    let mut failures = Vec::new();
    let mut used = vec![false; DEVIATIONS.len()];
    for (file, params) in FORMATS {
        let text = std::fs::read_to_string(format!("{SUITE}{file}")).unwrap();
        let groups: Vec<Value> = serde_json::from_str(&text).unwrap();
        for test in groups.iter().flat_map(|g| g["tests"].as_array().unwrap()) {
            // Defaults of a string type are string literals: other values are type errors.
            let Some(data) = test["data"].as_str() else {
                skipped += params.len();
                continue;
            };
            let desc = test["description"].as_str().unwrap();
            let valid = test["valid"].as_bool().unwrap();
            let deviation = DEVIATIONS
                .iter()
                .position(|(f, t, _)| f == file && *t == desc);
            for param in *params {
                run += 1;
                let got = default_accepted(param, data);
                match deviation {
                    None if got == valid => {}
                    Some(i) if got != valid => {
                        used[i] = true;
                        deviated += 1;
                    }
                    _ => failures.push(format!(
                        "{file} / {desc}: `{param} = {}` valid={valid}, accepted={got}",
                        tool_literal(data)
                    )),
                }
            }
        }
    }
    println!(
        "format suite (defaults): {run} cases run ({deviated} deliberate deviations), {skipped} skipped (not strings), {} failing",
        failures.len()
    );
    for f in &failures {
        println!("  FAIL {f}");
    }
    for ((file, test, reason), used) in DEVIATIONS.iter().zip(used) {
        assert!(used, "deviation not met: {file} / {test} ({reason})");
    }
    assert!(failures.is_empty(), "{} cases fail", failures.len());
}
