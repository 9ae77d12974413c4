//! The build.rs API of toolidl: `.tool` files → Rust modules in `OUT_DIR`, as prost-build is
//! for protobuf.
//!
//! ```no_run
//! // In build.rs, inside `fn main()`:
//! toolidl_build::compile(&["tools/weather.tool"]).unwrap();
//! ```
//!
//! With options:
//!
//! ```no_run
//! toolidl_build::configure()
//!     .type_attribute("acme.weather.Forecast", "#[derive(Hash)]")
//!     .extern_path("acme.common", "::common_types")
//!     .compile(&["tools/weather.tool"])
//!     .unwrap();
//! ```
//!
//! [`compile()`] reports every `.tool` file it read to cargo (`cargo:rerun-if-changed`), and
//! each warning (`cargo:warning`); it rewrites a generated file only when its content changed.
//! On error, [`Error`] displays (and debug-prints) the diagnostics exactly as `toolidl check`
//! renders them. See `docs/build.md`.
//!
//! # Features
//!
//! None. A build-dependency kept light: `toolidl`, `toolidl-codegen` and serde_json, no
//! clap (the `toolidl` command is the `toolidl-cli` crate).

#![deny(missing_docs)]

mod builder;
// The file-system loader the toolidl CLI and this repository's tests share: not part of the
// build.rs API (hidden from its docs, free to change).
#[doc(hidden)]
pub mod compile;
mod error;

pub use builder::{
    Builder, Compiled, Generated, INCLUDE_FILE, MCPB_MANIFEST_FILE, compile, configure,
};
pub use error::Error;
pub use toolidl_codegen::bundle::{Author, BundleInfo, UserOption};
pub use toolidl_codegen::profile::Profile;
pub use toolidl_codegen::rust::{GenerateError, GeneratedFile};
