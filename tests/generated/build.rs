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
}
