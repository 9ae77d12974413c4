//! The base protocol's framing, read by hand so that no frame ends the server: a
//! `Content-Length` header, a blank line, that many bytes of JSON.
//!
//! `lsp-server`'s reader ends the connection on the first frame it cannot read, and allocates
//! whatever length a header declares. [`FrameReader`] answers each bad frame instead and goes
//! on (docs/lsp.md, "Malformed messages", says what a client sees):
//!
//! - a body that is not UTF-8 or not JSON: `-32700` (id `null`), the next frame is read after
//!   the declared length. Such a body that holds a `Content-Length:` (a client that declared
//!   more bytes than it sent, so the body ran into the next frame) is read again from there;
//! - JSON that is no request, response or notification: `-32600`, with the request's id when
//!   it has one, else `null`; a malformed response of the client's is dropped (JSON-RPC does
//!   not answer responses);
//! - a header with no `Content-Length`, one that is not a number of bytes, two that differ,
//!   a `Content-Length` over [`MAX_CONTENT_LENGTH`] (refused at once, nothing allocated), or
//!   a header longer than [`MAX_HEADER_BYTES`] without its blank line: `-32700`, and the
//!   input is dropped as it streams in up to the next `Content-Length:`, looked for from the
//!   bad header's second byte (a header a short body ran into holds the next frame's). A
//!   client that really sends an oversized body has it dropped; one that lied about the
//!   length loses nothing after it;
//! - a header line without `:` in a header that is otherwise whole: `-32700`, the body is
//!   skipped by its length.
//!
//! Header names are matched without regard to case, spaces around a value are ignored, and
//! header fields other than `Content-Length` are ignored (`Content-Type` included: bodies are
//! read as UTF-8, the one encoding the protocol has). Blank lines between frames are skipped.
//! Nothing read is kept beyond the frame being read: memory stays bounded by the two caps
//! whatever the input.

use std::io::{self, Read};

use lsp_server::{Message, Notification, Request, Response};
use serde_json::{Value, json};

/// The largest body read: 4 MiB. A `didOpen` carries the whole document, so this bounds the
/// `.tool` file an editor can open (escaped as a JSON string) well above any real one.
pub const MAX_CONTENT_LENGTH: u64 = 4 * 1024 * 1024;

/// The largest header (every header line and the blank line after them): 4 KiB.
pub const MAX_HEADER_BYTES: usize = 4 * 1024;

/// JSON-RPC's "Parse error".
const PARSE_ERROR: i64 = -32700;
/// JSON-RPC's "Invalid Request".
const INVALID_REQUEST: i64 = -32600;

/// What the resynchronisation looks for, lower case.
const CONTENT_LENGTH: &[u8] = b"content-length:";

/// How much is read from the input at a time.
const CHUNK: usize = 64 * 1024;

/// One frame read.
#[derive(Debug)]
pub enum Frame {
    /// A message to serve.
    Message(Message),
    /// A frame that is not a message.
    Refused {
        /// The error response to send the client (`None` for a response of the client's,
        /// which JSON-RPC does not answer).
        answer: Option<Value>,
        /// What was wrong, for the log.
        reason: String,
    },
}

/// Reads frames from `R` (stdin), one at a time, whatever the bytes.
pub struct FrameReader<R> {
    input: R,
    /// Bytes read from the input and not consumed yet, from `pos` on; bytes put back by
    /// [`FrameReader::unread`] are read again before the input.
    buf: Vec<u8>,
    pos: usize,
    /// Skip everything up to the next `Content-Length:` before reading a header.
    resync: bool,
    eof: bool,
}

/// Why a header could not be used.
enum BadHeader {
    /// Read on from the header's second byte, up to the next `Content-Length:`.
    Resync(String),
    /// Read on after the body: its length was readable.
    SkipBody(u64, String),
}

impl<R: Read> FrameReader<R> {
    pub fn new(input: R) -> Self {
        FrameReader {
            input,
            buf: Vec::new(),
            pos: 0,
            resync: false,
            eof: false,
        }
    }

