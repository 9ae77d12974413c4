//! The wire protocol, below every other layer: JSON-RPC messages in and out, the error object
//! and its codes, and the MCP revisions the runtime serves.
//!
//! Its files, lowest first (checked as the crate's modules are; see `docs/architecture.md`):
//!
//! 1. `error`, `log_level`, `revision`: the error object and codes, log levels, revisions.
//! 2. `incoming`, `outgoing`, `method`: messages read, messages written, the table of
//!    methods and notifications (each parsed once, with what serving it needs).

mod error;
mod incoming;
mod log_level;
mod method;
mod outgoing;
mod revision;

pub use error::{RpcError, code};
pub(crate) use error::{reply_message, reply_result};
pub(crate) use incoming::{IdScanner, Incoming, Scanned, scan, valid_id};
pub use log_level::LogLevel;
#[cfg(feature = "http")]
pub(crate) use method::Named;
pub(crate) use method::{Method, Needs, Notification};
pub(crate) use outgoing::{
    error_message, listen_complete_message, notification_message, one_line, push_json_string,
    request_message, result_message,
};
pub use revision::Revision;
pub(crate) use revision::{unknown_listing_keys, unknown_tool_keys};

/// The MCP Apps extension's identifier (SEP-1865), the key of its settings in
/// `capabilities.extensions` (SEP-2133) on either side.
pub const APPS_EXTENSION: &str = "io.modelcontextprotocol/ui";

/// The MIME type of an MCP Apps view, `text/html;profile=mcp-app`.
pub const MCP_APP_MIME: &str = "text/html;profile=mcp-app";
