//! Serves the weather example over stdio until end of input, or over Streamable HTTP with
//! `--http ADDR` (e.g. `--http 127.0.0.1:8931`, endpoint `/mcp`) until SIGINT or SIGTERM.
//! `--stateless` (with `--http`) keeps no session, for several instances behind a load
//! balancer. With the `auth` feature, `--auth-issuer URL [--resource URI]` makes it an OAuth
//! 2.1 resource server for the JWT access tokens of that authorization server, whose audience
//! is `http://ADDR/mcp` (or `URI`). `--profile NAME` lists the tools as that client profile
//! publishes them (`claude`, `openai-strict`, `gemini`; default `standard`).

use std::net::SocketAddr;

use toolidl_runtime::http::HttpConfig;
use toolidl_runtime::stdio::StdioConfig;

fn main() -> std::io::Result<()> {
    let _logging = weather_example::init_logging();
    let mut http: Option<SocketAddr> = None;
    let mut stateless = false;
    let mut issuer: Option<String> = None;
    let mut resource: Option<String> = None;
    let mut per_subject: Option<usize> = None;
    let mut redis: Option<String> = None;
    let mut profile = toolidl_runtime::Profile::Standard;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--http" => match args.next().map(|a| a.parse()) {
                Some(Ok(addr)) => http = Some(addr),
                _ => return usage("--http needs an address such as 127.0.0.1:8931"),
            },
            "--stateless" => stateless = true,
            "--profile" => match args.next().map(|a| a.parse()) {
                Some(Ok(p)) => profile = p,
                Some(Err(e)) => return usage(&format!("--profile: {e}")),
                None => return usage("--profile needs a profile name"),
            },
            "--redis" if cfg!(feature = "redis") => match args.next() {
                Some(url) => redis = Some(url),
                None => return usage("--redis needs a URL such as redis://127.0.0.1:6379"),
            },
            "--max-sessions-per-subject" if cfg!(feature = "auth") => {
                match args.next().and_then(|n| n.parse().ok()) {
                    Some(n) => per_subject = Some(n),
                    None => return usage("--max-sessions-per-subject needs a number"),
                }
            }
            flag @ ("--auth-issuer" | "--resource") if cfg!(feature = "auth") => {
                let Some(value) = args.next() else {
                    return usage(&format!("{flag} needs a URL"));
                };
                match flag {
                    "--auth-issuer" => issuer = Some(value),
                    _ => resource = Some(value),
                }
            }
            "-h" | "--help" => {
                println!("{}", usage_text());
                return Ok(());
            }
            other => return usage(&format!("unknown argument {other}")),
        }
    }
    if issuer.is_some() && http.is_none() {
        return usage("--auth-issuer needs --http");
    }
    if (resource.is_some() || per_subject.is_some()) && issuer.is_none() {
        return usage("--resource and --max-sessions-per-subject need --auth-issuer");
    }
    let server = match redis {
        None => weather_example::server_with(|builder| builder.profile(profile)),
        Some(url) => match shared_on(&url, profile) {
            Ok(server) => server,
            Err(e) => return usage(&format!("--redis: {e}")),
        },
    };
    match http {
        None => {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()?;
            toolidl_runtime::stdio::default_banner(&server).print_if_terminal();
            // On SIGINT or SIGTERM: calls in flight finish (up to 25 s), then it exits.
            runtime.block_on(toolidl_runtime::stdio::serve_stdio_until(
                server,
                StdioConfig::default(),
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
                .health("/healthz", "/readyz");
            runtime.block_on(async {
                let listener = tokio::net::TcpListener::bind(addr).await?;
                let config = match issuer {
                    None => config,
                    // The audience is the URL clients reach, on the port actually bound.
                    Some(issuer) => {
                        let bound = listener.local_addr()?;
                        let resource = resource.unwrap_or_else(|| format!("http://{bound}/mcp"));
                        match with_auth(config, issuer, resource, per_subject) {
                            Ok(config) => config,
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

/// `config` protected by the JWT access tokens of `issuer` for `resource`.
#[cfg(feature = "auth")]
fn with_auth(
    config: HttpConfig,
    issuer: String,
    resource: String,
    per_subject: Option<usize>,
) -> Result<HttpConfig, String> {
    let mut auth = toolidl_runtime::http::AuthConfig::jwt(issuer, resource)?;
    if let Some(n) = per_subject {
        auth = auth.max_sessions_per_subject(n);
    }
    Ok(config.auth(auth.resource_name("weather-example")))
}

#[cfg(not(feature = "auth"))]
fn with_auth(_: HttpConfig, _: String, _: String, _: Option<usize>) -> Result<HttpConfig, String> {
    Err("--auth-issuer needs the auth feature".into())
}

/// The server, sharing its state with the other instances on the Redis at `url`.
#[cfg(feature = "redis")]
fn shared_on(
    url: &str,
    profile: toolidl_runtime::Profile,
) -> Result<toolidl_runtime::Server, String> {
    let redis = toolidl_runtime::cluster::Redis::open(url).map_err(|e| e.to_string())?;
    Ok(weather_example::server_with(|builder| {
        builder.redis(&redis).profile(profile)
    }))
}

#[cfg(not(feature = "redis"))]
fn shared_on(_: &str, _: toolidl_runtime::Profile) -> Result<toolidl_runtime::Server, String> {
    Err("--redis needs the redis feature".into())
}

fn usage(problem: &str) -> std::io::Result<()> {
    eprintln!("weather-example: {problem}\n{}", usage_text());
    std::process::exit(2)
}

fn usage_text() -> String {
    let auth = match cfg!(feature = "auth") {
        true => " [--auth-issuer URL [--resource URI] [--max-sessions-per-subject N]]",
        false => "",
    };
    let redis = match cfg!(feature = "redis") {
        true => " [--redis URL]",
        false => "",
    };
    format!(
        "usage: weather-example [--http ADDR [--stateless]{auth}]{redis} [--profile NAME]\n  --profile NAME  list the tools as client profile NAME publishes them: standard (default), claude, openai-strict, gemini"
    )
}
