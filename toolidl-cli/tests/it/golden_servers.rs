//! The six reference servers translated to `.tool` (tests/golden/servers; README.md there
//! says where each comes from and what differs).
//!
//! For each `<server>.tool`:
//! - `toolidl schema` prints exactly `<server>.json` (`TOOLIDL_BLESS=1` rewrites it);
//! - `<server>.original.json` maps each tool name to the inputSchema the original server
//!   publishes, and lists exactly the tools the translation lists;
//! - every instance of `<server>.instances.json` is accepted, or refused, alike by our schema
//!   (JSON Schema 2020-12) and by the original one (the draft its `$schema` names, else
//!   2020-12), formats asserted in both:
//!
//! ```json
//! { "tool_name": {
//!     "valid": [ ... ],             // both accept each
//!     "invalid": [ ... ],           // both refuse each
//!     "invalid_changes": [ {..} ],  // merged over valid[0] (keys replaced): both refuse
//!     "invalid_missing": [ "k" ],   // valid[0] without key k: both refuse
//!     "differences": [ {"instance": .., "original": bool, "ours": bool, "why": ".."} ] } }
//! ```
//!
//! A `differences` entry is a documented gap: each validator must give the result it states,
//! and the two must differ, so closing a gap makes the test say so.
//! - Besides those, for every tool: the originals' inputSchemas do not close the arguments
//!   object (no `additionalProperties: false`), and neither do the translations (`@open` on
//!   each tool); valid[0] with an unknown member is accepted by both.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Map, Value};

use crate::support;
use support::{invalid_instances, list, validator as ours};

fn servers_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/golden/servers")
}

/// The stems of every `.tool` file, sorted.
fn servers() -> Vec<String> {
    let mut stems: Vec<String> = fs::read_dir(servers_dir())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "tool"))
        .map(|path| path.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    stems.sort();
    assert_eq!(
        stems,
        ["fetch", "filesystem", "github", "memory", "sentry", "time"],
        "the six servers"
    );
    stems
}

/// `toolidl schema <server>.tool`, run from the directory as a user would.
fn schema_of(stem: &str) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_toolidl"))
        .arg("schema")
        .arg(format!("{stem}.tool"))
        .current_dir(servers_dir())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "toolidl schema {stem}.tool failed ({:?}):\n{}",
        output.status.code(),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

fn read_json(stem: &str, suffix: &str) -> Map<String, Value> {
    let path = servers_dir().join(format!("{stem}.{suffix}"));
    let text = fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{} cannot be read: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn schema_output_equals_the_golden_files() {
    support::check_golden_json(&servers_dir(), &servers(), schema_of);
}

/// An original schema, in the draft its `$schema` names (draft-07 for the zod-made ones),
/// else 2020-12 (what MCP assumes without `$schema`).
fn original(schema: &Value) -> Result<jsonschema::Validator, String> {
    match schema.get("$schema").and_then(Value::as_str) {
        Some("http://json-schema.org/draft-07/schema#") => {
            jsonschema::draft7::meta::validate(schema)
                .map_err(|e| format!("not a valid draft-07 schema: {e}"))?;
            jsonschema::draft7::options()
                .should_validate_formats(true)
                .build(schema)
                .map_err(|e| format!("does not compile: {e}"))
        }
        None => ours(schema),
        Some(other) => Err(format!("unexpected $schema {other}")),
    }
}

#[test]
fn ours_and_the_originals_accept_and_refuse_the_same_arguments() {
    let mut failures = Vec::new();
    for stem in servers() {
        let document: Value = serde_json::from_str(&schema_of(&stem)).unwrap();
        let originals = read_json(&stem, "original.json");
        let instances = read_json(&stem, "instances.json");
        let tools = document["tools"].as_array().unwrap();
        let listed: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
        let mut original_names: Vec<&str> = originals.keys().map(String::as_str).collect();
        let mut sorted = listed.clone();
        sorted.sort_unstable();
        original_names.sort_unstable();
        if sorted != original_names {
            failures.push(format!(
                "{stem}: listed tools {sorted:?}, original tools {original_names:?}"
            ));
        }
        for name in instances.keys() {
            if !listed.contains(&name.as_str()) {
                failures.push(format!("{stem}: instances for an unknown tool {name}"));
            }
        }
        for tool in tools {
            let name = tool["name"].as_str().unwrap();
            let label = format!("{stem}/{name}");
            let (ours, original) = match (
                ours(&tool["inputSchema"]),
                originals
                    .get(name)
                    .map_or(Err("no original".into()), original),
            ) {
                (Ok(a), Ok(b)) => (a, b),
                (a, b) => {
                    failures.push(format!(
                        "{label}: ours {:?}, original {:?}",
                        a.err(),
                        b.err()
                    ));
                    continue;
                }
            };
            let Some(spec) = instances.get(name).and_then(Value::as_object) else {
                failures.push(format!("{label}: no instances"));
                continue;
            };
            let valid = list(spec, "valid");
            let invalid = invalid_instances(spec);
            if valid.is_empty() || invalid.is_empty() {
                failures.push(format!("{label}: needs valid and invalid instances"));
            }
            for (instance, expected) in valid
                .iter()
                .map(|i| (i, true))
                .chain(invalid.iter().map(|i| (i, false)))
            {
                let (a, b) = (ours.is_valid(instance), original.is_valid(instance));
                if (a, b) != (expected, expected) {
                    failures.push(format!(
                        "{label}: {instance}: expected {}, ours says {a}, the original {b}",
                        if expected { "valid" } else { "invalid" }
                    ));
                }
            }
            for difference in list(spec, "differences") {
                let instance = &difference["instance"];
                let expected = (
                    difference["ours"].as_bool().expect("ours: bool"),
                    difference["original"].as_bool().expect("original: bool"),
                );
                assert!(
                    difference["why"]
                        .as_str()
                        .is_some_and(|why| !why.is_empty()),
                    "{label}: a difference says why"
                );
                assert_ne!(expected.0, expected.1, "{label}: a difference differs");
                let actual = (ours.is_valid(instance), original.is_valid(instance));
                if actual != expected {
                    failures.push(format!(
                        "{label}: documented difference {instance}: expected ours {}, original {}; got ours {}, original {} (update README.md if a gap closed)",
                        expected.0, expected.1, actual.0, actual.1
                    ));
                }
            }
            // Every original accepts unknown arguments, and so does each tool here (`@open`).
            let mut extra = valid
                .first()
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default();
            extra.insert("unlisted_member".into(), Value::from(1));
            let extra = Value::Object(extra);
            let actual = (ours.is_valid(&extra), original.is_valid(&extra));
            if actual != (true, true) {
                failures.push(format!(
                    "{label}: an unknown argument: ours {}, original {} (both should accept it)",
                    actual.0, actual.1
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
