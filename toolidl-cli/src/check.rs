//! `toolidl check FILE...`

use std::path::PathBuf;

use toolidl::model::{Model, Service};

use toolidl_build::compile::compile_file;

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
                println!("{}: ok ({})", path.display(), summary(&compiled.model));
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

/// `package acme.weather: 3 types, 1 service, 2 tools, 1 resource, 1 prompt`: what the
/// file itself declares (types of imported packages are not counted).
fn summary(model: &Model) -> String {
    let count = |f: fn(&Service) -> usize| -> usize { model.services.iter().map(f).sum() };
    let own_types = model
        .types
        .iter()
        .filter(|t| t.package() == model.package)
        .count();
    let counts = [
        (own_types, "type"),
        (model.services.len(), "service"),
        (count(|s| s.tools.len()), "tool"),
        (count(|s| s.resources.len()), "resource"),
        (count(|s| s.prompts.len()), "prompt"),
    ];
    let parts: Vec<String> = counts
        .iter()
        .map(|(n, what)| format!("{n} {what}{}", if *n == 1 { "" } else { "s" }))
        .collect();
    format!("package {}: {}", model.package, parts.join(", "))
}
