//! The example binary over real pipes: a session, argument errors, and exit at end of input.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

#[test]
fn serves_over_pipes_and_exits_zero_at_end_of_input() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_manual-example"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let requests = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "add", "arguments": {"a": 2147483647, "b": 1}}}),
        json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "add", "arguments": {"a": 2147483648_i64, "b": 1}}}),
        json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "greet", "arguments": {"name": "Ada"}}}),
        json!({"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {"name": "greet", "arguments": {"name": ""}}}),
        json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "greet", "arguments": {}}}),
        json!({"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": {"name": "stats", "arguments": {"values": [1, 2, 6]}}}),
        json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "stats", "arguments": {"values": [1, "2"]}}}),
        json!({"jsonrpc": "2.0", "id": 10, "method": "tools/call", "params": {"name": "add", "arguments": {"a": 1, "b": 2, "c": 3}}}),
    ];
    for r in &requests {
        writeln!(stdin, "{r}").unwrap();
    }
    writeln!(stdin, "not json").unwrap();
    writeln!(
        stdin,
        "{}",
        json!({"jsonrpc": "2.0", "id": 11, "method": "ping"})
    )
    .unwrap();
    drop(stdin);

    let stdout = BufReader::new(child.stdout.take().unwrap());
    let replies: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(&l.unwrap()).unwrap())
        .collect();
    let status = child.wait().unwrap();
    assert!(status.success(), "{status}");

    let by_id = |id: i64| {
        replies
            .iter()
            .find(|r| r["id"] == json!(id))
            .unwrap_or_else(|| panic!("no reply {id}"))
    };
    let text = |id: i64| {
        by_id(id)["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    assert_eq!(replies.len(), 12);
    assert_eq!(by_id(1)["result"]["protocolVersion"], "2025-06-18");
    let tools = by_id(2)["result"]["tools"].as_array().unwrap().clone();
    assert_eq!(
        tools
            .iter()
            .map(|t| t["name"].as_str().unwrap())
            .collect::<Vec<_>>(),
        ["greet", "add", "stats"]
    );
    assert_eq!(
        tools[1]["inputSchema"],
        json!({"type": "object", "properties": {"a": {"type": "integer", "minimum": -2147483648_i64, "maximum": 2147483647}, "b": {"type": "integer", "minimum": -2147483648_i64, "maximum": 2147483647}}, "required": ["a", "b"], "additionalProperties": false})
    );
    assert_eq!(text(3), "2147483648");
    assert_eq!(
        text(4),
        "Argument 'a' is not valid. Expected an integer from -2147483648 to 2147483647."
    );
    assert_eq!(by_id(4)["result"]["isError"], true);
    assert_eq!(text(5), "Hello, Ada!");
    assert_eq!(
        text(6),
        "Argument 'name' is not valid. Expected at least 1 character."
    );
    assert_eq!(
        text(7),
        "Argument 'name' is not valid. A value is required."
    );
    assert_eq!(
        by_id(8)["result"]["structuredContent"],
        json!({"count": 3, "min": 1.0, "max": 6.0, "mean": 3.0})
    );
    assert_eq!(text(8), r#"{"count":3,"min":1.0,"max":6.0,"mean":3.0}"#);
    assert_eq!(
        text(9),
        "Argument 'values[1]' is not valid. Expected a number."
    );
    assert_eq!(text(10), "Argument 'c' is not valid. Unknown property.");
    assert!(
        replies
            .iter()
            .any(|r| r["id"].is_null() && r["error"]["code"] == -32700)
    );
    assert_eq!(by_id(11)["result"], json!({}));
}

/// Each reply arrives while the client waits for it (batched replies are flushed before the
/// server waits for more input).
#[test]
fn answers_one_request_at_a_time() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_manual-example"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    let timeout = std::time::Duration::from_secs(10);
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    writeln!(stdin, "{init}").unwrap();
    let reply: Value = serde_json::from_str(&rx.recv_timeout(timeout).unwrap()).unwrap();
    assert_eq!(reply["result"]["protocolVersion"], "2025-03-26");
    for i in 1..=20 {
        let call = json!({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {"name": "add", "arguments": {"a": i, "b": i}}});
        writeln!(stdin, "{call}").unwrap();
        stdin.flush().unwrap();
        let reply: Value = serde_json::from_str(&rx.recv_timeout(timeout).unwrap()).unwrap();
        assert_eq!(reply["id"], json!(i));
        assert_eq!(
            reply["result"]["content"][0]["text"],
            json!((2 * i).to_string())
        );
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
}
