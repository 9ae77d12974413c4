//! How the schema writer is asked to write ([`SchemaOptions`]) and why it cannot
//! ([`SchemaError`]): below both the writer (`schema`) and its plan of `$defs` (`hoist`).

use std::fmt;

/// Build options of the schema writer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SchemaOptions {
    /// Write a record that one root uses more than once to `$defs` (records in a cycle always
    /// go there). Off by default: inline schemas are the portable ones.
    pub hoist_shared: bool,
}

/// The model is not internally consistent (the resolver should have refused it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SchemaError {
    /// A named type that `Model::types` does not hold, or that is not of the kind named.
    UnknownType {
        /// The package the type was looked up in.
        package: String,
        /// The name looked up.
        name: String,
    },
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SchemaError::UnknownType { package, name } => {
                write!(
                    f,
                    "the model names {package}.{name}, which it does not define"
                )
            }
        }
    }
}

impl std::error::Error for SchemaError {}