    /// The next frame, `None` at the end of the input. Errors are the input's own.
    pub fn read(&mut self) -> io::Result<Option<Frame>> {
        if self.resync {
            self.resync = false;
            if !self.skip_to_content_length()? {
                return Ok(None);
            }
        }
        self.skip_blank_lines()?;
        let Some((raw, complete)) = self.read_header()? else {
            return Ok(None);
        };
        let length = match complete {
            true => content_length(&raw[..raw.len() - 4]),
            false => Err(BadHeader::Resync(format!(
                "a message header longer than {MAX_HEADER_BYTES} bytes"
            ))),
        };
        let length = match length {
            Ok((length, _)) if length <= MAX_CONTENT_LENGTH => length,
            Ok((_, digits)) => {
                return Ok(Some(self.bad_header(
                    &raw,
                    BadHeader::Resync(format!(
                        "a message of {digits} bytes is over the limit of {MAX_CONTENT_LENGTH} bytes"
                    )),
                )?));
            }
            Err(bad) => return Ok(Some(self.bad_header(&raw, bad)?)),
        };
        // At most MAX_CONTENT_LENGTH (4 MiB): fits a usize.
        let Some(body) = self.read_body(length as usize)? else {
            return Ok(None);
        };
        Ok(Some(self.decode(body)))
    }

    /// The answer to a header that cannot be used, and where to read on.
    fn bad_header(&mut self, raw: &[u8], bad: BadHeader) -> io::Result<Frame> {
        match bad {
            BadHeader::Resync(reason) => {
                // The header may hold the next frame's start (after a body that ran short):
                // look for it from the header's second byte.
                self.unread(&raw[1..]);
                self.resync = true;
                Ok(parse_error(reason))
            }
            BadHeader::SkipBody(length, reason) => {
                self.skip(length)?;
                Ok(parse_error(reason))
            }
        }
    }

    /// A body's message, or the answer to it.
    fn decode(&mut self, body: Vec<u8>) -> Frame {
        let reason = match std::str::from_utf8(&body) {
            Err(_) => "the message is not UTF-8".to_string(),
            Ok(text) => match serde_json::from_str::<Value>(text) {
                Ok(value) => return message(value),
                Err(error) => format!("the message is not JSON: {error}"),
            },
        };
        // A body that ran into the next frame (its length said more than was sent): read
        // again from that frame's header.
        if let Some(at) = find_content_length(&body) {
            self.unread(&body[at..]);
        }
        parse_error(reason)
    }

    /// Reads more of the input after what is left to read; false at its end.
    fn read_more(&mut self) -> io::Result<bool> {
        if self.eof {
            return Ok(false);
        }
        self.buf.drain(..self.pos);
        self.pos = 0;
        let old = self.buf.len();
        self.buf.resize(old + CHUNK, 0);
        let n = loop {
            match self.input.read(&mut self.buf[old..]) {
                Ok(n) => break n,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => {
                    self.buf.truncate(old);
                    return Err(error);
                }
            }
        };
        self.buf.truncate(old + n);
        self.eof = n == 0;
        Ok(n > 0)
    }

    /// What is left to read, reading the input when nothing is; empty at its end.
    fn fill(&mut self) -> io::Result<&[u8]> {
        if self.pos == self.buf.len() {
            self.read_more()?;
        }
        Ok(&self.buf[self.pos..])
    }

    fn consume(&mut self, n: usize) {
        self.pos += n;
    }

    /// Puts `bytes` back in front of what is left to read.
    fn unread(&mut self, bytes: &[u8]) {
        let mut buf = Vec::with_capacity(bytes.len() + self.buf.len() - self.pos);
        buf.extend_from_slice(bytes);
        buf.extend_from_slice(&self.buf[self.pos..]);
        self.buf = buf;
        self.pos = 0;
    }

    fn skip_blank_lines(&mut self) -> io::Result<()> {
        loop {
            let available = self.fill()?;
            if available.is_empty() {
                return Ok(());
            }
            let blank = available
                .iter()
                .take_while(|&&b| b == b'\r' || b == b'\n')
                .count();
            let all = blank == available.len();
            self.consume(blank);
            if !all {
                return Ok(());
            }
        }
    }

    /// The header up to and with its blank line (`true`), or as much as the cap allows
    /// (`false`); `None` when the input ends first.
    fn read_header(&mut self) -> io::Result<Option<(Vec<u8>, bool)>> {
        let mut header = Vec::new();
        loop {
            let available = self.fill()?;
            if available.is_empty() {
                return Ok(None);
            }
            let take = available.len().min(MAX_HEADER_BYTES - header.len());
            let before = header.len();
            header.extend_from_slice(&available[..take]);
            // "\r\n\r\n" may have begun in the bytes read before.
            let from = before.saturating_sub(3);
            if let Some(at) = header[from..].windows(4).position(|w| w == b"\r\n\r\n") {
                let end = from + at + 4;
                header.truncate(end);
                self.consume(end - before);
                return Ok(Some((header, true)));
            }
            self.consume(take);
            if header.len() == MAX_HEADER_BYTES {
                return Ok(Some((header, false)));
            }
        }
    }

