//! `toolidl diff OLD NEW` and `toolidl diff --against GITREF FILE`

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use toolidl::Output;
use toolidl::diff::{Change, Client, diff};
use toolidl::source::{LoadError, SourceId, SourceLoader, join_relative};
use toolidl_build::compile::load;

use crate::print_diagnostics;

/// The arguments of `toolidl diff`.
pub struct Args {
    /// `[OLD, NEW]`, or `[FILE]` with `against`.
    pub files: Vec<PathBuf>,
    pub against: Option<String>,
    pub json: bool,
    pub implementer_breaking: bool,
}

/// Prints every change from the old version to the new one, one line each (or JSON). Exit
/// code 1 when a change breaks clients (or, with `implementer_breaking`, implementers), 0
/// otherwise; 2 when a version does not resolve or cannot be read.
pub fn run(args: &Args) -> i32 {
    let (old, new_path) = match (&args.against, args.files.as_slice()) {
        (None, [old, new]) => (load(Path::new(""), old).output, new),
        (Some(rev), [file]) => (from_git(rev, file), file),
        (None, _) => {
            eprintln!("error: give two files, OLD and NEW, or one file with --against GITREF");
            return 2;
        }
        (Some(_), _) => {
            eprintln!("error: with --against, give one file");
            return 2;
        }
    };
    let new = load(Path::new(""), new_path).output;
    let (Some(old_model), Some(new_model)) = (resolved(&old), resolved(&new)) else {
        return 2;
    };
    let changes = diff(old_model, new_model);
    let places: Vec<String> = changes
        .iter()
        .map(|c| place(c, &new, &old).unwrap_or_else(|| new_path.display().to_string()))
        .collect();
    let text = if args.json {
        json(&changes, &places)
    } else {
        human(&changes, &places)
    };
    let mut stdout = std::io::stdout().lock();
    if let Err(error) = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        eprintln!("error: cannot write the changes: {error}");
        return 2;
    }
    let fails =
        |c: &Change| c.client != Client::Compatible || (args.implementer_breaking && c.implementer);
    i32::from(changes.iter().any(fails))
}

/// The model, or `None` after printing the diagnostics. Warnings are not printed.
fn resolved(output: &Output) -> Option<&toolidl::model::Model> {
    match &output.model {
        Some(model) if !output.has_errors() => Some(model),
        _ => {
            print_diagnostics(&output.render());
            None
        }
    }
}

/// `path:line:col` of the change in the new version, else in the old one.
fn place(change: &Change, new: &Output, old: &Output) -> Option<String> {
    [new, old].into_iter().find_map(|output| {
        let package = &output.model.as_ref()?.package;
        let (file, span) = change.site.locate(&output.locations, package)?;
        let source = output.sources.files().get(file.0)?;
        let (line, col) = source.line_col(span.start);
        Some(format!("{}:{line}:{col}", source.id.name))
    })
}

fn human(changes: &[Change], places: &[String]) -> String {
    let mut out = String::new();
    for (change, place) in changes.iter().zip(places) {
        out.push_str(&format!(
            "{place}: {}[{}]: {}\n",
            change.label(),
            change.code,
            change.message
        ));
    }
    let count = |label: &str| changes.iter().filter(|c| c.label() == label).count();
    if changes.is_empty() {
        out.push_str("no changes\n");
    } else {
        out.push_str(&format!(
            "{} change{}: {} breaking, {} behaviour, {} implementer, {} compatible\n",
            changes.len(),
            if changes.len() == 1 { "" } else { "s" },
            count("breaking"),
            count("behaviour"),
            count("implementer"),
            count("compatible")
        ));
    }
    out
}

fn json(changes: &[Change], places: &[String]) -> String {
    let list: Vec<serde_json::Value> = changes
        .iter()
        .zip(places)
        .map(|(c, place)| {
            serde_json::json!({
                "code": c.code,
                "class": c.label(),
                "client": c.client,
                "implementer": c.implementer,
                "message": c.message,
                "at": place,
                "site": c.site,
            })
        })
        .collect();
    let client_breaking = changes.iter().any(|c| c.client != Client::Compatible);
    let implementer = changes.iter().any(|c| c.implementer);
    let value = serde_json::json!({
        "client_breaking": client_breaking,
        "implementer_breaking": implementer,
        "changes": list,
    });
    serde_json::to_string_pretty(&value).unwrap_or_default() + "\n"
}

/// Compiles `file` as it is at `rev` in its git repository, imports included.
fn from_git(rev: &str, file: &Path) -> Output {
    let dir = file
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let loader = GitLoader {
        dir: dir.to_path_buf(),
        rev: rev.to_string(),
    };
    let id = SourceId::new(name.clone());
    match loader.show(&name) {
        Ok(text) => toolidl::compile(&loader, id, text),
        Err(message) => Output {
            model: None,
            diagnostics: vec![toolidl::Diagnostic::error(
                "E1000",
                format!("cannot read `{rev}:{}`: {message}", file.display()),
            )],
            sources: Default::default(),
            locations: Default::default(),
        },
    }
}

/// Reads files as they are at a revision: `git show REV:./path`, from the folder of the
/// root file.
struct GitLoader {
    dir: PathBuf,
    rev: String,
}

impl GitLoader {
    fn show(&self, name: &str) -> Result<String, String> {
        let output = Command::new("git")
            .arg("show")
            .arg(format!("{}:./{name}", self.rev))
            .current_dir(&self.dir)
            .output()
            .map_err(|e| format!("cannot run git: {e}"))?;
        if !output.status.success() {
            let err = String::from_utf8_lossy(&output.stderr);
            return Err(err.lines().next().unwrap_or("git show failed").to_string());
        }
        String::from_utf8(output.stdout).map_err(|_| "it is not UTF-8 text".into())
    }
}

impl SourceLoader for GitLoader {
    fn load(&self, from: &SourceId, import_path: &str) -> Result<(SourceId, String), LoadError> {
        let name = join_relative(&from.name, import_path);
        let text = self.show(&name).map_err(LoadError::new)?;
        Ok((SourceId::new(name), text))
    }
}
