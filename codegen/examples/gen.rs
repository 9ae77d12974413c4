//! Scratch: prints the Rust generated for one .tool file (no imports).
fn main() {
    let path = std::env::args().nth(1).expect("path");
    let text = std::fs::read_to_string(&path).expect("read");
    let out = toolidl::compile(
        &toolidl::source::MemoryLoader::new(),
        toolidl::source::SourceId::new(path.clone()),
        text,
    );
    eprint!("{}", out.render());
    let model = out.model.expect("model");
    let diags = toolidl_codegen::rust::check(&model, &out.locations);
    eprint!("{}", toolidl::diagnostics::render_all(&diags, &out.sources));
    for f in toolidl_codegen::rust::generate(&[&model], &Default::default()).expect("gen") {
        println!("// ---- {}", f.file_name);
        print!("{}", f.code);
    }
}
