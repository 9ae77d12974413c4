//! `toolidl generate` and `toolidl schema --hoist-shared` as a user runs them, and the
//! build.rs API's errors against what `toolidl check` prints.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The golden language cases, relative to this crate's folder (the tests' current folder).
const LANG: &str = "../tests/golden/lang";

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `toolidl <args>` from `dir`.
fn toolidl_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_toolidl"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

/// Runs `toolidl <args>` from this crate's folder.
fn toolidl(args: &[&str]) -> Output {
    toolidl_in(&crate_dir(), args)
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// What `toolidl check FILE` prints on stderr for one failed file, without its summary line.
fn check_diagnostics(file: &str) -> String {
    let output = toolidl(&["check", file]);
    assert_eq!(output.status.code(), Some(1), "{file}");
    let err = stderr(&output);
    let summary = "\ntoolidl check: 1 of 1 file failed\n";
    err.strip_suffix(summary)
        .unwrap_or_else(|| panic!("no summary line: {err}"))
        .to_string()
}

#[test]
fn build_api_errors_display_exactly_what_toolidl_check_prints() {
    let out = tempfile::tempdir().unwrap();
    for case in ["many_errors", "import_broken", "import_missing"] {
        let file = format!("{LANG}/invalid/{case}.tool");
        let error = toolidl_build::configure()
            .out_dir(out.path())
            .emit_rerun_if_changed(false)
            .emit_warnings(false)
            .compile(&[&file])
            .unwrap_err();
        let expected = check_diagnostics(&file);
        assert_eq!(error.to_string(), expected, "{case}");
        assert_eq!(format!("{error:?}"), expected, "{case}");
    }
}

#[test]
fn generate_of_an_invalid_file_prints_what_check_prints_and_exits_1() {
    for case in ["many_errors", "import_broken"] {
        let file = format!("{LANG}/invalid/{case}.tool");
        let output = toolidl(&["generate", &file]);
        assert_eq!(output.status.code(), Some(1), "{case}");
        assert_eq!(stdout(&output), "", "{case}");
        assert_eq!(stderr(&output), check_diagnostics(&file), "{case}");
    }
}

#[test]
fn generate_with_out_writes_nothing_on_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let file = format!("{LANG}/invalid/many_errors.tool");
    let output = toolidl(&["generate", &file, "--out", out.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stdout(&output), "");
    assert!(
        stderr(&output).starts_with("error[E0101]"),
        "{}",
        stderr(&output)
    );
    assert!(!out.exists());
}

#[test]
fn generate_of_an_unreadable_file_exits_1() {
    let output = toolidl(&["generate", "no/such/file.tool"]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output),
        "error[E1000]: cannot read `no/such/file.tool`: no such file\n"
    );
    assert_eq!(stdout(&output), "");
}

#[test]
fn generate_usage_errors_exit_2() {
    assert_eq!(toolidl(&["generate"]).status.code(), Some(2));
    assert_eq!(
        toolidl(&["generate", "x.tool", "--out"]).status.code(),
        Some(2)
    );
    assert_eq!(
        toolidl(&["generate", "x.tool", "--runtime-crate"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        toolidl(&["generate", "x.tool", "--bogus"]).status.code(),
        Some(2)
    );
}

#[test]
fn schema_hoist_shared_moves_a_record_used_twice_to_defs() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("shared.tool"),
        "record P { a: string }\nservice S { tool t(x: P, y: P); }\n",
    )
    .unwrap();
    let inline = toolidl_in(dir.path(), &["schema", "shared.tool"]);
    assert_eq!(inline.status.code(), Some(0), "{}", stderr(&inline));
    assert!(!stdout(&inline).contains("$defs"), "{}", stdout(&inline));

    let hoisted = toolidl_in(dir.path(), &["schema", "--hoist-shared", "shared.tool"]);
    assert_eq!(hoisted.status.code(), Some(0), "{}", stderr(&hoisted));
    let json: serde_json::Value = serde_json::from_str(&stdout(&hoisted)).unwrap();
    let input = &json["tools"][0]["inputSchema"];
    assert_eq!(input["properties"]["x"]["$ref"], "#/$defs/P");
    assert_eq!(input["properties"]["y"]["$ref"], "#/$defs/P");
    assert_eq!(input["$defs"]["P"]["type"], "object");
}

