//! The stdio transport: one JSON message per line in, one per line out.
//!
//! A blocking reader thread frames lines and dispatches them (most calls finish right
//! there, their replies collected into one batch per chunk of input); a blocking writer
//! thread drains the outbox into a buffered writer and flushes whenever the outbox is
//! empty, so pipelined replies leave in few writes.

use std::future::Future;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::time::Duration;

use crate::connection::shutdown::{self, Scope};
use crate::connection::{Connection, Outbox};
use crate::protocol::IdScanner;
use crate::server::Server;

pub use crate::banner::StdioBanner;
pub use crate::signal::DEFAULT_DRAIN;

/// Options of the stdio transport.
#[derive(Debug, Clone)]
pub struct StdioConfig {
    /// The longest accepted line, in bytes (default 4 MiB). A longer line is answered with
    /// an error (-32600, carrying the request's id when it has a readable one) and skipped;
    /// the server keeps reading.
    pub max_line_bytes: usize,
}

impl Default for StdioConfig {
    fn default() -> Self {
        StdioConfig {
            max_line_bytes: 4 * 1024 * 1024,
        }
    }
}

/// Serves `server` on stdin/stdout until stdin ends and every call in flight has answered.
///
/// Started on a terminal (stdin is a TTY: a person ran it, not a client), it first tells on
/// stderr what it is and prints a client configuration entry for itself (a
/// [`StdioBanner`] with the server's name and version, and this
/// process's executable and arguments); stdout carries only protocol messages. Use
/// [`serve_stdio_with`] for no banner, or print your own first.
pub async fn serve_stdio(server: Server) -> io::Result<()> {
    default_banner(&server).print_if_terminal();
    serve_stdio_with(server, StdioConfig::default()).await
}

/// The banner [`serve_stdio`] prints: `<name> <version>` from `serverInfo`, keyed by the
/// name, with this process's arguments; for [`serve_stdio_until`], which prints none.
pub fn default_banner(server: &Server) -> StdioBanner {
    let info: serde_json::Value =
        serde_json::from_str(&server.shared.info_json).unwrap_or_default();
    let field = |key: &str| {
        info.get(key)
            .and_then(|v| v.as_str())
            .unwrap_or("")
            .to_owned()
    };
    let (name, version) = (field("name"), field("version"));
    let title = info
        .get("title")
        .and_then(|v| v.as_str())
        .map(|t| format!(" ({t})"))
        .unwrap_or_default();
    StdioBanner::new(name.clone(), format!("{name} {version}{title}"))
        .args(std::env::args().skip(1))
}

/// [`serve_stdio`] with options.
pub async fn serve_stdio_with(server: Server, config: StdioConfig) -> io::Result<()> {
    serve_io(server, io::stdin(), io::stdout(), config).await
}

/// Serves one connection over any byte streams (pipes, sockets, files).
pub async fn serve_io<R, W>(
    server: Server,
    input: R,
    output: W,
    config: StdioConfig,
) -> io::Result<()>
where
    R: Read + Send + 'static,
    W: Write + Send + 'static,
{
    let runtime = tokio::runtime::Handle::current();
    let (conn, outbox) = Connection::new(&server, runtime.clone());
    let conn = conn.with_batching();
    let writer = tokio::task::spawn_blocking(move || write_loop(outbox, output));
    let reader = tokio::task::spawn_blocking(move || {
        // Handlers polled on this thread may touch tokio resources (timers, I/O).
        let _entered = runtime.enter();
        read_loop(&conn, input, config.max_line_bytes);
        conn.close();
    });
    let read = reader.await;
    let written = writer.await;
    read.map_err(io::Error::other)?;
    written.map_err(io::Error::other)?
}

