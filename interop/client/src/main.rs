//! Calls a server that publishes examples/weather's listing through the generated clients
//! and checks every typed result (`checks.rs`).
//!
//!   interop-client -- COMMAND ARGS...   a server over stdio, started here
//!   interop-client --url URL            a Streamable HTTP server
//!
//! One line per check on stderr (`ok NAME`, `FAILED NAME: why`), then
//! `N passed, M failed, 0 known` on stdout (what scripts/interop.sh reads); exit 1 on any
//! failure, 2 on bad arguments.

use std::process::ExitCode;
use std::sync::Arc;

use interop_client::acme::weather::WeatherToolsClient;
use interop_client::manual::ManualToolsClient;
use toolidl_runtime::client::{ClientError, Command, HttpTransport, StdioTransport, Transport};

enum Target {
    Stdio(Vec<String>),
    Url(String),
}

fn parse(args: &[String]) -> Option<Target> {
    match args {
        [flag, command @ ..] if flag == "--" && !command.is_empty() => {
            Some(Target::Stdio(command.to_vec()))
        }
        [flag, url] if flag == "--url" => Some(Target::Url(url.clone())),
        _ => None,
    }
}

/// One connection, shared by both clients (the server serves both services).
async fn connect(target: Target) -> Result<Arc<dyn Transport>, ClientError> {
    match target {
        Target::Stdio(argv) => {
            let mut command = Command::new(&argv[0]);
            command.args(&argv[1..]);
            Ok(Arc::new(StdioTransport::spawn(command).await?))
        }
        Target::Url(url) => Ok(Arc::new(HttpTransport::connect(&url).await?)),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(target) = parse(&args) else {
        eprintln!("usage: interop-client -- COMMAND ARGS... | --url URL");
        return ExitCode::from(2);
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("interop-client: {e}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(async {
        let transport = match connect(target).await {
            Ok(transport) => transport,
            Err(e) => {
                eprintln!("FAILED connect: {e}");
                println!("0 passed, 1 failed, 0 known");
                return ExitCode::FAILURE;
            }
        };
        let weather = WeatherToolsClient::from_arc(transport.clone());
        let manual = ManualToolsClient::from_arc(transport);
        let tally = interop_client::checks::run(&weather, &manual).await;
        println!("{} passed, {} failed, 0 known", tally.passed, tally.failed);
        match tally.failed {
            0 => ExitCode::SUCCESS,
            _ => ExitCode::FAILURE,
        }
    })
}
