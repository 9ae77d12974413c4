//! Compiling `.tool` files from disk: a [`SourceLoader`] over `std::fs`, and the one entry
//! point every command and the build.rs API use.

use std::path::{Path, PathBuf};

use toolidl::diagnostics::Diagnostic;
use toolidl::model::Model;
use toolidl::source::{LoadError, SourceId, SourceLoader, SourceMap, join_relative};

/// A file that resolved: its model, and its warnings rendered (empty when none).
#[derive(Debug, Clone)]
pub struct Compiled {
    pub model: Model,
    pub warnings: String,
}

/// A file that did not resolve: every diagnostic (errors and warnings), rendered.
#[derive(Debug, Clone)]
pub struct Failed {
    pub rendered: String,
}

/// Compiles the file at `path` and its imports. Diagnostics show paths as `path` was given
/// (imports joined to it), e.g. `tests/weather.tool:7:11`.
pub fn compile_file(path: &Path) -> Result<Compiled, Failed> {
    compile_in(Path::new(""), path)
}

/// Compiles `base/rel`, printing paths relative to `base` (`rel`, and imports joined to it),
/// so that the output does not depend on where `base` is.
pub fn compile_in(base: &Path, rel: &Path) -> Result<Compiled, Failed> {
    let name = slash_path(rel);
    let loader = FsLoader {
        base: base.to_path_buf(),
    };
    let text = match loader.read(&name) {
        Ok(text) => text,
        Err(message) => {
            let d = Diagnostic::error("E1000", format!("cannot read `{name}`: {message}"));
            return Err(Failed {
                rendered: d.render(&SourceMap::default()),
            });
        }
    };
    let id = SourceId {
        key: loader.key(&name),
        name,
    };
    let mut output = toolidl::compile(&loader, id, text);
    let rendered = output.render();
    match output.model.take() {
        Some(model) if !output.has_errors() => Ok(Compiled {
            model,
            warnings: rendered,
        }),
        _ => Err(Failed { rendered }),
    }
}

/// `a\b.tool` → `a/b.tool` (display and joining use `/` on every platform).
fn slash_path(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

/// An I/O error in words that do not depend on the platform (golden files compare them).
fn io_reason(error: &std::io::Error) -> String {
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
        let text = self.read(&name).map_err(|message| LoadError { message })?;
        Ok((
            SourceId {
                key: self.key(&name),
                name,
            },
            text,
        ))
    }
}
