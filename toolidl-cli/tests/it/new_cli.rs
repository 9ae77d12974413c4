//! `toolidl new`: the scaffolded crate builds against this workspace's crates without a
//! warning, is rustfmt-clean, its own tests (a unit test of the handler, a snapshot of the
//! listing) pass as written, and its server answers `tools/list` with what `toolidl schema`
//! prints for its `.tool` file.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn toolidl(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_toolidl"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn a_scaffolded_crate_builds_and_serves_its_tool() {
    let tmp = tempfile::tempdir().unwrap();
    let root = workspace().canonicalize().unwrap();
    let out = toolidl(
        &[
            "new",
            "demo-server",
            "--toolidl-path",
            root.to_str().unwrap(),
        ],
        tmp.path(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("cargo run"),
        "{}",
        text(&out.stdout)
    );
    let krate = tmp.path().join("demo-server");
    for file in [
        "Cargo.toml",
        "Cargo.lock",
        "build.rs",
        "src/main.rs",
        "src/snapshots/demo_server__tests__listing.snap",
        "tools/demo_server.tool",
        ".gitignore",
    ] {
        assert!(krate.join(file).is_file(), "{file} missing");
    }
    // The checkout's lock: the versions toolidl is tested with, nothing to download.
    assert_eq!(
        std::fs::read(krate.join("Cargo.lock")).unwrap(),
        std::fs::read(root.join("Cargo.lock")).unwrap()
    );
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("scaffold-target");
    let build = cargo()
        .args(["build", "--offline", "--quiet"])
        .env("CARGO_TARGET_DIR", &target)
        .env_remove("RUSTFLAGS")
        .current_dir(&krate)
        .output()
        .unwrap();
    assert!(build.status.success(), "{}", text(&build.stderr));
    assert!(
        !text(&build.stderr).contains("warning"),
        "the scaffold builds without warnings: {}",
        text(&build.stderr)
    );
    let fmt = cargo()
        .args(["fmt", "--check"])
        .current_dir(&krate)
        .output()
        .unwrap();
    assert!(fmt.status.success(), "{}", text(&fmt.stdout));
    // Its own tests pass out of the box, the listing snapshot among them.
    let test = cargo()
        .args(["test", "--offline"])
        .env("CARGO_TARGET_DIR", &target)
        .env("CI", "true") // insta: a missing or different snapshot fails, nothing written
        .env_remove("RUSTFLAGS")
        .env_remove("INSTA_UPDATE")
        .current_dir(&krate)
        .output()
        .unwrap();
    let report = text(&test.stdout);
    assert!(test.status.success(), "{report}\n{}", text(&test.stderr));
    assert!(report.contains("test result: ok. 3 passed"), "{report}");
    assert!(
        !krate
            .join("src/snapshots/demo_server__tests__listing.snap.new")
            .exists(),
        "the snapshot matched"
    );

    // Its tools/list is the listing `toolidl schema` prints for its .tool file.
    let schema = toolidl(&["schema", "tools/demo_server.tool"], &krate);
    assert_eq!(schema.status.code(), Some(0), "{}", text(&schema.stderr));
    let expected: Value = serde_json::from_slice(&schema.stdout).unwrap();
    let mut server = Command::new(target.join("debug/demo-server"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let lines = [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"hello","arguments":{"name":"Ada"}}}"#,
        r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"hello","arguments":{"name":""}}}"#,
    ];
    let mut stdin = server.stdin.take().unwrap();
    for line in lines {
        writeln!(stdin, "{line}").unwrap();
    }
    drop(stdin);
    let done = server.wait_with_output().unwrap();
    assert!(done.status.success(), "{}", text(&done.stderr));
    let replies: Vec<Value> = text(&done.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(replies.len(), 4, "{replies:?}");
    assert_eq!(replies[0]["result"]["serverInfo"]["name"], "demo-server");
    assert_eq!(replies[1]["result"]["tools"], expected["tools"]);
    assert_eq!(
        replies[2]["result"]["content"][0]["text"], "Hello, Ada!",
        "{}",
        replies[2]
    );
    assert_eq!(replies[3]["result"]["isError"], true, "{}", replies[3]);
    assert_eq!(
        replies[3]["result"]["content"][0]["text"],
        "Argument 'name' is not valid. Expected at least 1 character.",
    );
}

#[test]
fn bad_names_and_taken_folders_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let out = toolidl(&["new", "1st"], tmp.path());
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "error: `1st` cannot name a crate: it must start with a letter\n"
    );
    std::fs::create_dir(tmp.path().join("taken")).unwrap();
    std::fs::write(tmp.path().join("taken/file"), "x").unwrap();
    let out = toolidl(&["new", "taken"], tmp.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("already exists and is not empty"));
    // An empty folder is fine; crates.io versions with --crates-io.
    std::fs::create_dir(tmp.path().join("empty")).unwrap();
    let out = toolidl(&["new", "empty", "--crates-io"], tmp.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let manifest = std::fs::read_to_string(tmp.path().join("empty/Cargo.toml")).unwrap();
    // The series of this toolidl: `0.2` for 0.2.z.
    let series = concat!(
        env!("CARGO_PKG_VERSION_MAJOR"),
        ".",
        env!("CARGO_PKG_VERSION_MINOR")
    );
    assert!(
        manifest.contains(&format!("toolidl-runtime = \"{series}\"")),
        "{manifest}"
    );
    assert!(
        manifest.contains(&format!("toolidl-build = \"{series}\"")),
        "{manifest}"
    );
    assert!(!tmp.path().join("empty/Cargo.lock").exists());
    assert!(text(&out.stdout).contains("from crates.io"));
}

#[test]
fn by_default_the_scaffold_depends_on_the_checkout_the_command_was_built_from() {
    let tmp = tempfile::tempdir().unwrap();
    let out = toolidl(&["new", "mine"], tmp.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let root = workspace().canonicalize().unwrap();
    let manifest = std::fs::read_to_string(tmp.path().join("mine/Cargo.toml")).unwrap();
    for (krate, dir) in [
        ("toolidl-runtime", "runtime"),
        ("toolidl-build", "build-support"),
    ] {
        let line = format!(
            "{krate} = {{ path = {:?} }}",
            root.join(dir).display().to_string()
        );
        assert!(manifest.contains(&line), "{line} in:\n{manifest}");
    }
    assert!(tmp.path().join("mine/Cargo.lock").is_file());
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("cargo test") && stdout.contains("cargo run"),
        "{stdout}"
    );
    // Not both: a path and crates.io.
    let out = toolidl(
        &["new", "both", "--crates-io", "--toolidl-path", "."],
        tmp.path(),
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
}
