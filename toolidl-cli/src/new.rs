//! `toolidl new NAME`: a crate that builds and serves one documented tool over stdio.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use heck::{ToSnakeCase, ToUpperCamelCase};

pub struct Args {
    pub name: String,
    /// The folder to create (default `./NAME`).
    pub path: Option<PathBuf>,
    /// A toolidl checkout to depend on by path instead of crates.io versions.
    pub toolidl_path: Option<PathBuf>,
}

/// The crates.io version requirement of the scaffold's toolidl dependencies.
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION_MAJOR"),
    ".",
    env!("CARGO_PKG_VERSION_MINOR")
);

pub fn run(args: &Args) -> i32 {
    if let Err(problem) = check_name(&args.name) {
        eprintln!("error: `{}` cannot name a crate: {problem}", args.name);
        return 2;
    }
    let dir = args
        .path
        .clone()
        .unwrap_or_else(|| PathBuf::from(&args.name));
    if dir.exists() && fs::read_dir(&dir).map_or(true, |mut d| d.next().is_some()) {
        eprintln!(
            "error: {} already exists and is not empty; choose another NAME or --path",
            dir.display()
        );
        return 1;
    }
    match write(&dir, args) {
        Ok(()) => {
            let file = format!("tools/{}.tool", args.name.to_snake_case());
            println!("Created {} (a toolidl MCP server).", dir.display());
            println!();
            println!("  cd {}", dir.display());
            println!("  cargo build            # generates Rust from {file} in build.rs");
            println!("  cargo run              # serves MCP over stdio");
            println!();
            println!("Describe your tools in {file}; implement them in src/main.rs.");
            0
        }
        Err(e) => {
            eprintln!("error: could not write {}: {e}", dir.display());
            1
        }
    }
}

/// A crate name cargo accepts: ASCII letters, digits, `-` and `_`, starting with a letter.
fn check_name(name: &str) -> Result<(), &'static str> {
    let mut chars = name.chars();
    match chars.next() {
        None => return Err("it is empty"),
        Some(c) if !c.is_ascii_alphabetic() => return Err("it must start with a letter"),
        _ => {}
    }
    if !chars.all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
        return Err("use only ASCII letters, digits, `-` and `_`");
    }
    if name.len() > 64 {
        return Err("it is longer than 64 characters");
    }
    Ok(())
}

fn write(dir: &Path, args: &Args) -> io::Result<()> {
    let package = args.name.to_snake_case();
    let implementor = args.name.to_upper_camel_case();
    fs::create_dir_all(dir.join("src"))?;
    fs::create_dir_all(dir.join("tools"))?;
    let deps = dependencies(args.toolidl_path.as_deref());
    fs::write(dir.join("Cargo.toml"), cargo_toml(&args.name, &deps))?;
    fs::write(dir.join(".gitignore"), "/target\n")?;
    fs::write(dir.join("build.rs"), build_rs(&package))?;
    fs::write(
        dir.join("tools").join(format!("{package}.tool")),
        tool_file(&package),
    )?;
    fs::write(
        dir.join("src/main.rs"),
        main_rs(&args.name, &package, &implementor),
    )?;
    Ok(())
}

struct Deps {
    runtime: String,
    build: String,
}

fn dependencies(checkout: Option<&Path>) -> Deps {
    match checkout {
        None => Deps {
            runtime: format!("\"{VERSION}\""),
            build: format!("\"{VERSION}\""),
        },
        Some(root) => {
            let path = |sub: &str| {
                let p = root.join(sub);
                let p = fs::canonicalize(&p).unwrap_or(p);
                format!("{{ path = {:?} }}", p.display().to_string())
            };
            Deps {
                runtime: path("runtime"),
                build: path("build-support"),
            }
        }
    }
}

fn cargo_toml(name: &str, deps: &Deps) -> String {
    format!(
        r#"[package]
name = "{name}"
version = "0.1.0"
edition = "2024"

[dependencies]
toolidl-runtime = {runtime}
tokio = {{ version = "1", features = ["rt"] }}
tracing-subscriber = {{ version = "0.3", default-features = false, features = ["fmt", "std"] }}

[build-dependencies]
toolidl-build = {build}
"#,
        runtime = deps.runtime,
        build = deps.build,
    )
}

fn build_rs(package: &str) -> String {
    format!(
        r#"fn main() {{
    // Generates Rust from the .tool file (and every file it imports) into OUT_DIR. A bad
    // .tool file fails the build with its diagnostics: path:line:col, the line, a caret.
    if let Err(e) = toolidl_build::compile(&["tools/{package}.tool"]) {{
        eprintln!("{{e}}");
        std::process::exit(1);
    }}
}}
"#
    )
}

fn tool_file(package: &str) -> String {
    format!(
        r#"package {package};

/// The tools of this server.
service Tools {{
    /// Greets someone by name.
    @title("Say hello") @read_only
    tool hello(
        /// Who to greet.
        @length(1, 100) name: string,
    ) -> string;
}}
"#
    )
}

fn main_rs(name: &str, package: &str, implementor: &str) -> String {
    format!(
        r#"//! {name}: an MCP server generated from tools/{package}.tool, served over stdio.

use toolidl_runtime::{{RequestContext, Server, ToolError}};

// The Rust that build.rs generated from the `.tool` file: the `Tools` trait (one method per
// tool), each tool's input struct (`HelloArgs`), and `ToolsServer`, which decodes and checks
// arguments and dispatches to it.
toolidl_runtime::include_tools!("{package}");

/// The implementation of the tools.
struct {implementor};

impl Tools for {implementor} {{
    // `..` keeps this compiling when the tool gains a parameter with a default.
    async fn hello(
        &self,
        _ctx: RequestContext,
        HelloArgs {{ name, .. }}: HelloArgs,
    ) -> Result<String, ToolError> {{
        Ok(format!("Hello, {{name}}!"))
    }}
}}

fn main() -> std::io::Result<()> {{
    // Log lines go to stderr (stdout carries the protocol): among them the cause of every
    // `ToolError::internal`, which the client sees only as "The tool failed.".
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .init();
    let server = Server::builder("{name}", env!("CARGO_PKG_VERSION"))
        .service(ToolsServer::new({implementor}))
        .build();
    // One JSON-RPC message per line on stdin and stdout, until stdin ends.
    let runtime = tokio::runtime::Builder::new_current_thread().build()?;
    runtime.block_on(toolidl_runtime::serve_stdio(server))
}}
"#
    )
}

#[cfg(test)]
mod tests {
    use super::check_name;

    #[test]
    fn crate_names() {
        for ok in ["notes", "my-server", "a_1"] {
            assert!(check_name(ok).is_ok(), "{ok}");
        }
        for bad in ["", "1abc", "-x", "a b", "a/b", "é"] {
            assert!(check_name(bad).is_err(), "{bad}");
        }
    }
}
