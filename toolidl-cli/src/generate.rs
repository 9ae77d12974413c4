//! `toolidl generate FILE... [--out DIR] [--runtime-crate PATH] [--hoist-shared] [--typed-formats] [--client] [--forward BINDING]`

use std::io::Write;
use std::path::PathBuf;

use toolidl_build::{Builder, GeneratedFile};

use crate::print_diagnostics;

/// The arguments of `toolidl generate`.
pub struct Args {
    pub files: Vec<PathBuf>,
    pub out: Option<PathBuf>,
    pub runtime_crate: Option<String>,
    pub hoist_shared: bool,
    pub typed_formats: bool,
    pub client: bool,
    pub forward: Vec<PathBuf>,
}

/// Generates the Rust modules of `files`, one per package, with the build.rs API (the same
/// checks, the same code). Without `--out`, prints them on stdout: the one file's code, or
/// each file after a line `// ---- <file name> ----`. With `--out DIR`, writes them (and
/// `_toolidl.rs`) to `DIR`, each only when its content changed, and prints nothing. Warnings
/// and diagnostics go to stderr. Exit code 0, or 1 on any error.
pub fn run(args: &Args) -> i32 {
    let mut builder = toolidl_build::configure()
        .hoist_shared(args.hoist_shared)
        .typed_formats(args.typed_formats)
        .client(args.client)
        .emit_rerun_if_changed(false)
        .emit_warnings(false);
    for binding in &args.forward {
        builder = builder.forward(binding);
    }
    if let Some(path) = &args.runtime_crate {
        builder = builder.runtime_crate(path);
    }
    match &args.out {
        Some(dir) => write(builder.out_dir(dir), &args.files),
        None => print(&builder, &args.files),
    }
}

fn write(builder: Builder, files: &[PathBuf]) -> i32 {
    match builder.compile(files) {
        Ok(compiled) => {
            print_diagnostics(&compiled.warnings.join("\n"));
            0
        }
        Err(error) => {
            print_error(&error);
            1
        }
    }
}

fn print(builder: &Builder, files: &[PathBuf]) -> i32 {
    let generated = match builder.generate(files) {
        Ok(generated) => generated,
        Err(error) => {
            print_error(&error);
            return 1;
        }
    };
    print_diagnostics(&generated.warnings.join("\n"));
    let text = listing(&generated.files);
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => 0,
        Err(error) => {
            eprintln!("error: cannot write the generated code: {error}");
            1
        }
    }
}

/// The one file's code, or every file after a line naming it; each ends with a newline.
fn listing(files: &[GeneratedFile]) -> String {
    let mut text = String::new();
    for file in files {
        if files.len() > 1 {
            text.push_str(&format!("// ---- {} ----\n", file.file_name));
        }
        text.push_str(&file.code);
        if !file.code.is_empty() && !file.code.ends_with('\n') {
            text.push('\n');
        }
    }
    text
}

/// Diagnostics as rendered; any other error after `error: `.
fn print_error(error: &toolidl_build::Error) {
    match error {
        toolidl_build::Error::Diagnostics { .. } => print_diagnostics(&error.to_string()),
        _ => eprintln!("error: {error}"),
    }
}
