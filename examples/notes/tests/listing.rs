//! The listings a client sees, pinned: `tests/golden/listing.json` holds the `tools/list`,
//! `resources/list`, `resources/templates/list` and `prompts/list` results of the real
//! server. `TOOLIDL_BLESS=1 cargo test -p notes-example --test listing` rewrites it after an
//! intended change; read the diff by eye. The listings must also be exactly what
//! `toolidl schema tools/notes.tool` prints.

mod common;

use std::path::Path;

use common::Client;
use serde_json::{Map, Value, json};

fn pretty(value: &Value) -> String {
    let mut text = serde_json::to_string_pretty(value).expect("json");
    text.push('\n');
    text
}

#[test]
fn listings_match_the_golden_file_and_toolidl_schema() {
    let mut c = Client::start(&[]);
    let mut listing = Map::new();
    for (method, key) in [
        ("tools/list", "tools"),
        ("resources/list", "resources"),
        ("resources/templates/list", "resourceTemplates"),
        ("prompts/list", "prompts"),
    ] {
        let reply = c.request(method, json!({}));
        assert_eq!(reply["result"].get("nextCursor"), None, "one page");
        listing.insert(key.into(), reply["result"][key].clone());
    }
    assert!(c.finish().success());
    let actual = pretty(&Value::Object(listing.clone()));

    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/listing.json");
    if std::env::var_os("TOOLIDL_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&golden, &actual).expect("write the golden file");
    }
    let expected = std::fs::read_to_string(&golden).unwrap_or_default();
    assert!(
        actual == expected,
        "the listings changed (TOOLIDL_BLESS=1 rewrites {}; review the diff by eye):\n{actual}",
        golden.display()
    );

    // `toolidl schema` writes the same JSON, with the keys in its own order.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let resolved = toolidl_build::compile::compile_in(dir, Path::new("tools/notes.tool"))
        .unwrap_or_else(|f| panic!("{}", f.rendered));
    let schema =
        toolidl_codegen::listings(&resolved.model, &toolidl_codegen::SchemaOptions::default())
            .expect("listings")
            .to_pretty_json();
    let schema: Value = serde_json::from_str(&schema).expect("JSON");
    for key in ["tools", "resources", "resourceTemplates", "prompts"] {
        assert_eq!(
            pretty(&schema[key]),
            pretty(&listing[key]),
            "{key} differs from toolidl schema"
        );
    }
}
