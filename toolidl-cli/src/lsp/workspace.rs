//! The files the server sees: the editor's open documents over the file system.
//!
//! A file is known by its key, its absolute path with `/` separators (canonical when the
//! file exists), which is also what the resolver's `SourceId::key` holds, so that an import
//! of an open file reads the editor's text, not the saved one.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use lsp_types::Url;
use toolidl::source::{LoadError, SourceId, SourceLoader, join_relative};
use toolidl_build::compile::io_reason;

/// One document the editor has open.
#[derive(Debug, Clone)]
pub struct OpenDoc {
    pub uri: Url,
    pub text: String,
    pub version: i32,
}

#[derive(Debug, Default)]
pub struct Workspace {
    /// The workspace folder: diagnostics name files relative to it, and find-references
    /// and rename search its `.tool` files.
    pub root: Option<PathBuf>,
    /// Open documents by key.
    pub open: BTreeMap<String, OpenDoc>,
}

/// Folders never searched for `.tool` files (build output, dependencies, caches).
const SKIPPED_DIRS: &[&str] = &["target", "node_modules"];

/// At most this many folder entries are read when searching the workspace folder, so that
/// an editor started in a home folder does not walk the whole disk.
const MAX_ENTRIES: usize = 50_000;

/// The key of a document: its path for a `file:` URI, else the URI itself (an unsaved
/// buffer), which has no folder to import from.
pub fn key_of(uri: &Url) -> String {
    match uri.to_file_path() {
        Ok(path) => key_of_path(&path),
        Err(()) => uri.to_string(),
    }
}

fn key_of_path(path: &Path) -> String {
    let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    path.to_string_lossy().replace('\\', "/")
}

/// The URI of a key (the inverse of [`key_of`]).
pub fn uri_of(key: &str) -> Option<Url> {
    if key.starts_with('/') {
        Url::from_file_path(key).ok()
    } else {
        Url::parse(key).ok()
    }
}

impl Workspace {
    /// The text of a file: the editor's when it is open, else the file system's.
    pub fn read(&self, key: &str) -> Result<String, String> {
        if let Some(doc) = self.open.get(key) {
            return Ok(doc.text.clone());
        }
        let path = Path::new(key);
        if path.is_dir() {
            return Err("it is a directory".into());
        }
        std::fs::read_to_string(path).map_err(|e| io_reason(&e))
    }

    /// What diagnostics call a file: its path relative to the workspace folder when inside
    /// it (`common.tool`, `protos/common.tool`), else its full path.
    pub fn display_name(&self, key: &str) -> String {
        self.root
            .as_ref()
            .and_then(|root| Path::new(key).strip_prefix(root).ok())
            .map(|rel| rel.to_string_lossy().replace('\\', "/"))
            .filter(|rel| !rel.is_empty())
            .unwrap_or_else(|| key.to_string())
    }

    pub fn source_id(&self, key: &str) -> SourceId {
        SourceId {
            key: key.to_string(),
            name: self.display_name(key),
        }
    }

    /// Every `.tool` file of the workspace folder (hidden folders, `target` and
    /// `node_modules` skipped) and every open document, by key, sorted.
    pub fn tool_files(&self) -> Vec<String> {
        let mut keys: Vec<String> = self.open.keys().cloned().collect();
        if let Some(root) = &self.root {
            let mut stack = vec![root.clone()];
            let mut budget = MAX_ENTRIES;
            while let Some(dir) = stack.pop() {
                let Ok(entries) = std::fs::read_dir(&dir) else {
                    continue;
                };
                for entry in entries.flatten().take(budget) {
                    budget -= 1;
                    let name = entry.file_name().to_string_lossy().into_owned();
                    let path = entry.path();
                    let Ok(kind) = entry.file_type() else {
                        continue;
                    };
                    if kind.is_dir() {
                        if !name.starts_with('.') && !SKIPPED_DIRS.contains(&name.as_str()) {
                            stack.push(path);
                        }
                    } else if name.ends_with(".tool") {
                        keys.push(key_of_path(&path));
                    }
                }
            }
        }
        keys.sort();
        keys.dedup();
        keys
    }

    /// The key an `import "path";` of the file `from` names.
    pub fn import_key(&self, from: &str, import_path: &str) -> String {
        let joined = join_relative(from, import_path);
        if Path::new(&joined).exists() {
            key_of_path(Path::new(&joined))
        } else {
            joined
        }
    }

    /// The `.tool` files beside `key`, by file name (for "did you mean" on a missing import).
    fn siblings(&self, key: &str) -> Vec<String> {
        toolidl_build::compile::tool_files_beside(Path::new(key))
    }
}

impl SourceLoader for Workspace {
    fn load(&self, from: &SourceId, import_path: &str) -> Result<(SourceId, String), LoadError> {
        let key = self.import_key(&from.key, import_path);
        let text = self.read(&key).map_err(|message| LoadError {
            message,
            siblings: self.siblings(&key),
        })?;
        Ok((self.source_id(&key), text))
    }
}
