//! A raw HTTP/1.1 client on real TCP, for tests that must control every byte on the wire
//! (and, with [`Client::connect_from`], the loopback address a connection comes from).

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// One HTTP/1.1 response.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }

    /// The `data:` of each SSE event, as JSON.
    pub fn events(&self) -> Vec<Value> {
        assert_eq!(self.header("content-type"), Some("text/event-stream"));
        let text = String::from_utf8(self.body.clone()).unwrap();
        sse(&text)
            .into_iter()
            .filter_map(|(_, data)| data)
            .collect()
    }
}

/// A raw HTTP/1.1 client on one kept-alive TCP connection.
pub struct Client {
    pub addr: SocketAddr,
    pub stream: TcpStream,
    pub buf: Vec<u8>,
}

impl Client {
    pub async fn connect(addr: SocketAddr) -> Client {
        Client {
            addr,
            stream: TcpStream::connect(addr).await.unwrap(),
            buf: Vec::new(),
        }
    }

    /// Connects from the loopback address `source` (127.0.0.2, 127.0.0.3, … all work as
    /// sources on Linux), as a client on another machine would.
    pub async fn connect_from(source: IpAddr, addr: SocketAddr) -> Client {
        let socket = match source {
            IpAddr::V4(_) => TcpSocket::new_v4(),
            IpAddr::V6(_) => TcpSocket::new_v6(),
        }
        .unwrap();
        socket.bind(SocketAddr::new(source, 0)).unwrap();
        Client {
            addr,
            stream: socket.connect(addr).await.unwrap(),
            buf: Vec::new(),
        }
    }

    /// Writes a request; `Host` is the server's address unless `headers` has one.
    pub async fn write(&mut self, method: &str, headers: &[(&str, &str)], body: &[u8]) {
        let mut head = format!("{method} /mcp HTTP/1.1\r\n");
        if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
            head.push_str(&format!("Host: {}\r\n", self.addr));
        }
        for (k, v) in headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
        self.stream.write_all(head.as_bytes()).await.unwrap();
        self.stream.write_all(body).await.unwrap();
    }

    pub async fn send(&mut self, method: &str, headers: &[(&str, &str)], body: &[u8]) -> Reply {
        self.write(method, headers, body).await;
        self.read_reply().await
    }

    pub async fn post(&mut self, headers: &[(&str, &str)], message: &Value) -> Reply {
        let mut all = vec![
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
        ];
        all.extend_from_slice(headers);
        self.send("POST", &all, message.to_string().as_bytes())
            .await
    }

    pub async fn fill(&mut self) -> bool {
        let mut chunk = [0u8; 8192];
        let n = tokio::time::timeout(Duration::from_secs(10), self.stream.read(&mut chunk))
            .await
            .expect("timed out reading")
            .unwrap();
        self.buf.extend_from_slice(&chunk[..n]);
        n > 0
    }

    pub async fn line(&mut self) -> String {
        loop {
            if let Some(i) = self.buf.windows(2).position(|w| w == b"\r\n") {
                let line = String::from_utf8(self.buf[..i].to_vec()).unwrap();
                self.buf.drain(..i + 2);
                return line;
            }
            assert!(self.fill().await, "connection closed");
        }
    }

    pub async fn exactly(&mut self, n: usize) -> Vec<u8> {
        while self.buf.len() < n {
            assert!(self.fill().await, "connection closed");
        }
        self.buf.drain(..n).collect()
    }

    pub async fn read_head(&mut self) -> Reply {
        let status_line = self.line().await;
        let status = status_line.split(' ').nth(1).unwrap().parse().unwrap();
        let mut headers = Vec::new();
        loop {
            let line = self.line().await;
            if line.is_empty() {
                break;
            }
            let (k, v) = line.split_once(':').unwrap();
            headers.push((k.trim().to_owned(), v.trim().to_owned()));
        }
        Reply {
            status,
            headers,
            body: Vec::new(),
        }
    }

    /// The next chunk of a chunked body; empty at its end.
    pub async fn chunk(&mut self) -> Vec<u8> {
        let size = usize::from_str_radix(self.line().await.trim(), 16).unwrap();
        let data = self.exactly(size).await;
        assert_eq!(self.exactly(2).await, b"\r\n");
        data
    }

    pub async fn read_reply(&mut self) -> Reply {
        let mut r = self.read_head().await;
        if let Some(n) = r.header("content-length") {
            let n = n.parse().unwrap();
            r.body = self.exactly(n).await;
        } else if r.header("transfer-encoding") == Some("chunked") {
            loop {
                let c = self.chunk().await;
                if c.is_empty() {
                    break;
                }
                r.body.extend_from_slice(&c);
            }
        }
        r
    }

    /// Whether the server closed (or reset) the connection.
    pub async fn closed(&mut self) -> bool {
        let mut chunk = [0u8; 64];
        let read = tokio::time::timeout(Duration::from_secs(10), self.stream.read(&mut chunk));
        matches!(read.await, Ok(Ok(0) | Err(_)))
    }
}

/// The events of an SSE text: each one's id and message (`None`: a priming event).
pub fn sse(text: &str) -> Vec<(Option<String>, Option<Value>)> {
    text.split("\n\n")
        .filter(|e| !e.trim().is_empty())
        .map(|e| {
            let id = e
                .lines()
                .find_map(|l| l.strip_prefix("id: "))
                .map(str::to_owned);
            let data = e
                .lines()
                .find_map(|l| l.strip_prefix("data: "))
                .filter(|d| !d.is_empty())
                .map(|d| serde_json::from_str(d).unwrap());
            (id, data)
        })
        .collect()
}
