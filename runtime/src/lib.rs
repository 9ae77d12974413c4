//! toolidl-runtime: serves MCP tool services over stdio.
//!
//! A [`Service`] lists tools, resources and prompts as pre-rendered JSON and dispatches calls
//! to boxed futures. A [`Server`] holds services; [`serve_stdio`] serves it, one JSON-RPC
//! message per line. Revisions 2024-11-05, 2025-03-26, 2025-06-18 and 2025-11-25 are served
//! after `initialize`; 2026-07-28 per request (`_meta`), with `server/discover`.
//!
//! Generated code uses only [`codegen`]. See `docs/runtime.md` for writing a service by hand.

pub mod args;
mod connection;
pub mod content;
mod context;
mod jsonrpc;
mod output;
mod revision;
mod server;
mod service;
mod stdio;

pub use connection::{Connection, LineProblem, Outbox};
pub use context::{LogLevel, RequestContext};
pub use jsonrpc::{RpcError, code};
pub use output::TOOL_FAILED;
pub use revision::Revision;
pub use server::{Server, ServerBuilder};
pub use service::{
    BoxFuture, Completion, CompletionRequest, ListingDef, Service, ToolDef, ToolError, ToolOutput,
    ToolResult,
};
pub use stdio::{StdioConfig, serve_io, serve_stdio, serve_stdio_with};

/// Everything generated code needs, in one place (as `tonic::codegen` is for tonic).
pub mod codegen {
    pub use crate::args::{
        self, ArgError, Decode, Format, Path, Pattern, array, bytes, check, enum_member, formatted,
        integer, object, required, set, string,
    };
    pub use crate::content;
    pub use crate::{
        BoxFuture, Completion, CompletionRequest, ListingDef, LogLevel, RequestContext, Revision,
        RpcError, Service, ToolDef, ToolError, ToolOutput, ToolResult,
    };
    pub use serde;
    pub use serde_json;
    pub use serde_json::value::RawValue;
    pub use std::sync::Arc;
}
