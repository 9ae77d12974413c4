//! Serves the shop (its routes and the MCP endpoint at `/mcp`) on `--http ADDR` (default
//! `127.0.0.1:8080`) until SIGINT or SIGTERM; `--stateless` keeps no MCP session;
//! `--profile NAME` lists the MCP tools as that client profile publishes them.

use std::net::SocketAddr;
use std::sync::Arc;

use toolidl_runtime::http::{HttpConfig, shutdown_signal};

fn main() -> std::io::Result<()> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into()),
        )
        .init();
    let mut addr: SocketAddr = ([127, 0, 0, 1], 8080).into();
    let mut stateless = false;
    let mut profile = toolidl_runtime::Profile::Standard;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--http" => match args.next().map(|a| a.parse()) {
                Some(Ok(a)) => addr = a,
                _ => return usage("--http needs an address such as 127.0.0.1:8080"),
            },
            "--stateless" => stateless = true,
            "--profile" => match args.next().map(|a| a.parse()) {
                Some(Ok(p)) => profile = p,
                Some(Err(e)) => return usage(&format!("--profile: {e}")),
                None => return usage("--profile needs a profile name"),
            },
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(());
            }
            other => return usage(&format!("unknown argument {other}")),
        }
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        let bound = listener.local_addr()?;
        // Clients name this address in `Host`; loopback names are allowed already.
        let config = HttpConfig::new()
            .stateless(stateless)
            .allow_host(bound.to_string());
        let (app, mcp) = axum_example::app_for(Arc::default(), config, profile);
        eprintln!("serving the shop at http://{bound}/ and MCP at http://{bound}/mcp");
        let app = app.into_make_service_with_connect_info::<std::net::SocketAddr>();
        axum::serve(listener, app)
            .with_graceful_shutdown(async move {
                shutdown_signal().await;
                // The endpoint's long-lived streams end and its calls in flight get 25 s
                // to finish (then they are cancelled, each answered), so that axum's
                // graceful shutdown, which waits for every open response, can finish.
                tokio::spawn(mcp.drain());
            })
            .await
    })
}

const USAGE: &str = "usage: axum-example [--http ADDR] [--stateless] [--profile NAME]
  --profile NAME  list the tools as client profile NAME publishes them: standard (default), claude, openai-strict, gemini";

fn usage(problem: &str) -> std::io::Result<()> {
    eprintln!("axum-example: {problem}\n{USAGE}");
    std::process::exit(2)
}
