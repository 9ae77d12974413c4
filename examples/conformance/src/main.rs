//! Serves the conformance fixture: over stdio by default, over Streamable HTTP with
//! `--http ADDR` (endpoint `/mcp`) until SIGINT or SIGTERM.

use std::net::SocketAddr;
use std::process::ExitCode;

const USAGE: &str = "usage: conformance-example [--http ADDR [--stateless] [--stream-results]] [--task-dir DIR] [--redis URL] [--profile NAME]

Serves the MCP conformance suite's fixture server on stdio, or with --http on
http://ADDR/mcp (ADDR an IP address and port, e.g. 127.0.0.1:8931) until SIGINT
or SIGTERM. --stateless keeps no session, for several instances behind a load
balancer. --stream-results answers results on an event stream (as the
official TypeScript and Python SDK servers do) instead of JSON. --task-dir keeps tasks in DIR (created if needed) instead of the
process: give every instance behind a load balancer the same one. --redis URL
(e.g. redis://127.0.0.1:6379) shares tasks, resource updates and the dynamic
tool and prompt with every instance on that Redis server. --profile NAME lists
the tools as client profile NAME publishes them: standard (default), claude,
openai-strict, gemini.

Environment: CONFORMANCE_STATE_KEY, a secret the key that seals requestState is
derived from (give every instance behind a load balancer the same one; default: a
random key per process);
RUST_LOG, the log filter (logs go to stderr).";

/// The exit status for "this build cannot serve HTTP" (built without the `http` feature;
/// scripts/conformance.sh relies on it; usage errors are 2).
#[cfg_attr(feature = "http", allow(dead_code))]
const NO_HTTP: u8 = 3;

fn main() -> ExitCode {
    let mut http: Option<SocketAddr> = None;
    let mut stateless = false;
    let mut stream_results = false;
    let mut profile = toolidl_runtime::Profile::Standard;
    let mut task_dir: Option<std::path::PathBuf> = None;
    let mut redis: Option<String> = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--http" => match args.next().map(|a| a.parse()) {
                Some(Ok(addr)) => http = Some(addr),
                _ => {
                    return usage_error("--http needs an IP address and port, e.g. 127.0.0.1:8931");
                }
            },
            "--stateless" => stateless = true,
            "--stream-results" => stream_results = true,
            "--profile" => match args.next().map(|a| a.parse()) {
                Some(Ok(p)) => profile = p,
                Some(Err(e)) => return usage_error(&format!("--profile: {e}")),
                None => return usage_error("--profile needs a profile name"),
            },
            "--task-dir" => match args.next() {
                Some(dir) => task_dir = Some(dir.into()),
                None => return usage_error("--task-dir needs a directory"),
            },
            "--redis" => match args.next() {
                Some(url) => redis = Some(url),
                None => return usage_error("--redis needs a URL, e.g. redis://127.0.0.1:6379"),
            },
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            other => return usage_error(&format!("unknown argument {other}")),
        }
    }
    if (stateless || stream_results) && http.is_none() {
        return usage_error("--stateless and --stream-results need --http");
    }
    conformance_example::init_logging();
    // The runtime seals requestState; instances behind a load balancer share the key.
    let state_key = std::env::var_os(conformance_example::input::STATE_KEY_VAR)
        .filter(|k| !k.is_empty())
        .map(|k| toolidl_runtime::RequestStateKey::derive(k.into_encoded_bytes()));
    let task_store = match task_dir.map(toolidl_runtime::tasks::DirTaskStore::open) {
        None => None,
        Some(Ok(store)) => Some(std::sync::Arc::new(store) as _),
        Some(Err(e)) => return failed(&format!("cannot open the task directory: {e}")),
    };
    let shared = match shared_state(task_store, redis.as_deref()) {
        Ok(shared) => shared,
        Err(e) => return failed(&e),
    };
    let server = conformance_example::server_with(move |b| {
        let b = shared(b).profile(profile);
        match state_key {
            Some(key) => b.request_state_keys([key]),
            None => b,
        }
    });
    let served = match http {
        None => tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .and_then(|rt| rt.block_on(toolidl_runtime::serve_stdio(server))),
        Some(addr) => serve_http(server, addr, stateless, stream_results),
    };
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => failed(&e.to_string()),
    }
}

type Shared = Box<dyn FnOnce(toolidl_runtime::ServerBuilder) -> toolidl_runtime::ServerBuilder>;

/// Where the state that instances share goes: the task directory, Redis.
fn shared_state(
    task_store: Option<std::sync::Arc<dyn toolidl_runtime::tasks::TaskStore>>,
    redis_url: Option<&str>,
) -> Result<Shared, String> {
    #[cfg(feature = "redis")]
    let redis = match redis_url.map(toolidl_runtime::cluster::Redis::open) {
        None => None,
        Some(Ok(redis)) => Some(redis),
        Some(Err(e)) => return Err(format!("not a Redis URL: {e}")),
    };
    #[cfg(not(feature = "redis"))]
    if redis_url.is_some() {
        return Err("cannot use Redis: built without the `redis` feature".into());
    }
    Ok(Box::new(move |mut builder| {
        if let Some(store) = task_store {
            builder = builder.task_store(store);
        }
        #[cfg(feature = "redis")]
        if let Some(redis) = &redis {
            builder = builder.redis(redis);
        }
        builder
    }))
}

#[cfg(feature = "http")]
fn serve_http(
    server: toolidl_runtime::Server,
    addr: SocketAddr,
    stateless: bool,
    stream_results: bool,
) -> std::io::Result<()> {
    use toolidl_runtime::http::{HttpConfig, HttpServer};
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    // `test_reconnection`: its event stream closes after the priming event, and the
    // client gets the result with a GET and Last-Event-ID (server-sse-polling).
    let config = HttpConfig::new()
        .bind(addr)
        .stateless(stateless)
        .stream_results(stream_results)
        .poll_tool("test_reconnection");
    runtime.block_on(async {
        let http = HttpServer::bind(server, config).await?;
        eprintln!(
            "conformance-example: serving MCP at http://{}/mcp{}",
            http.local_addr()?,
            if stateless { " (stateless)" } else { "" }
        );
        http.run().await
    })
}

#[cfg(not(feature = "http"))]
fn serve_http(
    _server: toolidl_runtime::Server,
    addr: SocketAddr,
    _stateless: bool,
    _stream_results: bool,
) -> std::io::Result<()> {
    eprintln!(
        "conformance-example: cannot serve HTTP on {addr}: built without the `http` feature \
         (toolidl-runtime's Streamable HTTP transport)"
    );
    std::process::exit(NO_HTTP.into())
}

fn usage_error(message: &str) -> ExitCode {
    eprintln!("conformance-example: {message}\n\n{USAGE}");
    ExitCode::from(2)
}

fn failed(message: &str) -> ExitCode {
    eprintln!("conformance-example: {message}");
    ExitCode::FAILURE
}
