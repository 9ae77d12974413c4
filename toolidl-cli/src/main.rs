//! The `toolidl` command-line tool. Each subcommand lives in its own module and returns the
//! process exit code; `main` only parses arguments and exits. Usage errors exit 2 (clap).

mod check;
mod diff;
mod fmt;
mod generate;
mod lint;
mod new;
mod schema;

use std::path::PathBuf;

use clap::{Parser, Subcommand};
// In the library target, for the fuzz targets (src/lib.rs).
use toolidl_cli::{import, lsp};
use toolidl_codegen::profile::Profile;

/// toolidl: check, format, diff and lint `.tool` files, print what MCP clients will see,
/// generate Rust, scaffold a server.
#[derive(Parser)]
#[command(name = "toolidl", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Parse and resolve files; print diagnostics. Exit 1 when any file has an error.
    Check {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Print the tools/resources/prompts listings of a file as one JSON object.
    Schema {
        file: PathBuf,
        /// Hoist records used more than once in a schema to `$defs`.
        #[arg(long)]
        hoist_shared: bool,
        /// Print the variant a client accepts: standard (default), claude, openai-strict,
        /// gemini. The server still enforces every constraint of the file.
        #[arg(long, value_name = "NAME", value_parser = parse_profile, default_value = "standard")]
        profile: Profile,
    },
    /// Report what clients would reject in the tools listing of files. Exit 1 on an error
    /// for the profile.
    Lint {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The client: standard (portability warnings, the default), claude, openai-strict,
        /// gemini.
        #[arg(long, value_name = "NAME", value_parser = parse_profile, default_value = "standard")]
        profile: Profile,
        /// Lint the variant the profile publishes (`toolidl schema --profile`) instead of
        /// the standard listing.
        #[arg(long)]
        published: bool,
    },
    /// Classify every change between two versions of an interface (breaking, behaviour,
    /// implementer, compatible); exit 1 when a change breaks clients, 2 when a version does
    /// not resolve.
    Diff {
        /// OLD NEW, or one FILE with --against.
        #[arg(required = true, num_args = 1..=2, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// Compare FILE with its version at this git revision (`git show REV:path`).
        #[arg(long, value_name = "GITREF")]
        against: Option<String>,
        /// Output format.
        #[arg(long, value_enum, default_value = "human")]
        format: DiffFormat,
        /// Fail (exit 1) on changes that break implementers of the generated trait too.
        #[arg(long)]
        implementer_breaking: bool,
    },
    /// Format files in place in the one canonical layout (`-`: stdin to stdout). With
    /// `--check`, change nothing: print a unified diff of each file that would change and
    /// exit 1 if any would.
    Fmt {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print diffs instead of writing; exit 1 when a file is not formatted.
        #[arg(long)]
        check: bool,
    },
    /// Generate the Rust modules of files, one per package: printed on stdout, or written to
    /// a folder (only the files whose content changed).
    Generate {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Write the files (and `_toolidl.rs`) to this folder instead of printing them.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// How generated code names the runtime crate (default `::toolidl_runtime`).
        #[arg(long, value_name = "PATH")]
        runtime_crate: Option<String>,
        /// Hoist records used more than once in a schema to `$defs`.
        #[arg(long)]
        hoist_shared: bool,
        /// Typed format values (`uuid::Uuid`, chrono's types, …) instead of checked
        /// `String`s; the runtime needs its `typed-formats` feature (docs/build.md).
        #[arg(long)]
        typed_formats: bool,
        /// Also generate a typed client per service (`XxxClient`); the runtime needs its
        /// `client` feature (docs/client.md).
        #[arg(long)]
        client: bool,
        /// Also generate handlers that forward the tools a binding names to the HTTP API
        /// they were imported from (`toolidl import --openapi --forward`); the runtime needs
        /// its `forward` feature (docs/openapi.md). Repeatable.
        #[arg(long, value_name = "BINDING")]
        forward: Vec<PathBuf>,
    },
    /// Write a `.tool` file that publishes the listings of an MCP server, saved as JSON (a
    /// `tools/list` result, or `toolidl schema`'s output), read from the server started
    /// with `-- COMMAND ARGS…` (stdio), or from the one running at `--url URL` (Streamable
    /// HTTP): tools, resources, templates and prompts, with their
    /// schemas as records, enums, unions and constraints; or one tool per operation of an
    /// OpenAPI document (`--openapi`). What the language cannot say is widened and reported
    /// on stderr, never dropped silently.
    Import {
        /// The saved listings (or give a server to start after `--`, or `--url`).
        #[arg(
            required_unless_present_any = ["command", "url", "openapi"],
            conflicts_with_all = ["command", "url", "openapi"]
        )]
        file: Option<PathBuf>,
        /// A stdio server's command line, after `--`.
        #[arg(last = true, value_name = "COMMAND")]
        command: Vec<String>,
        /// A running server's MCP endpoint (`http://host:port/mcp`), read over Streamable
        /// HTTP.
        #[arg(long, value_name = "URL", conflicts_with_all = ["command", "openapi"])]
        url: Option<String>,
        /// An OpenAPI 3.0 or 3.1 document (JSON or YAML; a file or an `http(s)://` URL):
        /// one tool per operation (docs/openapi.md).
        #[arg(long, value_name = "FILE|URL", conflicts_with = "command")]
        openapi: Option<String>,
        /// With --openapi: only the operations with this tag (repeatable).
        #[arg(long, value_name = "TAG", requires = "openapi")]
        tag: Vec<String>,
        /// With --openapi: only these operations, by operationId or tool name; `*` matches
        /// any text (repeatable).
        #[arg(long, value_name = "NAME", requires = "openapi")]
        include: Vec<String>,
        /// With --openapi: not these operations (repeatable, as --include).
        #[arg(long, value_name = "NAME", requires = "openapi")]
        exclude: Vec<String>,
        /// With --openapi: also write the forward binding (where each argument is sent) for
        /// a generated forwarding server (`toolidl generate --forward`, docs/openapi.md).
        #[arg(long, value_name = "FILE", requires = "openapi")]
        forward: Option<PathBuf>,
        /// Also write the listings read to this file, as JSON.
        #[arg(long, value_name = "FILE")]
        save_listing: Option<PathBuf>,
        /// The package of the file (default: from FILE's or the server's name).
        #[arg(long, value_name = "NAME")]
        package: Option<String>,
        /// The service's name (default: from the package).
        #[arg(long, value_name = "NAME")]
        service: Option<String>,
        /// Write the file here instead of stdout.
        #[arg(long, short, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Serve the Language Server Protocol on stdin/stdout, for editors: diagnostics as
    /// `check` reports them, hover with the JSON Schema agents see, go to definition,
    /// references, rename, completion, formatting, symbols, semantic tokens, quick fixes.
    Lsp,
    /// Create a crate that serves one documented tool over stdio: Cargo.toml, build.rs,
    /// tools/NAME.tool and src/main.rs.
    New {
        /// The crate's name (also the `.tool` package, in snake_case).
        name: String,
        /// The folder to create (default: ./NAME).
        #[arg(long, value_name = "DIR")]
        path: Option<PathBuf>,
        /// Depend on this toolidl checkout by path (default: the checkout this command was
        /// built from, when it is one).
        #[arg(long, value_name = "DIR", conflicts_with = "crates_io")]
        toolidl_path: Option<PathBuf>,
        /// Depend on the toolidl crates' crates.io versions.
        #[arg(long)]
        crates_io: bool,
    },
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum DiffFormat {
    Human,
    Json,
}

