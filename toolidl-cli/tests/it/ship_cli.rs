//! `toolidl bundle`, `toolidl registry` and `toolidl install` (docs/shipping.md), run as a user
//! runs them, on the fixture crate `tests/golden/ship/crate` and the client configuration
//! fixtures `tests/golden/ship/install/CLIENT.before.json`. Outputs are compared with golden
//! files (`TOOLIDL_BLESS=1` rewrites them; review the diff by eye); `server.json` and the
//! server card are validated against the registry's published schema
//! (tests/fixtures/mcp-registry).

use crate::common;

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use common::{text, toolidl};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

fn golden() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/golden/ship")
}

fn bless() -> bool {
    std::env::var_os("TOOLIDL_BLESS").is_some_and(|v| v == "1")
}

/// `actual` is the golden file `name`'s content (or becomes it, blessing).
fn check_golden(name: &str, actual: &str) {
    let path = golden().join(name);
    if bless() {
        fs::write(&path, actual).unwrap();
        return;
    }
    let expected = fs::read_to_string(&path).unwrap_or_default();
    assert!(
        expected == actual,
        "{} differs (TOOLIDL_BLESS=1 rewrites it); actual:\n{actual}",
        path.display()
    );
}

/// The fixture crate, copied into a scratch folder (inside the repository, cargo would take
/// it for a member of the workspace).
fn fixture_crate() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("crate");
    copy_dir(&golden().join("crate"), &dir);
    (tmp, dir)
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            fs::copy(&path, &target).unwrap();
        }
    }
}

fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = toolidl(dir, args);
    (
        out.status.code().unwrap_or(-1),
        text(&out.stdout),
        text(&out.stderr),
    )
}

