//! Started on a terminal, the server prints what it is and a client entry to stderr, and
//! stdout stays protocol-only; started by a client (stdin a pipe), it prints nothing.
//! The terminal is a pseudo-terminal from util-linux `script`; without it the first test
//! says so and passes.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_notes-example");

#[test]
fn on_a_terminal_the_banner_goes_to_stderr() {
    if !Path::new("/usr/bin/script").exists() {
        eprintln!("skipped: no /usr/bin/script to make a terminal");
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let err = dir.path().join("stderr.txt");
    let db = dir.path().join("my notes.db");
    let inner = format!("'{BIN}' --db '{}' 2>'{}'", db.display(), err.display());
    let mut script = Command::new("/usr/bin/script")
        .args(["-qec", &inner, "/dev/null"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start script");
    let mut stdin = script.stdin.take().expect("stdin");
    writeln!(
        stdin,
        "{}",
        json!({"jsonrpc": "2.0", "id": 1, "method": "ping"})
    )
    .expect("write");
    // The terminal echoes the input; then comes the reply.
    let mut terminal = String::new();
    let mut lines = BufReader::new(script.stdout.take().expect("stdout")).lines();
    while !terminal.contains(r#""result":{}"#) {
        match lines.next() {
            Some(Ok(line)) => {
                terminal.push_str(&line);
                terminal.push('\n');
            }
            _ => panic!("no reply on the terminal: {terminal}"),
        }
    }
    drop(stdin);
    assert!(script.wait().expect("wait").success());
    assert!(
        !terminal.contains("mcpServers"),
        "stdout is protocol-only: {terminal}"
    );

    let banner = std::fs::read_to_string(&err).expect("stderr file");
    assert!(
        banner.starts_with(&format!(
            "notes-example {}: a notes server over SQLite",
            env!("CARGO_PKG_VERSION")
        )),
        "{banner}"
    );
    assert!(
        banner.contains("MCP revisions 2024-11-05 to 2026-07-28"),
        "{banner}"
    );
    let entry = banner
        .lines()
        .find(|l| l.starts_with(r#"{"mcpServers""#))
        .unwrap_or_else(|| panic!("no client entry: {banner}"));
    let entry: Value = serde_json::from_str(entry).expect("the entry is JSON");
    let db = db.display().to_string();
    assert_eq!(
        entry,
        json!({"mcpServers": {"notes": {"command": BIN, "args": ["--db", db]}}})
    );
}

#[test]
fn started_by_a_client_it_prints_nothing_to_stderr() {
    let mut child = Command::new(BIN)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start");
    let mut stdin = child.stdin.take().expect("stdin");
    writeln!(
        stdin,
        "{}",
        json!({"jsonrpc": "2.0", "id": 1, "method": "ping"})
    )
    .expect("write");
    drop(stdin);
    let out = child.wait_with_output().expect("wait");
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n"
    );
}
