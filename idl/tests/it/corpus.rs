//! The `.tool` files of the repository, for the tests of the formatter and of diff.
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use toolidl::model::Model;
use toolidl::source::{MemoryLoader, SourceId};

pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every `.tool` file under `dir`, recursively, by path relative to the repository.
fn tool_files(dir: &Path, out: &mut BTreeMap<String, String>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n == "target") {
                continue;
            }
            tool_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "tool") {
            let rel = path.strip_prefix(repo()).unwrap();
            let rel = rel.to_string_lossy().replace('\\', "/");
            if let Ok(text) = fs::read_to_string(&path) {
                out.insert(rel, text);
            }
        }
    }
}

/// Every `.tool` file of the repository's tests, examples and benchmarks.
pub fn corpus() -> &'static BTreeMap<String, String> {
    static FILES: OnceLock<BTreeMap<String, String>> = OnceLock::new();
    FILES.get_or_init(|| {
        let mut files = BTreeMap::new();
        for dir in ["tests", "examples", "bench"] {
            tool_files(&repo().join(dir), &mut files);
        }
        assert!(files.len() > 50, "too few .tool files: {}", files.len());
        files
    })
}

pub fn loader() -> MemoryLoader {
    let mut loader = MemoryLoader::new();
    for (path, text) in corpus() {
        loader.insert(path, text.clone());
    }
    loader
}

/// The model of `text` standing at `path` (imports from the repository), as JSON; `None`
/// when it does not resolve.
pub fn model_json(path: &str, text: &str) -> Option<String> {
    let output = toolidl::compile(&loader(), SourceId::new(path), text.to_string());
    output
        .model
        .map(|m| serde_json::to_string_pretty(&m).unwrap())
}

/// The model of `text` standing at `path`, imports from the repository.
pub fn model(path: &str, text: &str) -> Option<Model> {
    toolidl::compile(&loader(), SourceId::new(path), text.to_string()).model
}
