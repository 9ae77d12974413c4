//! The example binary as a user runs it: the application's own routes and the mounted MCP
//! endpoint answer on one port, the endpoint keeps its security checks, and SIGTERM stops
//! the whole application even while an MCP stream is open. (The official Python and
//! TypeScript clients run against it in scripts/interop.sh.)

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

struct App {
    child: Child,
    addr: SocketAddr,
}

impl App {
    fn start(args: &[&str]) -> App {
        let mut child = Command::new(env!("CARGO_BIN_EXE_axum-example"))
            .args(["--http", "127.0.0.1:0"])
            .args(args)
            .stderr(Stdio::piped())
            .spawn()
            .expect("the example starts");
        let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
        let mut line = String::new();
        stderr.read_line(&mut line).expect("the banner");
        // "serving the shop at http://ADDR/ and MCP at http://ADDR/mcp"
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|s| s.split('/').next())
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
        App { child, addr }
    }

    /// One request on its own connection; the status, the headers (lowercase names) and
    /// the body.
    fn request(&self, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> Reply {
        let mut stream = TcpStream::connect(self.addr).expect("connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .expect("timeout");
        let mut text = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
        if !headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("host")) {
            text.push_str(&format!("Host: {}\r\n", self.addr));
        }
        for (name, value) in headers {
            text.push_str(&format!("{name}: {value}\r\n"));
        }
        text.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
        stream.write_all(text.as_bytes()).expect("send");
        let mut raw = String::new();
        stream.read_to_string(&mut raw).expect("read");
        Reply::parse(&raw)
    }

    fn mcp(&self, session: Option<&str>, message: Value) -> Reply {
        let mut headers = vec![
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
            ("MCP-Protocol-Version", "2025-11-25"),
        ];
        if let Some(s) = session {
            headers.push(("Mcp-Session-Id", s));
        }
        self.request("POST", "/mcp", &headers, &message.to_string())
    }
}

impl Drop for App {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Reply {
    fn parse(raw: &str) -> Reply {
        let (head, body) = raw.split_once("\r\n\r\n").expect("a whole response");
        let mut lines = head.lines();
        let status = lines
            .next()
            .and_then(|l| l.split(' ').nth(1))
            .and_then(|s| s.parse().ok())
            .expect("a status line");
        let headers = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(n, v)| (n.to_ascii_lowercase(), v.trim().to_owned()))
            .collect::<Vec<_>>();
        let chunked = headers
            .iter()
            .any(|(n, v)| n == "transfer-encoding" && v == "chunked");
        let body = if chunked {
            dechunk(body)
        } else {
            body.to_owned()
        };
        Reply {
            status,
            headers,
            body,
        }
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).expect("a chunk size");
        if n == 0 {
            break;
        }
        out.push_str(&rest[..n]);
        body = &rest[n + 2..];
    }
    out
}

fn initialize(app: &App) -> String {
    let reply = app.mcp(
        None,
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "e2e", "version": "1"}}}),
    );
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.json()["result"]["serverInfo"]["name"], "axum-example");
    let session = reply
        .header("mcp-session-id")
        .expect("a session")
        .to_owned();
    let ack = app.mcp(
        Some(&session),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    );
    assert_eq!(ack.status, 202);
    session
}

#[test]
fn the_app_routes_and_the_mounted_endpoint_share_a_port() {
    let app = App::start(&[]);
    let health = app.request("GET", "/health", &[], "");
    assert_eq!((health.status, health.body.as_str()), (200, "ok"));
    let api = app.request("GET", "/api/items/nut-m6", &[], "");
    assert_eq!(api.status, 200);
    assert_eq!(
        api.json(),
        json!({"sku": "nut-m6", "name": "M6 nut", "count": 800})
    );
    assert_eq!(app.request("GET", "/api/items/none", &[], "").status, 404);

    let session = initialize(&app);
    let call = app.mcp(
        Some(&session),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
               "params": {"name": "get_item", "arguments": {"sku": "nut-m6"}}}),
    );
    assert_eq!(call.status, 200, "{}", call.body);
    // The tool and the JSON API read the same stock.
    assert_eq!(call.json()["result"]["structuredContent"], api.json());
    let bad = app.mcp(
        Some(&session),
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
               "params": {"name": "get_item", "arguments": {"sku": ""}}}),
    );
    assert_eq!(
        bad.json()["result"]["content"][0]["text"],
        "Argument 'sku' is not valid. Expected at least 1 character."
    );
    // Sessions are the endpoint's: an unknown one is refused.
    let unknown = app.mcp(
        Some("0123456789abcdef0123456789abcdef"),
        json!({"jsonrpc": "2.0", "id": 4, "method": "tools/list"}),
    );
    assert_eq!(unknown.status, 404);
}

#[test]
fn the_mounted_endpoint_keeps_its_security_checks() {
    let app = App::start(&[]);
    let message = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    let json = [
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
    ];
    // A DNS-rebinding page: a foreign Host, or a foreign Origin.
    let host = app.request(
        "POST",
        "/mcp",
        &[json[0], json[1], ("Host", "evil.example")],
        message,
    );
    assert_eq!(host.status, 403, "{}", host.body);
    let origin = app.request(
        "POST",
        "/mcp",
        &[json[0], json[1], ("Origin", "http://evil.example")],
        message,
    );
    assert_eq!(origin.status, 403, "{}", origin.body);
    // The body limit (4 MiB by default).
    let big = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{{"x":"{}"}}}}"#,
        "a".repeat(5 * 1024 * 1024)
    );
    assert_eq!(app.request("POST", "/mcp", &json, &big).status, 413);
    // The application's routes do not get the endpoint's checks: they are its own.
    let health = app.request("GET", "/health", &[("Host", "evil.example")], "");
    assert_eq!(health.status, 200);
}

#[test]
fn sigterm_stops_the_app_while_an_mcp_stream_is_open() {
    let mut app = App::start(&[]);
    let session = initialize(&app);
    // A session's GET stream stays open until the session or the server ends.
    let mut stream = TcpStream::connect(app.addr).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .expect("timeout");
    write!(
        stream,
        "GET /mcp HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\n\
         MCP-Protocol-Version: 2025-11-25\r\nMcp-Session-Id: {session}\r\n\r\n",
        app.addr
    )
    .expect("send");
    let mut reader = BufReader::new(stream);
    let mut status = String::new();
    reader.read_line(&mut status).expect("the status line");
    assert!(status.starts_with("HTTP/1.1 200"), "{status}");

    let pid = app.child.id().to_string();
    let killed = Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .expect("kill");
    assert!(killed.success());
    // The stream ends (axum's graceful shutdown could not finish otherwise) and the
    // application exits on its own, successfully.
    let mut rest = Vec::new();
    reader.read_to_end(&mut rest).expect("the stream ends");
    let deadline = Instant::now() + Duration::from_secs(30);
    let exit = loop {
        if let Some(status) = app.child.try_wait().expect("wait") {
            break status;
        }
        assert!(Instant::now() < deadline, "the app is still running");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(exit.success(), "{exit:?}");
}
