//! `toolidl schema FILE`

use std::path::Path;

/// Prints the MCP listings of one file as one JSON object on stdout. Exit code 0, or 1 with
/// rendered diagnostics on stderr.
pub fn run(file: &Path) -> i32 {
    let _ = file;
    eprintln!("toolidl schema: not built yet");
    2
}
