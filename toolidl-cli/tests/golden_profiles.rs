//! Golden tests of `toolidl schema --profile` and `toolidl lint`.
//!
//! For each `tests/golden/schema/<case>.tool` and each profile other than `standard`:
//! - `toolidl schema --profile P` equals `tests/golden/profiles/P/<case>.json` byte for byte
//!   (`TOOLIDL_BLESS=1` rewrites them; read every rewritten file by eye);
//! - every published input schema is a valid 2020-12 schema (Gemini's `nullable` read as
//!   OpenAPI 3.0 reads it);
//! - the profile's own output lints clean under it (`toolidl lint --profile P --published`);
//! - what the standard schema accepts (`<case>.instances.json`, `valid`) the Claude and
//!   Gemini variants accept too: they only loosen what is listed, the server keeps the
//!   checks. (OpenAI strict's variant requires every property, so it accepts the instances
//!   that name them all.)

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Map, Value};

const PROFILES: [&str; 3] = ["claude", "openai-strict", "gemini"];

use common::schema_dir;

fn profile_dir(profile: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/golden/profiles")
        .join(profile)
}

fn cases() -> Vec<String> {
    common::tool_stems(&schema_dir())
}

fn toolidl(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_toolidl"))
        .args(args)
        .current_dir(schema_dir())
        .output()
        .unwrap()
}

fn blessing() -> bool {
    std::env::var_os("TOOLIDL_BLESS").is_some_and(|v| v == "1")
}

/// `nullable: true` as Gemini reads it: the type (or the enum's members) or `null`.
fn openapi_to_2020(schema: &Value) -> Value {
    match schema {
        Value::Object(obj) => {
            let mut out = Map::new();
            let nullable = obj.get("nullable") == Some(&Value::Bool(true));
            for (k, v) in obj {
                match k.as_str() {
                    "nullable" => {}
                    "type" if nullable => {
                        out.insert(k.clone(), Value::Array(vec![v.clone(), "null".into()]));
                    }
                    "enum" if nullable => {
                        let mut members = v.as_array().cloned().unwrap_or_default();
                        members.push(Value::Null);
                        out.insert(k.clone(), Value::Array(members));
                    }
                    _ => {
                        out.insert(k.clone(), openapi_to_2020(v));
                    }
                }
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(openapi_to_2020).collect()),
        other => other.clone(),
    }
}

fn tools(listing: &Value) -> &[Value] {
    listing["tools"].as_array().map_or(&[], Vec::as_slice)
}

#[test]
fn published_variants_equal_the_golden_files_and_lint_clean() {
    let mut failures = Vec::new();
    for profile in PROFILES {
        fs::create_dir_all(profile_dir(profile)).unwrap();
        for stem in cases() {
            let file = format!("{stem}.tool");
            let out = toolidl(&["schema", "--profile", profile, &file]);
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let actual = String::from_utf8(out.stdout).unwrap();
            let golden = profile_dir(profile).join(format!("{stem}.json"));
            if blessing() {
                fs::write(&golden, &actual).unwrap();
            } else if fs::read_to_string(&golden).ok().as_deref() != Some(actual.as_str()) {
                failures.push(format!("{profile}/{stem}.json differs (TOOLIDL_BLESS=1)"));
            }
            let lint = toolidl(&["lint", "--profile", profile, "--published", &file]);
            if !lint.status.success() {
                failures.push(format!(
                    "{profile}/{stem}: its own output does not lint clean:\n{}",
                    String::from_utf8_lossy(&lint.stdout)
                ));
            }
            let listing: Value = serde_json::from_str(&actual).unwrap();
            for tool in tools(&listing) {
                let schema = openapi_to_2020(&tool["inputSchema"]);
                if let Err(e) = jsonschema::draft202012::meta::validate(&schema) {
                    failures.push(format!("{profile}/{stem} {}: {e}", tool["name"]));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_loosening_variants_accept_what_the_standard_schema_accepts() {
    let mut failures = Vec::new();
    for stem in cases() {
        let path = schema_dir().join(format!("{stem}.instances.json"));
        let Ok(text) = fs::read_to_string(&path) else {
            continue;
        };
        let instances: Map<String, Value> = serde_json::from_str(&text).unwrap();
        for profile in ["claude", "gemini"] {
            let out = toolidl(&["schema", "--profile", profile, &format!("{stem}.tool")]);
            let listing: Value = serde_json::from_slice(&out.stdout).unwrap();
            for tool in tools(&listing) {
                // Published names replace characters Claude refuses with `_`.
                let spec = instances.iter().find(|(name, _)| {
                    toolidl_codegen::profile::published_name(
                        name,
                        toolidl_codegen::profile::Profile::Claude,
                    ) == tool["name"].as_str().unwrap_or("")
                });
                let Some((_, spec)) = spec else { continue };
                let schema = openapi_to_2020(&tool["inputSchema"]);
                let validator = jsonschema::draft202012::new(&schema).unwrap();
                for valid in spec["valid"].as_array().into_iter().flatten() {
                    if !validator.is_valid(valid) {
                        failures.push(format!(
                            "{profile}/{stem} {}: refuses {valid}",
                            tool["name"]
                        ));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn lint_reports_per_profile_and_exits_1_on_errors() {
    let out = toolidl(&["lint", "--profile", "gemini", "annotations.tool"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("error[L0307]"), "{text}");
    let out = toolidl(&["lint", "annotations.tool"]);
    assert_eq!(out.status.code(), Some(0));
    let out = toolidl(&["lint", "--profile", "nope", "annotations.tool"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("one of: standard, claude, openai-strict, gemini")
    );
}

#[test]
fn every_example_lints_clean_under_each_profile_s_own_output() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut files = Vec::new();
    for example in fs::read_dir(&examples).unwrap() {
        let tools = example.unwrap().path().join("tools");
        if let Ok(entries) = fs::read_dir(&tools) {
            for entry in entries {
                let path = entry.unwrap().path();
                if path.extension().is_some_and(|x| x == "tool") {
                    files.push(path);
                }
            }
        }
    }
    files.sort();
    assert!(!files.is_empty());
    let mut failures = Vec::new();
    for file in &files {
        for profile in ["standard", "claude", "openai-strict", "gemini"] {
            let file = file.to_str().unwrap();
            let out = toolidl(&["lint", "--profile", profile, "--published", file]);
            if !out.status.success() {
                failures.push(format!(
                    "{file} ({profile}):\n{}{}",
                    String::from_utf8_lossy(&out.stdout),
                    String::from_utf8_lossy(&out.stderr)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
