//! Pure code generation for toolidl: a resolved [`toolidl::model::Model`] in, JSON Schema and
//! MCP listings and Rust source out. No I/O happens here.

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
