//! Golden tests of `toolidl schema --profile` and `toolidl lint`.
//!
//! For each `tests/golden/schema/<case>.tool` and each profile other than `standard`:
//! - `toolidl schema --profile P` equals `tests/golden/profiles/P/<case>.json` byte for byte
//!   (`TOOLIDL_BLESS=1` rewrites them; read every rewritten file by eye);
//! - every published input schema is a valid 2020-12 schema (Gemini's `nullable` read as
//!   OpenAPI 3.0 reads it);
//! - the profile's own output lints clean under it (`toolidl lint --profile P --published`),
//!   but for what the variant narrows (L0314, L0315): those findings are pinned, one line
//!   each, in `tests/golden/profiles/narrowings.txt` (read it by eye when blessing);
//! - what the standard schema accepts (`<case>.instances.json`, `valid`) the Claude and
//!   Gemini variants accept too: they only loosen what is listed, the server keeps the
//!   checks;
//! - the OpenAI strict variant accepts them too, sent as a strict client sends them (every
//!   property named: an absent one without a default as `null`, one with a default as that
//!   default; maps as `[{key, value}]` entries), but where the variant narrows (pinned in
//!   `narrowings.txt`): those refusals are pinned in `tests/golden/profiles/strict_refusals.txt`.

use crate::common;

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

/// The first line of each finding in a lint output (`error[L0315]: tool `t` /inputSchema…: …`).
fn finding_heads(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .filter(|l| l.starts_with("error[") || l.starts_with("warning["))
}

/// A narrowing finding's line in `narrowings.txt`: profile, case, tool, pointer, code.
fn narrowing_line(profile: &str, stem: &str, head: &str) -> Option<String> {
    let code = head.strip_prefix("error[")?.split(']').next()?;
    if !matches!(code, "L0314" | "L0315") {
        return None;
    }
    let rest = head.split_once("tool `")?.1;
    let (tool, rest) = rest.split_once('`')?;
    let pointer = rest.trim_start().split(": ").next()?;
    Some(format!("{profile} {stem} {tool} {pointer} {code}"))
}

