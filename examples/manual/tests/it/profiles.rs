//! The hand-written variants are what each client profile publishes from the standard
//! listing (codegen's own rules, as for a `.tool` file), with none missing and none that
//! merely repeats the standard tool; and the binary serves the one `--profile` names.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use serde_json::{Value, json};
use toolidl_codegen::profile::{self, Profile as Rules};
use toolidl_runtime::Profile;

const PROFILES: [(Profile, Rules); 4] = [
    (Profile::Standard, Rules::Standard),
    (Profile::Claude, Rules::Claude),
    (Profile::OpenAiStrict, Rules::OpenAiStrict),
    (Profile::Gemini, Rules::Gemini),
];

/// The standard `tool` as `rules` publish it (its name and input schema), as compact JSON.
fn published(tool: &str, rules: Rules) -> String {
    let mut entry: Value = serde_json::from_str(tool).expect("a Tool object");
    let name = entry["name"].as_str().expect("a name").to_owned();
    entry["name"] = profile::published_name(&name, rules).into();
    entry["inputSchema"] = profile::publish_schema(&entry["inputSchema"], rules);
    entry.to_string()
}

#[test]
fn every_variant_is_what_its_profile_publishes() {
    for tool in &manual_example::TOOLS {
        for (runtime, rules) in PROFILES {
            let expected = published(&tool.json, rules);
            let (name, json) = tool.published(runtime);
            assert_eq!(json, expected, "{} under {runtime}", tool.name);
            assert_eq!(name, profile::published_name(&tool.name, rules));
            let variant = tool.variants.iter().find(|v| v.profile == runtime);
            assert_eq!(
                variant.is_some(),
                expected != tool.json,
                "{} under {runtime}: a variant exactly where the profile differs",
                tool.name
            );
        }
    }
}

fn listed(args: &[&str]) -> Vec<Value> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_manual-example"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("starts");
    let mut stdin = child.stdin.take().expect("stdin");
    for message in [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
    ] {
        writeln!(stdin, "{message}").expect("writes");
    }
    drop(stdin);
    let stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let replies: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(&l.expect("a line")).expect("JSON"))
        .collect();
    assert!(child.wait().expect("exits").success());
    let list = replies
        .iter()
        .find(|r| r["id"] == 2)
        .expect("the tools/list reply");
    list["result"]["tools"].as_array().expect("tools").clone()
}

#[test]
fn the_binary_lists_the_profile_it_is_started_with() {
    let strict = listed(&["--profile", "openai-strict"]);
    let name = &strict[0]["inputSchema"]["properties"]["name"];
    assert_eq!(
        name,
        &json!({"type": "string", "description": "Who to greet. Length at least 1."})
    );
    let standard = listed(&[]);
    assert_eq!(
        standard[0]["inputSchema"]["properties"]["name"]["minLength"],
        1
    );
}

#[test]
fn an_unknown_profile_is_a_usage_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_manual-example"))
        .args(["--profile", "gpt"])
        .stdin(Stdio::null())
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr
            .contains("no profile named `gpt` (profiles: standard, claude, openai-strict, gemini)"),
        "{stderr}"
    );
}