    /// Reads `length` bytes; `None` when the input ends first.
    fn read_body(&mut self, length: usize) -> io::Result<Option<Vec<u8>>> {
        let mut body = Vec::with_capacity(length);
        while body.len() < length {
            let available = self.fill()?;
            if available.is_empty() {
                return Ok(None);
            }
            let take = available.len().min(length - body.len());
            body.extend_from_slice(&available[..take]);
            self.consume(take);
        }
        Ok(Some(body))
    }

    /// Drops `length` bytes as they come, or what is left of the input.
    fn skip(&mut self, mut length: u64) -> io::Result<()> {
        while length > 0 {
            let available = self.fill()?.len();
            if available == 0 {
                return Ok(());
            }
            // At most `available`, a usize.
            let take = (available as u64).min(length) as usize;
            self.consume(take);
            length -= take as u64;
        }
        Ok(())
    }

    /// Drops everything before the next `Content-Length:` (any case), keeping no more of it
    /// than the token's length; false when the input ends first.
    fn skip_to_content_length(&mut self) -> io::Result<bool> {
        loop {
            let available = &self.buf[self.pos..];
            if let Some(at) = find_content_length(available) {
                self.consume(at);
                return Ok(true);
            }
            // The token may straddle what is here and what comes next.
            let keep = available.len().min(CONTENT_LENGTH.len() - 1);
            self.consume(available.len() - keep);
            if !self.read_more()? {
                return Ok(false);
            }
        }
    }
}

/// Where `Content-Length:` (any case) first occurs in `bytes`.
fn find_content_length(bytes: &[u8]) -> Option<usize> {
    let last = bytes.len().checked_sub(CONTENT_LENGTH.len())?;
    // Only where a `c` is: a quick test of each byte, the comparison at few of them.
    (0..=last).find(|&at| {
        (bytes[at] | 0x20) == b'c'
            && bytes[at..at + CONTENT_LENGTH.len()].eq_ignore_ascii_case(CONTENT_LENGTH)
    })
}

/// The `Content-Length` of a header block (its lines without the blank line), with its
/// digits as written.
fn content_length(header: &[u8]) -> Result<(u64, String), BadHeader> {
    let mut length: Option<(u64, String)> = None;
    let mut malformed_line = false;
    for line in header.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let Some(colon) = line.iter().position(|&b| b == b':') else {
            malformed_line = true;
            continue;
        };
        if !line[..colon].eq_ignore_ascii_case(b"content-length") {
            continue;
        }
        let value = line[colon + 1..].trim_ascii();
        let digits = String::from_utf8_lossy(value).into_owned();
        if value.is_empty() || !value.iter().all(u8::is_ascii_digit) {
            return Err(BadHeader::Resync(format!(
                "Content-Length `{digits}` is not a number of bytes"
            )));
        }
        // Too many digits for a u64 is as oversized as any length over the cap.
        let parsed = digits.parse::<u64>().unwrap_or(u64::MAX);
        match &length {
            Some((earlier, written)) if *earlier != parsed => {
                return Err(BadHeader::Resync(format!(
                    "two Content-Length headers that differ ({written} and {digits})"
                )));
            }
            _ => length = Some((parsed, digits)),
        }
    }
    let Some((length, digits)) = length else {
        return Err(BadHeader::Resync(
            "the message header has no Content-Length".into(),
        ));
    };
    if malformed_line && length <= MAX_CONTENT_LENGTH {
        return Err(BadHeader::SkipBody(
            length,
            "a header line without `:`".into(),
        ));
    }
    Ok((length, digits))
}