#[test]
fn published_variants_equal_the_golden_files_and_lint_clean() {
    let mut failures = Vec::new();
    let mut narrowings = String::new();
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
            let text = String::from_utf8_lossy(&lint.stdout);
            let mut other_errors = false;
            for head in finding_heads(&text).filter(|h| h.starts_with("error[")) {
                match narrowing_line(profile, &stem, head) {
                    Some(line) => {
                        narrowings.push_str(&line);
                        narrowings.push('\n');
                    }
                    None => other_errors = true,
                }
            }
            if other_errors || (!lint.status.success() && !text.contains("error[")) {
                failures.push(format!(
                    "{profile}/{stem}: its own output does not lint clean:\n{text}{}",
                    String::from_utf8_lossy(&lint.stderr)
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
    let golden = profile_dir("narrowings.txt");
    if blessing() {
        fs::write(&golden, &narrowings).unwrap();
    } else if fs::read_to_string(&golden).ok().as_deref() != Some(narrowings.as_str()) {
        failures.push(format!(
            "narrowings.txt differs (TOOLIDL_BLESS=1); now:\n{narrowings}"
        ));
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

/// `value`, valid against the standard `schema`, as a strict client sends it under
/// openai-strict: every property named (absent without a default: `null`; with one: the
/// default), maps as `[{key, value}]` entries.
fn strict_instance(schema: &Value, defs: &Map<String, Value>, value: &Value) -> Value {
    let Some(obj) = schema.as_object() else {
        return value.clone();
    };
    if let Some(target) = obj.get("$ref").and_then(Value::as_str) {
        let name = target.strip_prefix("#/$defs/").unwrap_or(target);
        return match defs.get(name) {
            Some(def) => strict_instance(def, defs, value),
            None => value.clone(),
        };
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(Value::Array(branches)) = obj.get(key) {
            // The branch the standard schema takes the value by.
            let taken = branches.iter().find(|branch| {
                let mut alone = (*branch).clone();
                if let Value::Object(o) = &mut alone {
                    o.insert("$defs".into(), Value::Object(defs.clone()));
                }
                jsonschema::draft202012::new(&alone).is_ok_and(|v| v.is_valid(value))
            });
            return match taken {
                Some(branch) => strict_instance(branch, defs, value),
                None => value.clone(),
            };
        }
    }
    match value {
        Value::Object(members) => {
            if let Some(Value::Object(props)) = obj.get("properties") {
                let mut out = Map::new();
                for (key, prop) in props {
                    let sent = match (members.get(key), prop.get("default")) {
                        (Some(v), _) | (None, Some(v)) => strict_instance(prop, defs, v),
                        (None, None) => Value::Null,
                    };
                    out.insert(key.clone(), sent);
                }
                for (key, v) in members.iter().filter(|(k, _)| !props.contains_key(*k)) {
                    out.insert(key.clone(), v.clone());
                }
                Value::Object(out)
            } else if let Some(values @ Value::Object(_)) = obj.get("additionalProperties") {
                let entries = members.iter().map(|(k, v)| {
                    serde_json::json!({"key": k, "value": strict_instance(values, defs, v)})
                });
                Value::Array(entries.collect())
            } else {
                value.clone()
            }
        }
        Value::Array(items) => match obj.get("items") {
            Some(item) => Value::Array(
                items
                    .iter()
                    .map(|v| strict_instance(item, defs, v))
                    .collect(),
            ),
            None => value.clone(),
        },
        other => other.clone(),
    }
}

#[test]
fn the_strict_variant_accepts_what_the_standard_schema_accepts_as_strict_clients_send_it() {
    let mut failures = Vec::new();
    let mut refusals = String::new();
    for stem in cases() {
        let path = schema_dir().join(format!("{stem}.instances.json"));
        let Ok(text) = fs::read_to_string(&path) else {
            continue;
        };
        let instances: Map<String, Value> = serde_json::from_str(&text).unwrap();
        let file = format!("{stem}.tool");
        let standard: Value = serde_json::from_slice(&toolidl(&["schema", &file]).stdout).unwrap();
        let out = toolidl(&["schema", "--profile", "openai-strict", &file]);
        let listing: Value = serde_json::from_slice(&out.stdout).unwrap();
        for (name, spec) in &instances {
            let published = toolidl_codegen::profile::published_name(
                name,
                toolidl_codegen::profile::Profile::OpenAiStrict,
            );
            let find = |listing: &Value, name: &str| {
                tools(listing)
                    .iter()
                    .find(|t| t["name"] == name)
                    .map(|t| t["inputSchema"].clone())
            };
            let (Some(before), Some(after)) = (find(&standard, name), find(&listing, &published))
            else {
                continue;
            };
            let defs = before["$defs"].as_object().cloned().unwrap_or_default();
            let validator = jsonschema::draft202012::new(&after).unwrap();
            for valid in spec["valid"].as_array().into_iter().flatten() {
                let sent = strict_instance(&before, &defs, valid);
                let mut at: Vec<String> = validator
                    .iter_errors(&sent)
                    .map(|e| format!("'{}'", e.instance_path()))
                    .collect();
                at.dedup();
                if !at.is_empty() {
                    refusals.push_str(&format!(
                        "{stem} {published} refuses {sent} at {}\n",
                        at.join(", ")
                    ));
                }
            }
        }
    }
    let golden = profile_dir("strict_refusals.txt");
    if blessing() {
        fs::write(&golden, &refusals).unwrap();
    } else if fs::read_to_string(&golden).ok().as_deref() != Some(refusals.as_str()) {
        failures.push(format!(
            "strict_refusals.txt differs (TOOLIDL_BLESS=1); now:\n{refusals}"
        ));
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
