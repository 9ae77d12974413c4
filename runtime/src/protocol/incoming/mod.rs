//! Incoming JSON-RPC messages: one message parsed once (borrowing from the line), and the
//! one JSON scanner, which finds a message's top-level `id` when serde_json will not read it
//! (the error path) or the message is too long to keep.
//!
//! Its files, lowest first (checked as the crate's modules are, by `tests/layering.rs`):
//!
//! 1. `message`: the parsed message and what makes its id usable.
//! 2. `scan`: the scanner, over a whole line or fed in pieces.

mod message;
mod scan;

pub(crate) use message::{Incoming, valid_id};
pub(crate) use scan::{IdScanner, Scanned, scan};