/// Serves `server` on stdin/stdout as [`serve_stdio_with`] does, until stdin ends or
/// `shutdown` completes (typically [`shutdown_signal`](crate::shutdown_signal): SIGINT or
/// SIGTERM). Then it shuts down gracefully ([`serve_io_until`]) and returns; return from
/// `main` right after, as the thread reading stdin is left behind.
///
/// ```no_run
/// # async fn f(server: toolidl_runtime::Server) -> std::io::Result<()> {
/// use toolidl_runtime::stdio::{DEFAULT_DRAIN, StdioConfig, serve_stdio_until};
/// serve_stdio_until(server, StdioConfig::default(), toolidl_runtime::shutdown_signal(), DEFAULT_DRAIN).await
/// # }
/// ```
pub async fn serve_stdio_until(
    server: Server,
    config: StdioConfig,
    shutdown: impl Future<Output = ()>,
    drain: Duration,
) -> io::Result<()> {
    serve_io_until(server, io::stdin(), io::stdout(), config, shutdown, drain).await
}

/// [`serve_io`], until `input` ends or `shutdown` completes. At `shutdown` the server:
///
/// 1. refuses every request read from then on (-32000, `Server shutting down: no new
///    requests are accepted; retry later.`); notifications and the client's responses
///    still get through;
/// 2. lets the calls in flight finish and answer, for up to `drain`;
/// 3. cancels the calls still running then (their handlers' futures are dropped) and
///    answers each with -32000 (`Server shutting down: the call was cancelled before it
///    finished.`), and fails its requests to the client still waiting, withdrawing each
///    with `notifications/cancelled`;
/// 4. writes out every answer and returns, without waiting for more input.
///
/// So every request the server took is answered. The tasks the server runs get the same
/// drain time; those still running at its end are cancelled and failed in their store.
///
/// `input` is read on a thread of its own, which is left blocked when `shutdown` ends the
/// service before the input ends.
pub async fn serve_io_until<R, W>(
    server: Server,
    input: R,
    output: W,
    config: StdioConfig,
    shutdown: impl Future<Output = ()>,
    drain: Duration,
) -> io::Result<()>
where
    R: Read + Send + 'static,
    W: Write + Send + 'static,
{
    // Polled once before the first line is read, so that a signal handler it installs
    // ([`crate::shutdown_signal`]) is in place before the client gets any answer.
    let mut shutdown = std::pin::pin!(shutdown);
    let early = std::future::poll_fn(|cx| std::task::Poll::Ready(shutdown.as_mut().poll(cx)));
    let stopped_early = early.await.is_ready();
    let runtime = tokio::runtime::Handle::current();
    let (conn, outbox) = Connection::new(&server, runtime.clone());
    let conn = conn.with_batching();
    let shared = conn.downgrade();
    let mut writer = tokio::task::spawn_blocking(move || write_loop(outbox, output));
    // Not `spawn_blocking`: the runtime waits for those when it shuts down, and this thread
    // may stay blocked on a read for ever.
    std::thread::Builder::new()
        .name("toolidl-stdio-reader".into())
        .spawn(move || {
            let _entered = runtime.enter();
            read_loop(&conn, input, config.max_line_bytes);
            conn.close();
        })?;
    if !stopped_early {
        tokio::select! {
            // The input ended and every call answered (or the output failed).
            written = &mut writer => return written.map_err(io::Error::other)?,
            () = &mut shutdown => {}
        }
    }
    if let Some(conn) = shared.upgrade() {
        tracing::info!("shutdown: draining the stdio connection");
        conn.drain();
        shutdown::settle(&server, Scope::Connection(&conn), drain).await;
        // After every answer: the writer writes what is before it, then stops.
        conn.send(END_OF_OUTPUT.to_owned());
    }
    writer.await.map_err(io::Error::other)?
}

/// Put in the outbox after the last answer at a shutdown: the writer stops there (no
/// protocol message is empty).
const END_OF_OUTPUT: &str = "";