/// A JSON value as a message, or the answer to it.
fn message(value: Value) -> Frame {
    let Some(object) = value.as_object() else {
        return refused(
            INVALID_REQUEST,
            Value::Null,
            "the message is not a JSON object".into(),
        );
    };
    // An id the answer can carry: a number or a string (else `null`, as JSON-RPC says).
    let id = match object.get("id") {
        Some(id @ (Value::Number(_) | Value::String(_))) => id.clone(),
        _ => Value::Null,
    };
    let has_id = object.get("id").is_some_and(|id| !id.is_null());
    let is_response = object.contains_key("result") || object.contains_key("error");
    if object.contains_key("method") && has_id {
        // A request: `lsp-server` would read one with an id it cannot hold (not a string or
        // a 32-bit integer) as a notification, and leave it unanswered.
        return match serde_json::from_value::<Request>(value) {
            Ok(request) => Frame::Message(Message::Request(request)),
            Err(_)
                if id.is_number() && id.as_i64().and_then(|n| i32::try_from(n).ok()).is_none() =>
            {
                refused(
                    INVALID_REQUEST,
                    id.clone(),
                    format!("the id {id} is not a string or a 32-bit integer"),
                )
            }
            Err(error) => refused(INVALID_REQUEST, id, format!("not a request: {error}")),
        };
    }
    if object.contains_key("method") {
        return match serde_json::from_value::<Notification>(value) {
            Ok(notification) => Frame::Message(Message::Notification(notification)),
            Err(error) => refused(
                INVALID_REQUEST,
                Value::Null,
                format!("not a notification: {error}"),
            ),
        };
    }
    if is_response {
        // JSON-RPC answers no response, even one it cannot read.
        return match serde_json::from_value::<Response>(value) {
            Ok(response) => Frame::Message(Message::Response(response)),
            Err(error) => Frame::Refused {
                answer: None,
                reason: format!("a response that cannot be read, dropped: {error}"),
            },
        };
    }
    refused(
        INVALID_REQUEST,
        id,
        "not a request, response or notification (no method)".into(),
    )
}

fn parse_error(reason: String) -> Frame {
    refused(PARSE_ERROR, Value::Null, reason)
}

fn refused(code: i64, id: Value, reason: String) -> Frame {
    let answer = json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": code, "message": format!("toolidl lsp: {reason}")},
    });
    Frame::Refused {
        answer: Some(answer),
        reason,
    }
}

/// Writes `answer` as one frame.
pub fn write_answer(out: &mut impl io::Write, answer: &Value) -> io::Result<()> {
    let body = answer.to_string();
    write!(out, "Content-Length: {}\r\n\r\n{body}", body.len())?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every frame of `input`, read in chunks of `chunk` bytes at most.
    fn frames(input: &[u8], chunk: usize) -> Vec<Result<String, (Option<Value>, String)>> {
        struct Trickle<'a>(&'a [u8], usize);
        impl Read for Trickle<'_> {
            fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
                let n = self.0.len().min(self.1).min(out.len());
                out[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let mut reader = FrameReader::new(Trickle(input, chunk));
        let mut out = Vec::new();
        while let Some(frame) = reader.read().unwrap() {
            out.push(match frame {
                Frame::Message(Message::Request(r)) => Ok(r.method),
                Frame::Message(Message::Notification(n)) => Ok(n.method),
                Frame::Message(Message::Response(r)) => Ok(format!("response {}", r.id)),
                Frame::Refused { answer, reason } => Err((answer, reason)),
            });
        }
        out
    }

    fn request(method: &str) -> Vec<u8> {
        let body = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"{method}"}}"#);
        format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
    }

    #[test]
    fn reads_frames_split_anywhere() {
        let mut input = request("a");
        input.extend(b"\r\n");
        input.extend(request("b"));
        for chunk in [1, 2, 3, 7, 64, 100_000] {
            assert_eq!(
                frames(&input, chunk),
                vec![Ok("a".to_string()), Ok("b".to_string())],
                "chunk {chunk}"
            );
        }
    }

    #[test]
    fn resynchronises_on_a_content_length_split_across_reads() {
        for chunk in [1, 5, 13, 64] {
            let mut input = b"Content-Length: x\r\n\r\n{}".to_vec();
            input.extend(std::iter::repeat_n(b'c', 200));
            input.extend(b"CONTENT-LENGTH");
            input.extend(b"Content-Len");
            input.extend(request("b"));
            let read = frames(&input, chunk);
            assert_eq!(read.len(), 2, "chunk {chunk}: {read:?}");
            assert!(read[0].is_err());
            assert_eq!(read[1], Ok("b".to_string()), "chunk {chunk}");
        }
    }

    #[test]
    fn an_oversized_frame_keeps_nothing() {
        let mut input = b"Content-Length: 5000000\r\n\r\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', 5_000_000));
        input.extend(request("b"));
        let read = frames(&input, CHUNK);
        assert_eq!(read.len(), 2, "{read:?}");
        assert_eq!(read[1], Ok("b".to_string()));
    }
}
