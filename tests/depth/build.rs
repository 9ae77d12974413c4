//! Generates `tests/golden/codegen/deep.tool` (the shapes the depth tests send) into OUT_DIR.

fn main() {
    println!("cargo:rerun-if-changed=../golden/codegen/deep.tool");
    // The golden's warnings (if any) are the golden's, not this crate's.
    if let Err(e) = toolidl_build::configure()
        .emit_warnings(false)
        .compile(&["../golden/codegen/deep.tool"])
    {
        eprintln!("{e}");
        std::process::exit(1);
    }
}
