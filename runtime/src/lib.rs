//! toolidl-runtime: serves MCP tool services over stdio.
//!
//! A [`Service`] lists tools, resources and prompts as pre-rendered JSON and dispatches calls
//! to boxed futures. A [`Server`] holds services; [`serve_stdio`] serves it, one JSON-RPC
//! message per line. Revisions 2024-11-05, 2025-03-26, 2025-06-18 and 2025-11-25 are served
//! after `initialize`; 2026-07-28 per request (`_meta`), with `server/discover`.
//!
//! Generated code uses only [`codegen`]. See `docs/runtime.md` for writing a service by hand.
//!
//! # How the crate is built
//!
//! The modules form a one-way stack: each imports only the layers above it in this list
//! (lowest first), never its own layer or a higher one. `tests/layering.rs` reads this list
//! and fails on any other import, and `.ci/run` runs it as the layering check.
//!
//! 1. `protocol`: JSON-RPC messages in (parsed once, borrowing from the input; the scanners
//!    that find an id in a message too broken or too long to parse) and out (written
//!    straight into strings), the error object and its codes, the revisions, log levels.
//! 2. `args`, `uri_template`, `fetch`: decoding and checking arguments; URI templates;
//!    OAuth's JSON documents fetched over HTTPS (features `auth`, or `client` with `http`).
//! 3. `bytes`, `typed`, `content`, `banner`, `seal`, `auth/`: leaves over those (binary
//!    values, typed format values (feature `typed-formats`), content blocks, the stdio
//!    banner, the 2026-07-28 `requestState` sealed and opened; access tokens checked,
//!    feature `auth`).
//! 4. `peer`: the outgoing half of a connection: the outbox, calls in flight, requests to
//!    the client awaiting an answer, the log level, subscriptions. No server inside.
//! 5. `tasks/`: task stores and the task policy types (which tools run as tasks, the
//!    server's table of tasks).
//! 6. `cluster/`: state shared by instances: the bus that carries changes between them, and
//!    (feature `redis`) Redis, its task store and bus.
//! 7. `context`: [`RequestContext`], a handler's view of its call. Its
//!    [`server`](RequestContext::server) is the one import that points up the stack.
//! 8. `service`: the [`Service`] trait and what handlers return.
//! 9. `output`: a tool result rendered for each revision.
//! 10. `server`: the builder, the registry of services, broadcasting changes to peers.
//! 11. `connection`: the dispatcher, one per connection; nothing below imports it.
//! 12. `stdio`, `http/`: the transports, driving connections of a server.
//! 13. `testing/`: a handler's context for unit tests and an in-process client, over a
//!     connection like the transports.
//! 14. `client/`: (feature `client`) calling MCP servers: the transport abstraction (the
//!     in-process client of `testing/` is one), the stdio transport, typed `tools/call`.
//! 15. `forward/`: (feature `forward`) forwarding tool calls to an HTTP API, for handlers
//!     generated from an OpenAPI import: requests in OpenAPI's parameter styles,
//!     credentials, retries, results read as declared.
//!
//! `protocol/` and `http/` list the layers of their own files in their module docs, checked
//! the same way. The files of `connection/` are one `impl Connection` split by method family
//! (initialization and listings, calls, tasks), so they share its private helpers.

// Generated code and hand-written services read these docs; keep every public item covered.
#![deny(missing_docs)]

pub mod args;
#[cfg(feature = "auth")]
pub mod auth;
mod banner;
mod bytes;
#[cfg(feature = "client")]
pub mod client;
pub mod cluster;
mod connection;
pub mod content;
mod context;
#[cfg(any(feature = "auth", all(feature = "client", feature = "http")))]
mod fetch;
#[cfg(feature = "forward")]
pub mod forward;
#[cfg(feature = "http")]
pub mod http;
mod output;
mod peer;
pub mod protocol;
mod seal;
mod server;
pub mod service;
pub mod stdio;
pub mod tasks;
pub mod testing;
#[cfg(feature = "typed-formats")]
pub mod typed;
pub mod uri_template;

// What a server author writes; the rest is in the modules named for their reader.
pub use args::Profile;
pub use bytes::Bytes;
pub use context::RequestContext;
pub use protocol::{LogLevel, RpcError};
pub use seal::RequestStateKey;
pub use server::{Server, ServerBuilder};
pub use service::{Service, ToolError, ToolOutput, ToolResult};
pub use stdio::serve_stdio;

