//! `toolidl check FILE...`

use std::path::PathBuf;

/// Checks every file; prints diagnostics to stderr. Exit code 0 when every file resolves
/// (warnings may print), 1 otherwise.
pub fn run(files: &[PathBuf]) -> i32 {
    let _ = files;
    eprintln!("toolidl check: not built yet");
    2
}
