//! Generates every golden `.tool` file (schema and codegen cases) into OUT_DIR.

use std::path::{Path, PathBuf};

fn tool_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "tool"))
        .collect();
    files.sort();
    files
}

fn main() {
    let golden = Path::new("../golden");
    let mut roots = tool_files(&golden.join("schema"));
    roots.extend(tool_files(&golden.join("codegen")));
    println!("cargo:rerun-if-changed=../golden/schema");
    println!("cargo:rerun-if-changed=../golden/codegen");
    // Golden files warn on purpose (names with dots); their warnings are not this crate's.
    let result = toolidl_build::configure()
        .emit_warnings(false)
        .compile(&roots);
    if let Err(e) = result {
        eprintln!("{e}");
        std::process::exit(1);
    }

    // The compile-fail case tests/ui/version_mismatch.rs: a package generated against the
    // runtime crate `crate::old_runtime`, which that case defines with another
    // GENERATED_CODE_VERSION.
    let mismatch_dir =
        Path::new(&std::env::var_os("OUT_DIR").expect("OUT_DIR")).join("version_mismatch");
    let result = toolidl_build::configure()
        .out_dir(mismatch_dir)
        .runtime_crate("crate::old_runtime")
        .include_file(false)
        .compile(&["tests/ui/version_mismatch.tool"]);
    if let Err(e) = result {
        eprintln!("{e}");
        std::process::exit(1);
    }
}
