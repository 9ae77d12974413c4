//! Shared by the golden tests of the CLI.

use std::fs;
use std::path::{Path, PathBuf};

/// `tests/golden/schema`.
pub fn schema_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/golden/schema")
}

/// The stems of every `.tool` file of `dir`, sorted.
pub fn tool_stems(dir: &Path) -> Vec<String> {
    let mut stems: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "tool"))
        .map(|path| path.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    stems.sort();
    assert!(!stems.is_empty(), "no golden cases in {}", dir.display());
    stems
}
