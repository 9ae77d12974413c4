fn main() {
    if let Err(e) = toolidl_build::compile(&["tools/shop.tool"]) {
        eprintln!("{e}");
        std::process::exit(1);
    }
}
