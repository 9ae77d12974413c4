//! Faults of instances sharing one Redis (`--redis`), with real processes: a real
//! `redis-server` (Debian's; `bash scripts/redis.sh install`) and fixture servers over
//! stateless HTTP (2026-07-28).
//!
//! - An instance SIGKILLed while it runs a task: another instance reports the task failed
//!   (its lease lapsed) instead of `working` forever.
//! - Redis restarted under running instances: they reconnect by themselves; tasks and the
//!   dynamic tool list are shared again without restarting them.
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

/// A fixture server: `--http 127.0.0.1:PORT --stateless --redis URL`.
struct Instance {
    port: u16,
    process: Process,
}

impl Instance {
    fn start(redis: &Redis) -> Instance {
        let port = free_port();
        let mut child = Command::new(env!("CARGO_BIN_EXE_conformance-example"))
            .args(["--http", &format!("127.0.0.1:{port}"), "--stateless"])
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
