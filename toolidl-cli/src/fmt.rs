//! `toolidl fmt [--check] FILE...` (`-` for stdin → stdout)

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use toolidl::diagnostics::render_all;
use toolidl::source::{SourceId, SourceMap};

use crate::print_diagnostics;

/// Formats every file in place (or, with `check`, prints a unified diff of each file that
/// would change and writes nothing). `-` reads standard input and writes the formatted text
/// (or the diff) on standard output. A file that does not parse is refused with its
/// diagnostics on stderr and left as it is. A file is replaced whole: the new text goes to a
/// temporary file beside it, renamed over it. Exit code 0; 1 when a file failed, or (with
/// `check`) would change.
pub fn run(files: &[PathBuf], check: bool) -> i32 {
    let mut failed = 0;
    let mut changed = 0;
    for path in files {
        let stdin = path.as_os_str() == "-";
        let name = if stdin {
            "<stdin>".to_string()
        } else {
            path.to_string_lossy().replace('\\', "/")
        };
        let text = match read(path, stdin) {
            Ok(text) => text,
            Err(reason) => {
                eprintln!("error[E1000]: cannot read `{name}`: {reason}");
                failed += 1;
                continue;
            }
        };
        let formatted = match format(&name, &text) {
            Ok(formatted) => formatted,
            Err(rendered) => {
                print_diagnostics(&rendered);
                failed += 1;
                continue;
            }
        };
        let outcome = if check {
            if formatted != text {
                changed += 1;
                print_stdout(&unified_diff(&name, &text, &formatted))
            } else {
                Ok(())
            }
        } else if stdin {
            print_stdout(&formatted)
        } else if formatted != text {
            replace(path, &formatted)
        } else {
            Ok(())
        };
        if let Err(error) = outcome {
            eprintln!("error: cannot write `{name}`: {error}");
            failed += 1;
        }
    }
    if failed > 0 {
        eprintln!(
            "toolidl fmt: {failed} of {} file{} failed",
            files.len(),
            if files.len() == 1 { "" } else { "s" }
        );
    }
    if changed > 0 {
        eprintln!(
            "toolidl fmt --check: {changed} file{} would change",
            if changed == 1 { "" } else { "s" }
        );
    }
    i32::from(failed > 0 || changed > 0)
}

fn read(path: &Path, stdin: bool) -> Result<String, String> {
    if stdin {
        let mut text = String::new();
        return std::io::stdin()
            .read_to_string(&mut text)
            .map(|_| text)
            .map_err(|_| "it is not UTF-8 text".into());
    }
    if path.is_dir() {
        return Err("it is a directory".into());
    }
    std::fs::read_to_string(path).map_err(|error| match error.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::InvalidData => "it is not UTF-8 text".into(),
        _ => error.to_string(),
    })
}

/// The formatted text, or the diagnostics rendered.
fn format(name: &str, text: &str) -> Result<String, String> {
    let mut sources = SourceMap::default();
    let file = sources.add(SourceId::new(name), text.to_string());
    toolidl::fmt::format(file, text).map_err(|diagnostics| render_all(&diagnostics, &sources))
}

/// `--- name` / `+++ name (formatted)` and the hunks, 3 lines of context.
fn unified_diff(name: &str, old: &str, new: &str) -> String {
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(name, &format!("{name} (formatted)"))
        .missing_newline_hint(true)
        .to_string()
}

fn print_stdout(text: &str) -> std::io::Result<()> {
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(text.as_bytes())?;
    stdout.flush()
}

/// Writes `text` to a temporary file in the folder of `path` (the target of a link), with
/// the file's permissions, then renames it over the file: readers see the old text or the
/// new, never a part.
fn replace(path: &Path, text: &str) -> std::io::Result<()> {
    let target = std::fs::canonicalize(path)?;
    let dir = target.parent().unwrap_or(Path::new("."));
    let permissions = std::fs::metadata(&target)?.permissions();
    let mut temp = tempfile::Builder::new()
        .prefix(".toolidl-fmt-")
        .suffix(".tmp")
        .tempfile_in(dir)?;
    temp.write_all(text.as_bytes())?;
    temp.as_file().sync_all()?;
    std::fs::set_permissions(temp.path(), permissions)?;
    temp.persist(&target).map_err(|error| error.error)?;
    Ok(())
}
