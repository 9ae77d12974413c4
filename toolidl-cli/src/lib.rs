//! Not a library: the `toolidl` command's parts that the fuzz targets (`fuzz/` at the
//! repository root) call on arbitrary bytes, the LSP's frame reader and `toolidl import`'s
//! listing reader. Nothing here is a stable API; it changes with any release. Use the
//! `toolidl` command, or the `toolidl`, `toolidl-codegen` and `toolidl-build` crates.

#[doc(hidden)]
pub mod import;
#[doc(hidden)]
pub mod lsp;
