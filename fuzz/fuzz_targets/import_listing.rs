//! `toolidl import`'s listing reader on any JSON: the `.tool` file it writes must parse,
//! format and resolve (the reader checks, and says "internal error" when it does not: a bug
//! of the import, a crash here). Any other refusal is an answer.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(listing) = serde_json::from_slice::<serde_json::Value>(data) else {
        return;
    };
    if let Err(error) = toolidl_cli::import::import(&listing, "fuzz.listing", "Fuzz") {
        assert!(!error.starts_with("internal error"), "{error}");
    }
});
