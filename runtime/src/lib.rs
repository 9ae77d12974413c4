//! The MCP server runtime of toolidl: serves the tool services that `toolidl-build` generates
//! from `.tool` files (or that you write by hand) over stdio and Streamable HTTP, and calls
//! MCP servers from Rust.
//!
//! A [`Service`] lists tools, resources and prompts as pre-rendered JSON and dispatches calls
//! to boxed futures; a generated `…Server` is one. A [`Server`] holds services;
//! [`serve_stdio`] serves it, one JSON-RPC message per line, and `http` (feature `http`) over
//! Streamable HTTP. Revisions 2024-11-05, 2025-03-26, 2025-06-18 and 2025-11-25 are served
//! after `initialize`; 2026-07-28 per request (`_meta`), with `server/discover`.
//!
//! # Quick start
//!
//! `build.rs` compiles `tools/weather.tool` with `toolidl-build`; the crate includes the
//! generated module, implements its trait with plain `async fn`s and serves it. This is step 4
//! of the repository README's walk-through, which has the other files (`toolidl new NAME`
//! writes such a crate); it is not compiled here, as it needs the code `build.rs` generates.
//!
//! ```ignore
//! use toolidl_runtime::{RequestContext, Server, ToolError};
//!
//! toolidl_runtime::include_tools!(); // module acme::weather
//!
//! use acme::weather::{GetWeatherArgs, WeatherTools, WeatherToolsServer};
//!
//! struct Weather;
//!
//! impl WeatherTools for Weather {
//!     // One input struct per tool; `..` keeps this compiling when the tool gains a
//!     // parameter with a default.
//!     async fn get_weather(
//!         &self,
//!         _ctx: RequestContext,
//!         GetWeatherArgs { city, units, .. }: GetWeatherArgs,
//!     ) -> Result<String, ToolError> {
//!         Ok(format!("{city}: 18° ({units})"))
//!     }
//! }
//!
//! fn main() -> std::io::Result<()> {
//!     let server = Server::builder("weather", "1.0.0")
//!         .service(WeatherToolsServer::new(Weather))
//!         .build();
//!     tokio::runtime::Builder::new_current_thread().build()?
//!         .block_on(toolidl_runtime::serve_stdio(server))
//! }
//! ```
//!
//! A [`Server`] is tested in process, through the real dispatcher, with
//! [`testing::Client`]:
//!
//! ```
//! use toolidl_runtime::{RpcError, Server};
//! use toolidl_runtime::testing::Client;
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), RpcError> {
//! let server = Server::builder("weather", "1.0.0").build(); // `.service(…)` for each service
//! let client = Client::connect(&server).await?; // `initialize`, as a real client sends it
//! let pong = client.request("ping", serde_json::json!({})).await?;
//! assert_eq!(pong, serde_json::json!({}));
//! // With services: `client.call(&GetWeatherArgs { … })`, `client.listing()`, …
//! # Ok(())
//! # }
//! ```
//!
//! `docs/runtime.md` in the repository covers the runtime, `docs/generated-api.md` the
//! generated code, `docs/deploy.md` serving over HTTP. Generated code uses only [`codegen`].
//!
//! # Features
//!
//! None is on by default: a stdio server builds no HTTP stack, no TLS and no Redis client.
//! Always on: tokio's `rt`, `sync`, `macros`, `time` (tool time limits, the shutdown's
//! drain deadline) and `signal` ([`shutdown_signal`]).
//!
//! | feature | what it adds | what it pulls in |
//! |---|---|---|
//! | `http` | `http`: the Streamable HTTP transport (sessions and stateless mode, Origin/Host checks, body limits, a bearer hook, resumable streams) | hyper, hyper-util, tower-service; tokio's `net` |
//! | `auth` | `auth`: the OAuth 2.1 resource server for `http` (JWT and introspection, protected resource metadata, scopes); turns on `http` | `http`'s, jsonwebtoken, reqwest (rustls) |
//! | `redis` | `cluster::Redis` and `cluster::RedisTaskStore`: sessions, tasks and change notifications shared by instances through Redis | redis |
//! | `client` | `client`: calling MCP servers (the transport abstraction, a child process over stdio, typed `tools/call`; with `http`, Streamable HTTP and its OAuth client) | reqwest (rustls, HTTP/2); tokio's `process`, `io-util`, `time` |
//! | `forward` | `forward`: tool calls forwarded to an HTTP API, what code generated from an OpenAPI import calls | reqwest, percent-encoding |
//! | `rate-limit` | `ToolLimits::rate`: calls of a tool per period for each client, a token bucket (429 over HTTP) | governor (`std` only) |
//! | `otel` | `telemetry`: a SERVER span per request by the OpenTelemetry conventions for MCP, continuing the trace its `_meta` or HTTP headers carry; the operation and session duration histograms; with `client`, CLIENT spans injected into `_meta` | opentelemetry (the API), tracing-opentelemetry |
//! | `otlp` | `telemetry::Otlp`: `otel` exported over OTLP (HTTP/protobuf), configured by the `OTEL_*` variables | opentelemetry_sdk, opentelemetry-otlp (blocking reqwest), tracing-subscriber |
//! | `typed-formats` | `typed`: typed format values (`Uuid`, dates and times, IRIs) for code generated with `typed_formats(true)` | uuid, chrono, iri-string |
//!
//! Items behind a feature are marked with it in these docs.
//!
//! The crate's modules form a one-way stack, listed in `docs/architecture.md`.

// Generated code and hand-written services read these docs; keep every public item covered.
#![deny(missing_docs)]
// docs.rs (`--cfg docsrs`, nightly): each item behind a feature is marked with it.
#![cfg_attr(docsrs, feature(doc_cfg))]

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
mod signal;
pub mod stdio;
pub mod tasks;
#[cfg(feature = "otel")]
pub mod telemetry;
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
pub use server::{Server, ServerBuilder, ToolLimits};
pub use service::{Service, ToolError, ToolOutput, ToolResult, WithText};
pub use signal::shutdown_signal;
pub use stdio::serve_stdio;

/// Code around tool calls: [`ServerBuilder::middleware`] takes a
/// [`Middleware`](middleware::Middleware), which sees each [`ToolCall`](middleware::ToolCall)
/// and its outcome.
pub mod middleware {
    pub use crate::server::middleware::{Middleware, Next, ToolCall};
}

/// For embedders that write their own transport: a [`Connection`](transport::Connection)
/// per client, fed one message at a time, whose outbox carries the replies.
/// [`serve_io`](transport::serve_io) is the stdio transport over any reader and writer.
pub mod transport {
    pub use crate::connection::{Connection, LineProblem, Outbox};
    pub use crate::stdio::{serve_io, serve_io_until};
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
        Accepts, BoxFuture, Completion, CompletionRequest, ListingDef, PromptInput, Returns,
        Service, ToolDef, ToolError, ToolInput, ToolOutput, ToolResult, ToolVariant, WithText,
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
    /// writes (`const _: () = assert!(rt::GENERATED_CODE_VERSION == 5, "…");`), so code from
    /// a `toolidl-build` that does not match this runtime fails to compile with a readable
    /// message instead of a cascade of unresolved names. Raised whenever a change here would
    /// break code generated for the previous version, or generated code starts to need
    /// something new here (version 2: inputs implement [`ToolInput`] and [`PromptInput`]; version 3: tools carry their profiles' listings, [`ToolVariant`], and decoders read `null` as left out where a profile says so, [`args::null_as_absent`]; version 4: services get a call's [`Arguments`] (the text, the profile, the nesting limit) instead of a raw value, and decoders call one family of functions, `args::{object, list, …}`, over a [`Reader`]; tools store their standard listing only and the runtime derives each profile's, [`ToolDef::derive_profiles`](field@ToolDef::derive_profiles); version 5: `@text` results, [`WithText`] and the `ToolOutput` text constructors, each tool's result bound [`Returns`]/[`Accepts`] that names the tool in a compile error, and `i128` decoders for `integer`).
    pub const GENERATED_CODE_VERSION: u32 = 5;

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
