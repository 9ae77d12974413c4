fn main() {
    // The records and the enum also derive serde's Deserialize, so the decode benchmark can
    // compare toolidl's decoders with jsonschema + serde on the very same Rust types. `rt` is
    // what generated code calls `toolidl_runtime::codegen`, which re-exports serde.
    let built = toolidl_build::configure()
        .type_attribute(".", "#[derive(rt::serde::Deserialize)]")
        .compile(&["tools/orders.tool"]);
    if let Err(e) = built {
        eprintln!("{e}");
        std::process::exit(1);
    }
}
