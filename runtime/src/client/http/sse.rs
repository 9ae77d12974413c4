//! Reading a `text/event-stream` body: the `data` of each event, as the bytes arrive.
//!
//! The SSE rules a client needs: lines end with CRLF, LF or CR; `data:` lines (one leading
//! space dropped) are joined by newlines; an empty line ends the event; comments (`:`) and
//! the other fields (`id`, `event`, `retry`) are read past; an event without `data` lines
//! is no event, and one with an empty `data:` (a priming event) has empty data; an
//! unfinished event when the stream ends is dropped.

/// The events read so far from one stream, fed its body piece by piece.
#[derive(Default)]
pub(crate) struct EventReader {
    /// Bytes of a line not ended yet.
    line: Vec<u8>,
    /// The data of the event being read, its lines joined by `\n`.
    data: Option<String>,
    /// The last byte fed was a CR: an LF right after it ends no second line.
    after_cr: bool,
}

/// Why a stream cannot be read further.
#[derive(Debug, PartialEq)]
pub(crate) enum StreamError {
    /// One event is longer than the limit.
    TooLong,
    /// A line is not UTF-8.
    NotUtf8,
}

impl EventReader {
    /// Reads `bytes` and returns the data of every event they complete, in order. An event
    /// over `limit` bytes is an error.
    pub(crate) fn feed(&mut self, bytes: &[u8], limit: usize) -> Result<Vec<String>, StreamError> {
        let mut events = Vec::new();
        for &byte in bytes {
            let after_cr = std::mem::replace(&mut self.after_cr, byte == b'\r');
            match byte {
                b'\n' if after_cr => {}
                b'\r' | b'\n' => {
                    if let Some(event) = self.end_line()? {
                        events.push(event);
                    }
                }
                _ => {
                    self.line.push(byte);
                    let held = self.line.len() + self.data.as_ref().map_or(0, String::len);
                    if held > limit {
                        return Err(StreamError::TooLong);
                    }
                }
            }
        }
        Ok(events)
    }

    /// The line read is complete: a field, a comment, or the empty line ending an event.
    fn end_line(&mut self) -> Result<Option<String>, StreamError> {
        let line = std::mem::take(&mut self.line);
        if line.is_empty() {
            return Ok(self.data.take());
        }
        let line = String::from_utf8(line).map_err(|_| StreamError::NotUtf8)?;
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (line.as_str(), ""),
        };
        if field == "data" {
            match &mut self.data {
                Some(data) => {
                    data.push('\n');
                    data.push_str(value);
                }
                None => self.data = Some(value.to_owned()),
            }
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(chunks: &[&str]) -> Vec<String> {
        let mut reader = EventReader::default();
        let mut out = Vec::new();
        for chunk in chunks {
            out.extend(reader.feed(chunk.as_bytes(), 1 << 20).unwrap());
        }
        out
    }

    #[test]
    fn data_lines_make_events_whatever_the_line_ends_and_pieces() {
        let text = "id: 1-1\nretry: 1000\ndata:\n\n: comment\nevent: message\ndata: {\"a\":1}\n\n\
                    data: one\r\ndata:two\r\n\r\ndata: three\r\rdata: unfinished";
        let whole = events(&[text]);
        assert_eq!(whole, ["", "{\"a\":1}", "one\ntwo", "three"]);
        let bytes: Vec<String> = text.chars().map(String::from).collect();
        let pieces: Vec<&str> = bytes.iter().map(String::as_str).collect();
        assert_eq!(events(&pieces), whole);
    }

    #[test]
    fn an_event_over_the_limit_is_an_error() {
        let mut reader = EventReader::default();
        assert_eq!(reader.feed(b"data: 12345\n", 16), Ok(vec![]));
        assert_eq!(reader.feed(b"data: 6789012", 16), Err(StreamError::TooLong));
    }
}
