//! Source files, their identities, and the loader that resolves `import "…";`.
//!
//! This crate never touches the file system: whoever compiles a file supplies a
//! [`SourceLoader`]. [`MemoryLoader`] serves files from memory (tests, fuzzing);
//! `toolidl-build` implements one over `std::fs`.

use std::collections::BTreeMap;

/// The identity of one source file.
///
/// `key` decides whether two imports name the same file (a loader may use a canonical path);
/// `name` is what diagnostics print (`weather.tool`, `protos/common.tool`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SourceId {
    /// What decides whether two imports name the same file (a loader may use a canonical path).
    pub key: String,
    /// What diagnostics print for the file (`weather.tool`, `protos/common.tool`).
    pub name: String,
}

impl SourceId {
    /// An id whose key and displayed name are the same string.
    pub fn new(name: impl Into<String>) -> SourceId {
        let name = name.into();
        SourceId {
            key: name.clone(),
            name,
        }
    }

    /// The file stem of `name` (`acme/weather.tool` → `weather`), the default package.
    pub fn stem(&self) -> &str {
        let file = self.name.rsplit(['/', '\\']).next().unwrap_or(&self.name);
        match file.rfind('.') {
            Some(dot) if dot > 0 => &file[..dot],
            _ => file,
        }
    }
}

/// Why an import could not be loaded (the loader's own words, e.g. the OS error).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LoadError {
    /// The loader's own words for the failure (for example the OS error).
    pub message: String,
    /// The `.tool` files beside the missing one (file names), from which the diagnostic
    /// suggests a likely typo; empty when the loader cannot tell.
    pub siblings: Vec<String>,
}

impl LoadError {
    /// An error with no siblings to suggest.
    pub fn new(message: impl Into<String>) -> Self {
        LoadError {
            message: message.into(),
            siblings: Vec::new(),
        }
    }
}

/// Resolves `import "path";` written in the file `from` and returns the imported file's id and
/// text. Relative paths are relative to the importing file.
pub trait SourceLoader {
    /// Loads `import_path`, as written in the file `from`: the imported file's id and text,
    /// or why not.
    fn load(&self, from: &SourceId, import_path: &str) -> Result<(SourceId, String), LoadError>;
}

/// A loader over an in-memory set of files, keyed by `/`-separated paths.
#[derive(Debug, Clone, Default)]
pub struct MemoryLoader {
    files: BTreeMap<String, String>,
}

impl MemoryLoader {
    /// A loader with no files.
    pub fn new() -> MemoryLoader {
        MemoryLoader::default()
    }

    /// Adds (or replaces) a file; `path` is normalized (`./`, `a/../` removed).
    pub fn insert(&mut self, path: &str, text: impl Into<String>) -> &mut MemoryLoader {
        self.files.insert(normalize_path(path), text.into());
        self
    }

    /// The id and text of a file added with [`MemoryLoader::insert`].
    pub fn get(&self, path: &str) -> Option<(SourceId, String)> {
        let path = normalize_path(path);
        let text = self.files.get(&path)?.clone();
        Some((SourceId::new(path), text))
    }
}

impl SourceLoader for MemoryLoader {
    fn load(&self, from: &SourceId, import_path: &str) -> Result<(SourceId, String), LoadError> {
        let path = join_relative(&from.key, import_path);
        self.get(&path)
            .ok_or_else(|| LoadError::new(format!("no file `{path}`")))
    }
}

/// `dir_of(from)/import_path`, normalized; an absolute `import_path` (`/x.tool`) is kept.
pub fn join_relative(from: &str, import_path: &str) -> String {
    if import_path.starts_with('/') {
        return normalize_path(import_path);
    }
    let dir = match from.rfind('/') {
        Some(slash) => &from[..=slash],
        None => "",
    };
    normalize_path(&format!("{dir}{import_path}"))
}

/// Removes `.` segments and resolves `..` against earlier segments, lexically.
pub fn normalize_path(path: &str) -> String {
    let absolute = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => match parts.last() {
                Some(&last) if last != ".." => {
                    parts.pop();
                }
                _ if absolute => {}
                _ => parts.push(".."),
            },
            _ => parts.push(part),
        }
    }
    let joined = parts.join("/");
    if absolute {
        format!("/{joined}")
    } else {
        joined
    }
}

/// One loaded file, with the offsets of its line starts for `line:col` rendering.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// Which file this is.
    pub id: SourceId,
    /// Its whole text.
    pub text: String,
    line_starts: Vec<usize>,
}

impl SourceFile {
    /// A file with its text, its line starts computed once.
    pub fn new(id: SourceId, text: String) -> SourceFile {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        SourceFile {
            id,
            text,
            line_starts,
        }
    }

    /// 1-based line and 1-based column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = self.floor_char_boundary(offset.min(self.text.len()));
        let line = self.line_starts.partition_point(|&s| s <= offset) - 1;
        let col = self.text[self.line_starts[line]..offset].chars().count() + 1;
        (line + 1, col)
    }

    /// The text of a 1-based line, without its line break.
    pub fn line_text(&self, line: usize) -> &str {
        let start = self.line_starts[line - 1];
        let end = self
            .line_starts
            .get(line)
            .map(|&next| next - 1)
            .unwrap_or(self.text.len());
        self.text[start..end].trim_end_matches('\r')
    }

    fn floor_char_boundary(&self, mut offset: usize) -> usize {
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        offset
    }
}

/// Index of a file in a [`SourceMap`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub usize);

/// Every file loaded while compiling one root file, in load order (the root first).
#[derive(Debug, Clone, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    /// Adds a file and returns its index.
    pub fn add(&mut self, id: SourceId, text: String) -> FileId {
        self.files.push(SourceFile::new(id, text));
        FileId(self.files.len() - 1)
    }

    /// The file at `file`, which this map returned from [`SourceMap::add`].
    pub fn get(&self, file: FileId) -> &SourceFile {
        &self.files[file.0]
    }

    /// The index of the file whose [`SourceId::key`] is `key`, if loaded.
    pub fn find(&self, key: &str) -> Option<FileId> {
        self.files.iter().position(|f| f.id.key == key).map(FileId)
    }

    /// Every file, in load order.
    pub fn files(&self) -> &[SourceFile] {
        &self.files
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_join_and_normalize() {
        assert_eq!(join_relative("a/b.tool", "c.tool"), "a/c.tool");
        assert_eq!(join_relative("a/b.tool", "../c.tool"), "c.tool");
        assert_eq!(join_relative("b.tool", "./x/../c.tool"), "c.tool");
        assert_eq!(join_relative("b.tool", "../c.tool"), "../c.tool");
        assert_eq!(join_relative("/r/b.tool", "../../c.tool"), "/c.tool");
    }

    #[test]
    fn line_col_counts_characters() {
        let f = SourceFile::new(SourceId::new("x"), "ab\néé x\n".into());
        assert_eq!(f.line_col(0), (1, 1));
        assert_eq!(f.line_col(3), (2, 1));
        assert_eq!(f.line_col(8), (2, 4));
        assert_eq!(f.line_text(2), "éé x");
        assert_eq!(f.line_col(100), (3, 1));
    }

    #[test]
    fn stems() {
        assert_eq!(SourceId::new("a/weather.tool").stem(), "weather");
        assert_eq!(SourceId::new("x").stem(), "x");
    }
}
