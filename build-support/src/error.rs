//! Why a build failed, in words a person reads in cargo's output.

use std::fmt;
use std::path::PathBuf;

use toolidl_codegen::rust::GenerateError;

/// Why [`Builder::compile`](crate::Builder::compile) failed.
///
/// `Display` and `Debug` write the same readable text (for diagnostics: exactly what
/// `toolidl check` prints: `path:line:col`, the source line, a caret, help), so that
/// `toolidl_build::compile(..).unwrap()` in a build script shows the diagnostics, not a
/// struct.
#[non_exhaustive]
pub enum Error {
    /// A file did not resolve, or the Rust generator refused one of its names: every
    /// diagnostic of every failed file (errors and that file's warnings), rendered and
    /// separated by blank lines.
    Diagnostics {
        /// The diagnostics, as `toolidl check` prints them.
        rendered: String,
    },
    /// An output file could not be written (or the output folder created).
    Io {
        /// The file or folder.
        path: PathBuf,
        /// Why it could not be written.
        source: std::io::Error,
    },
    /// The Rust generator failed on files that resolved and passed its checks.
    Generate(GenerateError),
    /// The MCP Bundle manifest ([`Builder::mcpb_manifest`](crate::Builder::mcpb_manifest))
    /// refused a field: the message names it.
    Bundle(String),
    /// No output folder: neither `Builder::out_dir` nor the environment variable `OUT_DIR`
    /// (which cargo sets for build scripts) names one.
    NoOutDir,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Diagnostics { rendered } => f.write_str(rendered),
            Error::Io { path, source } => {
                write!(f, "cannot write `{}`: {source}", path.display())
            }
            Error::Generate(error) => write!(f, "cannot generate Rust: {error}"),
            Error::Bundle(message) => write!(f, "cannot write the MCP Bundle manifest: {message}"),
            Error::NoOutDir => f.write_str(
                "no output folder: OUT_DIR is not set (cargo sets it only for build scripts); \
                 name one with toolidl_build::configure().out_dir(\"...\")",
            ),
        }
    }
}

/// The same text as `Display`: a build script that unwraps the result shows the rendered
/// diagnostics.
impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            Error::Generate(error) => Some(error),
            Error::Diagnostics { .. } | Error::Bundle(_) | Error::NoOutDir => None,
        }
    }
}
