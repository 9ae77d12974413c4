//! `manual-example`: the hand-written service, served over stdio. `--profile NAME` lists the
//! tools as that client profile publishes them.

use std::process::ExitCode;

const USAGE: &str = "usage: manual-example [--profile NAME]
  --profile NAME  list the tools as client profile NAME publishes them: standard (default), claude, openai-strict, gemini";

fn usage_error(problem: &str) -> ExitCode {
    eprintln!("manual-example: {problem}\n{USAGE}");
    ExitCode::from(2)
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let mut profile = toolidl_runtime::Profile::Standard;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--profile" => match args.next().map(|a| a.parse()) {
                Some(Ok(p)) => profile = p,
                Some(Err(e)) => return usage_error(&format!("--profile: {e}")),
                None => return usage_error("--profile needs a profile name"),
            },
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            other => return usage_error(&format!("unknown argument {other}")),
        }
    }
    manual_example::init_logging();
    match toolidl_runtime::serve_stdio(manual_example::server_for(profile)).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("manual-example: {e}");
            ExitCode::FAILURE
        }
    }
}
