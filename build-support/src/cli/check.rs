//! `toolidl check FILE...`

use std::path::PathBuf;

use crate::compile::compile_file;

/// Checks every file; prints diagnostics to stderr and one summary line per good file to
/// stdout. Exit code 0 when every file resolves (warnings may print), 1 otherwise.
pub fn run(files: &[PathBuf]) -> i32 {
    let mut failed = 0;
    for path in files {
        match compile_file(path) {
            Ok(compiled) => {
                if !compiled.warnings.is_empty() {
                    eprint!("{}", compiled.warnings);
                    eprintln!();
                }
                let model = &compiled.model;
                let services = &model.services;
                let count = |f: fn(&toolidl::model::Service) -> usize| -> usize {
                    services.iter().map(f).sum()
                };
                println!(
                    "{}: ok (package {}: {} types, {} services, {} tools, {} resources, {} prompts)",
                    path.display(),
                    model.package,
                    model.types.len(),
                    services.len(),
                    count(|s| s.tools.len()),
                    count(|s| s.resources.len()),
                    count(|s| s.prompts.len()),
                );
            }
            Err(failure) => {
                failed += 1;
                eprint!("{}", failure.rendered);
                eprintln!();
            }
        }
    }
    if failed > 0 {
        eprintln!(
            "toolidl check: {failed} of {} file{} failed",
            files.len(),
            if files.len() == 1 { "" } else { "s" }
        );
        1
    } else {
        0
    }
}
