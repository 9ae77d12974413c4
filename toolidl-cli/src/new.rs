//! `toolidl new NAME`: a crate that builds and serves one documented tool over stdio, with a
//! unit test of its handler and a snapshot test of its listing that pass as written.
//!
//! Until the crates are published, the scaffold depends on the toolidl checkout this command
//! was built from (`cargo install --path toolidl-cli` in a clone), by path, with the
//! checkout's `Cargo.lock`: the versions toolidl is tested with, and nothing to resolve.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use heck::{ToSnakeCase, ToUpperCamelCase};
use toolidl_build::compile::compile_file;
use toolidl_codegen::{SchemaOptions, listings};

pub struct Args {
    pub name: String,
    /// The folder to create (default `./NAME`).
    pub path: Option<PathBuf>,
    /// A toolidl checkout to depend on by path.
    pub toolidl_path: Option<PathBuf>,
    /// Depend on crates.io versions, even when the checkout this command was built from is
    /// there.
    pub crates_io: bool,
}

/// The checkout this command was built from: its workspace root, the parent of
/// `toolidl-cli`. Built from a published package instead, it is not a checkout.
fn own_checkout() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent()?;
    let is_checkout = [
        "runtime/Cargo.toml",
        "build-support/Cargo.toml",
        "Cargo.lock",
    ]
    .iter()
    .all(|file| root.join(file).is_file());
    is_checkout.then(|| root.to_path_buf())
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
    let checkout = match (&args.toolidl_path, args.crates_io) {
        (Some(path), _) => Some(path.clone()),
        (None, true) => None,
        (None, false) => own_checkout(),
    };
    match write(&dir, args, checkout.as_deref()) {
        Ok(()) => {
            let file = format!("tools/{}.tool", args.name.to_snake_case());
            match &checkout {
                Some(root) => println!(
                    "Created {} (a toolidl MCP server), depending on the toolidl checkout {}.",
                    dir.display(),
                    root.display()
                ),
                None => println!(
                    "Created {} (a toolidl MCP server), depending on toolidl {VERSION} from crates.io.",
                    dir.display()
                ),
            }
            println!();
            println!("  cd {}", dir.display());
            println!("  cargo test     # the handler called directly, and the listing's snapshot");
            println!("  cargo run      # serves MCP over stdio until end of input (Ctrl-D)");
            println!();
            println!("Describe your tools in {file} and implement them in src/main.rs.");
            println!(
                "When you change the listing on purpose, `INSTA_UPDATE=always cargo test` rewrites"
            );
            println!("its snapshot (src/snapshots/); review the diff before you commit it.");
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

fn write(dir: &Path, args: &Args, checkout: Option<&Path>) -> io::Result<()> {
    let package = args.name.to_snake_case();
    let implementor = args.name.to_upper_camel_case();
    fs::create_dir_all(dir.join("src/snapshots"))?;
    fs::create_dir_all(dir.join("tools"))?;
    let deps = dependencies(checkout);
    fs::write(dir.join("Cargo.toml"), cargo_toml(&args.name, &deps))?;
    if let Some(lock) = checkout.map(|root| root.join("Cargo.lock")) {
        // The versions toolidl is tested with; cargo drops what the crate does not use.
        if lock.is_file() {
            fs::copy(lock, dir.join("Cargo.lock"))?;
        }
    }
    fs::write(dir.join(".gitignore"), "/target\n")?;
    fs::write(dir.join("build.rs"), build_rs(&package))?;
    let tool = dir.join("tools").join(format!("{package}.tool"));
    fs::write(&tool, tool_file(&package))?;
    fs::write(
        dir.join("src/main.rs"),
        main_rs(&args.name, &package, &implementor),
    )?;
    let crate_ident = args.name.replace('-', "_");
    fs::write(
        dir.join(format!("src/snapshots/{crate_ident}__tests__listing.snap")),
        listing_snapshot(&tool)?,
    )?;
    Ok(())
}

/// The snapshot of the scaffold's listing, as `testing::Listing` prints it: what the test
/// `the_listing_is_the_reviewed_one` compares with, so that it passes before any change.
fn listing_snapshot(tool: &Path) -> io::Result<String> {
    let failed = |what: String| io::Error::other(format!("the scaffold's .tool file {what}"));
    let compiled =
        compile_file(tool).map_err(|f| failed(format!("does not compile:\n{}", f.rendered)))?;
    let listings = listings(&compiled.model, &SchemaOptions::default())
        .map_err(|e| failed(format!("has no listing: {e}")))?;
    let pick = |f: fn(&toolidl_codegen::ServiceListings) -> &Vec<toolidl_codegen::Listing>| {
        let entries = listings
            .services
            .iter()
            .flat_map(f)
            .map(|l| l.entry.clone());
        serde_json::Value::Array(entries.collect())
    };
    let document = serde_json::json!({
        "tools": pick(|s| &s.tools),
        "resources": pick(|s| &s.resources),
        "resourceTemplates": pick(|s| &s.resource_templates),
        "prompts": pick(|s| &s.prompts),
    });
    let json = serde_json::to_string_pretty(&document).map_err(io::Error::other)?;
    Ok(format!(
        "---\nsource: src/main.rs\nexpression: listing\n---\n{json}\n"
    ))
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

[dev-dependencies]
# `#[tokio::test]`, and snapshot tests of the listing (`INSTA_UPDATE=always cargo test`
# rewrites a snapshot after an intended change).
tokio = {{ version = "1", features = ["rt", "macros"] }}
insta = "1"
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

/// The server: its name, its version and its tools.
fn server() -> Server {{
    Server::builder("{name}", env!("CARGO_PKG_VERSION"))
        .service(ToolsServer::new({implementor}))
        .build()
}}

fn main() -> std::io::Result<()> {{
    // Log lines go to stderr (stdout carries the protocol): among them the cause of every
    // `ToolError::internal`, which the client sees only as "The tool failed.".
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .init();
    // One JSON-RPC message per line on stdin and stdout, until stdin ends.
    let runtime = tokio::runtime::Builder::new_current_thread().build()?;
    runtime.block_on(toolidl_runtime::serve_stdio(server()))
}}

#[cfg(test)]
mod tests {{
    use toolidl_runtime::RpcError;
    use toolidl_runtime::testing::{{Client, TestContext}};

    use super::*;

    /// A handler is a method: call it with a test context, which records the progress and
    /// log messages it sends.
    #[tokio::test]
    async fn hello_greets_by_name() {{
        let ctx = TestContext::new();
        let args = HelloArgs {{ name: "Ada".into() }};
        let greeting = {implementor}.hello(ctx.context(), args).await;
        assert_eq!(greeting.ok().as_deref(), Some("Hello, Ada!"));
    }}

    /// Through the server, as a client calls it: the arguments are checked before the
    /// handler runs.
    #[tokio::test]
    async fn a_client_gets_the_greeting_and_the_argument_error() -> Result<(), RpcError> {{
        let client = Client::connect(&server()).await?;
        let ada = HelloArgs {{ name: "Ada".into() }};
        assert_eq!(client.call(&ada).await?.text(), "Hello, Ada!");
        let nobody = HelloArgs {{
            name: String::new(),
        }};
        let refused = client.call(&nobody).await?;
        assert!(refused.is_error());
        assert_eq!(
            refused.text(),
            "Argument 'name' is not valid. Expected at least 1 character."
        );
        Ok(())
    }}

    /// What a client is shown (tools, resources, prompts), against the snapshot in
    /// src/snapshots/: a change to the `.tool` file shows here as a diff to review.
    #[tokio::test]
    async fn the_listing_is_the_reviewed_one() -> Result<(), RpcError> {{
        let client = Client::connect(&server()).await?;
        let listing = client.listing().await?;
        insta::assert_snapshot!("listing", listing);
        Ok(())
    }}
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
