//! Serves the notes example over stdio until end of input, or over Streamable HTTP with
//! `--http ADDR` (e.g. `--http 127.0.0.1:8931`, endpoint `/mcp`) until SIGINT or SIGTERM.
//! `--stateless` (with `--http`) keeps no session. `--redis URL` (e.g.
//! `redis://127.0.0.1:6379`) shares tasks and change notifications with the other instances
//! on that Redis server (the notes themselves are in `--db`'s file). `--db PATH` keeps the notes in a SQLite
//! file (WAL); without it they live in memory for the life of the process. `--demo` plays a
//! short scripted session in process and exits. `--profile NAME` lists the tools as that client
//! profile publishes them (`openai-strict`, …) and reads the forms its listing gives them.
//! `--rate N` allows each client at most N calls of each tool per minute (its principal with
//! `--auth-issuer`, else its address; over stdio the one client), then refuses them (429 over
//! HTTP). SIGINT or SIGTERM ends either transport gracefully: calls in flight get 25 s.
//!
//! `--auth-issuer URL` (with `--http`) makes the server an OAuth 2.1 resource server: every
//! request needs a JWT access token of that authorization server whose audience is the
//! server's canonical URL (`http://ADDR/mcp`, or `--resource URI`), and the scopes
//! `notes.tool` declares (`notes:read`, `notes:write`).

use std::net::SocketAddr;
use std::path::PathBuf;

use notes_example::{MAX_MESSAGE_BYTES, Notes};
use toolidl_runtime::ToolLimits;
use toolidl_runtime::http::{AuthConfig, HttpConfig};
use toolidl_runtime::{stdio::StdioBanner, stdio::StdioConfig};

const USAGE: &str = "usage: notes-example [--db PATH] [--http ADDR [--stateless] [--auth-issuer URL [--resource URI]]] [--redis URL] [--profile NAME] [--rate N] | --demo
  --rate N        at most N calls of each tool per minute for each client
  --profile NAME  list the tools as client profile NAME publishes them: standard (default), claude, openai-strict, gemini";

