//! `configure().mcpb_manifest(info)`: the MCP Bundle manifest written to the output folder is
//! the one `toolidl bundle` writes for the same server (the golden file of
//! toolidl-cli/tests/it/ship_cli.rs); fields left empty come from cargo's variables; a field the
//! format refuses fails the build and writes nothing.

use std::path::Path;

use toolidl_build::{Author, BundleInfo, Error, MCPB_MANIFEST_FILE, UserOption, configure};

fn golden() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/golden/ship")
}

fn option(key: &str, kind: &str, title: &str, description: &str, env: &str) -> UserOption {
    let mut o = UserOption::default();
    o.key = key.into();
    o.kind = kind.into();
    o.title = title.into();
    o.description = description.into();
    o.env = env.into();
    o
}

/// What toolidl-cli's fixture crate declares (tests/golden/ship/crate/Cargo.toml).
fn demo() -> BundleInfo {
    let mut info = BundleInfo::default();
    info.name = "demo-server".into();
    info.display_name = Some("Demo server".into());
    info.version = "1.2.3".into();
    info.description = "Greets people and keeps a guest book.".into();
    info.author = Author::parse("Ada Lovelace <ada@example.com>");
    info.license = Some("MIT OR Apache-2.0".into());
    info.repository = Some("https://github.com/example/demo-server".into());
    info.homepage = Some("https://example.com/demo".into());
    info.keywords = vec!["demo".into(), "greeting".into()];
    info.icon = Some("icon.png".into());
    info.entry_point = "server/demo".into();
    info.platform_entry_points = vec![("win32".into(), "server/win32/demo.exe".into())];
    info.platforms = vec!["linux".into(), "win32".into()];
    info.clients = vec![("claude_desktop".into(), ">=0.10.0".into())];
    let mut key = option(
        "api_key",
        "string",
        "API key",
        "The key of the greeting service.",
        "DEMO_API_KEY",
    );
    key.required = true;
    key.sensitive = true;
    info.user_config = vec![
        option(
            "guest_book",
            "file",
            "Guest book",
            "The file the guest book is kept in.",
            "DEMO_GUEST_BOOK",
        ),
        key,
    ];
    info
}

#[test]
fn the_manifest_is_the_one_toolidl_bundle_writes() {
    let out = tempfile::tempdir().unwrap();
    let compiled = configure()
        .out_dir(out.path())
        .emit_rerun_if_changed(false)
        .mcpb_manifest(demo())
        .compile(&[golden().join("crate/tools/demo.tool")])
        .unwrap();
    let path = out.path().join(MCPB_MANIFEST_FILE);
    assert!(compiled.written.contains(&path), "{:?}", compiled.written);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        std::fs::read_to_string(golden().join("manifest.json")).unwrap()
    );
}

#[test]
fn empty_fields_come_from_cargo() {
    let out = tempfile::tempdir().unwrap();
    let mut info = BundleInfo::default();
    info.author = Author::parse("Someone");
    configure()
        .out_dir(out.path())
        .emit_rerun_if_changed(false)
        .mcpb_manifest(info)
        .compile(&[golden().join("crate/tools/demo.tool")])
        .unwrap();
    let text = std::fs::read_to_string(out.path().join(MCPB_MANIFEST_FILE)).unwrap();
    let manifest: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(manifest["name"], env!("CARGO_PKG_NAME"));
    assert_eq!(manifest["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(manifest["description"], env!("CARGO_PKG_DESCRIPTION"));
    assert_eq!(manifest["server"]["entry_point"], "server/toolidl-build");
}

#[test]
fn a_refused_field_fails_the_build() {
    let out = tempfile::tempdir().unwrap();
    let mut info = demo();
    info.user_config[0].env = "NOT AN ENV".into();
    let failed = configure()
        .out_dir(out.path())
        .emit_rerun_if_changed(false)
        .mcpb_manifest(info)
        .compile(&[golden().join("crate/tools/demo.tool")]);
    match failed {
        Err(Error::Bundle(message)) => assert!(message.contains("guest_book"), "{message}"),
        other => panic!("{other:?}"),
    }
    assert!(!out.path().join(MCPB_MANIFEST_FILE).exists());
}
