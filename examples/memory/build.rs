fn main() {
    if let Err(e) = toolidl_build::compile(&["tools/memory.tool"]) {
        eprintln!("{e}");
        std::process::exit(1);
    }
}
