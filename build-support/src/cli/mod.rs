//! The `toolidl` command-line tool. Each subcommand lives in its own module and returns the
//! process exit code; the binary only parses arguments and exits.

pub mod check;
pub mod schema;
