//! The integration tests, one binary (`--test it`) that links once: each module was a test
//! binary of its own, and the helpers they share are modules beside them.

mod auth;
mod client_auth;
mod common;
mod demo;
mod durability;
mod hostile;
mod http;
mod listing;
mod stdio;
mod terminal;
mod tools;
