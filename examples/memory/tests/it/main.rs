//! examples/memory's integration tests: one binary (`cargo test -p memory-example --test it`).

mod original;
mod tools;
