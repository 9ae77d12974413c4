//! Pure code generation for toolidl: a resolved [`toolidl::model::Model`] in, JSON Schema and
//! MCP listings and Rust source out. No I/O happens here; `toolidl-build` (build.rs) and the
//! `toolidl` command read and write the files.
//!
//! # Quick start
//!
//! ```
//! use toolidl::source::{MemoryLoader, SourceId};
//! use toolidl_codegen::{SchemaOptions, input_schema};
//!
//! let text = "service S { tool greet(@length(1, 100) name: string) -> string; }";
//! let output = toolidl::compile(&MemoryLoader::new(), SourceId::new("s.tool"), text.to_string());
//! let model = output.model.expect("the file resolves");
//! let greet = &model.services[0].members[0];
//! let schema = input_schema(&model, greet, &SchemaOptions::default()).unwrap();
//! assert_eq!(
//!     schema.to_string(),
//!     r#"{"type":"object","properties":{"name":{"type":"string","minLength":1,"maxLength":100}},"required":["name"],"additionalProperties":false}"#
//! );
//! ```
//!
//! [`listings()`] computes every tool, resource and prompt entry of a model as `tools/list`
//! and the other listings carry them, and [`rust::generate`] the Rust module of each package.
//! The mapping is `docs/schema-mapping.md` in the repository, the generated Rust
//! `docs/generated-api.md`.
//!
//! # Features
//!
//! None. The crate depends on `toolidl` (the model), serde_json (schemas), heck (names),
//! and proc-macro2, quote, syn and prettyplease (the Rust source, formatted).

#![deny(missing_docs)]

pub mod bundle;
pub mod forward;
mod fragment;
mod hoist;
pub mod listings;
mod naming;
mod options;
pub mod profile;
pub mod rust;
pub mod schema;

pub use listings::{Listing, Listings, ServiceListings, listings};
pub use options::{SchemaError, SchemaOptions};
pub use schema::{input_schema, output_schema};