fn write_loop<W: Write>(mut outbox: Outbox, output: W) -> io::Result<()> {
    let mut out = BufWriter::with_capacity(64 * 1024, output);
    while let Some(message) = outbox.blocking_recv() {
        if message == END_OF_OUTPUT {
            break;
        }
        out.write_all(message.as_bytes())?;
        out.write_all(b"\n")?;
        while let Ok(message) = outbox.try_recv() {
            if message == END_OF_OUTPUT {
                return out.flush();
            }
            out.write_all(message.as_bytes())?;
            out.write_all(b"\n")?;
        }
        out.flush()?;
    }
    out.flush()
}

/// Reads lines until end of input; read errors end the input like EOF does.
///
/// A line longer than `limit` is not kept: from the chunk that crosses the limit on, its
/// bytes only go through an [`IdScanner`] (fixed-size state, and at most
/// `IdScanner::MAX_ID_BYTES` of id text), so the error that answers it can carry its id
/// while memory stays at `limit` plus the read buffer, however long the line.
fn read_loop<R: Read>(conn: &Connection, input: R, limit: usize) {
    let mut reader = BufReader::with_capacity(64 * 1024, input);
    let mut line: Vec<u8> = Vec::new();
    // Set while skipping an over-long line.
    let mut skipping: Option<IdScanner> = None;
    loop {
        if reader.buffer().is_empty() {
            // The next read may wait for the client: send what this chunk produced first.
            conn.flush();
        }
        let available = match reader.fill_buf() {
            Ok([]) => break,
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                tracing::error!(error = %e, "reading input failed");
                break;
            }
        };
        let Some(end) = available.iter().position(|&b| b == b'\n') else {
            // No newline yet: keep the partial line, or scan it once it is too long.
            let n = available.len();
            if skipping.is_none() && line.len() + n > limit {
                skipping = Some(scanner_over(&line));
                line = Vec::new();
            }
            match &mut skipping {
                Some(scanner) => scanner.feed(available),
                None => line.extend_from_slice(available),
            }
            reader.consume(n);
            continue;
        };
        if let Some(mut scanner) = skipping.take() {
            scanner.feed(&available[..end]);
            conn.reject_long_message(limit, scanner);
        } else if line.len() + end > limit {
            let mut scanner = scanner_over(&line);
            scanner.feed(&available[..end]);
            conn.reject_long_message(limit, scanner);
            line.clear();
        } else if line.is_empty() {
            // Fast path: the whole line is in the buffer.
            dispatch(conn, &available[..end]);
        } else {
            line.extend_from_slice(&available[..end]);
            dispatch(conn, &line);
            line.clear();
        }
        reader.consume(end + 1);
    }
    if let Some(scanner) = skipping {
        conn.reject_long_message(limit, scanner);
    } else if !line.is_empty() {
        dispatch(conn, &line);
    }
}

/// A scanner that has read `start`, the part of an over-long line kept so far.
fn scanner_over(start: &[u8]) -> IdScanner {
    let mut scanner = IdScanner::new();
    scanner.feed(start);
    scanner
}

/// How long stdio waits for a running call to end before reading on regardless.
const SLOT_PATIENCE: std::time::Duration = std::time::Duration::from_secs(5);

fn dispatch(conn: &Connection, line: &[u8]) {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return;
    }
    // At the connection's limit of running calls, stop reading: the client's writes block
    // instead of the server queueing without bound.
    conn.wait_for_slot(SLOT_PATIENCE);
    conn.handle_bytes(line);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_banner_names_the_server_and_its_client_entry() {
        let server = Server::builder("weather", "1.2.3")
            .title("Weather tools")
            .build();
        let text = default_banner(&server).render("/opt/weather");
        assert!(
            text.starts_with("weather 1.2.3 (Weather tools)\nThis is an MCP server"),
            "{text}"
        );
        assert!(text.contains(r#"{"mcpServers":{"weather":{"command":"/opt/weather","args":["#));
    }
}
