//! The `.tool` interface language: grammar, AST, resolver and diagnostics.
//!
//! This crate knows nothing of Rust or JSON Schema: it turns `.tool` text into a
//! resolved [`model::Model`], or into diagnostics.

pub mod model;
