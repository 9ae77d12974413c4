//! `toolidl schema FILE [--hoist-shared] [--profile NAME]`

use std::io::Write;
use std::path::Path;

use toolidl_build::compile::compile_file;
use toolidl_codegen::profile::{self, Profile};
use toolidl_codegen::{SchemaOptions, listings};

use crate::print_diagnostics;

/// Prints the MCP listings of one file as one JSON object on stdout (2-space indent, trailing
/// newline): the text a generated server embeds. Exit code 0, or 1 with rendered diagnostics
/// on stderr. Warnings, and notes on renamed `$defs` keys, go to stderr and do not change the
/// exit code.
pub fn run(file: &Path, hoist_shared: bool, profile: Profile) -> i32 {
    let compiled = match compile_file(file) {
        Ok(compiled) => compiled,
        Err(failed) => {
            print_diagnostics(&failed.rendered);
            return 1;
        }
    };
    print_diagnostics(&compiled.warnings);
    let mut listings = match listings(&compiled.model, &SchemaOptions { hoist_shared }) {
        Ok(listings) => listings,
        Err(error) => {
            eprintln!("error: {error}");
            return 1;
        }
    };
    profile::publish(&mut listings, profile);
    for note in &listings.notes {
        eprintln!("note: {note}");
    }
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(listings.to_pretty_json().as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => 0,
        Err(error) => {
            eprintln!("error: cannot write the listings: {error}");
            1
        }
    }
}
