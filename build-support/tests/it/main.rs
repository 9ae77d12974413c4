//! The integration tests, one binary (`--test it`) that links once: each module was a test
//! binary of its own, and the helpers they share are modules beside them.

mod build_api;
mod formats_agree;
mod golden_lang;
mod mcpb_manifest;