/// `toolidl bundle` of the fixture crate with its stand-in binaries; the bundle's path.
fn bundle(dir: &Path, out: &str) -> PathBuf {
    let (code, stdout, stderr) = run(
        dir,
        &[
            "bundle",
            "--binary",
            "fake-server",
            "--platform-binary",
            "win32=fake-server.exe",
            "--out",
            out,
            "--manifest-out",
            "manifest.out.json",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout.trim_end(), out, "the bundle's path on stdout");
    dir.join(out)
}

fn entries(bundle: &Path) -> Vec<(String, Option<u32>, Vec<u8>)> {
    let mut zip = zip::ZipArchive::new(fs::File::open(bundle).unwrap()).unwrap();
    (0..zip.len())
        .map(|i| {
            let mut e = zip.by_index(i).unwrap();
            let mut bytes = Vec::new();
            e.read_to_end(&mut bytes).unwrap();
            (e.name().unwrap().into_owned(), e.unix_mode(), bytes)
        })
        .collect()
}

fn sha256(path: &Path) -> String {
    Sha256::digest(fs::read(path).unwrap())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[test]
fn a_bundle_carries_the_binaries_the_icon_and_the_manifest_of_the_tool_files() {
    let (_tmp, dir) = fixture_crate();
    let path = bundle(&dir, "demo.mcpb");
    let manifest = fs::read_to_string(dir.join("manifest.out.json")).unwrap();
    check_golden("manifest.json", &manifest);
    let names: Vec<(String, Option<u32>)> = entries(&path)
        .into_iter()
        .map(|(name, mode, _)| (name, mode.map(|m| m & 0o777)))
        .collect();
    assert_eq!(
        names,
        [
            ("icon.png".to_owned(), Some(0o644)),
            ("manifest.json".to_owned(), Some(0o644)),
            ("server/demo".to_owned(), Some(0o755)),
            ("server/win32/demo.exe".to_owned(), Some(0o755)),
        ]
    );
    for (name, _, bytes) in entries(&path) {
        let source = match name.as_str() {
            "manifest.json" => dir.join("manifest.out.json"),
            "server/demo" => dir.join("fake-server"),
            "server/win32/demo.exe" => dir.join("fake-server.exe"),
            other => dir.join(other),
        };
        assert_eq!(bytes, fs::read(source).unwrap(), "{name}");
    }
    // The same inputs give the same bytes, so `fileSha256` is reproducible.
    let again = bundle(&dir, "again.mcpb");
    assert_eq!(fs::read(&path).unwrap(), fs::read(&again).unwrap());
}

#[test]
fn bundle_refuses_what_the_format_cannot_say() {
    let (_tmp, dir) = fixture_crate();
    let cargo = dir.join("Cargo.toml");
    let original = fs::read_to_string(&cargo).unwrap();
    for (change, says) in [
        (
            ("env = \"DEMO_API_KEY\"", "env = \"DEMO-API-KEY\""),
            "environment variable",
        ),
        (
            ("type = \"string\"", "type = \"secret\""),
            "unknown type `secret`",
        ),
        (
            (
                "compatibility = { claude_desktop = \">=0.10.0\" }",
                "compatibility = { platforms = [\"macos\"] }",
            ),
            "unknown platform `macos`",
        ),
    ] {
        fs::write(&cargo, original.replace(change.0, change.1)).unwrap();
        let (code, _, stderr) = run(
            &dir,
            &["bundle", "--binary", "fake-server", "--out", "x.mcpb"],
        );
        assert_eq!(code, 1, "{says}: {stderr}");
        assert!(stderr.contains(says), "{says}: {stderr}");
        assert!(!dir.join("x.mcpb").exists(), "{says}: nothing written");
    }
    fs::write(&cargo, &original).unwrap();
    let (code, _, stderr) = run(
        &dir,
        &[
            "bundle",
            "--binary",
            "fake-server",
            "--platform-binary",
            "linux=fake-server",
            "--out",
            "x.mcpb",
        ],
    );
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("linux is given twice"), "{stderr}");
}

fn registry_validator() -> jsonschema::Validator {
    let schema_path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/mcp-registry/server.schema.json");
    let schema: Value = serde_json::from_str(&fs::read_to_string(schema_path).unwrap()).unwrap();
    jsonschema::draft7::meta::validate(&schema).unwrap();
    jsonschema::draft7::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap()
}

#[test]
fn server_json_lists_the_bundle_the_image_and_the_remote_and_validates() {
    let (_tmp, dir) = fixture_crate();
    let path = bundle(&dir, "demo.mcpb");
    let (code, stdout, stderr) = run(
        &dir,
        &[
            "registry",
            "--bundle",
            "demo.mcpb",
            "--remote",
            "https://demo.example.com/mcp",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    let mut doc: Value = serde_json::from_str(&stdout).unwrap();
    let validator = registry_validator();
    let errors: Vec<String> = validator.iter_errors(&doc).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}\n{stdout}");
    // The bundle's SHA-256; the golden file holds a stand-in (it changes with the compressor).
    assert_eq!(doc["packages"][0]["fileSha256"], sha256(&path));
    doc["packages"][0]["fileSha256"] = json!("<sha256 of demo.mcpb>");
    check_golden(
        "server.json",
        &(serde_json::to_string_pretty(&doc).unwrap() + "\n"),
    );

    // The server card of the remote (SEP-2127, a draft).
    let (code, stdout, stderr) = run(
        &dir,
        &[
            "registry",
            "--card",
            "--remote",
            "https://demo.example.com/mcp",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    check_golden("card.json", &stdout);

    // The schema does refuse what it should: the check is not vacuous.
    let mut bad =
        serde_json::from_str::<Value>(&fs::read_to_string(golden().join("server.json")).unwrap())
            .unwrap();
    bad["packages"][0]["fileSha256"] = json!("not a sha");
    assert!(!validator.is_valid(&bad));
}

#[test]
fn registry_refuses_names_descriptions_and_bundles_it_cannot_publish() {
    let (_tmp, dir) = fixture_crate();
    bundle(&dir, "demo.mcpb");
    let cases: [(&[&str], &str); 3] = [
        (
            &[
                "registry",
                "--name",
                "demo-server",
                "--remote",
                "https://x.example/mcp",
            ],
            "is not a registry name",
        ),
        (
            &["registry", "--bundle-url", "https://x.example/d.mcpb"],
            "needs the bundle itself",
        ),
        (&["registry", "--card"], "give its URL"),
    ];
    for (args, says) in cases {
        let (code, stdout, stderr) = run(&dir, args);
        assert_eq!(code, 1, "{args:?}: {stdout}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
    let cargo = dir.join("Cargo.toml");
    // A bundle without the URL users download it from.
    let original = fs::read_to_string(&cargo).unwrap();
    let without_url: String = original
        .lines()
        .filter(|l| !l.starts_with("bundle_url"))
        .map(|l| format!("{l}\n"))
        .collect();
    fs::write(&cargo, without_url).unwrap();
    let (code, _, stderr) = run(&dir, &["registry", "--bundle", "demo.mcpb"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("needs the URL"), "{stderr}");
    fs::write(&cargo, original).unwrap();
    let long = "x".repeat(101);
    let text = fs::read_to_string(&cargo).unwrap().replace(
        "description = \"Greets people and keeps a guest book.\"",
        &format!("description = \"{long}\""),
    );
    fs::write(&cargo, text).unwrap();
    let (code, _, stderr) = run(&dir, &["registry", "--remote", "https://x.example/mcp"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("101 characters"), "{stderr}");
}

/// Every client: the entry added to a file with other entries, then the same command again
/// (nothing changes), then updated, and a dry run; the file compared with golden files at each
/// step, the backup with the file before the step.
#[test]
fn install_round_trips_every_clients_configuration() {
    let clients = [
        "claude-desktop",
        "claude-code",
        "cursor",
        "vscode",
        "windsurf",
        "gemini-cli",
    ];
    for client in clients {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let before =
            fs::read_to_string(golden().join(format!("install/{client}.before.json"))).unwrap();
        let config = dir.join("config.json");
        let backup = dir.join("config.json.bak");
        fs::write(&config, &before).unwrap();
        let entry = [
            "install",
            "--client",
            client,
            "--config",
            "config.json",
            "--name",
            "demo",
        ];
        let stdio = [
            "--env",
            "DEMO_TOKEN=abc",
            "--",
            "/opt/demo/bin/demo",
            "--db",
            "/var/demo.db",
        ];
        let add = [&entry[..], &stdio[..]].concat();
        let (code, _, stderr) = run(dir, &add);
        assert_eq!(code, 0, "{client}: {stderr}");
        let added = fs::read_to_string(&config).unwrap();
        check_golden(&format!("install/{client}.added.json"), &added);
        others_kept(client, &before, &added);
        assert_eq!(
            fs::read_to_string(&backup).unwrap(),
            before,
            "{client}: backup"
        );

        // Idempotent: the same command changes nothing, not even the backup.
        fs::remove_file(&backup).unwrap();
        let (code, _, stderr) = run(dir, &add);
        assert_eq!(code, 0, "{client}: {stderr}");
        assert!(stderr.contains("already configured"), "{client}: {stderr}");
        assert_eq!(fs::read_to_string(&config).unwrap(), added, "{client}");
        assert!(!backup.exists(), "{client}: no backup when nothing changes");

        // A dry run prints the change and writes nothing.
        let mut moved: Vec<&str> = add.clone();
        *moved.last_mut().unwrap() = "/var/other.db";
        moved.insert(1, "--dry-run");
        let (code, stdout, stderr) = run(dir, &moved);
        assert_eq!(code, 0, "{client}: {stderr}");
        assert!(
            stdout.contains("-") && stdout.contains("+") && stdout.contains("/var/other.db"),
            "{client}: {stdout}"
        );
        assert_eq!(
            fs::read_to_string(&config).unwrap(),
            added,
            "{client}: dry run wrote"
        );

        // Updated: to the HTTP endpoint where the client's file has one, else new arguments.
        let http = [&entry[..], &["--url", "https://demo.example.com/mcp"]].concat();
        let (code, _, stderr) = if client == "claude-desktop" {
            let (code, _, stderr) = run(dir, &http);
            assert_eq!(code, 1, "{client}: {stderr}");
            assert!(stderr.contains("takes only servers it starts"), "{stderr}");
            assert_eq!(fs::read_to_string(&config).unwrap(), added);
            moved.remove(1);
            run(dir, &moved)
        } else {
            run(dir, &http)
        };
        assert_eq!(code, 0, "{client}: {stderr}");
        let updated = fs::read_to_string(&config).unwrap();
        check_golden(&format!("install/{client}.updated.json"), &updated);
        others_kept(client, &before, &updated);
        assert_eq!(
            fs::read_to_string(&backup).unwrap(),
            added,
            "{client}: backup"
        );
    }
}

/// Every top-level key and every other server of `before` is in `after` byte for byte.
fn others_kept(client: &str, before: &str, after: &str) {
    use jsonc_parser::cst::CstRootNode;
    let root = CstRootNode::parse(before, &jsonc_parser::ParseOptions::default()).unwrap();
    let object = root.object_value().unwrap();
    let mut kept = 0;
    for prop in object.properties() {
        let name = prop.name().unwrap().decoded_value().unwrap();
        let servers = prop.value().and_then(|v| v.as_object());
        match servers {
            Some(servers) if name == "mcpServers" || name == "servers" => {
                for server in servers.properties() {
                    if server.name().unwrap().decoded_value().unwrap() != "demo" {
                        assert!(
                            after.contains(&server.to_string()),
                            "{client}: {server} changed"
                        );
                        kept += 1;
                    }
                }
            }
            _ => {
                assert!(
                    after.contains(&prop.to_string()),
                    "{client}: {prop} changed"
                );
                kept += 1;
            }
        }
    }
    assert!(kept > 0, "{client}: the fixture has other entries");
}

#[test]
fn install_creates_a_missing_file_and_refuses_files_it_cannot_edit() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (code, _, stderr) = run(
        dir,
        &[
            "install",
            "--client",
            "cursor",
            "--config",
            "new/mcp.json",
            "--",
            "/opt/demo/bin/demo",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    let created: Value =
        serde_json::from_str(&fs::read_to_string(dir.join("new/mcp.json")).unwrap()).unwrap();
    assert_eq!(
        created,
        json!({"mcpServers": {"demo": {"command": "/opt/demo/bin/demo", "args": []}}})
    );
    for (content, says) in [
        ("{ not json", "not JSON"),
        ("[1, 2]", "top level is not an object"),
        ("{\"mcpServers\": [1]}", "`mcpServers` is not an object"),
    ] {
        fs::write(dir.join("bad.json"), content).unwrap();
        let (code, _, stderr) = run(
            dir,
            &[
                "install",
                "--client",
                "cursor",
                "--config",
                "bad.json",
                "--",
                "/opt/demo/bin/demo",
            ],
        );
        assert_eq!(code, 1, "{content}");
        assert!(stderr.contains(says), "{content}: {stderr}");
        assert_eq!(fs::read_to_string(dir.join("bad.json")).unwrap(), content);
    }
    let (code, _, stderr) = run(dir, &["install", "--client", "emacs", "--", "/opt/demo"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("unknown client `emacs`"), "{stderr}");
}

/// `toolidl install` of a bundle for Cursor, into `mcp.json`.
fn install_bundle(bundle: &str) -> Vec<&str> {
    let args = ["install", "--client", "cursor", "--config", "mcp.json"];
    [&args[..], &["--bundle", bundle]].concat()
}

#[test]
fn install_starts_a_bundle_as_its_manifest_says() {
    let (_tmp, dir) = fixture_crate();
    bundle(&dir, "demo.mcpb");
    let args = install_bundle("demo.mcpb");
    // A required option without a value.
    let (code, _, stderr) = run(&dir, &args);
    assert_eq!(code, 1);
    assert!(stderr.contains("`api_key` is required"), "{stderr}");
    let mut with_key = args.to_vec();
    with_key.extend(["--user-config", "api_key=K3Y"]);
    let (code, _, stderr) = run(&dir, &with_key);
    assert_eq!(code, 0, "{stderr}");
    let unpacked = fs::canonicalize(dir.join("demo")).unwrap();
    let config: Value =
        serde_json::from_str(&fs::read_to_string(dir.join("mcp.json")).unwrap()).unwrap();
    assert_eq!(
        config["mcpServers"]["demo-server"],
        json!({
            "command": format!("{}/server/demo", unpacked.display()),
            "args": [],
            // The optional guest book has no value: not set.
            "env": {"DEMO_API_KEY": "K3Y"},
        })
    );
    assert_eq!(
        fs::read(unpacked.join("server/demo")).unwrap(),
        fs::read(dir.join("fake-server")).unwrap()
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = fs::metadata(unpacked.join("server/demo"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o755);
    }
    let mut unknown = with_key.clone();
    unknown.extend(["--user-config", "colour=red"]);
    let (code, _, stderr) = run(&dir, &unknown);
    assert_eq!(code, 1);
    assert!(stderr.contains("no such option"), "{stderr}");
}

/// A bundle whose entry would land outside the folder it is unpacked to is refused, and
/// nothing is written there.
#[test]
fn install_refuses_a_bundle_that_escapes_its_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("inner");
    fs::create_dir(&dir).unwrap();
    let mut zip = zip::ZipWriter::new(fs::File::create(dir.join("evil.mcpb")).unwrap());
    let options = zip::write::SimpleFileOptions::default();
    zip.start_file("manifest.json", options).unwrap();
    zip.write_all(br#"{"name":"evil","server":{"mcp_config":{"command":"x"}}}"#)
        .unwrap();
    zip.start_file("../../escaped.txt", options).unwrap();
    zip.write_all(b"outside").unwrap();
    zip.finish().unwrap();
    let (code, _, stderr) = run(&dir, &install_bundle("evil.mcpb"));
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("leaves the folder"), "{stderr}");
    assert!(!tmp.path().join("escaped.txt").exists());
    assert!(!dir.join("escaped.txt").exists());
    assert!(!dir.join("mcp.json").exists());
}

/// Without `--config`, each client's own file: the user's under HOME (on Linux the
/// application-data folder is `$XDG_CONFIG_HOME`, else `~/.config`), the project's under the
/// current folder with `--project`.
#[cfg(target_os = "linux")]
#[test]
fn install_finds_each_clients_file() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let project = tmp.path().join("project");
    fs::create_dir_all(&project).unwrap();
    let cases = [
        (
            "claude-desktop",
            ".config/Claude/claude_desktop_config.json",
            None,
        ),
        ("claude-code", ".claude.json", Some(".mcp.json")),
        ("cursor", ".cursor/mcp.json", Some(".cursor/mcp.json")),
        (
            "vscode",
            ".config/Code/User/mcp.json",
            Some(".vscode/mcp.json"),
        ),
        ("windsurf", ".codeium/windsurf/mcp_config.json", None),
        (
            "gemini-cli",
            ".gemini/settings.json",
            Some(".gemini/settings.json"),
        ),
    ];
    let install = |client: &str, extra: &[&str]| {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_toolidl"));
        command
            .args(["install", "--client", client])
            .args(extra)
            .args(["--", "/opt/demo/bin/demo"])
            .current_dir(&project)
            .env("HOME", &home)
            .env_remove("XDG_CONFIG_HOME");
        command.output().unwrap()
    };
    for (client, user, project_file) in cases {
        let out = install(client, &[]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{client}: {}",
            text(&out.stderr)
        );
        let config: Value =
            serde_json::from_str(&fs::read_to_string(home.join(user)).unwrap()).unwrap();
        let key = if client == "vscode" {
            "servers"
        } else {
            "mcpServers"
        };
        assert_eq!(
            config[key]["demo"]["command"], "/opt/demo/bin/demo",
            "{client}"
        );
        let out = install(client, &["--project"]);
        match project_file {
            Some(file) => {
                assert_eq!(
                    out.status.code(),
                    Some(0),
                    "{client}: {}",
                    text(&out.stderr)
                );
                assert!(project.join(file).is_file(), "{client}: {file}");
            }
            None => {
                assert_eq!(out.status.code(), Some(1), "{client}");
                assert!(text(&out.stderr).contains("has no project configuration file"));
            }
        }
    }
}
