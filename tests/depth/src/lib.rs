//! `tests/golden/codegen/deep.tool`, generated: recursive records, nested lists, maps and
//! unions, for `tests/depth.rs`. A crate of its own, apart from `toolidl-generated-tests`
//! (every golden, with typed clients and forwarding), so that `.ci/run` can build these tests
//! in release, where stack frames are not a debug build's, at a fraction of the cost.

include!(concat!(env!("OUT_DIR"), "/_toolidl.rs"));
