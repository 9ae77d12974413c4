//! The listings a client sees, pinned: `tests/golden/listing.json` holds the `tools/list`,
//! `resources/list`, `resources/templates/list` and `prompts/list` results of the server
//! (every page, through `toolidl_runtime::testing`). `TOOLIDL_BLESS=1 cargo test -p
//! notes-example --test it listing::` rewrites it after an intended change; read the diff by
//! eye. The listings must also be exactly what `toolidl schema tools/notes.tool` prints.

use crate::common;

use std::path::Path;

use serde_json::Value;

fn pretty(value: &Value) -> String {
    let mut text = serde_json::to_string_pretty(value).expect("json");
    text.push('\n');
    text
}

#[tokio::test]
async fn listings_match_the_golden_file_and_toolidl_schema() {
    let c = common::inproc::client().await;
    let listing = c.listing().await.expect("the listings");
    c.close().await;
    let actual = listing.to_string();

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
    let listed = serde_json::to_value(&listing).expect("JSON");
    for key in ["tools", "resources", "resourceTemplates", "prompts"] {
        assert_eq!(
            pretty(&schema[key]),
            pretty(&listed[key]),
            "{key} differs from toolidl schema"
        );
    }
}
