//! What a build can change about the generated Rust.

use crate::profile::Profile;

/// Options of the Rust generator; `toolidl_build::Builder` sets them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RustOptions {
    /// How generated code names the runtime crate: `::toolidl_runtime` unless the user
    /// re-exports it elsewhere.
    pub runtime_crate: String,
    /// Hoist records used more than once to `$defs` in the listings (see `SchemaOptions`).
    pub hoist_shared: bool,
    /// Extra attributes on generated records and enums, by path: `.` (every type), a package
    /// (`acme.common`), or a type (`acme.common.Page`). The attribute is Rust source, such as
    /// `#[derive(Eq)]`.
    pub type_attributes: Vec<(String, String)>,
    /// Extra attributes on record fields, by path: `acme.common.Page.size` (or a prefix: a
    /// type, a package, `.`).
    pub field_attributes: Vec<(String, String)>,
    /// Packages whose types the user already has: `(package, rust path)`, such as
    /// `("acme.common", "::common_types")`. Their types are not generated; references use
    /// `rust_path::TypeName`.
    pub extern_paths: Vec<(String, String)>,
    /// The client profile whose variant of the listings the server publishes (tool names
    /// and input schemas, `crate::profile`); decoding and checks do not change.
    pub profile: Profile,
}

impl Default for RustOptions {
    fn default() -> Self {
        RustOptions {
            runtime_crate: "::toolidl_runtime".into(),
            hoist_shared: false,
            type_attributes: Vec::new(),
            field_attributes: Vec::new(),
            extern_paths: Vec::new(),
            profile: Profile::Standard,
        }
    }
}
