//! The build.rs API as a build script uses it: `compile`, `configure()`, the structured
//! results and the errors. Paths are relative to the current folder, as in a build script
//! (tests run in the crate's folder, as build scripts do).

use std::fs;
use std::path::{Path, PathBuf};

use toolidl_build::{Error, INCLUDE_FILE};

const LANG: &str = "../tests/golden/lang";

fn golden_diagnostics(case: &str) -> String {
    let path = Path::new(LANG).join(format!("invalid/{case}.diagnostics.txt"));
    let golden = fs::read_to_string(path).unwrap();
    // The golden paths are relative to the case's folder; here they are as given (imports
    // joined to them).
    golden.replace("--> ", &format!("--> {LANG}/invalid/"))
}

fn compile_invalid(cases: &[&str]) -> Error {
    let out = tempfile::tempdir().unwrap();
    let roots: Vec<String> = cases
        .iter()
        .map(|case| format!("{LANG}/invalid/{case}.tool"))
        .collect();
    toolidl_build::configure()
        .out_dir(out.path())
        .emit_rerun_if_changed(false)
        .emit_warnings(false)
        .compile(&roots)
        .unwrap_err()
}

#[test]
fn diagnostics_display_as_toolidl_check_prints_them() {
    let error = compile_invalid(&["many_errors"]);
    assert!(matches!(error, Error::Diagnostics { .. }));
    assert_eq!(error.to_string(), golden_diagnostics("many_errors"));
}

#[test]
fn diagnostics_of_imports_name_the_imported_file() {
    let error = compile_invalid(&["import_broken"]);
    assert_eq!(error.to_string(), golden_diagnostics("import_broken"));
}

#[test]
fn every_failed_root_is_reported() {
    let error = compile_invalid(&["many_errors", "import_missing"]);
    assert_eq!(
        error.to_string(),
        format!(
            "{}\n{}",
            golden_diagnostics("many_errors"),
            golden_diagnostics("import_missing")
        )
    );
}

#[test]
fn debug_of_an_error_is_the_rendered_text() {
    let error = compile_invalid(&["many_errors"]);
    assert_eq!(format!("{error:?}"), error.to_string());
    assert!(format!("{error:?}").starts_with("error[E0101]: unknown type `Strin`\n"));
}

#[test]
fn unwrap_in_a_build_script_shows_the_rendered_diagnostics() {
    let out = tempfile::tempdir().unwrap();
    let root = format!("{LANG}/invalid/many_errors.tool");
    let panic = std::panic::catch_unwind(|| {
        toolidl_build::configure()
            .out_dir(out.path())
            .compile(&[&root])
            .unwrap();
    })
    .unwrap_err();
    let message = panic.downcast_ref::<String>().unwrap();
    assert!(
        message.ends_with(&golden_diagnostics("many_errors")),
        "{message}"
    );
    assert!(!message.contains("Diagnostics {"), "{message}");
}

#[test]
fn an_unreadable_root_is_e1000() {
    let out = tempfile::tempdir().unwrap();
    let error = toolidl_build::configure()
        .out_dir(out.path())
        .compile(&["no/such/file.tool"])
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "error[E1000]: cannot read `no/such/file.tool`: no such file\n"
    );
}

#[test]
fn without_out_dir_or_out_dir_env_the_error_says_so() {
    assert!(
        std::env::var_os("OUT_DIR").is_none(),
        "this test needs OUT_DIR unset (toolidl-build has no build script)"
    );
    let error = toolidl_build::compile(&[format!("{LANG}/valid/common.tool")]).unwrap_err();
    assert!(matches!(error, Error::NoOutDir), "{error}");
    let text = error.to_string();
    assert!(text.contains("OUT_DIR"), "{text}");
    assert!(text.contains("out_dir("), "{text}");
    assert_eq!(format!("{error:?}"), text);
}

// ---------------------------------------------------------------------------------------
// The generated files (these need the Rust generator).

