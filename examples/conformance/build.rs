fn main() {
    // The fixture as a user would write it: the .tool file, generated at build time.
    if let Err(e) = toolidl_build::compile(&["tools/conformance.tool"]) {
        eprintln!("{e}");
        std::process::exit(1);
    }
}
