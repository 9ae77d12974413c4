fn main() {
    // Each root's imports are found and watched (rerun-if-changed) too.
    if let Err(e) = toolidl_build::compile(&["tools/weather.tool", "tools/manual.tool"]) {
        // The rendered diagnostics: path:line:col, the source line, a caret, help.
        eprintln!("{e}");
        std::process::exit(1);
    }
}
