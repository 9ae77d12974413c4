//! The listings of a running server over stdio: `toolidl import -- COMMAND ARGS…`; the
//! pages read the same way over Streamable HTTP ([`read_lists`], used by [`super::url`]).
//!
//! A minimal MCP client: `initialize`, `notifications/initialized`, then every page of
//! `tools/list`, `resources/list`, `resources/templates/list` and `prompts/list` the server's
//! capabilities offer. Requests from the server are answered "method not found" (the client
//! declares no capabilities); notifications are ignored. The server is stopped afterwards.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use serde_json::{Map, Value, json};

/// How long one answer may take (a server started through `npx` or `uvx` may install first).
const ANSWER_TIMEOUT: Duration = Duration::from_secs(60);

/// The revision asked for; a server answering an older one is read the same way.
const PROTOCOL_VERSION: &str = "2025-11-25";

/// What a server listed, and the name it gave itself.
pub struct Listed {
    /// `{"tools": […], "resources": […], "resourceTemplates": […], "prompts": […]}`, each
    /// present when the server offers it.
    pub listing: Value,
    /// `serverInfo.name`.
    pub server_name: Option<String>,
}

/// Starts `command`, reads its listings and stops it.
pub fn list(command: &[String]) -> Result<Listed, String> {
    let (program, args) = command.split_first().ok_or("no command to run")?;
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot start `{program}`: {e}"))?;
    let result = session(&mut child);
    stop(&mut child);
    result
}

fn session(child: &mut Child) -> Result<Listed, String> {
    let stdout = child
        .stdout
        .take()
        .ok_or("the server's stdout is not a pipe")?;
    let mut stdin = child
        .stdin
        .take()
        .ok_or("the server's stdin is not a pipe")?;
    let (lines, receive) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let mut peer = Peer {
        stdin: &mut stdin,
        lines: receive,
        next_id: 1,
    };
    let initialized = peer.request(
        "initialize",
        json!({
            "protocolVersion": PROTOCOL_VERSION,
            "capabilities": {},
            "clientInfo": {"name": "toolidl-import", "version": env!("CARGO_PKG_VERSION")},
        }),
    )?;
    peer.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))?;
    let capabilities = initialized.get("capabilities").cloned().unwrap_or_default();
    Ok(Listed {
        listing: read_lists(&capabilities, |method, params| peer.request(method, params))?,
        server_name: initialized
            .pointer("/serverInfo/name")
            .and_then(Value::as_str)
            .map(str::to_owned),
    })
}

/// Every page of each list the server's `capabilities` offer, asked with `request` (a
/// method and its params in, the result out): `{"tools": […], "resources": […],
/// "resourceTemplates": […], "prompts": […]}`, each present when offered.
pub fn read_lists(
    capabilities: &Value,
    mut request: impl FnMut(&str, Value) -> Result<Value, String>,
) -> Result<Value, String> {
    let mut listing = Map::new();
    let lists = [
        ("tools", "tools/list", "tools"),
        ("resources", "resources/list", "resources"),
        ("resources", "resources/templates/list", "resourceTemplates"),
        ("prompts", "prompts/list", "prompts"),
    ];
    for (capability, method, key) in lists {
        if capabilities.get(capability).is_none() {
            continue;
        }
        let mut entries = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let params = match &cursor {
                Some(cursor) => json!({ "cursor": cursor }),
                None => json!({}),
            };
            let page = request(method, params)?;
            let items = page
                .get(key)
                .and_then(Value::as_array)
                .ok_or_else(|| format!("the `{method}` result has no `{key}` array"))?;
            entries.extend(items.iter().cloned());
            match page.get("nextCursor").and_then(Value::as_str) {
                Some(next) if cursor.as_deref() != Some(next) => cursor = Some(next.to_owned()),
                _ => break,
            }
        }
        listing.insert(key.to_owned(), Value::Array(entries));
    }
    Ok(Value::Object(listing))
}

struct Peer<'a> {
    stdin: &'a mut ChildStdin,
    lines: Receiver<std::io::Result<String>>,
    next_id: u64,
}

impl Peer<'_> {
    fn send(&mut self, message: &Value) -> Result<(), String> {
        let mut line = message.to_string();
        line.push('\n');
        self.stdin
            .write_all(line.as_bytes())
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("cannot write to the server: {e}"))
    }

    /// Sends a request and returns its result, answering the server's own requests meanwhile.
    fn request(&mut self, method: &str, params: Value) -> Result<Value, String> {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))?;
        loop {
            let line = match self.lines.recv_timeout(ANSWER_TIMEOUT) {
                Ok(Ok(line)) => line,
                Ok(Err(e)) => return Err(format!("cannot read from the server: {e}")),
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!(
                        "no answer to `{method}` in {} s",
                        ANSWER_TIMEOUT.as_secs()
                    ));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!("the server exited before answering `{method}`"));
                }
            };
            if line.trim().is_empty() {
                continue;
            }
            let Ok(message) = serde_json::from_str::<Value>(&line) else {
                return Err(format!("the server wrote a line that is not JSON: {line}"));
            };
            if message.get("method").is_some() {
                if let Some(request_id) = message.get("id") {
                    self.send(&json!({
                        "jsonrpc": "2.0",
                        "id": request_id,
                        "error": {"code": -32601, "message": "Method not found"},
                    }))?;
                }
                continue;
            }
            if message.get("id") != Some(&Value::from(id)) {
                continue;
            }
            if let Some(error) = message.get("error") {
                return Err(format!("the server refused `{method}`: {error}"));
            }
            return message
                .get("result")
                .cloned()
                .ok_or_else(|| format!("the answer to `{method}` has no result"));
        }
    }
}

/// Closes the server's stdin (the stdio transport's way to end a session), then kills it if it
/// has not exited within a second.
fn stop(child: &mut Child) {
    drop(child.stdin.take());
    for _ in 0..20 {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
}
