fn main() {
    // Generated records and enums derive serde's Deserialize, so the decode benchmark can
    // compare toolidl's decoders with jsonschema + serde on the very same Rust types.
    let built = toolidl_build::configure().compile(&["tools/orders.tool"]);
    if let Err(e) = built {
        eprintln!("{e}");
        std::process::exit(1);
    }
}
