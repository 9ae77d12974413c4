//! The build.rs API and the `toolidl` command-line tool.

pub mod cli;
pub mod compile;
