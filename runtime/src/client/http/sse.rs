//! Reading a `text/event-stream` body: the `data` of each event, as the bytes arrive.
//!
//! The SSE rules a client needs: lines end with CRLF, LF or CR; `data:` lines (one leading
//! space dropped) are joined by newlines; an empty line ends the event; comments (`:`) and
//! `event` are read past; an event without `data` lines is no event, and one with an empty
//! `data:` (a priming event) has empty data; an unfinished event when the stream ends is
//! dropped. `id` sets the last event id (kept from event to event, and taken once an event
//! ends: the id a `Last-Event-ID` resumes from), unless it holds a NUL; `retry` with only
//! digits sets the reconnection delay.

/// The events read so far from one stream, fed its body piece by piece.
#[derive(Default)]
pub(crate) struct EventReader {
    /// Bytes of a line not ended yet.
    line: Vec<u8>,
    /// The data of the event being read, its lines joined by `\n`.
    data: Option<String>,
    /// The last byte fed was a CR: an LF right after it ends no second line.
    after_cr: bool,
    /// The `id` field's buffer, taken at the end of each event.
    id_buffer: Option<String>,
    /// The last event id of the events ended so far.
    last_id: Option<String>,
    /// The last `retry` field, in milliseconds.
    retry: Option<u64>,
    /// How many events were read (the empty ones too).
    dispatched: u64,
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

    /// A reader for a stream that resumes another, after the event `last_id`, with the
    /// reconnection delay `retry` it gave.
    pub(crate) fn resuming(mut self, last_id: Option<String>, retry: Option<u64>) -> Self {
        self.last_id = last_id;
        self.retry = retry;
        self
    }

    /// A reader for the next body of this stream (resumed): the last id, the delay and the
    /// count carried over, nothing of an unfinished line or event.
    pub(crate) fn resumed(self) -> Self {
        EventReader {
            last_id: self.last_id,
            retry: self.retry,
            dispatched: self.dispatched,
            ..EventReader::default()
        }
    }

    /// How many events were read so far.
    pub(crate) fn dispatched(&self) -> u64 {
        self.dispatched
    }

    /// The id of the last event read, for `Last-Event-ID`.
    pub(crate) fn last_id(&self) -> Option<&str> {
        self.last_id.as_deref()
    }

    /// The reconnection delay the server last asked for, in milliseconds.
    pub(crate) fn retry(&self) -> Option<u64> {
        self.retry
    }

    /// The line read is complete: a field, a comment, or the empty line ending an event.
    fn end_line(&mut self) -> Result<Option<String>, StreamError> {
        let line = std::mem::take(&mut self.line);
        if line.is_empty() {
            if self.id_buffer.is_some() {
                self.last_id.clone_from(&self.id_buffer);
            }
            let event = self.data.take();
            self.dispatched += u64::from(event.is_some());
            return Ok(event);
        }
        let line = String::from_utf8(line).map_err(|_| StreamError::NotUtf8)?;
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (line.as_str(), ""),
        };
        match field {
            "data" => match &mut self.data {
                Some(data) => {
                    data.push('\n');
                    data.push_str(value);
                }
                None => self.data = Some(value.to_owned()),
            },
            "id" if !value.contains('\0') => self.id_buffer = Some(value.to_owned()),
            "retry" if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
                self.retry = value.parse().ok();
            }
            _ => {}
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
    fn the_last_id_is_the_one_of_the_last_event_ended() {
        let mut reader = EventReader::default();
        assert_eq!(reader.last_id(), None);
        reader
            .feed(b"id: 1-0\nretry: 250\ndata:\n\n", 1 << 20)
            .unwrap();
        assert_eq!((reader.last_id(), reader.retry()), (Some("1-0"), Some(250)));
        // An event without its own id keeps the last one; an id of an event not ended yet
        // is not the last one (resuming from it would skip that event).
        reader
            .feed(b"data: a\n\nid: 1-2\ndata: b", 1 << 20)
            .unwrap();
        assert_eq!(reader.last_id(), Some("1-0"));
        reader
            .feed(b"\n\nid: bad\0id\nretry: 1x\ndata: c\n\n", 1 << 20)
            .unwrap();
        assert_eq!((reader.last_id(), reader.retry()), (Some("1-2"), Some(250)));
    }

    #[test]
    fn an_event_over_the_limit_is_an_error() {
        let mut reader = EventReader::default();
        assert_eq!(reader.feed(b"data: 12345\n", 16), Ok(vec![]));
        assert_eq!(reader.feed(b"data: 6789012", 16), Err(StreamError::TooLong));
    }
}
