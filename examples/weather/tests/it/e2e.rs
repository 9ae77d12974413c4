//! The binary itself over stdio: malformed lines get a JSON-RPC error and the server goes
//! on, and it exits 0 at end of input. What the server answers is tested in process, through
//! `toolidl_runtime::testing` (`tools.rs`).

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

/// Runs one session: writes every line, closes stdin, returns the replies and exit status.
fn session(lines: &[String]) -> (Vec<Value>, std::process::ExitStatus) {
    session_with(&[], lines)
}

/// [`session`] of the binary started with `args`.
fn session_with(args: &[&str], lines: &[String]) -> (Vec<Value>, std::process::ExitStatus) {
    let mut child = start(args);
    let mut stdin = child.stdin.take().expect("stdin");
    for line in lines {
        writeln!(stdin, "{line}").expect("write");
    }
    drop(stdin);
    let replies = BufReader::new(child.stdout.take().expect("stdout"))
        .lines()
        .map(|l| serde_json::from_str(&l.expect("read")).expect("every line is JSON"))
        .collect();
    (replies, child.wait().expect("wait"))
}

/// The binary started with `args`, its stdin and stdout piped.
fn start(args: &[&str]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_weather-example"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the server")
}

fn request(id: i64, method: &str, params: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

fn call(id: i64, tool: &str, arguments: Value) -> String {
    request(
        id,
        "tools/call",
        json!({"name": tool, "arguments": arguments}),
    )
}

fn handshake() -> Vec<String> {
    vec![
        request(
            0,
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "e2e", "version": "1"}}),
        ),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string(),
    ]
}

struct Replies(Vec<Value>);

impl Replies {
    fn get(&self, id: i64) -> &Value {
        self.0
            .iter()
            .find(|r| r["id"] == json!(id))
            .unwrap_or_else(|| panic!("no reply with id {id}: {:?}", self.0))
    }

    fn result(&self, id: i64) -> &Value {
        let r = self.get(id);
        assert!(r.get("error").is_none(), "{id}: {r}");
        &r["result"]
    }

    fn text(&self, id: i64) -> &str {
        self.result(id)["content"][0]["text"]
            .as_str()
            .unwrap_or_else(|| panic!("{id}: no text"))
    }

    fn is_error(&self, id: i64) -> bool {
        self.result(id)["isError"] == json!(true)
    }
}

#[test]
fn malformed_input_gets_an_error_and_the_server_goes_on() {
    let mut lines = handshake();
    lines.push("not json".into());
    lines.push(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}"#.into());
    lines.push(call(2, "add", json!({"a": 1, "b": 2})));
    lines.push(r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":[1,2]}}"#.into());
    lines.push(request(4, "ping", json!({})));
    let (replies, status) = session(&lines);
    assert!(status.success(), "exits 0 at end of input");
    let parse_errors = replies
        .iter()
        .filter(|r| r["error"]["code"] == json!(-32700))
        .count();
    assert_eq!(parse_errors, 2, "{replies:?}");
    let r = Replies(replies);
    assert_eq!(r.text(2), "3");
    assert!(r.get(3).get("error").is_some() || r.is_error(3));
    assert_eq!(r.result(4), &json!({}));
}

#[test]
fn profile_picks_the_listing_at_start_up_and_an_unknown_one_is_refused() {
    let mut lines = handshake();
    lines.push(request(1, "tools/list", json!({})));
    lines.push(call(
        2,
        "daily_forecast",
        json!({"city": "Oslo", "days": 2}),
    ));
    let (replies, status) = session_with(&["--profile", "openai-strict"], &lines);
    assert!(status.success());
    let replies = Replies(replies);
    let tools = replies.get(1)["result"]["tools"]
        .as_array()
        .expect("tools")
        .clone();
    let forecast = tools
        .iter()
        .find(|t| t["name"] == "daily_forecast")
        .expect("daily_forecast");
    assert_eq!(forecast["inputSchema"]["required"], json!(["city", "days"]));
    assert_eq!(
        forecast["inputSchema"]["properties"]["days"]["description"],
        "Default: 3."
    );
    let result = &replies.get(2)["result"];
    assert!(
        result["content"].is_array() && result["isError"] != true,
        "{result}"
    );

    let out = Command::new(env!("CARGO_BIN_EXE_weather-example"))
        .args(["--profile", "strict"])
        .stdin(Stdio::null())
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "--profile: no profile named `strict` (profiles: standard, claude, openai-strict, gemini)"
        ),
        "{stderr}"
    );
}

/// SIGTERM (what a supervisor sends to stop it) ends the server gracefully, with status 0,
/// although its input is still open; without the handler, the signal would kill it.
#[cfg(unix)]
#[test]
fn sigterm_ends_the_server_gracefully() {
    let mut child = start(&[]);
    let mut stdin = child.stdin.take().expect("stdin");
    for line in handshake() {
        writeln!(stdin, "{line}").expect("write");
    }
    writeln!(stdin, "{}", request(1, "ping", json!({}))).expect("write");
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    for _ in 0..2 {
        let mut line = String::new();
        out.read_line(&mut line).expect("read a reply");
    }
    // The replies show the server is up; its signal handler is installed before it reads.
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("run kill");
    assert!(killed.success());
    let status = child.wait().expect("wait");
    assert_eq!(status.code(), Some(0), "{status:?}");
    drop(stdin);
}
