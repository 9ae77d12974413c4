//! Serves one of the example's APIs over stdio until end of input, or over Streamable HTTP
//! with `--http ADDR` (endpoint `/mcp`) until SIGINT or SIGTERM; each tool forwards to the
//! API at `--base-url URL` (default: the document's first server).

use std::net::SocketAddr;

use openapi_example::{Api, server};

const USAGE: &str =
    "usage: openapi-example --api petstore|train-travel [--base-url URL] [--http ADDR]";

fn main() -> std::io::Result<()> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .init();
    let mut api = None;
    let mut base_url = None;
    let mut http: Option<SocketAddr> = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--api" => match args.next().as_deref().and_then(Api::parse) {
                Some(a) => api = Some(a),
                None => return usage("--api needs petstore or train-travel"),
            },
            "--base-url" => match args.next() {
                Some(url) => base_url = Some(url),
                None => return usage("--base-url needs a URL"),
            },
            "--http" => match args.next().and_then(|a| a.parse().ok()) {
                Some(addr) => http = Some(addr),
                None => return usage("--http needs an address such as 127.0.0.1:8931"),
            },
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(());
            }
            other => return usage(&format!("unknown argument {other}")),
        }
    }
    let Some(api) = api else {
        return usage("--api is required");
    };
    let server = match server(api, base_url.as_deref()) {
        Ok(server) => server,
        Err(e) => return usage(&e.to_string()),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    match http {
        None => runtime.block_on(toolidl_runtime::serve_stdio(server)),
        Some(addr) => runtime.block_on(async {
            let config = toolidl_runtime::http::HttpConfig::new().bind(addr);
            let http = toolidl_runtime::http::HttpServer::bind(server, config).await?;
            eprintln!("openapi-example: serving http://{}/mcp", http.local_addr()?);
            http.run().await
        }),
    }
}

fn usage(problem: &str) -> std::io::Result<()> {
    eprintln!("openapi-example: {problem}\n{USAGE}");
    std::process::exit(2);
}