/// `main.tool` (package `acme.main`) imports `shared/common.tool` (package `acme.common`).
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("shared")).unwrap();
    fs::write(
        dir.path().join("shared/common.tool"),
        "package acme.common;\n/// A page.\nrecord Page { size: u32 }\n",
    )
    .unwrap();
    fs::write(
        dir.path().join("main.tool"),
        "package acme.main;\nimport \"shared/common.tool\";\n\
         service Main {\n    /// Pages.\n    tool pages(page: Page) -> string;\n}\n",
    )
    .unwrap();
    dir
}

fn quiet(out: &Path) -> toolidl_build::Builder {
    toolidl_build::configure()
        .out_dir(out)
        .emit_rerun_if_changed(false)
        .emit_warnings(false)
}

fn sorted(mut paths: Vec<PathBuf>) -> Vec<PathBuf> {
    paths.sort();
    paths
}

#[test]
fn compile_reports_files_read_packages_and_files_written() {
    let dir = project();
    let out = dir.path().join("out");
    let main = dir.path().join("main.tool");
    let compiled = quiet(&out).compile(&[&main]).unwrap();
    assert_eq!(
        compiled.files_read,
        [main, dir.path().join("shared/common.tool")]
    );
    assert_eq!(compiled.packages, ["acme.common", "acme.main"]);
    assert_eq!(
        sorted(compiled.written),
        [
            out.join(INCLUDE_FILE),
            out.join("acme.common.rs"),
            out.join("acme.main.rs"),
        ]
    );
    assert!(compiled.warnings.is_empty());
    let include = fs::read_to_string(out.join(INCLUDE_FILE)).unwrap();
    assert!(include.contains("acme.common.rs"), "{include}");
    assert!(include.contains("acme.main.rs"), "{include}");
}

#[test]
fn a_second_compile_with_unchanged_input_rewrites_nothing() {
    let dir = project();
    let out = dir.path().join("out");
    let main = dir.path().join("main.tool");
    let first = quiet(&out).compile(&[&main]).unwrap();
    assert_eq!(first.written.len(), 3);
    let mtimes = |paths: &[PathBuf]| -> Vec<_> {
        paths
            .iter()
            .map(|p| fs::metadata(p).unwrap().modified().unwrap())
            .collect()
    };
    let before = mtimes(&first.written);
    std::thread::sleep(std::time::Duration::from_millis(20));
    let second = quiet(&out).compile(&[&main]).unwrap();
    assert!(second.written.is_empty(), "{:?}", second.written);
    assert_eq!(second.packages, first.packages);
    assert_eq!(mtimes(&first.written), before);

    // A change to the import that `acme.main` does not see (a record it does not use)
    // rewrites that package's file only.
    fs::write(
        dir.path().join("shared/common.tool"),
        "package acme.common;\n/// A page.\nrecord Page { size: u32 }\nrecord Unused { x: u8 }\n",
    )
    .unwrap();
    let third = quiet(&out).compile(&[&main]).unwrap();
    assert_eq!(third.written, [out.join("acme.common.rs")]);
}

#[test]
fn include_file_can_be_turned_off() {
    let dir = project();
    let out = dir.path().join("out");
    let compiled = quiet(&out)
        .include_file(false)
        .compile(&[dir.path().join("main.tool")])
        .unwrap();
    assert_eq!(compiled.written.len(), 2);
    assert!(!out.join(INCLUDE_FILE).exists());
}

#[test]
fn generate_returns_the_files_and_writes_nothing() {
    let dir = project();
    let generated = toolidl_build::configure()
        .generate(&[dir.path().join("main.tool")])
        .unwrap();
    let names: Vec<&str> = generated
        .files
        .iter()
        .map(|f| f.file_name.as_str())
        .collect();
    assert_eq!(names, ["acme.common.rs", "acme.main.rs"]);
    assert_eq!(generated.files_read.len(), 2);
    assert!(!dir.path().join("out").exists());
}

