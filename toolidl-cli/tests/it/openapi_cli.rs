//! `toolidl import --openapi`: the documents of `tests/golden/openapi` (each written to show
//! some rules of docs/openapi.md) imported, their `.tool` files, warnings, forward bindings
//! and the Rust generated with the bindings compared with golden files (rewritten with
//! `TOOLIDL_BLESS=1`); every imported file resolves. Then the filters, and what is refused.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn goldens() -> PathBuf {
    root().join("tests/golden/openapi")
}

fn toolidl(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_toolidl"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn golden(path: &Path, actual: &str, failures: &mut Vec<String>) {
    if std::env::var_os("TOOLIDL_BLESS").is_some_and(|v| v == "1") {
        fs::write(path, actual).unwrap();
        return;
    }
    let expected = fs::read_to_string(path).unwrap_or_default();
    if actual != expected {
        let line = actual
            .lines()
            .zip(expected.lines())
            .position(|(a, e)| a != e)
            .map_or_else(|| "at the end".to_owned(), |n| format!("at line {}", n + 1));
        failures.push(format!(
            "{} differs {line} (TOOLIDL_BLESS=1 rewrites it):\n{actual}",
            path.display()
        ));
    }
}

const DOCUMENTS: [&str; 4] = [
    "naming.yaml",
    "parameters.yaml",
    "schemas.json",
    "bodies.yaml",
];

#[test]
fn documents_import_as_their_golden_files() {
    let scratch = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for document in DOCUMENTS {
        let stem = document.split('.').next().unwrap();
        let tool = scratch.path().join(format!("{stem}.tool"));
        let binding = scratch.path().join(format!("{stem}.forward.json"));
        let out = toolidl(
            &[
                "import",
                "--openapi",
                document,
                "-o",
                tool.to_str().unwrap(),
                "--forward",
                binding.to_str().unwrap(),
            ],
            &goldens(),
        );
        assert!(
            out.status.success(),
            "{document}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = fs::read_to_string(&tool).unwrap();
        golden(
            &goldens().join(format!("{stem}.tool")),
            &text,
            &mut failures,
        );
        golden(
            &goldens().join(format!("{stem}.warnings.txt")),
            &String::from_utf8(out.stderr).unwrap(),
            &mut failures,
        );
        golden(
            &goldens().join(format!("{stem}.forward.json")),
            &fs::read_to_string(&binding).unwrap(),
            &mut failures,
        );
        let check = toolidl(&["check", tool.to_str().unwrap()], scratch.path());
        assert!(
            check.status.success(),
            "{document}: the imported file does not resolve: {}",
            String::from_utf8_lossy(&check.stdout)
        );
        let generated = toolidl(
            &[
                "generate",
                tool.to_str().unwrap(),
                "--forward",
                binding.to_str().unwrap(),
            ],
            scratch.path(),
        );
        assert!(
            generated.status.success(),
            "{document}: {}",
            String::from_utf8_lossy(&generated.stderr)
        );
        golden(
            &goldens().join(format!("{stem}.rs")),
            &String::from_utf8(generated.stdout).unwrap(),
            &mut failures,
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The tools `args` import from naming.yaml.
fn tools_with(args: &[&str]) -> Vec<String> {
    let mut all = vec!["import", "--openapi", "naming.yaml"];
    all.extend_from_slice(args);
    let out = toolidl(&all, &goldens());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter_map(|l| l.trim().strip_prefix("tool "))
        .map(|l| l.split('(').next().unwrap().to_owned())
        .collect()
}

#[test]
fn tags_and_names_choose_the_operations() {
    // Alone, `ListItems` takes the name another operation would have taken.
    assert_eq!(tools_with(&["--tag", "other"]), ["list_items"]);
    assert_eq!(
        tools_with(&["--tag", "write", "--exclude", "deleteItem"]),
        ["create_item", "replace_item", "patch_items_id"]
    );
    // By operationId or tool name, `*` for any text.
    assert_eq!(
        tools_with(&["--include", "*Item", "--include", "listItems"]),
        ["list_items", "create_item", "replace_item", "delete_item"]
    );
}

#[test]
fn what_is_not_openapi_3_is_refused_and_nothing_is_written() {
    let scratch = tempfile::tempdir().unwrap();
    let out = scratch.path().join("out.tool");
    for (name, text, message) in [
        (
            "swagger.json",
            r#"{"swagger": "2.0", "paths": {}}"#,
            "this is a Swagger 2.0 document (`swagger: \"2.0\"`), which is not read: convert it to OpenAPI 3 first",
        ),
        (
            "old.yaml",
            "openapi: 2.5.0\npaths: {}\n",
            "OpenAPI 2.5.0 is not read",
        ),
        (
            "listing.json",
            r#"{"tools": []}"#,
            "not an OpenAPI document",
        ),
        ("broken.yaml", "openapi: [\n", "neither JSON nor YAML"),
    ] {
        let input = scratch.path().join(name);
        fs::write(&input, text).unwrap();
        let result = toolidl(
            &[
                "import",
                "--openapi",
                input.to_str().unwrap(),
                "-o",
                out.to_str().unwrap(),
            ],
            scratch.path(),
        );
        assert_eq!(result.status.code(), Some(1), "{name}");
        let stderr = String::from_utf8_lossy(&result.stderr);
        assert!(stderr.contains(message), "{name}: {stderr}");
        assert!(!out.exists(), "{name}: nothing is written");
    }
}

#[test]
fn a_binding_that_does_not_fit_the_file_fails_generation_naming_the_tool() {
    let scratch = tempfile::tempdir().unwrap();
    let tool = scratch.path().join("naming.tool");
    let binding = scratch.path().join("naming.forward.json");
    let out = toolidl(
        &[
            "import",
            "--openapi",
            "naming.yaml",
            "-o",
            tool.to_str().unwrap(),
            "--forward",
            binding.to_str().unwrap(),
        ],
        &goldens(),
    );
    assert!(out.status.success());
    // A parameter the binding does not send.
    let text = fs::read_to_string(&tool).unwrap().replace(
        "tool delete_item(id: i64);",
        "tool delete_item(id: i64, why: string);",
    );
    fs::write(&tool, text).unwrap();
    let generated = toolidl(
        &[
            "generate",
            tool.to_str().unwrap(),
            "--forward",
            binding.to_str().unwrap(),
        ],
        scratch.path(),
    );
    assert_eq!(generated.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&generated.stderr);
    assert!(
        stderr.contains("service `Naming`, tool `delete_item`: the parameter `why` is not in the forward binding"),
        "{stderr}"
    );
}