fn main() {
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Check { files } => check::run(&files),
        Command::Diff {
            files,
            against,
            format,
            implementer_breaking,
        } => diff::run(&diff::Args {
            files,
            against,
            json: matches!(format, DiffFormat::Json),
            implementer_breaking,
        }),
        Command::Fmt { files, check } => fmt::run(&files, check),
        Command::Schema {
            file,
            hoist_shared,
            profile,
        } => schema::run(&file, hoist_shared, profile),
        Command::Lint {
            files,
            profile,
            published,
        } => lint::run(&lint::Args {
            files,
            profile,
            published,
        }),
        Command::Generate {
            files,
            out,
            runtime_crate,
            hoist_shared,
            typed_formats,
            client,
            forward,
        } => generate::run(&generate::Args {
            files,
            out,
            runtime_crate,
            hoist_shared,
            typed_formats,
            client,
            forward,
        }),
        Command::Import {
            openapi: Some(source),
            tag,
            include,
            exclude,
            forward,
            package,
            service,
            out,
            ..
        } => import::openapi::run(&import::openapi::Args {
            source,
            tags: tag,
            include,
            exclude,
            forward,
            package,
            service,
            out,
        }),
        Command::Import {
            file,
            command,
            url,
            save_listing,
            package,
            service,
            out,
            ..
        } => import::run(&import::Args {
            file,
            command,
            url,
            save_listing,
            package,
            service,
            out,
        }),
        Command::Lsp => lsp::run(),
        Command::New {
            name,
            path,
            toolidl_path,
            crates_io,
        } => new::run(&new::Args {
            name,
            path,
            toolidl_path,
            crates_io,
        }),
    };
    std::process::exit(code);
}

fn parse_profile(name: &str) -> Result<Profile, String> {
    Profile::parse(name).ok_or_else(|| {
        let names: Vec<&str> = Profile::ALL.iter().map(|p| p.name()).collect();
        format!("unknown profile (one of: {})", names.join(", "))
    })
}

/// Rendered diagnostics on stderr, ending with a newline whatever the renderer ended with.
fn print_diagnostics(rendered: &str) {
    if rendered.is_empty() {
        return;
    }
    if rendered.ends_with('\n') {
        eprint!("{rendered}");
    } else {
        eprintln!("{rendered}");
    }
}
