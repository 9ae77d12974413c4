//! `toolidl check FILE...`

use std::path::{Path, PathBuf};

use toolidl::diagnostics::{self, Diagnostic};
use toolidl::model::{Keyword, Model};

use toolidl_build::compile::load;

/// Checks every file, with the generator's own checks (E11xx: names Rust cannot use or that
/// clash there), so that a file `check` accepts also builds; prints diagnostics to stderr
/// and one summary line per good file to stdout. Exit code 0 when every file resolves
/// (warnings may print), 1 otherwise.
pub fn run(files: &[PathBuf]) -> i32 {
    let mut failed = 0;
    for path in files {
        let output = load(Path::new(""), path).output;
        let mut all = output.diagnostics;
        if let Some(model) = &output.model {
            all.extend(toolidl_codegen::rust::check(model, &output.locations));
            diagnostics::sort(&mut all);
        }
        let rendered = diagnostics::render_all(&all, &output.sources);
        match output.model {
            Some(model) if !all.iter().any(Diagnostic::is_error) => {
                if !rendered.is_empty() {
                    eprint!("{rendered}");
                    eprintln!();
                }
                println!("{}: ok ({})", path.display(), summary(&model));
            }
            _ => {
                failed += 1;
                eprint!("{rendered}");
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
    let count = |keyword| -> usize {
        let members = model.services.iter().flat_map(|s| s.members_of(keyword));
        members.count()
    };
    let own_types = model
        .types()
        .iter()
        .filter(|t| t.package() == model.package)
        .count();
    let counts = [
        (own_types, "type"),
        (model.services.len(), "service"),
        (count(Keyword::Tool), "tool"),
        (count(Keyword::Resource), "resource"),
        (count(Keyword::Prompt), "prompt"),
    ];
    let parts: Vec<String> = counts
        .iter()
        .map(|(n, what)| format!("{n} {what}{}", if *n == 1 { "" } else { "s" }))
        .collect();
    format!("package {}: {}", model.package, parts.join(", "))
}
