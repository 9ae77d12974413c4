//! Faults of instances sharing one Redis (`--redis`), with real processes: a real
//! `redis-server` (Debian's; `bash scripts/redis.sh install`) and fixture servers over
//! stateless HTTP (2026-07-28).
//!
//! - An instance SIGKILLed while it runs a task: another instance reports the task failed
//!   (its lease lapsed) instead of `working` forever.
//! - Redis restarted under running instances: they reconnect by themselves; tasks and the
//!   dynamic tool list are shared again without restarting them.
//! - A session's event stream dropped on one instance and resumed with `Last-Event-ID` on
//!   another replays exactly the events after that id.
//!
//! Skipped (loudly) where no redis-server is installed, except under CI, where that fails.
#![cfg(all(feature = "http", feature = "redis"))]

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap()
}

fn wait_listening(port: u16, child: &mut Child) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            child.try_wait().unwrap().is_none(),
            "exited before listening"
        );
        assert!(Instant::now() < deadline, "not listening on {port}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A process killed (SIGKILL) when dropped.
struct Process(Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

struct Redis {
    bin: String,
    port: u16,
    dir: tempfile::TempDir,
    process: Option<Process>,
}

impl Redis {
    fn start() -> Option<Redis> {
        let bin = std::env::var("REDIS_SERVER").unwrap_or_else(|_| "redis-server".into());
        if Command::new(&bin).arg("--version").output().is_err() {
            assert!(
                std::env::var_os("CI").is_none(),
                "no redis-server (bash scripts/redis.sh install)"
            );
            eprintln!("SKIPPED: no redis-server (bash scripts/redis.sh install)");
            return None;
        }
        let mut redis = Redis {
            bin,
            port: free_port(),
            dir: tempfile::tempdir().unwrap(),
            process: None,
        };
        redis.spawn();
        Some(redis)
    }

    fn spawn(&mut self) {
        let mut child = Command::new(&self.bin)
            .args(["--bind", "127.0.0.1", "--port", &self.port.to_string()])
            .args(["--save", "", "--appendonly", "no"])
            .arg("--dir")
            .arg(self.dir.path())
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        wait_listening(self.port, &mut child);
        self.process = Some(Process(child));
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }
}

/// A fixture server: `--http 127.0.0.1:PORT [--stateless] --redis URL`.
struct Instance {
    port: u16,
    process: Process,
}

impl Instance {
    fn start(redis: &Redis) -> Instance {
        Instance::start_in(redis, &["--stateless"])
    }

    fn start_in(redis: &Redis, mode: &[&str]) -> Instance {
        let port = free_port();
        let mut child = Command::new(env!("CARGO_BIN_EXE_conformance-example"))
            .args(["--http", &format!("127.0.0.1:{port}")])
            .args(mode)
            .args(["--redis", &redis.url()])
            .env("CONFORMANCE_STATE_KEY", "test key")
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        wait_listening(port, &mut child);
        Instance {
            port,
            process: Process(child),
        }
    }

    /// POSTs a 2026-07-28 request (the headers mirrored from the body) and returns the
    /// JSON-RPC response.
    fn request(&self, method: &str, mut params: Value) -> Value {
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {
                "extensions": { "io.modelcontextprotocol/tasks": {} }
            },
        });
        let name = ["name", "taskId"]
            .iter()
            .find_map(|k| params[*k].as_str())
            .map(str::to_owned);
        let body = json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params });
        let body = body.to_string();
        let mut head = format!(
            "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\
             Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n\
             MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: {method}\r\nContent-Length: {}\r\n",
            self.port,
            body.len()
        );
        if let Some(name) = name {
            head.push_str(&format!("Mcp-Name: {name}\r\n"));
        }
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        stream
            .write_all(format!("{head}\r\n{body}").as_bytes())
            .unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        let (head, body) = response.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
        assert!(head.contains("application/json"), "{head}\n{body}");
        serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
    }

    fn task(&self, id: &Value) -> Value {
        let r = self.request("tasks/get", json!({ "taskId": id }));
        r["result"].clone()
    }

    fn tool_names(&self) -> Vec<String> {
        let r = self.request("tools/list", json!({}));
        r["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|t| t["name"].as_str().map(str::to_owned))
            .collect()
    }
}

