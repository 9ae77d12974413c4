//! The typed clients of `examples/weather/tools/*.tool` (`acme::weather`, `manual`) and the
//! fixed script of calls the `interop-client` binary runs through them (`checks`).

toolidl_runtime::include_tools!();

pub mod checks;
