//! Golden tests of `toolidl schema`.
//!
//! For each `tests/golden/schema/<case>.tool` the CLI's stdout must equal `<case>.json` byte
//! for byte (so key for key and in order). Every emitted schema must be a valid JSON Schema
//! 2020-12 document, and `<case>.instances.json` must show what it accepts and refuses:
//!
//! ```json
//! { "tool_name": {
//!     "valid": [ ... ],             // each must validate against inputSchema
//!     "invalid": [ ... ],           // each must fail
//!     "invalid_changes": [ {..} ],  // each merged over valid[0] (keys replaced) must fail
//!     "invalid_missing": [ "k" ],   // valid[0] without key k must fail
//!     "output_valid": [ ... ],      // the same for outputSchema, when the tool has one
//!     "output_invalid": [ ... ] } }
//! ```
//!
//! Every tool needs at least one valid and one invalid instance, and one of each for its
//! outputSchema. `format` is asserted. `TOOLIDL_BLESS=1` rewrites the `.json` files from the
//! CLI's output: read every rewritten file by eye against the contract before committing.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Map, Value};

use crate::support;
use support::{invalid_instances, list, validator};

fn golden_dir() -> PathBuf {
    common::schema_dir()
}

/// The stems of every `.tool` file, sorted.
fn cases() -> Vec<String> {
    common::tool_stems(&golden_dir())
}

/// Runs `toolidl schema <file>` from `dir`, with a relative path as a user would.
fn toolidl_schema(dir: &Path, file: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_toolidl"))
        .arg("schema")
        .arg(file)
        .current_dir(dir)
        .output()
        .unwrap()
}

/// The CLI's stdout for one golden case; panics (with stderr) unless it exits 0.
fn schema_of(stem: &str) -> String {
    let output = toolidl_schema(&golden_dir(), &format!("{stem}.tool"));
    assert!(
        output.status.success(),
        "toolidl schema {stem}.tool failed ({:?}):\n{}",
        output.status.code(),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn schema_output_equals_the_golden_files() {
    support::check_golden_json(&golden_dir(), &cases(), schema_of);
}

/// Checks one schema against its instances; returns the failures.
fn check(
    label: &str,
    schema: &Value,
    valid: &[Value],
    invalid: &[Value],
    failures: &mut Vec<String>,
) {
    let validator = match validator(schema) {
        Ok(validator) => validator,
        Err(error) => {
            failures.push(format!("{label}: {error}"));
            return;
        }
    };
    if valid.is_empty() || invalid.is_empty() {
        failures.push(format!(
            "{label}: needs at least one valid and one invalid instance"
        ));
    }
    for instance in valid {
        if let Err(error) = validator.validate(instance) {
            failures.push(format!("{label}: {instance} should be valid: {error}"));
        }
    }
    for instance in invalid {
        if validator.is_valid(instance) {
            failures.push(format!("{label}: {instance} should be invalid"));
        }
    }
}

#[test]
fn every_schema_is_valid_2020_12_and_means_what_the_tool_says() {
    let mut failures = Vec::new();
    for stem in cases() {
        let document: Value = serde_json::from_str(&schema_of(&stem)).unwrap();
        let path = golden_dir().join(format!("{stem}.instances.json"));
        let text = fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{stem}.instances.json cannot be read: {e}"));
        let instances: Map<String, Value> = serde_json::from_str(&text).unwrap();
        let tools = document["tools"].as_array().unwrap();
        for tool in tools {
            let name = tool["name"].as_str().unwrap();
            let label = format!("{stem}/{name}");
            let Some(spec) = instances.get(name).and_then(Value::as_object) else {
                failures.push(format!("{label}: no instances"));
                continue;
            };
            let valid = list(spec, "valid");
            check(
                &format!("{label} inputSchema"),
                &tool["inputSchema"],
                valid,
                &invalid_instances(spec),
                &mut failures,
            );
            match tool.get("outputSchema") {
                Some(output) => check(
                    &format!("{label} outputSchema"),
                    output,
                    list(spec, "output_valid"),
                    list(spec, "output_invalid"),
                    &mut failures,
                ),
                None if spec.contains_key("output_valid")
                    || spec.contains_key("output_invalid") =>
                {
                    failures.push(format!(
                        "{label}: instances for an outputSchema it does not have"
                    ))
                }
                None => {}
            }
        }
        for name in instances.keys() {
            if !tools.iter().any(|t| t["name"] == name.as_str()) {
                failures.push(format!("{stem}: instances for an unknown tool {name}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn an_invalid_file_prints_diagnostics_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("bad.tool"),
        "service S {\n    tool t(x: Nope);\n}\n",
    )
    .unwrap();
    let output = toolidl_schema(dir.path(), "bad.tool");
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty(), "nothing on stdout on error");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("bad.tool:2:"),
        "diagnostics name the place: {stderr}"
    );

    let missing = toolidl_schema(dir.path(), "missing.tool");
    assert_eq!(missing.status.code(), Some(1));
    assert!(missing.stdout.is_empty());
    assert!(!missing.stderr.is_empty());
}
