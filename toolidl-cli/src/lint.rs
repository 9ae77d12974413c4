//! `toolidl lint [--profile NAME] [--published] FILE...`

use std::path::{Path, PathBuf};

use toolidl_build::compile::compile_file;
use toolidl_codegen::profile::{self, Profile, Severity};
use toolidl_codegen::{SchemaOptions, listings};

use crate::print_diagnostics;

pub struct Args {
    pub files: Vec<PathBuf>,
    pub profile: Profile,
    /// Lint what the profile publishes (`toolidl schema --profile`), not the standard listing.
    pub published: bool,
}

/// Prints one line per finding and a summary per file on stdout; exit 1 when a file does
/// not compile or has a finding that is an error for the profile, else 0.
pub fn run(args: &Args) -> i32 {
    let mut code = 0;
    for file in &args.files {
        if !lint_file(file, args) {
            code = 1;
        }
    }
    code
}

fn lint_file(file: &Path, args: &Args) -> bool {
    let shown = file.display();
    let compiled = match compile_file(file) {
        Ok(compiled) => compiled,
        Err(failed) => {
            print_diagnostics(&failed.rendered);
            return false;
        }
    };
    let mut listings = match listings(&compiled.model, &SchemaOptions::default()) {
        Ok(listings) => listings,
        Err(error) => {
            eprintln!("error: {shown}: {error}");
            return false;
        }
    };
    if args.published {
        profile::publish(&mut listings, args.profile);
    }
    let (mut errors, mut warnings) = (0, 0);
    for service in &listings.services {
        for tool in &service.tools {
            for f in profile::lint(&tool.entry, args.profile) {
                let level = match f.severity {
                    Severity::Error => {
                        errors += 1;
                        "error"
                    }
                    Severity::Warning => {
                        warnings += 1;
                        "warning"
                    }
                };
                let at = if f.pointer.is_empty() {
                    String::new()
                } else {
                    format!(" {}", f.pointer)
                };
                println!(
                    "{shown}: {level}[{}] tool `{}`{at}: {}",
                    f.code, f.tool, f.message
                );
            }
        }
    }
    let what = if args.published {
        "published"
    } else {
        "standard"
    };
    let profile = args.profile;
    match (errors, warnings) {
        (0, 0) => println!("{shown}: ok (profile {profile}, {what} listing)"),
        _ => println!(
            "{shown}: {errors} error{}, {warnings} warning{} (profile {profile}, {what} listing)",
            plural(errors),
            plural(warnings)
        ),
    }
    errors == 0
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