fn main() -> std::io::Result<()> {
    let _logging = notes_example::init_logging();
    let mut http: Option<SocketAddr> = None;
    let mut stateless = false;
    let mut db: Option<PathBuf> = None;
    let mut redis: Option<String> = None;
    let mut demo = false;
    let mut issuer: Option<String> = None;
    let mut resource: Option<String> = None;
    let mut profile = toolidl_runtime::Profile::Standard;
    let mut rate: Option<u32> = None;
    let mut args = std::env::args_os().skip(1);
    while let Some(arg) = args.next() {
        match arg.to_str() {
            Some("--http") => match args.next().and_then(|a| a.to_str()?.parse().ok()) {
                Some(addr) => http = Some(addr),
                None => return usage("--http needs an address such as 127.0.0.1:8931"),
            },
            Some("--stateless") => stateless = true,
            Some("--db") => match args.next() {
                Some(path) if !path.is_empty() => db = Some(PathBuf::from(path)),
                _ => return usage("--db needs a file path"),
            },
            Some("--redis") => match args.next().and_then(|a| a.into_string().ok()) {
                Some(url) => redis = Some(url),
                None => return usage("--redis needs a URL such as redis://127.0.0.1:6379"),
            },
            Some("--demo") => demo = true,
            Some("--rate") => match args.next().and_then(|a| a.to_str()?.parse().ok()) {
                Some(n) if n > 0 => rate = Some(n),
                _ => return usage("--rate needs a number of calls per minute, at least 1"),
            },
            Some("--profile") => match args.next().map(|a| a.to_string_lossy().parse()) {
                Some(Ok(p)) => profile = p,
                Some(Err(e)) => return usage(&format!("--profile: {e}")),
                None => return usage("--profile needs a profile name"),
            },
            Some(flag @ ("--auth-issuer" | "--resource")) => {
                let Some(value) = args.next().and_then(|a| a.into_string().ok()) else {
                    return usage(&format!("{flag} needs a URL"));
                };
                match flag {
                    "--auth-issuer" => issuer = Some(value),
                    _ => resource = Some(value),
                }
            }
            Some("--help" | "-h") => {
                println!("{USAGE}");
                return Ok(());
            }
            _ => return usage(&format!("unknown argument {}", arg.to_string_lossy())),
        }
    }
    if stateless && http.is_none() {
        return usage("--stateless needs --http");
    }
    if issuer.is_some() && http.is_none() {
        return usage("--auth-issuer needs --http");
    }
    if resource.is_some() && issuer.is_none() {
        return usage("--resource needs --auth-issuer");
    }
    if demo {
        if http.is_some()
            || db.is_some()
            || redis.is_some()
            || rate.is_some()
            || profile != Default::default()
        {
            return usage("--demo takes no other option");
        }
        return run_demo();
    }

    // The bundle's `database` option (examples/notes/Cargo.toml) arrives as NOTES_DB; empty
    // (the option left blank) keeps the notes in memory.
    if db.is_none() {
        db = std::env::var_os("NOTES_DB")
            .filter(|p| !p.is_empty())
            .map(PathBuf::from);
    }
    let notes = match &db {
        Some(path) => Notes::open(path),
        None => Notes::in_memory(),
    };
    let notes = match notes {
        Ok(n) => n,
        Err(e) => {
            eprintln!("notes-example: cannot open the database: {e}");
            std::process::exit(1);
        }
    };
    let redis = match redis.as_deref().map(toolidl_runtime::cluster::Redis::open) {
        None => None,
        Some(Ok(redis)) => Some(redis),
        Some(Err(e)) => return usage(&format!("--redis: {e}")),
    };
    let server = notes_example::server_with(notes, |builder| {
        let mut builder = builder.profile(profile);
        if let Some(n) = rate {
            let per_minute = ToolLimits::new().rate(n, std::time::Duration::from_secs(60));
            builder = builder.tool_limits(per_minute);
        }
        match &redis {
            Some(redis) => builder.redis(redis),
            None => builder,
        }
    });
    match http {
        None => {
            banner(db.as_deref()).print_if_terminal();
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()?;
            let config = StdioConfig {
                max_line_bytes: MAX_MESSAGE_BYTES,
            };
            // On SIGINT or SIGTERM: calls in flight finish (up to 25 s), then it exits.
            runtime.block_on(toolidl_runtime::stdio::serve_stdio_until(
                server,
                config,
                toolidl_runtime::shutdown_signal(),
                toolidl_runtime::stdio::DEFAULT_DRAIN,
            ))
        }
        Some(addr) => {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()?;
            let config = HttpConfig::new()
                .bind(addr)
                .stateless(stateless)
                .max_body_bytes(MAX_MESSAGE_BYTES)
                .health("/healthz", "/readyz");
            runtime.block_on(async {
                let listener = tokio::net::TcpListener::bind(addr).await?;
                let bound = listener.local_addr()?;
                let config = match issuer {
                    None => config,
                    // The audience is the URL clients reach, on the port actually bound.
                    Some(issuer) => {
                        let resource = resource.unwrap_or_else(|| format!("http://{bound}/mcp"));
                        match AuthConfig::jwt(issuer, resource) {
                            Ok(auth) => config.auth(auth.resource_name("notes-example")),
                            Err(e) => return usage(&e),
                        }
                    }
                };
                let http =
                    toolidl_runtime::http::HttpServer::from_listener(server, listener, config)?;
                eprintln!("serving MCP at http://{}/mcp", http.local_addr()?);
                http.run().await
            })
        }
    }
}

/// The terminal banner; the client entry carries the database as an absolute path.
fn banner(db: Option<&std::path::Path>) -> StdioBanner {
    let mut args = Vec::new();
    let storage = match db {
        Some(path) => {
            let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
            args.push("--db".to_owned());
            args.push(absolute.display().to_string());
            format!("notes in {}", absolute.display())
        }
        None => "notes in memory (gone when it exits; --db PATH keeps them)".to_owned(),
    };
    StdioBanner::new(
        "notes",
        format!(
            "notes-example {}: a notes server over SQLite, {storage}.",
            env!("CARGO_PKG_VERSION")
        ),
    )
    .args(args)
    .line("Other ways to run it: --demo plays a short session and exits; --http 127.0.0.1:8931 serves Streamable HTTP.")
}

fn run_demo() -> std::io::Result<()> {
    let notes = Notes::in_memory().map_err(std::io::Error::other)?;
    let server = notes_example::server(notes);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let mut out = std::io::stdout().lock();
    runtime.block_on(notes_example::demo::run(server, &mut out))
}

fn usage(problem: &str) -> std::io::Result<()> {
    eprintln!("notes-example: {problem}\n{USAGE}");
    std::process::exit(2)
}
