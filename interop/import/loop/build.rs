//! Generates the typed client of the file `toolidl import` wrote (IMPORTED_TOOL).

fn main() {
    println!("cargo:rerun-if-env-changed=IMPORTED_TOOL");
    let Some(file) = std::env::var_os("IMPORTED_TOOL") else {
        eprintln!("IMPORTED_TOOL must name the imported .tool file (scripts/import.sh sets it)");
        std::process::exit(1);
    };
    if let Err(e) = toolidl_build::configure().client(true).compile(&[file]) {
        eprintln!("{e}");
        std::process::exit(1);
    }
}
