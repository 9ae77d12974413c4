fn main() {
    if let Err(e) = toolidl_build::compile(&["tools/notes.tool"]) {
        // The rendered diagnostics: path:line:col, the source line, a caret, help.
        eprintln!("{e}");
        std::process::exit(1);
    }
}
