//! The `.tool` interface language: grammar, AST, resolver and diagnostics.
//!
//! This crate knows nothing of Rust or JSON Schema, and does no file-system I/O: it turns
//! `.tool` text into a resolved [`model::Model`], or into diagnostics. Imports are read
//! through a [`source::SourceLoader`].
//!
//! ```
//! use toolidl::source::{MemoryLoader, SourceId};
//!
//! let text = "service S { tool ping() -> string; }";
//! let output = toolidl::compile(&MemoryLoader::new(), SourceId::new("s.tool"), text.to_string());
//! assert!(!output.has_errors());
//! assert_eq!(output.model.unwrap().services[0].members[0].name, "ping");
//! ```
//!
//! The language is `docs/language.md` in the repository, its diagnostics
//! `docs/diagnostics.md`; `toolidl-codegen` turns the model into JSON Schema and Rust.
//!
//! # Features
//!
//! None. The crate depends on pest (the grammar), serde (the model serializes), heck (name
//! cases), regress (`@pattern` checked as ECMAScript) and `toolidl-formats` (defaults checked
//! as the runtime checks arguments).

#![deny(missing_docs)]
pub mod ast;
pub mod diagnostics;
pub mod diff;
pub mod fmt;
/// The string formats a default must have: the validators the runtime applies to arguments
/// (`toolidl_runtime::args::formats`), so both ends accept the same strings.
pub use toolidl_formats as formats;
pub mod locations;
pub mod model;
pub mod parser;
pub mod resolve;
pub mod source;

pub use diagnostics::{Diagnostic, Severity};
pub use resolve::{Output, compile};
