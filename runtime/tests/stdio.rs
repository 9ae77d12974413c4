//! The line transport over in-memory streams: limits, bad bytes, CRLF, end of input.

mod common;

use std::io::{Cursor, Write};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use toolidl_runtime::{StdioConfig, serve_io};

/// A writer whose bytes the test can read after the server is done.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

async fn run(input: Vec<u8>, max_line_bytes: usize) -> Vec<Value> {
    let out = Shared::default();
    serve_io(
        common::kitchen_server(),
        Cursor::new(input),
        out.clone(),
        StdioConfig { max_line_bytes },
    )
    .await
    .unwrap();
    let bytes = out.0.lock().unwrap().clone();
    let text = String::from_utf8(bytes).unwrap();
    assert!(text.is_empty() || text.ends_with('\n'));
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn discover(id: i64) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "server/discover"}).to_string()
}

#[tokio::test]
async fn over_long_and_invalid_lines_get_errors_and_reading_goes_on() {
    let mut input = Vec::new();
    input.extend_from_slice(format!("{}\n", discover(1)).as_bytes());
    input.extend_from_slice(
        format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"x\",\"pad\":\"{}\"}}\n",
            "a".repeat(5000)
        )
        .as_bytes(),
    );
    input.extend_from_slice(b"{\"bad\":\"\xff\xfe\"}\n");
    input.extend_from_slice(b"\n   \n");
    input.extend_from_slice(format!("{}\r\n", discover(3)).as_bytes());
    // The last line has no newline.
    input.extend_from_slice(discover(4).as_bytes());
    let out = run(input, 1000).await;
    let summary: Vec<(Value, Value)> = out
        .iter()
        .map(|m| (m["id"].clone(), m["error"]["code"].clone()))
        .collect();
    assert_eq!(
        summary,
        vec![
            (json!(1), Value::Null),
            (Value::Null, json!(-32600)),
            (Value::Null, json!(-32700)),
            (json!(3), Value::Null),
            (json!(4), Value::Null),
        ]
    );
    assert_eq!(
        out[1]["error"]["message"],
        "Invalid request: the message is longer than 1000 bytes."
    );
}

#[tokio::test]
async fn a_line_over_the_limit_at_the_end_of_input_is_reported() {
    let out = run(vec![b'x'; 3000], 1000).await;
    assert_eq!(out.len(), 1);
    assert_eq!(out[0]["error"]["code"], -32600);
}

#[tokio::test]
async fn end_of_input_waits_for_calls_in_flight() {
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    let slow = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "slow", "arguments": {"ms": 150}}});
    let fast = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "text", "arguments": {}}});
    let input = format!("{init}\n{slow}\n{fast}\n");
    let out = run(input.into_bytes(), 4 << 20).await;
    let ids: Vec<_> = out.iter().map(|m| m["id"].clone()).collect();
    assert_eq!(ids, vec![json!(0), json!(2), json!(1)]);
    assert_eq!(out[2]["result"]["content"][0]["text"], "slept 150");
}

#[test]
fn default_line_limit_is_four_mebibytes() {
    assert_eq!(StdioConfig::default().max_line_bytes, 4 * 1024 * 1024);
}

#[tokio::test]
async fn batching_joins_replies_until_flushed() {
    let server = common::kitchen_server();
    let (conn, mut out) =
        toolidl_runtime::Connection::new(&server, tokio::runtime::Handle::current());
    let conn = conn.with_batching();
    conn.handle_line(&discover(1));
    conn.handle_line("oops");
    assert!(out.try_recv().is_err(), "nothing leaves before the flush");
    conn.flush();
    let batch = out.try_recv().unwrap();
    let lines: Vec<Value> = batch
        .split('\n')
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(
        (&lines[0]["id"], &lines[1]["error"]["code"]),
        (&json!(1), &json!(-32700))
    );
    conn.flush();
    assert!(out.try_recv().is_err(), "an empty batch is not sent");
}
