//! What the CLI's subprocess and golden tests share.
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs `toolidl <args>` in `dir`.
pub fn toolidl(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_toolidl"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

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
