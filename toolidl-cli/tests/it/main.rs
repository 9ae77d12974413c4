//! The integration tests, one binary (`--test it`) that links once: each module was a test
//! binary of its own, and the helpers they share are modules beside them.

mod check_cli;
mod common;
mod diff_cli;
mod fmt_cli;
mod generate_cli;
mod golden_lint;
mod golden_profiles;
mod golden_schema;
mod golden_servers;
mod import_cli;
mod language_guide;
mod lsp_client;
mod lsp_frames;
mod lsp_protocol;
mod new_cli;
mod openapi_cli;
mod ship_cli;
mod support;