// ---------------------------------------------------------------------------------------
// The generated code (these need the Rust generator).

/// `main.tool` (package `acme.main`, one warning) imports `common.tool` (`acme.common`);
/// `alone.tool` (package `alone`) imports nothing.
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("common.tool"),
        "package acme.common;\n/// A page.\nrecord Page { size: u32 }\n",
    )
    .unwrap();
    fs::write(
        dir.path().join("main.tool"),
        "package acme.main;\nimport \"common.tool\";\n\
         service Main {\n    @name(\"pages.list\") tool pages(page: Page) -> string;\n}\n",
    )
    .unwrap();
    fs::write(
        dir.path().join("alone.tool"),
        "service Alone {\n    tool ping() -> string;\n}\n",
    )
    .unwrap();
    dir
}

#[test]
fn generate_prints_the_one_package_as_its_code() {
    let dir = project();
    let output = toolidl_in(dir.path(), &["generate", "alone.tool"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stderr(&output), "");
    let code = stdout(&output);
    assert!(!code.starts_with("// ----"), "{code}");
    let expected = toolidl_build::configure()
        .generate(&[dir.path().join("alone.tool")])
        .unwrap();
    assert_eq!(code.trim_end(), expected.files[0].code.trim_end());
}

#[test]
fn generate_prints_each_package_after_a_line_naming_its_file() {
    let dir = project();
    let output = toolidl_in(dir.path(), &["generate", "main.tool"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    let headers: Vec<&str> = text.lines().filter(|l| l.starts_with("// ---- ")).collect();
    assert_eq!(
        headers,
        ["// ---- acme.common.rs ----", "// ---- acme.main.rs ----"]
    );
    assert!(text.starts_with("// ---- acme.common.rs ----\n"), "{text}");
    // The warning goes to stderr, rendered as check renders it.
    let err = stderr(&output);
    assert!(err.starts_with("warning[W0401]"), "{err}");
    assert!(err.contains("--> main.tool:4:11"), "{err}");
}

#[test]
fn generate_uses_the_runtime_crate_given() {
    let dir = project();
    let output = toolidl_in(
        dir.path(),
        &["generate", "alone.tool", "--runtime-crate", "::my_runtime"],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("::my_runtime"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn generate_out_writes_the_files_once_and_prints_nothing() {
    let dir = project();
    let out = dir.path().join("gen");
    let run = || {
        toolidl_in(
            dir.path(),
            &["generate", "main.tool", "alone.tool", "--out", "gen"],
        )
    };
    let first = run();
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    assert_eq!(stdout(&first), "");
    let mut names: Vec<String> = fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["_toolidl.rs", "acme.common.rs", "acme.main.rs", "alone.rs"]
    );
    let mtime = |name: &str| fs::metadata(out.join(name)).unwrap().modified().unwrap();
    let before: Vec<_> = names.iter().map(|n| mtime(n)).collect();
    std::thread::sleep(std::time::Duration::from_millis(20));
    let second = run();
    assert_eq!(second.status.code(), Some(0), "{}", stderr(&second));
    let after: Vec<_> = names.iter().map(|n| mtime(n)).collect();
    assert_eq!(before, after, "unchanged files are not rewritten");
}

#[test]
fn typed_formats_reach_the_generated_code() {
    let file = "../tests/golden/codegen/typed_formats.tool";
    let strings = toolidl(&["generate", file]);
    let typed = toolidl(&["generate", "--typed-formats", file]);
    assert!(
        strings.status.success() && typed.status.success(),
        "{}",
        stderr(&typed)
    );
    let (strings, typed) = (stdout(&strings), stdout(&typed));
    assert!(strings.contains("pub due: String,") && !strings.contains("rt::typed"));
    assert!(typed.contains("pub due: rt::typed::Date,"), "{typed}");
}
