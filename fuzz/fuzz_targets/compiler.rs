//! The `.tool` compiler on any text: parse, resolve (imports from memory: examples/weather's
//! `common.tool`, and the input itself), render the diagnostics, and for a file that
//! resolves, the listings (each profile, `$defs` hoisted or not) and the generated Rust.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolidl::source::{MemoryLoader, SourceId};
use toolidl_codegen::profile::{self, Profile};
use toolidl_codegen::rust::RustOptions;
use toolidl_codegen::{SchemaOptions, listings};

const COMMON: &str = include_str!("../../examples/weather/tools/common.tool");

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut loader = MemoryLoader::new();
    loader.insert("common.tool", COMMON);
    loader.insert("fuzz.tool", text);
    let output = toolidl::compile(&loader, SourceId::new("fuzz.tool"), text.to_owned());
    let _ = output.render();
    if output.has_errors() {
        return;
    }
    let Some(model) = &output.model else {
        return;
    };
    for hoist_shared in [false, true] {
        if let Ok(listed) = listings(model, &SchemaOptions { hoist_shared }) {
            let _ = listed.to_pretty_json();
            for p in Profile::ALL {
                let mut published = listed.clone();
                profile::publish(&mut published, p);
                let _ = published.to_pretty_json();
            }
        }
    }
    let _ = toolidl_codegen::rust::generate(&[model], &RustOptions::default());
});
