//! A small MCP client for the tests: runs the real `notes-example` binary over stdio and
//! speaks JSON-RPC lines to it; and ([`inproc`]) the server in process.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// How long a test waits for one message before it fails.
pub const TIMEOUT: Duration = Duration::from_secs(120);

pub struct Client {
    child: Child,
    stdin: Option<Arc<Mutex<ChildStdin>>>,
    messages: Receiver<Value>,
    /// Messages read while waiting for another one.
    seen: Vec<Value>,
    next_id: i64,
}

impl Client {
    /// Starts the server with `args` and does the handshake (2025-11-25).
    pub fn start(args: &[&str]) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_notes-example"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the server");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, messages) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let value: Value = serde_json::from_str(&line)
                    .unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
                if tx.send(value).is_err() {
                    break;
                }
            }
        });
        let mut client = Client {
            child,
            stdin: Some(Arc::new(Mutex::new(stdin))),
            messages,
            seen: Vec::new(),
            next_id: 1000,
        };
        let init = client.request(
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "notes-tests", "version": "1"}}),
        );
        assert_eq!(init["result"]["serverInfo"]["name"], "notes-example");
        client.notify("notifications/initialized", json!({}));
        client
    }

    /// Starts the server on a database file.
    pub fn with_db(path: &Path) -> Client {
        Client::start(&["--db", path.to_str().expect("a UTF-8 temp path")])
    }

    /// A handle that other threads can write lines with.
    pub fn writer(&self) -> Arc<Mutex<ChildStdin>> {
        Arc::clone(self.stdin.as_ref().expect("stdin open"))
    }

    pub fn send_line(&self, line: &str) {
        let stdin = self.stdin.as_ref().expect("stdin open");
        let mut w = stdin.lock().expect("lock");
        w.write_all(line.as_bytes()).expect("write");
        w.write_all(b"\n").expect("write");
        w.flush().expect("flush");
    }

    pub fn notify(&self, method: &str, params: Value) {
        self.send_line(&json!({"jsonrpc": "2.0", "method": method, "params": params}).to_string());
    }

    /// Sends a request with a fresh id and returns the id.
    pub fn send(&mut self, method: &str, params: Value) -> i64 {
        self.next_id += 1;
        let id = self.next_id;
        self.send_line(
            &json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string(),
        );
        id
    }

    /// Sends a request and waits for its reply (the whole message).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.send(method, params);
        self.reply(id)
    }

    /// Waits for the reply to request `id`.
    pub fn reply(&mut self, id: i64) -> Value {
        self.wait_for(|m| m["id"] == json!(id) && m.get("method").is_none())
    }

    /// Waits for the first message (already seen or new) that `matches`.
    pub fn wait_for(&mut self, matches: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.seen.iter().position(&matches) {
            return self.seen.remove(i);
        }
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.messages.recv_timeout(left) {
                Ok(m) if matches(&m) => return m,
                Ok(m) => self.seen.push(m),
                Err(RecvTimeoutError::Timeout) => panic!("timed out; seen: {:?}", self.seen),
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("the server closed its output; seen: {:?}", self.seen)
                }
            }
        }
    }

    /// Calls a tool and returns the `CallToolResult`.
    pub fn call(&mut self, tool: &str, arguments: Value) -> Value {
        let reply = self.request("tools/call", json!({"name": tool, "arguments": arguments}));
        assert!(reply.get("error").is_none(), "{tool}: {reply}");
        reply["result"].clone()
    }

    /// Calls a tool that must succeed and returns its structured content.
    pub fn ok(&mut self, tool: &str, arguments: Value) -> Value {
        let result = self.call(tool, arguments.clone());
        assert_ne!(
            result["isError"],
            json!(true),
            "{tool} {arguments}: {result}"
        );
        result["structuredContent"].clone()
    }

    /// Closes stdin and waits for the server to exit.
    pub fn finish(mut self) -> ExitStatus {
        self.stdin.take();
        self.child.wait().expect("wait")
    }

    /// Kills the server with SIGKILL.
    pub fn kill(mut self) {
        self.child.kill().expect("kill");
        self.child.wait().expect("wait");
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The titles of a `search_notes` page, in order.
pub fn titles(page: &Value) -> Vec<String> {
    page["notes"]
        .as_array()
        .expect("notes")
        .iter()
        .map(|n| n["title"].as_str().expect("title").to_owned())
        .collect()
}

/// A fresh temporary directory with the path of a database file in it.
pub fn temp_db() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("notes.db");
    (dir, path)
}

/// Starts the binary with `--http 127.0.0.1:0` and `args`; returns it and the address it
/// printed (`serving MCP at http://ADDR/mcp`).
pub fn spawn_http(args: &[&str]) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_notes-example"))
        .args(["--http", "127.0.0.1:0"])
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start notes-example");
    let mut line = String::new();
    BufReader::new(child.stderr.take().expect("stderr"))
        .read_line(&mut line)
        .expect("read");
    let addr = line
        .trim()
        .strip_prefix("serving MCP at http://")
        .and_then(|a| a.strip_suffix("/mcp"))
        .unwrap_or_else(|| panic!("unexpected first line: {line}"))
        .to_owned();
    (child, addr)
}

/// The same server in process, through `toolidl_runtime::testing`: for tests of its
/// behaviour, where the binary itself is not what is tested.
pub mod inproc {
    use std::path::Path;

    use notes_example::{Notes, server};
    use serde_json::Value;
    use toolidl_runtime::testing::{CallResult, Client};

    /// A client of a fresh server on an in-memory database (2025-11-25).
    pub async fn client() -> Client {
        let notes = Notes::in_memory().expect("an in-memory database");
        Client::connect(&server(notes)).await.expect("initialize")
    }

    /// A client of a fresh server on the database file `path`.
    pub async fn client_of(path: &Path) -> Client {
        let notes = Notes::open(path).expect("the database file");
        Client::connect(&server(notes)).await.expect("initialize")
    }

    /// Calls a tool; the protocol must accept the call (the tool may still fail).
    pub async fn call(c: &Client, tool: &str, arguments: Value) -> CallResult {
        c.call_tool(tool, arguments.clone())
            .await
            .unwrap_or_else(|e| panic!("{tool} {arguments}: {e}"))
    }

    /// Calls a tool that must succeed and returns its structured content.
    pub async fn ok(c: &Client, tool: &str, arguments: Value) -> Value {
        let result = call(c, tool, arguments.clone()).await;
        assert!(!result.is_error(), "{tool} {arguments}: {}", result.text());
        result.structured().cloned().unwrap_or(Value::Null)
    }

    /// Calls a tool that must fail and returns its error text.
    pub async fn fails(c: &Client, tool: &str, arguments: Value) -> String {
        let result = call(c, tool, arguments.clone()).await;
        assert!(result.is_error(), "{tool} {arguments}: {:?}", result.json());
        result.text().to_owned()
    }
}
