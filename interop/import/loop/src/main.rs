//! `import-loop -- COMMAND ARGS…`: calls `mcp-server-time` (PyPI), started as COMMAND,
//! through the client generated from the `.tool` file imported from that same server, and
//! checks the typed results. One line per check, then `N passed, M failed`; exit status 1
//! when a check failed or the server could not be called.

use std::process::ExitCode;

use import_loop::mcp_time::{ConvertTimeArgs, GetCurrentTimeArgs, McpTimeClient};
use toolidl_runtime::client::{ClientError, Command};

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip_while(|a| a != "--").skip(1).collect();
    let Some((program, rest)) = args.split_first() else {
        eprintln!("usage: import-loop -- COMMAND ARGS…");
        return ExitCode::from(2);
    };
    let mut command = Command::new(program);
    command.args(rest);
    match run(command).await {
        Ok(failed) if failed == 0 => ExitCode::SUCCESS,
        Ok(_) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("import-loop: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The checks; how many failed.
async fn run(command: Command) -> Result<usize, ClientError> {
    let client = McpTimeClient::spawn(command).await?;
    let mut checks = Vec::new();

    let now = client
        .get_current_time(GetCurrentTimeArgs {
            timezone: "UTC".into(),
        })
        .await?;
    checks.push(("get_current_time: timezone", now.timezone == "UTC"));
    checks.push((
        "get_current_time: an RFC 3339 datetime in UTC",
        now.datetime.len() >= 20 && now.datetime.ends_with("+00:00"),
    ));
    checks.push(("get_current_time: no daylight saving in UTC", !now.is_dst));

    let noon = client
        .convert_time(ConvertTimeArgs {
            source_timezone: "UTC".into(),
            time: "12:00".into(),
            target_timezone: "Asia/Tokyo".into(),
        })
        .await?;
    checks.push(("convert_time: source", noon.source.timezone == "UTC"));
    checks.push(("convert_time: target", noon.target.timezone == "Asia/Tokyo"));
    checks.push((
        "convert_time: 21:00 in Tokyo",
        noon.target.datetime.contains("T21:00:00"),
    ));
    checks.push(("convert_time: difference", noon.time_difference == "+9.0h"));

    // The server's own error (an unknown zone) is the tool's error, with its text.
    let nowhere = client
        .get_current_time(GetCurrentTimeArgs {
            timezone: "Mars/Olympus_Mons".into(),
        })
        .await;
    checks.push((
        "get_current_time: an unknown zone is the tool's error",
        matches!(&nowhere, Err(ClientError::Tool { text, .. }) if text.contains("Mars/Olympus_Mons")),
    ));

    let mut failed = 0;
    for (name, ok) in &checks {
        if *ok {
            println!("ok {name}");
        } else {
            println!("FAILED {name}");
            failed += 1;
        }
    }
    println!("{} passed, {failed} failed", checks.len() - failed);
    if failed > 0 {
        eprintln!("current time: {now:?}\nconversion: {noon:?}\nunknown zone: {nowhere:?}");
    }
    Ok(failed)
}
