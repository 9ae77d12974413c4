fn main() {
    // Generated types derive no serde `Deserialize` (they are read through their checked
    // `Decode`); the decode benchmark adds it, so that it compares toolidl's decoders with
    // jsonschema + serde on the very same Rust types.
    let mut build = toolidl_build::configure();
    for ty in ["orders.Order", "orders.LineItem", "orders.Status"] {
        build = build.type_attribute(ty, "#[derive(serde::Deserialize)]");
    }
    let built = build.compile(&["tools/orders.tool"]);
    if let Err(e) = built {
        eprintln!("{e}");
        std::process::exit(1);
    }
}
