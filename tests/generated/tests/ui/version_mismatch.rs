// Generated code compiled against a runtime whose generated-code version is not the one its
// generator wrote for: `build.rs` generates `version_mismatch.tool` with the runtime crate
// `crate::old_runtime`, and `tests/compile_fail.rs` passes the generated file's path in
// TOOLIDL_VERSION_MISMATCH_RS.

/// A toolidl-runtime of another minor version: everything generated code uses, but another
/// GENERATED_CODE_VERSION.
mod old_runtime {
    pub mod codegen {
        pub use toolidl_runtime::codegen::*;
        pub const GENERATED_CODE_VERSION: u32 = 0;
    }
}

mod generated {
    include!(env!("TOOLIDL_VERSION_MISMATCH_RS"));
}

fn main() {}
