//! Resumability of the handshake revisions' event streams: every SSE event of a session
//! has an id `<stream>-<seq>` (stream 0 is the GET stream, 1, 2, … the POST streams that
//! became event streams), and the session keeps the last events it sent in a bounded
//! buffer, so that a `GET` with `Last-Event-ID` replays what a dropped stream missed.

use std::collections::{HashMap, VecDeque};

use tokio::sync::mpsc;

use crate::peer::Routed;

/// The stream number of a session's GET stream.
pub(crate) const SESSION_STREAM: u64 = 0;

struct Entry {
    stream: u64,
    seq: u64,
    /// Empty for a priming event (an id with no message).
    text: String,
}

/// A POST stream whose call has not answered yet.
enum Live {
    /// Some response (the POST's, or a resuming GET's) is sending it.
    Attached,
    /// Its response went away before the reply: what the call sends next waits here.
    Orphaned(mpsc::UnboundedReceiver<Routed>),
}

/// A session's replay buffer and the state of its POST streams.
pub(crate) struct Replay {
    entries: VecDeque<Entry>,
    bytes: usize,
    max_events: usize,
    max_bytes: usize,
    last_stream: u64,
    /// The last sequence number of each stream still open.
    seqs: HashMap<u64, u64>,
    live: HashMap<u64, Live>,
}

/// What a `Last-Event-ID` resumes.
pub(crate) enum Resume {
    /// The GET stream, after replaying these events, `(id, message)` (none for an unknown
    /// id).
    Session(Vec<(String, String)>),
    /// A POST stream: the messages after the id, then (when the call has not answered
    /// yet) the rest of the call's messages.
    Request {
        stream: u64,
        replay: Vec<(String, String)>,
        rest: Option<mpsc::UnboundedReceiver<Routed>>,
    },
    /// The POST stream is still being sent by another response.
    Busy,
}

/// Parses `<stream>-<seq>`.
fn parse_id(id: &str) -> Option<(u64, u64)> {
    let (stream, seq) = id.trim().split_once('-')?;
    Some((stream.parse().ok()?, seq.parse().ok()?))
}

impl Replay {
    pub fn new(max_events: usize, max_bytes: usize) -> Replay {
        Replay {
            entries: VecDeque::new(),
            bytes: 0,
            max_events,
            max_bytes,
            last_stream: SESSION_STREAM,
            seqs: HashMap::new(),
            live: HashMap::new(),
        }
    }

    /// A new POST stream, being sent by its POST's response.
    pub fn open_request_stream(&mut self) -> u64 {
        self.last_stream += 1;
        self.live.insert(self.last_stream, Live::Attached);
        self.last_stream
    }

    /// Records an event of `stream` (`text` empty for a priming event) and returns its id.
    /// The reply of a POST stream closes it.
    pub fn record(&mut self, stream: u64, text: &str, reply: bool) -> String {
        let seq = self.seqs.entry(stream).or_insert(0);
        *seq += 1;
        let seq = *seq;
        if reply {
            self.seqs.remove(&stream);
            self.live.remove(&stream);
        }
        if self.max_events > 0 {
            self.bytes += text.len();
            self.entries.push_back(Entry {
                stream,
                seq,
                text: text.to_owned(),
            });
            // The newest event stays even when it alone is over the byte budget.
            while self.entries.len() > 1
                && (self.entries.len() > self.max_events || self.bytes > self.max_bytes)
            {
                if let Some(e) = self.entries.pop_front() {
                    self.bytes -= e.text.len();
                }
            }
        }
        format!("{stream}-{seq}")
    }

    /// The response sending `stream` went away before the call answered.
    pub fn orphan(&mut self, stream: u64, rest: mpsc::UnboundedReceiver<Routed>) {
        if let Some(live) = self.live.get_mut(&stream) {
            *live = Live::Orphaned(rest);
        }
    }

    /// `stream` ended without a reply (the call was cancelled, the session ended).
    pub fn ended(&mut self, stream: u64) {
        self.seqs.remove(&stream);
        self.live.remove(&stream);
    }

    /// What a GET with `Last-Event-ID: id` gets. An id this session's buffer does not hold
    /// (never sent, evicted, malformed) replays nothing.
    pub fn resume(&mut self, id: &str) -> Resume {
        let Some((stream, seq)) = parse_id(id) else {
            return Resume::Session(Vec::new());
        };
        let known = self
            .entries
            .iter()
            .any(|e| e.stream == stream && e.seq == seq);
        let replay: Vec<(String, String)> = if known {
            self.entries
                .iter()
                .filter(|e| e.stream == stream && e.seq > seq && !e.text.is_empty())
                .map(|e| (format!("{}-{}", e.stream, e.seq), e.text.clone()))
                .collect()
        } else {
            Vec::new()
        };
        if stream == SESSION_STREAM {
            return Resume::Session(replay);
        }
        match self.live.get_mut(&stream) {
            Some(Live::Attached) => Resume::Busy,
            Some(live) => {
                let Live::Orphaned(rest) = std::mem::replace(live, Live::Attached) else {
                    unreachable!("matched above");
                };
                Resume::Request {
                    stream,
                    replay,
                    rest: Some(rest),
                }
            }
            None if known => Resume::Request {
                stream,
                replay,
                rest: None,
            },
            None => Resume::Session(Vec::new()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(r: Resume) -> Vec<String> {
        let v = match r {
            Resume::Session(v) => v,
            Resume::Request { replay, .. } => replay,
            Resume::Busy => panic!("busy"),
        };
        v.into_iter().map(|(_, text)| text).collect()
    }

    #[test]
    fn replays_only_the_stream_of_the_id_and_only_what_followed_it() {
        let mut r = Replay::new(256, 1 << 20);
        assert_eq!(r.record(SESSION_STREAM, "a", false), "0-1");
        let s = r.open_request_stream();
        assert_eq!(r.record(s, "", false), "1-1");
        assert_eq!(r.record(SESSION_STREAM, "b", false), "0-2");
        assert_eq!(r.record(s, "p", false), "1-2");
        assert_eq!(r.record(s, "reply", true), "1-3");
        assert_eq!(texts(r.resume("0-1")), ["b"]);
        assert_eq!(texts(r.resume("1-1")), ["p", "reply"]);
        assert!(texts(r.resume("1-9")).is_empty());
        assert!(texts(r.resume("junk")).is_empty());
    }

    #[test]
    fn the_buffer_is_bounded() {
        let mut r = Replay::new(2, 1 << 20);
        r.record(SESSION_STREAM, "a", false);
        r.record(SESSION_STREAM, "b", false);
        r.record(SESSION_STREAM, "c", false);
        assert!(texts(r.resume("0-1")).is_empty(), "0-1 was evicted");
        assert_eq!(texts(r.resume("0-2")), ["c"]);
        let mut r = Replay::new(256, 3);
        r.record(SESSION_STREAM, "aa", false);
        r.record(SESSION_STREAM, "bb", false);
        assert!(texts(r.resume("0-1")).is_empty());
    }

    #[test]
    fn an_orphaned_call_is_handed_to_the_resuming_get_once() {
        let mut r = Replay::new(256, 1 << 20);
        let s = r.open_request_stream();
        let id = r.record(s, "", false);
        assert!(matches!(r.resume(&id), Resume::Busy));
        let (_tx, rx) = mpsc::unbounded_channel();
        r.orphan(s, rx);
        assert!(matches!(
            r.resume(&id),
            Resume::Request { rest: Some(_), .. }
        ));
        assert!(matches!(r.resume(&id), Resume::Busy));
    }
}
