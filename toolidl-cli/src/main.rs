//! The `toolidl` command-line tool. Each subcommand lives in its own module and returns the
//! process exit code; `main` only parses arguments and exits. Usage errors exit 2 (clap).

mod check;
mod diff;
mod fmt;
mod generate;
mod lint;
mod new;
mod schema;
mod ship;

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
        /// A running server's MCP endpoint (`https://host/mcp`, `http://host:port/mcp`),
        /// read over Streamable HTTP (proxies from HTTPS_PROXY, HTTP_PROXY and NO_PROXY;
        /// certificates checked against the system's roots and SSL_CERT_FILE).
        #[arg(long, value_name = "URL", conflicts_with_all = ["command", "openapi"])]
        url: Option<String>,
        /// With --url: send `Authorization: Bearer TOKEN` (a token got elsewhere).
        #[arg(long, value_name = "TOKEN", requires = "url", conflicts_with_all = ["login", "client_credentials"])]
        bearer: Option<String>,
        /// With --url: authorize with OAuth in a browser when the server asks (the
        /// authorization URL is printed on stderr; the redirect comes back to a loopback
        /// port).
        #[arg(long, requires = "url", conflicts_with = "client_credentials")]
        login: bool,
        /// With --url: authorize with OAuth's client-credentials grant, as the client
        /// --client-id with --client-secret.
        #[arg(long, requires_all = ["url", "client_id", "client_secret"])]
        client_credentials: bool,
        /// The OAuth client id registered with the server's authorization server (for
        /// --login or --client-credentials; --login without it registers a client by
        /// itself, or uses a client ID metadata document).
        #[arg(long, value_name = "ID", requires = "url")]
        client_id: Option<String>,
        /// The secret of --client-id.
        #[arg(long, value_name = "SECRET", requires = "client_id")]
        client_secret: Option<String>,
        /// With --url: also trust the certificates of FILE (PEM), for a server whose
        /// certificate a private CA signed.
        #[arg(long, value_name = "FILE", requires = "url")]
        ca_cert: Option<PathBuf>,
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
    /// Pack a server crate as an MCP Bundle (`.mcpb`): its binary (built with `cargo build
    /// --release` unless given), binaries for other platforms, and `manifest.json` written
    /// from its `.tool` files and `[package.metadata.toolidl.bundle]`. Prints the file's path.
    Bundle {
        /// The server crate's Cargo.toml.
        #[arg(long, value_name = "FILE", default_value = "Cargo.toml")]
        manifest_path: PathBuf,
        /// The binary to ship (default: the package's only one).
        #[arg(long, value_name = "NAME")]
        bin: Option<String>,
        /// A built binary for this platform: no `cargo build`.
        #[arg(long, value_name = "PATH")]
        binary: Option<PathBuf>,
        /// A binary for another platform (darwin, linux, win32), built by you; repeatable.
        #[arg(long = "platform-binary", value_name = "PLATFORM=PATH")]
        platform_binaries: Vec<String>,
        /// The bundle to write (default: target/bundle/NAME-VERSION.mcpb).
        #[arg(long, short, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Also write the manifest to this file.
        #[arg(long, value_name = "FILE")]
        manifest_out: Option<PathBuf>,
        /// The bundle's name (default: the package's).
        #[arg(long)]
        name: Option<String>,
        /// The name shown to users.
        #[arg(long)]
        display_name: Option<String>,
        /// The version (default: the package's).
        #[arg(long)]
        version: Option<String>,
        /// The description (default: the package's).
        #[arg(long)]
        description: Option<String>,
        /// The author, `Name <email>` (default: the package's first author).
        #[arg(long)]
        author: Option<String>,
        /// A PNG icon to ship.
        #[arg(long, value_name = "FILE")]
        icon: Option<PathBuf>,
        /// An argument passed to the server; repeatable (replaces the metadata's `args`).
        #[arg(long = "arg", value_name = "ARG", allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Write the MCP registry's `server.json` for a server crate: packages of type `mcpb`
    /// (with the bundle's SHA-256) and `oci`, and `remotes` for a Streamable HTTP deployment.
    /// With `--card`, the server card (SEP-2127, a draft) of the remote server instead.
    Registry {
        /// The server crate's Cargo.toml.
        #[arg(long, value_name = "FILE", default_value = "Cargo.toml")]
        manifest_path: PathBuf,
        /// The registry name, NAMESPACE/NAME (default: [package.metadata.toolidl.registry]).
        #[arg(long)]
        name: Option<String>,
        /// The `.mcpb` that `toolidl bundle` wrote.
        #[arg(long, value_name = "FILE")]
        bundle: Option<PathBuf>,
        /// Where users download the bundle (`{version}` is replaced).
        #[arg(long, value_name = "URL")]
        bundle_url: Option<String>,
        /// An OCI image of the server (`{version}` is replaced).
        #[arg(long, value_name = "IMAGE")]
        oci: Option<String>,
        /// The URL of a Streamable HTTP deployment.
        #[arg(long, value_name = "URL")]
        remote: Option<String>,
        /// Write the server card instead.
        #[arg(long)]
        card: bool,
        /// Write here instead of stdout.
        #[arg(long, short, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Add or update a server in an MCP client's configuration: claude-desktop,
    /// claude-code, cursor, vscode, windsurf, gemini-cli. Other entries stay as they were;
    /// the old file is kept as FILE.bak.
    Install {
        /// The client.
        #[arg(long, value_name = "NAME")]
        client: String,
        /// The entry's name (default: the bundle's or the command's name).
        #[arg(long)]
        name: Option<String>,
        /// The project's configuration file instead of the user's.
        #[arg(long)]
        project: bool,
        /// The configuration file to edit (default: the client's, for this platform).
        #[arg(long, value_name = "FILE")]
        config: Option<PathBuf>,
        /// Print the change as a diff; write nothing.
        #[arg(long)]
        dry_run: bool,
        /// An environment variable of the server, KEY=VALUE; repeatable.
        #[arg(long, value_name = "KEY=VALUE")]
        env: Vec<String>,
        /// A Streamable HTTP server's URL.
        #[arg(long, value_name = "URL", conflicts_with_all = ["command", "bundle"])]
        url: Option<String>,
        /// A bundle (`.mcpb`, unpacked beside it, or the folder it was unpacked to).
        #[arg(long, value_name = "PATH", conflicts_with = "command")]
        bundle: Option<PathBuf>,
        /// Where to unpack the bundle.
        #[arg(long, value_name = "DIR", requires = "bundle")]
        bundle_dir: Option<PathBuf>,
        /// A value for the bundle's option KEY; repeatable.
        #[arg(long, value_name = "KEY=VALUE", requires = "bundle")]
        user_config: Vec<String>,
        /// The server's command line, after `--`.
        #[arg(last = true, value_name = "COMMAND")]
        command: Vec<String>,
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
            bearer,
            login,
            client_credentials,
            client_id,
            client_secret,
            ca_cert,
            save_listing,
            package,
            service,
            out,
            ..
        } => import::run(&import::Args {
            file,
            command,
            url,
            auth: import::Auth {
                bearer,
                login,
                client_credentials,
                client_id,
                client_secret,
                ca_cert,
            },
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
        Command::Bundle {
            manifest_path,
            bin,
            binary,
            platform_binaries,
            out,
            manifest_out,
            name,
            display_name,
            version,
            description,
            author,
            icon,
            args,
        } => ship::bundle::run(&ship::bundle::Args {
            manifest_path,
            bin,
            binary,
            platform_binaries,
            out,
            name,
            display_name,
            version,
            description,
            author,
            icon,
            args,
            manifest_out,
        }),
        Command::Registry {
            manifest_path,
            name,
            bundle,
            bundle_url,
            oci,
            remote,
            card,
            out,
        } => ship::registry::run(&ship::registry::Args {
            manifest_path,
            name,
            bundle,
            bundle_url,
            oci,
            remote,
            card,
            out,
        }),
        Command::Install {
            client,
            name,
            project,
            config,
            dry_run,
            env,
            url,
            bundle,
            bundle_dir,
            user_config,
            command,
        } => ship::install::run(&ship::install::Args {
            client,
            name,
            project,
            config,
            dry_run,
            env,
            command,
            url,
            bundle,
            bundle_dir,
            user_config,
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