/// For embedders that write their own transport: a [`Connection`](transport::Connection)
/// per client, fed one message at a time, whose outbox carries the replies.
/// [`serve_io`](transport::serve_io) is the stdio transport over any reader and writer.
pub mod transport {
    pub use crate::connection::{Connection, LineProblem, Outbox};
    pub use crate::stdio::serve_io;
}

/// Everything generated code needs, in one place (as `tonic::codegen` is for tonic).
pub mod codegen {
    // One level: the types here, the functions through `args` (`rt::args::object`) and its
    // module `check`, as generated code names them.
    pub use crate::args::{
        self, ArgError, Arguments, Decode, Format, Path, Pattern, Profile, Reader, check,
    };
    // Generated clients (`client(true)`) call through here; without the feature, rustc
    // notes that the item is gated behind the `client` feature.
    #[cfg(feature = "client")]
    pub use crate::client;
    pub use crate::content;
    // Code generated with a forward binding (`forward(…)`) calls the API through here;
    // without the feature, rustc notes that the item is gated behind the `forward` feature.
    #[cfg(feature = "forward")]
    pub use crate::forward;
    pub use crate::protocol::{LogLevel, Revision, RpcError};
    pub use crate::service::{
        BoxFuture, Completion, CompletionRequest, ListingDef, PromptInput, Service, ToolDef,
        ToolError, ToolInput, ToolOutput, ToolResult, ToolVariant,
    };
    pub use crate::tasks::TaskSupport;
    // Code generated with `typed_formats(true)` names its format types here
    // (`rt::typed::Date`); without the feature, rustc notes that the item is gated behind
    // the `typed-formats` feature.
    #[cfg(feature = "typed-formats")]
    pub use crate::typed;
    pub use crate::uri_template;
    pub use crate::{Bytes, RequestContext};
    pub use serde;
    pub use serde_json;
    pub use serde_json::value::RawValue;
    pub use std::borrow::Cow;
    pub use std::sync::Arc;

    /// The version of the contract between generated code and this module.
    ///
    /// Generated code asserts, at compile time, that this equals the version its generator
    /// writes (`const _: () = assert!(rt::GENERATED_CODE_VERSION == 4, "…");`), so code from
    /// a `toolidl-build` that does not match this runtime fails to compile with a readable
    /// message instead of a cascade of unresolved names. Raised whenever a change here would
    /// break code generated for the previous version, or generated code starts to need
    /// something new here (version 2: inputs implement [`ToolInput`] and [`PromptInput`]; version 3: tools carry their profiles' listings, [`ToolVariant`], and decoders read `null` as left out where a profile says so, [`args::null_as_absent`]; version 4: services get a call's [`Arguments`] (the text, the profile, the nesting limit) instead of a raw value, and decoders call one family of functions, `args::{object, list, …}`, over a [`Reader`]; tools store their standard listing only and the runtime derives each profile's, [`ToolDef::derive_profiles`](field@ToolDef::derive_profiles)).
    pub const GENERATED_CODE_VERSION: u32 = 4;

    /// A future that is already complete, boxed: what a synchronous handler returns.
    pub fn ready<T: Send + 'static>(value: T) -> BoxFuture<T> {
        Box::pin(std::future::ready(value))
    }
}

/// Includes the Rust code that `toolidl-build` generated into `OUT_DIR` from a `build.rs`.
///
/// - `include_tools!()` includes every generated package, nested in modules by package path
///   (`pub mod acme { pub mod weather { … } }`). Use it once, at the crate root or in a module
///   of its own.
/// - `include_tools!("acme.weather")` includes one package's module body only, for crates that
///   lay out their modules themselves (as `tonic::include_proto!` does).
///
/// ```ignore
/// // src/main.rs, with a build.rs that compiles tools/weather.tool (package acme.weather)
/// toolidl_runtime::include_tools!();
/// // the package is now the module `acme::weather`
///
/// // or, one package in a module of your own:
/// pub mod weather {
///     toolidl_runtime::include_tools!("acme.weather");
/// }
/// ```
#[macro_export]
macro_rules! include_tools {
    () => {
        include!(concat!(env!("OUT_DIR"), "/_toolidl.rs"));
    };
    ($package:literal) => {
        include!(concat!(env!("OUT_DIR"), "/", $package, ".rs"));
    };
}