/// Waits (up to `secs`) until `ok` holds.
fn eventually(secs: u64, what: &str, mut ok: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while !ok() {
        assert!(Instant::now() < deadline, "not within {secs} s: {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_task_whose_instance_is_killed_is_failed_by_another() {
    let Some(redis) = Redis::start() else { return };
    let mut a = Instance::start(&redis);
    let b = Instance::start(&redis);
    let created = a.request(
        "tools/call",
        json!({ "name": "slow_compute", "arguments": { "seconds": 60, "label": "k" } }),
    );
    let id = created["result"]["taskId"].clone();
    assert!(id.is_string(), "{created}");
    // Beyond the lease (3 s): the running instance keeps renewing it.
    std::thread::sleep(Duration::from_secs(4));
    assert_eq!(b.task(&id)["status"], "working");
    a.process.0.kill().unwrap();
    let _ = a.process.0.wait();
    let started = Instant::now();
    eventually(8, "the task of a killed instance fails", || {
        b.task(&id)["status"] == "failed"
    });
    assert!(started.elapsed() < Duration::from_secs(5));
    let task = b.task(&id);
    assert_eq!(task["error"]["code"], -32603, "{task}");
    assert_eq!(
        task["error"]["message"],
        "The instance running this task stopped before it finished."
    );
}

#[test]
fn instances_reconnect_after_redis_restarts() {
    let Some(mut redis) = Redis::start() else {
        return;
    };
    let a = Instance::start(&redis);
    let b = Instance::start(&redis);
    let flip = |i: &Instance| {
        i.request(
            "tools/call",
            json!({ "name": "test_trigger_tool_change", "arguments": {} }),
        )
    };
    let dynamic = |i: &Instance| i.tool_names().iter().any(|n| n == "test_dynamic_tool");
    // Shared before the restart: a flip on one instance reaches the other.
    flip(&a);
    eventually(5, "b lists the dynamic tool", || dynamic(&b));

    drop(redis.process.take());
    // While Redis is down a task cannot be created: an error, at once, not a hang.
    let started = Instant::now();
    let r = a.request(
        "tools/call",
        json!({ "name": "slow_compute", "arguments": { "seconds": 0, "label": "d" } }),
    );
    assert_eq!(r["error"]["code"], -32603, "{r}");
    assert!(started.elapsed() < Duration::from_secs(3));
    // Calls that need no Redis go on.
    let r = a.request(
        "tools/call",
        json!({ "name": "greet", "arguments": { "name": "W" } }),
    );
    assert_eq!(r["result"]["content"][0]["text"], "Hello, W!", "{r}");

    redis.spawn();
    // Redis came back empty: the bus resubscribes and takes its (empty) set of optional
    // services, so both instances agree again without a restart.
    eventually(10, "the restarted Redis empties both lists", || {
        !dynamic(&a) && !dynamic(&b)
    });
    flip(&b);
    eventually(5, "a follows b's flip after the restart", || dynamic(&a));
    let created = b.request(
        "tools/call",
        json!({ "name": "slow_compute", "arguments": { "seconds": 0, "label": "r" } }),
    );
    let id = created["result"]["taskId"].clone();
    assert!(id.is_string(), "{created}");
    eventually(
        5,
        "a task created through b completes, seen through a",
        || a.task(&id)["status"] == "completed",
    );
}

/// An HTTP/1.1 response read off a raw connection: its head, then its body's server-sent
/// events one at a time (chunked transfer decoded).
struct Events {
    stream: TcpStream,
    raw: Vec<u8>,
    body: Vec<u8>,
    chunked: bool,
    head: String,
}

impl Events {
    /// Sends `request` (a whole HTTP/1.1 request) to `port` and reads the response head.
    fn open(port: u16, request: &str) -> Events {
        let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        stream.write_all(request.as_bytes()).unwrap();
        let mut e = Events {
            stream,
            raw: Vec::new(),
            body: Vec::new(),
            chunked: false,
            head: String::new(),
        };
        while !e.raw.windows(4).any(|w| w == b"\r\n\r\n") {
            assert!(e.fill(), "the connection closed before the head");
        }
        let end = e.raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
        e.head = String::from_utf8(e.raw[..end].to_vec()).unwrap();
        e.raw.drain(..end + 4);
        e.chunked = e
            .head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked");
        e
    }

    fn fill(&mut self) -> bool {
        let mut chunk = [0u8; 4096];
        let n = self.stream.read(&mut chunk).unwrap_or(0);
        self.raw.extend_from_slice(&chunk[..n]);
        n > 0
    }

    /// Moves what has arrived of the body from `raw` to `body`.
    fn decode(&mut self) {
        if !self.chunked {
            self.body.append(&mut self.raw);
            return;
        }
        while let Some(eol) = self.raw.windows(2).position(|w| w == b"\r\n") {
            let size = std::str::from_utf8(&self.raw[..eol]).unwrap();
            let size = usize::from_str_radix(size.split(';').next().unwrap().trim(), 16).unwrap();
            if self.raw.len() < eol + 2 + size + 2 {
                return;
            }
            self.body
                .extend_from_slice(&self.raw[eol + 2..eol + 2 + size]);
            self.raw.drain(..eol + 2 + size + 2);
        }
    }

    /// The next event with data: its id and its data, parsed; `None` at the body's end.
    fn next(&mut self) -> Option<(String, Value)> {
        loop {
            self.decode();
            if let Some(end) = self.body.windows(2).position(|w| w == b"\n\n") {
                let event = String::from_utf8(self.body[..end].to_vec()).unwrap();
                self.body.drain(..end + 2);
                let field = |name: &str| {
                    event
                        .lines()
                        .find_map(|l| l.strip_prefix(name).map(|v| v.trim().to_owned()))
                };
                match field("data:").filter(|d| !d.is_empty()) {
                    Some(data) => {
                        return Some((
                            field("id:").unwrap_or_default(),
                            serde_json::from_str(&data).unwrap(),
                        ));
                    }
                    None => continue, // a priming event: an id, no message
                }
            }
            if !self.fill() {
                return None;
            }
        }
    }
}

/// A 2025-11-25 POST of `message` in session `session` (none for `initialize`).
fn session_post(port: u16, session: Option<&str>, message: &Value) -> String {
    let body = message.to_string();
    let session = session.map_or(String::new(), |s| format!("Mcp-Session-Id: {s}\r\n"));
    format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n\
         MCP-Protocol-Version: 2025-11-25\r\n{session}Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

#[test]
fn a_stream_dropped_on_one_instance_resumes_on_another_after_its_last_event() {
    let Some(redis) = Redis::start() else { return };
    let a = Instance::start_in(&redis, &[]);
    let b = Instance::start_in(&redis, &[]);
    let init = json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": { "name": "resume-test", "version": "1" },
    } });
    let mut opened = Events::open(a.port, &session_post(a.port, None, &init));
    let session = opened
        .head
        .lines()
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("mcp-session-id")
                .then(|| value.trim().to_owned())
        })
        .unwrap_or_else(|| panic!("no session id: {}", opened.head));
    while opened.fill() {}
    let initialized = json!({ "jsonrpc": "2.0", "method": "notifications/initialized" });
    let mut sent = Events::open(b.port, &session_post(b.port, Some(&session), &initialized));
    assert!(sent.head.starts_with("HTTP/1.1 202"), "{}", sent.head);
    while sent.fill() {}

    // A call with progress, through a; its stream is dropped after the first progress event.
    let call = json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "test_tool_with_progress", "arguments": {}, "_meta": { "progressToken": "p" },
    } });
    let mut stream = Events::open(a.port, &session_post(a.port, Some(&session), &call));
    assert!(stream.head.contains("text/event-stream"), "{}", stream.head);
    let (last, first) = stream.next().expect("a first event");
    assert_eq!(first["params"]["progress"], 0.0, "{first}");
    drop(stream);

    // Resumed through b (which forwards to a, the session's holder): exactly what followed.
    let resume = format!(
        "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\
         Accept: text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\n\
         Mcp-Session-Id: {session}\r\nLast-Event-ID: {last}\r\n\r\n",
        b.port
    );
    let mut resumed = Events::open(b.port, &resume);
    assert!(resumed.head.starts_with("HTTP/1.1 200"), "{}", resumed.head);
    let (stream_no, seq) = last.split_once('-').unwrap();
    let seq: u64 = seq.parse().unwrap();
    let mut got = Vec::new();
    while let Some((id, message)) = resumed.next() {
        got.push((id, message.clone()));
        if message.get("result").is_some() {
            break;
        }
    }
    let ids: Vec<&str> = got.iter().map(|(id, _)| id.as_str()).collect();
    let expected: Vec<String> = (1..=3)
        .map(|n| format!("{stream_no}-{}", seq + n))
        .collect();
    assert_eq!(ids, expected, "{got:?}");
    assert_eq!(got[0].1["params"]["progress"], 50.0, "{got:?}");
    assert_eq!(got[1].1["params"]["progress"], 100.0, "{got:?}");
    assert_eq!(
        got[2].1["result"]["content"][0]["text"],
        "Progress reported: 0, 50 and 100 of 100."
    );
}
