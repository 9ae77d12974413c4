//! Load generator: `tools/call add` over Streamable HTTP, keep-alive HTTP/1.1, one TCP
//! connection per client.
//!
//! `load URL [--mode session|stateless|2026] [--secs N] [--clients 1,16,64] [--label L]
//!  [--server-pid PID --clk-tck HZ] [--bearer TOKEN]`
//!
//! - `session`: protocol 2025-11-25; each client sends `initialize`, reads `Mcp-Session-Id`
//!   (required), sends `notifications/initialized`, then calls with the session id.
//! - `stateless`: protocol 2025-11-25, no session: each call carries only
//!   `MCP-Protocol-Version: 2025-11-25`.
//! - `2026`: protocol 2026-07-28 (stateless by design): each call carries
//!   `_meta["io.modelcontextprotocol/protocolVersion"]` and `clientCapabilities` in the body,
//!   and `MCP-Protocol-Version`, `Mcp-Method: tools/call`, `Mcp-Name: add` headers.
//!
//! Every reply (`application/json` or `text/event-stream`) is parsed and its sum checked; a
//! wrong or missing sum is counted as an error and makes the exit status nonzero. For each
//! client count it prints requests/s, p50 and p99 latency, and a `RESULT` line for scripts.
//!
//! With `--bearer`, every request carries `Authorization: Bearer TOKEN` (a server with
//! token validation, `bench/http/auth.sh`).
//!
//! With `--server-pid`, it also reads the server's CPU time (user + system, all threads, from
//! `/proc/PID/stat`) before and after each point and prints the server's CPU microseconds per
//! request. On a small machine where the load generator shares the cores, requests/s measures
//! the pair; CPU per request measures the server alone.

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::{Request, client::conn::http1};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Session,
    Stateless,
    V2026,
}

#[derive(Clone)]
struct Target {
    addr: String,
    host: String,
    path: String,
    /// `Bearer TOKEN`, sent with every request.
    authorization: Option<String>,
}

fn parse_url(url: &str) -> Target {
    let rest = url.strip_prefix("http://").expect("only http:// URLs");
    let (host, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, "/mcp"),
    };
    Target {
        addr: host.to_string(),
        host: host.to_string(),
        path: path.to_string(),
        authorization: None,
    }
}

type Sender = http1::SendRequest<Full<Bytes>>;

async fn connect(t: &Target) -> Sender {
    let stream = tokio::net::TcpStream::connect(&t.addr)
        .await
        .expect("connect");
    stream.set_nodelay(true).ok();
    let (sender, conn) = http1::handshake(TokioIo::new(stream))
        .await
        .expect("handshake");
    tokio::spawn(async move {
        let _ = conn.await;
    });
    sender
}

struct Reply {
    status: u16,
    session: Option<String>,
    body: Bytes,
    sse: bool,
}

async fn post(s: &mut Sender, t: &Target, headers: &[(&str, &str)], body: Vec<u8>) -> Reply {
    s.ready().await.expect("connection closed");
    let mut req = Request::post(&t.path)
        .header("host", &t.host)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream");
    if let Some(auth) = &t.authorization {
        req = req.header("authorization", auth.as_str());
    }
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let req = req.body(Full::new(Bytes::from(body))).unwrap();
    let resp = s.send_request(req).await.expect("request failed");
    let status = resp.status().as_u16();
    let session = resp
        .headers()
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let sse = resp
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/event-stream"));
    let body = resp.into_body().collect().await.expect("body").to_bytes();
    Reply {
        status,
        session,
        body,
        sse,
    }
}

/// The JSON-RPC message with `id` in a reply: the body itself, or one of its SSE `data:` events.
fn find_reply(r: &Reply, id: u64) -> Option<Value> {
    if !r.sse {
        return serde_json::from_slice(&r.body).ok();
    }
    let text = std::str::from_utf8(&r.body).ok()?;
    for event in text.split("\n\n") {
        let data: String = event
            .lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .map(|d| d.strip_prefix(' ').unwrap_or(d))
            .collect::<Vec<_>>()
            .join("\n");
        if data.is_empty() {
            continue;
        }
        if let Ok(v) = serde_json::from_str::<Value>(&data)
            && v.get("id").and_then(Value::as_u64) == Some(id)
        {
            return Some(v);
        }
    }
    None
}

fn sum_of(v: &Value) -> Option<i64> {
    let result = v.get("result")?;
    if result.get("isError").and_then(Value::as_bool) == Some(true) {
        return None;
    }
    let text = result.get("content")?.get(0)?.get("text")?.as_str()?;
    text.trim().parse().ok()
}

struct Client {
    sender: Sender,
    session: Option<String>,
}

async fn open_client(t: &Target, mode: Mode) -> Client {
    let mut sender = connect(t).await;
    let mut session = None;
    if mode == Mode::Session {
        let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "bench-http-load", "version": "0.0.0"}}});
        let r = post(&mut sender, t, &[], serde_json::to_vec(&init).unwrap()).await;
        let v = find_reply(&r, 0);
        assert!(
            r.status == 200 && v.as_ref().is_some_and(|v| v.get("result").is_some()),
            "initialize failed: {} {}",
            r.status,
            String::from_utf8_lossy(&r.body)
        );
        let sid = r
            .session
            .expect("session mode: initialize reply has no Mcp-Session-Id");
        let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        let h = [
            ("mcp-session-id", sid.as_str()),
            ("mcp-protocol-version", "2025-11-25"),
        ];
        let r = post(&mut sender, t, &h, serde_json::to_vec(&note).unwrap()).await;
        assert!(
            r.status == 202 || r.status == 200,
            "notifications/initialized: {}",
            r.status
        );
        session = Some(sid);
    }
    Client { sender, session }
}

