//! The stdio transport: one JSON message per line in, one per line out.
//!
//! A blocking reader thread frames lines and dispatches them (most calls finish right
//! there, their replies collected into one batch per chunk of input); a blocking writer
//! thread drains the outbox into a buffered writer and flushes whenever the outbox is
//! empty, so pipelined replies leave in few writes.

use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};

use crate::connection::{Connection, LineProblem, Outbox};
use crate::server::Server;

/// Options of the stdio transport.
#[derive(Debug, Clone)]
pub struct StdioConfig {
    /// The longest accepted line, in bytes (default 4 MiB). A longer line is answered with
    /// an error (-32600) and skipped; the server keeps reading.
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
pub async fn serve_stdio(server: Server) -> io::Result<()> {
    serve_stdio_with(server, StdioConfig::default()).await
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

fn write_loop<W: Write>(mut outbox: Outbox, output: W) -> io::Result<()> {
    let mut out = BufWriter::with_capacity(64 * 1024, output);
    while let Some(message) = outbox.blocking_recv() {
        out.write_all(message.as_bytes())?;
        out.write_all(b"\n")?;
        while let Ok(message) = outbox.try_recv() {
            out.write_all(message.as_bytes())?;
            out.write_all(b"\n")?;
        }
        out.flush()?;
    }
    out.flush()
}

/// Reads lines until end of input; read errors end the input like EOF does.
fn read_loop<R: Read>(conn: &Connection, input: R, limit: usize) {
    let mut reader = BufReader::with_capacity(64 * 1024, input);
    let mut line: Vec<u8> = Vec::new();
    let mut skipping = false;
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
            // No newline yet: keep the partial line (or drop it if it is already too long).
            let n = available.len();
            if !skipping && line.len() + n > limit {
                skipping = true;
                line = Vec::new();
            }
            if !skipping {
                line.extend_from_slice(available);
            }
            reader.consume(n);
            continue;
        };
        if skipping || line.len() + end > limit {
            conn.reject_line(LineProblem::TooLong(limit));
            skipping = false;
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
    if skipping {
        conn.reject_line(LineProblem::TooLong(limit));
    } else if !line.is_empty() {
        dispatch(conn, &line);
    }
}

fn dispatch(conn: &Connection, line: &[u8]) {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return;
    }
    conn.handle_bytes(line);
}
