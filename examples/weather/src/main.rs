//! Serves the weather example over stdio until end of input, or over Streamable HTTP with
//! `--http ADDR` (e.g. `--http 127.0.0.1:8931`, endpoint `/mcp`) until SIGINT or SIGTERM.
//! `--stateless` (with `--http`) keeps no session, for several instances behind a load
//! balancer.

use std::net::SocketAddr;

use toolidl_runtime::http::HttpConfig;

fn main() -> std::io::Result<()> {
    weather_example::init_logging();
    let mut http: Option<SocketAddr> = None;
    let mut stateless = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--http" => match args.next().map(|a| a.parse()) {
                Some(Ok(addr)) => http = Some(addr),
                _ => return usage("--http needs an address such as 127.0.0.1:8931"),
            },
            "--stateless" => stateless = true,
            other => return usage(&format!("unknown argument {other}")),
        }
    }
    let server = weather_example::server();
    match http {
        None => {
            let runtime = tokio::runtime::Builder::new_current_thread().build()?;
            runtime.block_on(toolidl_runtime::serve_stdio(server))
        }
        Some(addr) => {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()?;
            let config = HttpConfig::new().bind(addr).stateless(stateless);
            runtime.block_on(async {
                let http = toolidl_runtime::http::HttpServer::bind(server, config).await?;
                eprintln!("serving MCP at http://{}/mcp", http.local_addr()?);
                http.run().await
            })
        }
    }
}

fn usage(problem: &str) -> std::io::Result<()> {
    eprintln!("weather-example: {problem}\nusage: weather-example [--http ADDR [--stateless]]");
    std::process::exit(2)
}