#[test]
fn an_out_dir_that_cannot_be_created_is_an_io_error_with_its_path() {
    let dir = project();
    let blocker = dir.path().join("file");
    fs::write(&blocker, "").unwrap();
    let out = blocker.join("out");
    let error = quiet(&out)
        .compile(&[dir.path().join("main.tool")])
        .unwrap_err();
    assert!(
        matches!(&error, Error::Io { path, .. } if *path == out),
        "{error}"
    );
    assert!(error.to_string().contains(&out.display().to_string()));
}

#[test]
fn a_malformed_user_attribute_fails_the_build_and_writes_nothing() {
    let dir = project();
    let out = dir.path().join("out");
    let error = quiet(&out)
        .type_attribute("acme.common.Page", "#[derive(Hash)")
        .compile(&[dir.path().join("main.tool")])
        .unwrap_err();
    assert!(matches!(error, Error::Generate(_)), "{error}");
    assert!(
        error.to_string().starts_with(
            "cannot generate Rust: type_attribute(\"acme.common.Page\", \"#[derive(Hash)\"): \
             not a Rust attribute such as `#[derive(Hash)]`: "
        ),
        "{error}"
    );
    assert!(
        !out.exists(),
        "nothing is written when an option is refused"
    );
}

// ---------------------------------------------------------------------------------------
// Forward bindings (`Builder::forward`).

const BINDING: &str = r#"{
  "binding": 1,
  "package": "acme.main",
  "service": "Main",
  "servers": ["https://api.example.com"],
  "operations": [
    {
      "tool": "pages",
      "method": "GET",
      "path": "/pages",
      "parameters": [
        {"argument": "page", "in": "query", "name": "page", "style": "deepObject", "explode": true}
      ],
      "response": {"status": "200", "media_type": "text/plain", "read": "text"}
    }
  ]
}"#;

#[test]
fn a_forward_binding_adds_the_forwarding_code_of_its_service() {
    let dir = project();
    let binding = dir.path().join("main.forward.json");
    fs::write(&binding, BINDING).unwrap();
    let generated = quiet(&dir.path().join("out"))
        .forward(&binding)
        .generate(&[dir.path().join("main.tool")])
        .unwrap();
    let main = &generated
        .files
        .iter()
        .find(|f| f.package == "acme.main")
        .unwrap()
        .code;
    assert!(main.contains("pub trait MainForward"), "{main}");
    assert!(main.contains("pub struct MainRequests;"), "{main}");
    assert!(
        main.contains(r#"call.query("page", rt::forward::Style::DeepObject, true, &input.page);"#),
        "{main}"
    );
    // Without the binding, nothing of it.
    let plain = quiet(&dir.path().join("out"))
        .generate(&[dir.path().join("main.tool")])
        .unwrap();
    assert!(!plain.files.iter().any(|f| f.code.contains("MainForward")));
}

#[test]
fn a_binding_that_cannot_be_read_or_is_not_one_fails_naming_it() {
    let dir = project();
    let missing = dir.path().join("missing.forward.json");
    let error = quiet(&dir.path().join("out"))
        .forward(&missing)
        .generate(&[dir.path().join("main.tool")])
        .unwrap_err();
    assert!(
        matches!(&error, Error::Io { path, .. } if *path == missing),
        "{error}"
    );
    let wrong = dir.path().join("wrong.forward.json");
    fs::write(&wrong, BINDING.replace("\"binding\": 1", "\"binding\": 9")).unwrap();
    let error = quiet(&dir.path().join("out"))
        .forward(&wrong)
        .generate(&[dir.path().join("main.tool")])
        .unwrap_err();
    assert!(
        error
            .to_string()
            .ends_with("a forward binding of version 9, and this toolidl-build reads version 1"),
        "{error}"
    );
    fs::write(&wrong, "{}").unwrap();
    let error = quiet(&dir.path().join("out"))
        .forward(&wrong)
        .generate(&[dir.path().join("main.tool")])
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("not a forward binding: missing field"),
        "{error}"
    );
}
