//! A minimal LSP client over a `toolidl lsp` subprocess: framing, requests with ids,
//! notifications kept in arrival order, and a timeout on every wait (a server that stops
//! answering fails the test instead of hanging it).

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const TIMEOUT: Duration = Duration::from_secs(20);

pub struct Client {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    /// Notifications received while waiting for something else.
    pending: Vec<Value>,
    next_id: i64,
    opened: Vec<String>,
    pub root: PathBuf,
}

/// The `file:` URI of a path.
pub fn file_uri(path: &Path) -> String {
    format!("file://{}", path.to_string_lossy())
}

fn read_message(reader: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(value) = line.strip_prefix("Content-Length: ") {
            length = value.parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

impl Client {
    /// Starts `BINARY lsp` with `root` as the workspace folder and initializes it.
    pub fn start_binary(binary: &Path, root: &Path, options: Value) -> Client {
        let root = std::fs::canonicalize(root).unwrap();
        let mut child = Command::new(binary)
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let (sender, messages) = channel();
        std::thread::spawn(move || {
            while let Some(message) = read_message(&mut stdout) {
                if sender.send(message).is_err() {
                    break;
                }
            }
        });
        let mut client = Client {
            child,
            stdin,
            messages,
            pending: Vec::new(),
            next_id: 1,
            opened: Vec::new(),
            root,
        };
        let root_uri = file_uri(&client.root);
        let result = client.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": root_uri,
                "capabilities": {},
                "initializationOptions": options,
            }),
        );
        assert!(
            result.get("result").is_some(),
            "initialize failed: {result}"
        );
        client.notify("initialized", json!({}));
        client
    }

    pub fn uri(&self, name: &str) -> String {
        file_uri(&self.root.join(name))
    }

    fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    fn receive(&mut self, deadline: Instant) -> Value {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.messages.recv_timeout(wait) {
            Ok(message) => message,
            Err(RecvTimeoutError::Timeout) => panic!("toolidl lsp: no message within {TIMEOUT:?}"),
            Err(RecvTimeoutError::Disconnected) => panic!("toolidl lsp exited"),
        }
    }

    /// Sends a request and returns the whole response (`result` or `error`).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let message = self.receive(deadline);
            if message.get("id") == Some(&json!(id)) && message.get("method").is_none() {
                return message;
            }
            self.pending.push(message);
        }
    }

    /// The next notification `method` whose params satisfy `accept` (earlier ones that do
    /// not are dropped).
    pub fn wait_for(&mut self, method: &str, accept: impl Fn(&Value) -> bool) -> Value {
        let fits = |m: &Value| m["method"] == method && accept(&m["params"]);
        if let Some(i) = self.pending.iter().position(fits) {
            let found = self.pending.remove(i);
            self.pending.drain(..i);
            return found["params"].clone();
        }
        self.pending.clear();
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let message = self.receive(deadline);
            if fits(&message) {
                return message["params"].clone();
            }
        }
    }

    /// The next diagnostics published for `name`.
    pub fn diagnostics(&mut self, name: &str) -> Value {
        let uri = self.uri(name);
        self.wait_for("textDocument/publishDiagnostics", |p| {
            p["uri"] == uri.as_str()
        })
    }

    /// Opens `name` with `text` and returns its first diagnostics.
    pub fn open(&mut self, name: &str, text: &str) -> Value {
        self.opened.push(name.to_string());
        let uri = self.uri(name);
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "toolidl", "version": 1, "text": text}}),
        );
        self.diagnostics(name)
    }

    /// Opens the workspace file `name` as saved.
    pub fn open_file(&mut self, name: &str) -> Value {
        let text = std::fs::read_to_string(self.root.join(name)).unwrap();
        self.open(name, &text)
    }

    /// Opens `name` the first time, changes it later; waits for its diagnostics.
    pub fn change_or_open(&mut self, name: &str, version: i64, text: &str) {
        if self.opened.iter().any(|n| n == name) {
            self.change(name, version, text);
            self.diagnostics(name);
        } else {
            self.open(name, text);
        }
    }

    pub fn change(&mut self, name: &str, version: i64, text: &str) {
        let uri = self.uri(name);
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}),
        );
    }

    /// A request about a position: `textDocument` and `position` params, plus `extra`.
    pub fn at(
        &mut self,
        method: &str,
        name: &str,
        line: u32,
        character: u32,
        extra: Value,
    ) -> Value {
        let mut params = json!({
            "textDocument": {"uri": self.uri(name)},
            "position": {"line": line, "character": character},
        });
        if let (Some(p), Some(e)) = (params.as_object_mut(), extra.as_object()) {
            p.extend(e.clone());
        }
        self.request(method, params)
    }

    /// The request's result with the workspace folder's URI written `file:///WORKSPACE`,
    /// so snapshots do not depend on where the repository is.
    pub fn normalize(&self, value: &Value) -> Value {
        let root = file_uri(&self.root);
        let text = value.to_string().replace(&root, "file:///WORKSPACE");
        let mut value = serde_json::from_str(&text).unwrap();
        sort_changes(&mut value);
        value
    }

    /// Shuts the server down as an editor does; the exit status must be 0.
    pub fn shutdown(mut self) {
        let response = self.request("shutdown", Value::Null);
        assert!(response.get("error").is_none(), "{response}");
        self.notify("exit", Value::Null);
        let status = self.child.wait().unwrap();
        assert!(status.success(), "toolidl lsp exited with {status}");
    }
}

/// Frames of the test's own making (`lsp_frames.rs`).
impl Client {
    /// Writes `bytes` to the server's stdin as they are: a frame of the test's own making.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.flush().unwrap();
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The messages that arrived while waiting for something else, in order, taken.
    pub fn take_pending(&mut self) -> Vec<Value> {
        std::mem::take(&mut self.pending)
    }
}

/// A `WorkspaceEdit`'s `changes` is a map the server sends in no particular order: sorted
/// by URI here.
fn sort_changes(value: &mut Value) {
    match value {
        Value::Object(map) => {
            if let Some(Value::Object(changes)) = map.get_mut("changes") {
                let mut sorted: Vec<(String, Value)> =
                    std::mem::take(changes).into_iter().collect();
                sorted.sort_by(|a, b| a.0.cmp(&b.0));
                changes.extend(sorted);
            }
            map.values_mut().for_each(sort_changes);
        }
        Value::Array(items) => items.iter_mut().for_each(sort_changes),
        _ => {}
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
