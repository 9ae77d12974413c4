//! The integration tests, one binary (`--test it`) that links once: each module was a test
//! binary of its own, and the helpers they share are modules beside them.

mod clients;
mod differential;
mod evolution;
mod inputs;
mod null_results;
mod numbers;
mod profiles;
mod result_text;
mod second_edition;
mod tasks;
mod typed_formats;
mod views;
