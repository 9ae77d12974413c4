//! Compiling `.tool` files from disk: a [`SourceLoader`] over `std::fs`, and the entry points
//! every command and the build.rs API use.
//!
//! [`load`] compiles one root and keeps everything [`toolidl::compile`] produced (the model,
//! the diagnostics, every source file read, the locations of declared names), so a caller can
//! compile several roots and report every file read. [`compile_in`] and [`compile_file`] are
//! the short form for one root: its model, or its rendered diagnostics.

use std::path::{Path, PathBuf};

use toolidl::Output;
use toolidl::diagnostics::Diagnostic;
use toolidl::locations::Locations;
use toolidl::model::Model;
use toolidl::source::{LoadError, SourceId, SourceLoader, SourceMap, join_relative};

/// One root file compiled from disk, with its imports.
#[derive(Debug)]
pub struct Loaded {
    /// What [`toolidl::compile`] produced. When the root itself cannot be read, `sources` is
    /// empty and `diagnostics` holds one `E1000` error without a location.
    pub output: Output,
    /// The folder that the paths in `output.sources` are relative to.
    pub base: PathBuf,
}

impl Loaded {
    /// Every file read (the root first, then its imports in load order), as paths on disk:
    /// `base` joined to each file's displayed name.
    pub fn files_read(&self) -> Vec<PathBuf> {
        self.output
            .sources
            .files()
            .iter()
            .map(|file| self.base.join(&file.id.name))
            .collect()
    }
}

/// Compiles `base/rel` and its imports. Diagnostics show paths relative to `base` (`rel` as
/// given, imports joined to it), so that the output does not depend on where `base` is; with
/// an empty `base`, paths are relative to the current directory, exactly as given.
pub fn load(base: &Path, rel: &Path) -> Loaded {
    let name = slash_path(rel);
    let loader = FsLoader {
        base: base.to_path_buf(),
    };
    let output = match loader.read(&name) {
        Ok(text) => {
            let id = SourceId {
                key: loader.key(&name),
                name,
            };
            toolidl::compile(&loader, id, text)
        }
        Err(message) => Output {
            model: None,
            diagnostics: vec![Diagnostic::error(
                "E1000",
                format!("cannot read `{name}`: {message}"),
            )],
            sources: SourceMap::default(),
            locations: Locations::default(),
        },
    };
    Loaded {
        output,
        base: base.to_path_buf(),
    }
}

/// A file that resolved: its model, its warnings rendered (empty when none), and every file
/// read.
#[derive(Debug, Clone)]
pub struct Resolved {
    /// The resolved model of the root and its imports.
    pub model: Model,
    /// The warnings, rendered as `toolidl check` renders them; empty when there are none.
    pub warnings: String,
    /// Every file read, the root first.
    pub files_read: Vec<PathBuf>,
}

/// A file that did not resolve: every diagnostic (errors and warnings), rendered, and every
/// file read (empty when the file itself cannot be read).
#[derive(Debug, Clone)]
pub struct Failed {
    /// Every diagnostic, rendered as `toolidl check` renders them.
    pub rendered: String,
    /// Every file read, the root first; empty when the root itself cannot be read.
    pub files_read: Vec<PathBuf>,
}

/// Compiles the file at `path` and its imports. Diagnostics show paths as `path` was given
/// (imports joined to it), e.g. `tests/weather.tool:7:11`.
pub fn compile_file(path: &Path) -> Result<Resolved, Failed> {
    compile_in(Path::new(""), path)
}

/// Compiles `base/rel`, printing paths relative to `base` (`rel`, and imports joined to it),
/// so that the output does not depend on where `base` is.
pub fn compile_in(base: &Path, rel: &Path) -> Result<Resolved, Failed> {
    let mut loaded = load(base, rel);
    let files_read = loaded.files_read();
    let rendered = loaded.output.render();
    match loaded.output.model.take() {
        Some(model) if !loaded.output.has_errors() => Ok(Resolved {
            model,
            warnings: rendered,
            files_read,
        }),
        _ => Err(Failed {
            rendered,
            files_read,
        }),
    }
}

/// The `.tool` files in the folder of `path` (the current one for a bare file name), by file
/// name, sorted: what a missing import's "did you mean" chooses from.
pub fn tool_files_beside(path: &Path) -> Vec<String> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".tool"))
        .collect();
    names.sort();
    names
}

/// `a\b.tool` → `a/b.tool` (display and joining use `/` on every platform).
fn slash_path(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

/// An I/O error in words that do not depend on the platform (golden files compare them).
pub fn io_reason(error: &std::io::Error) -> String {
    match error.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        std::io::ErrorKind::InvalidData => "it is not UTF-8 text".into(),
        _ => {
            let text = error.to_string();
            match text.find(" (os error") {
                Some(cut) => text[..cut].to_string(),
                None => text,
            }
        }
    }
}

/// Loads imports from disk. Ids are `/`-separated paths relative to `base`, joined to the
/// importing file's directory; keys are canonical paths when the file exists, so that one
/// file reached by two spellings is one file.
struct FsLoader {
    base: PathBuf,
}

impl FsLoader {
    fn full(&self, name: &str) -> PathBuf {
        self.base.join(name)
    }

    fn read(&self, name: &str) -> Result<String, String> {
        let path = self.full(name);
        if path.is_dir() {
            return Err("it is a directory".into());
        }
        std::fs::read_to_string(&path).map_err(|e| io_reason(&e))
    }

    /// The `.tool` files in the folder of `name`, by file name.
    fn siblings(&self, name: &str) -> Vec<String> {
        tool_files_beside(&self.full(name))
    }

    fn key(&self, name: &str) -> String {
        match std::fs::canonicalize(self.full(name)) {
            Ok(path) => slash_path(&path),
            Err(_) => name.to_string(),
        }
    }
}

impl SourceLoader for FsLoader {
    fn load(&self, from: &SourceId, import_path: &str) -> Result<(SourceId, String), LoadError> {
        let name = join_relative(&from.name, import_path);
        let text = self.read(&name).map_err(|message| LoadError {
            message,
            siblings: self.siblings(&name),
        })?;
        Ok((
            SourceId {
                key: self.key(&name),
                name,
            },
            text,
        ))
    }
}
