//! Calls a server that publishes examples/weather's listing through the generated clients
//! and checks every typed result (`checks.rs`).
//!
//!   interop-client -- COMMAND ARGS...   a server over stdio, started here
//!   interop-client --url URL [--ca-cert FILE] [--client-credentials ID SECRET]
//!                                       a Streamable HTTP server (https:// with a private
//!                                       CA's certificate; protected by OAuth, called with
//!                                       the client-credentials grant)
//!
//! One line per check on stderr (`ok NAME`, `FAILED NAME: why`), then
//! `N passed, M failed, 0 known` on stdout (what scripts/interop.sh reads); exit 1 on any
//! failure, 2 on bad arguments.

use std::process::ExitCode;
use std::sync::Arc;

use interop_client::acme::weather::WeatherToolsClient;
use interop_client::manual::ManualToolsClient;
use toolidl_runtime::client::{
    ClientError, Command, HttpTransport, OAuth, StdioTransport, Transport,
};

enum Target {
    Stdio(Vec<String>),
    Url {
        url: String,
        ca_cert: Option<String>,
        client: Option<(String, String)>,
    },
}

fn parse(args: &[String]) -> Option<Target> {
    match args {
        [flag, command @ ..] if flag == "--" && !command.is_empty() => {
            Some(Target::Stdio(command.to_vec()))
        }
        [flag, url, rest @ ..] if flag == "--url" => {
            let (mut ca_cert, mut client) = (None, None);
            let mut rest = rest;
            loop {
                match rest {
                    [] => break,
                    [flag, file, more @ ..] if flag == "--ca-cert" => {
                        ca_cert = Some(file.clone());
                        rest = more;
                    }
                    [flag, id, secret, more @ ..] if flag == "--client-credentials" => {
                        client = Some((id.clone(), secret.clone()));
                        rest = more;
                    }
                    _ => return None,
                }
            }
            Some(Target::Url {
                url: url.clone(),
                ca_cert,
                client,
            })
        }
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
        Target::Url {
            url,
            ca_cert,
            client,
        } => {
            let mut builder = HttpTransport::builder(&url);
            if let Some(file) = ca_cert {
                let pem = std::fs::read(&file)
                    .map_err(|e| ClientError::Transport(format!("cannot read `{file}`: {e}")))?;
                builder = builder.root_certificates(pem);
            }
            if let Some((id, secret)) = client {
                builder = builder.oauth(OAuth::client_credentials(id, secret).build());
            }
            Ok(Arc::new(builder.connect().await?))
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(target) = parse(&args) else {
        eprintln!(
            "usage: interop-client -- COMMAND ARGS... | --url URL [--ca-cert FILE] [--client-credentials ID SECRET]"
        );
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
