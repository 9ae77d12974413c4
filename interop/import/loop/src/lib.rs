//! The imported server's types, server trait and typed client, as `toolidl import` and
//! `toolidl_build` made them.

toolidl_runtime::include_tools!();