/// Runs one client until `deadline`; returns latencies (µs) and the error count.
async fn run_client(t: Target, mode: Mode, idx: u64, deadline: Instant) -> (Vec<u32>, u64) {
    let mut c = open_client(&t, mode).await;
    let mut lat = Vec::with_capacity(1 << 16);
    let mut errors = 0u64;
    let mut n: u64 = 1;
    let version = if mode == Mode::V2026 {
        "2026-07-28"
    } else {
        "2025-11-25"
    };
    while Instant::now() < deadline {
        let a = ((idx * 7919 + n * 31) % 100_000) as i32 - 50_000;
        let b = ((n * 104_729) % 1_000_000) as i32;
        // Formatted directly (no serde_json::Value per call) to keep the client's CPU share low.
        let meta = if mode == Mode::V2026 {
            r#","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#
        } else {
            ""
        };
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":{n},"method":"tools/call","params":{{"name":"add","arguments":{{"a":{a},"b":{b}}}{meta}}}}}"#
        )
        .into_bytes();
        let mut h: Vec<(&str, &str)> = vec![("mcp-protocol-version", version)];
        if let Some(s) = &c.session {
            h.push(("mcp-session-id", s));
        }
        if mode == Mode::V2026 {
            h.push(("mcp-method", "tools/call"));
            h.push(("mcp-name", "add"));
        }
        let start = Instant::now();
        let r = post(&mut c.sender, &t, &h, body).await;
        let ok = r.status == 200
            && find_reply(&r, n).and_then(|v| sum_of(&v)) == Some(a as i64 + b as i64);
        lat.push(start.elapsed().as_micros().min(u32::MAX as u128) as u32);
        if !ok {
            if errors == 0 {
                eprintln!(
                    "bad reply (client {idx}, call {n}, {a}+{b}): {} {}",
                    r.status,
                    String::from_utf8_lossy(&r.body)
                );
            }
            errors += 1;
        }
        n += 1;
    }
    (lat, errors)
}

/// The CPU time a process has used so far, in seconds (utime + stime of `/proc/PID/stat`).
fn cpu_seconds(pid: u32, clk_tck: f64) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the parenthesised command name, which may itself hold spaces.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split(' ').collect();
    // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the name.
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / clk_tck)
}

fn pct(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i] as f64 / 1000.0
}

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let mut url = None;
    let mut mode = Mode::Session;
    let mut secs = 5.0f64;
    let mut clients = vec![1usize, 16, 64];
    let mut label = String::new();
    let mut server_pid: Option<u32> = None;
    let mut clk_tck = 100.0f64;
    let mut bearer = None;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--mode" => {
                mode = match args.next().as_deref() {
                    Some("session") => Mode::Session,
                    Some("stateless") => Mode::Stateless,
                    Some("2026") | Some("2026-07-28") => Mode::V2026,
                    m => panic!("unknown mode {m:?}"),
                }
            }
            "--secs" => secs = args.next().and_then(|s| s.parse().ok()).expect("--secs N"),
            "--clients" => {
                clients = args
                    .next()
                    .expect("--clients 1,16,64")
                    .split(',')
                    .map(|c| c.parse().expect("client count"))
                    .collect()
            }
            "--label" => label = args.next().expect("--label L"),
            "--server-pid" => {
                server_pid = Some(
                    args.next()
                        .and_then(|s| s.parse().ok())
                        .expect("--server-pid PID"),
                )
            }
            "--clk-tck" => {
                clk_tck = args
                    .next()
                    .and_then(|s| s.parse().ok())
                    .expect("--clk-tck HZ")
            }
            "--bearer" => bearer = Some(args.next().expect("--bearer TOKEN")),
            _ if url.is_none() => url = Some(a),
            _ => panic!("unexpected argument {a}"),
        }
    }
    let mut t = parse_url(&url.unwrap_or_else(|| "http://127.0.0.1:8931/mcp".into()));
    t.authorization = bearer.map(|token| format!("Bearer {token}"));
    let mut failed = false;
    for &n in &clients {
        let deadline = Instant::now() + Duration::from_secs_f64(secs);
        let started = Instant::now();
        let cpu_before = server_pid.and_then(|pid| cpu_seconds(pid, clk_tck));
        let tasks: Vec<_> = (0..n as u64)
            .map(|i| tokio::spawn(run_client(t.clone(), mode, i, deadline)))
            .collect();
        let mut lat = Vec::new();
        let mut errors = 0;
        for task in tasks {
            let (l, e) = task.await.expect("client task");
            lat.extend(l);
            errors += e;
        }
        let elapsed = started.elapsed().as_secs_f64();
        let cpu_after = server_pid.and_then(|pid| cpu_seconds(pid, clk_tck));
        // Server CPU microseconds per request, or "-" without --server-pid.
        let cpu_per_req = match (cpu_before, cpu_after) {
            (Some(b), Some(a)) if !lat.is_empty() => {
                format!("{:.1}", (a - b) * 1e6 / lat.len() as f64)
            }
            _ => "-".to_string(),
        };
        lat.sort_unstable();
        let rps = lat.len() as f64 / elapsed;
        let (p50, p99) = (pct(&lat, 0.50), pct(&lat, 0.99));
        println!(
            "{label:<22} clients {n:>3}: {rps:>9.0} req/s  p50 {p50:>7.3} ms  p99 {p99:>7.3} ms  server CPU {cpu_per_req} µs/req  ({} calls, {errors} errors)",
            lat.len()
        );
        println!("RESULT\t{label}\t{n}\t{rps:.0}\t{p50:.3}\t{p99:.3}\t{errors}\t{cpu_per_req}");
        failed |= errors > 0 || lat.is_empty();
    }
    if failed {
        std::process::exit(1);
    }
}
