//! The integration tests, one binary (`--test it`) that links once: each module was a test
//! binary of its own, and the helpers they share are modules beside them.

mod args;
mod auth;
mod client;
mod client_http;
mod client_https;
mod client_streams;
mod codegen_api;
mod common;
mod cors;
mod edge;
mod extensions;
mod forward;
mod http;
mod include_tools;
mod json_schema_suite;
mod limits;
mod middleware;
mod otel;
mod properties;
mod protocol;
mod request_state;
mod robustness;
mod server_card;
mod sessions;
mod shutdown;
mod stdio;
mod subscriptions;
mod tasks;
mod testing;
