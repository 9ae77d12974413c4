//! The one JSON scanner: the grammar checked byte by byte without recursion, and the
//! top-level `id` found on the way. Fed in pieces with bounded memory ([`IdScanner`]) for a
//! message too long to keep, or run over a whole line ([`scan`]) on the error path, where
//! serde_json stopped at the first member of the wrong type.

use super::message::valid_id_text;

/// What [`scan`] learned about a line that serde_json would not read as a message.
#[derive(Debug, PartialEq)]
pub(crate) enum Scanned {
    /// Not one JSON value: a parse error.
    NotJson,
    /// A JSON array (a batch).
    Array,
    /// Other JSON; `id` is the text of its top-level `id` member when there is exactly one
    /// and it is a string or an integer.
    Json { id: Option<String> },
}

/// Checks a whole line against the JSON grammar (any depth is safe: nothing recurses) and
/// finds its top-level `id`: the [`IdScanner`] machine with no bound on depth or id length,
/// reading any JSON value.
pub(crate) fn scan(line: &str) -> Scanned {
    let mut scanner = IdScanner::with_bounds(usize::MAX, usize::MAX, true);
    scanner.feed(line.as_bytes());
    scanner.end();
    if scanner.state != State::Done {
        Scanned::NotJson
    } else if scanner.top_array {
        Scanned::Array
    } else {
        Scanned::Json {
            id: scanner.finish(),
        }
    }
}

/// Finds the top-level `id` of a JSON-RPC message fed to it in pieces, keeping none of the
/// message: a transport feeds it the bytes of a message it will not hold (one over its size
/// limit), and the error it answers with can still carry the request's id.
///
/// Its memory is bounded, however much it is fed: a state, a depth counter, one bit per open
/// container for the first [`IdScanner::MAX_DEPTH`] levels (object or array), and the text of
/// the top-level `id` value, at most [`IdScanner::MAX_ID_BYTES`] bytes.
///
/// It checks the JSON grammar as it goes, so bytes that are not one JSON object give no id;
/// deeper than `MAX_DEPTH` levels it only pairs brackets and skips strings until it is back
/// at that depth. Bytes are not checked to be UTF-8, except the id's. Members nested in other
/// values (an `id` inside `params`) are ignored.
///
/// [`scan`] runs the same machine over a whole line without those bounds.
#[derive(Debug, Clone)]
pub struct IdScanner {
    state: State,
    /// Containers open.
    depth: usize,
    /// Bit `d - 1` is set when the container at depth `d` (up to `max_depth`) is an object;
    /// words are added as the depth first reaches them.
    objects: Vec<u64>,
    /// Levels whose kind is tracked ([`IdScanner::MAX_DEPTH`], or unbounded for [`scan`]).
    max_depth: usize,
    /// The longest id text kept ([`IdScanner::MAX_ID_BYTES`], or unbounded for [`scan`]).
    max_id: usize,
    /// Any JSON value is read, not only an object ([`scan`]).
    any_value: bool,
    /// The value read is an array (only with `any_value`).
    top_array: bool,
    /// The names of [`MEMBERS`] the top-level key being read may still be (bit `i` for
    /// `MEMBERS[i]`), and how many of its characters have been read.
    key_alive: u8,
    key_len: u8,
    /// The names of [`MEMBERS`] seen as top-level keys.
    seen: u8,
    /// Top-level `id` members seen (saturating).
    ids: u8,
    /// The value being read is the top-level `id`'s: its bytes go to `id`.
    in_id: bool,
    /// The `id` value cannot be echoed: longer than `MAX_ID_BYTES`, or an object or array.
    id_unusable: bool,
    id: Vec<u8>,
}

/// The top-level member names the scanner tells apart, and their bits.
const MEMBERS: [&[u8]; 4] = [b"id", b"method", b"result", b"error"];
const ID: u8 = 1;
const METHOD: u8 = 2;
const RESULT: u8 = 4;
const ERROR: u8 = 8;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Before the message: whitespace, then `{`.
    Start,
    /// A value is expected (after `:`, or after `,` in an array).
    Value,
    /// After `[`: a value or `]`.
    ValueOrEnd,
    /// After `{`: a key or `}`.
    KeyOrEnd,
    /// After `,` in an object: a key.
    Key,
    /// After a key: `:`.
    Colon,
    /// After a value: `,` or the container's closing bracket.
    AfterValue,
    /// In a string (an object key when `key`).
    Str { key: bool },
    /// After a backslash in a string.
    Escape { key: bool },
    /// In a `\uXXXX` escape: `left` hex digits to go, `code` the digits so far.
    Unicode { key: bool, left: u8, code: u16 },
    /// In a number.
    Number(Num),
    /// In `true`, `false` or `null`: the letters still expected.
    Word(&'static [u8]),
    /// Deeper than `MAX_DEPTH`: only strings and brackets are followed.
    Deep(Deep),
    /// The top-level object has closed: only whitespace may follow.
    Done,
    /// Not one JSON object: no id.
    Failed,
}

/// Where a number is: after `-`, after `0`, in the other integer digits, after `.`, in the
/// fraction digits, after `e`, after the exponent's sign, in the exponent digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Num {
    Minus,
    Zero,
    Int,
    Dot,
    Frac,
    E,
    ESign,
    Exp,
}

/// Below `MAX_DEPTH`: between tokens, in a string, after a backslash in a string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Deep {
    Out,
    Str,
    Escape,
}

impl Default for IdScanner {
    fn default() -> Self {
        Self::new()
    }
}

impl IdScanner {
    /// The longest id text kept, in bytes, quotes and escapes included; a longer id is not
    /// echoed.
    pub const MAX_ID_BYTES: usize = 256;
    /// Nesting levels whose kind (object or array) is tracked; deeper, brackets are only
    /// counted.
    pub const MAX_DEPTH: usize = 1024;

    /// A scanner at the start of a message.
    pub fn new() -> Self {
        Self::with_bounds(Self::MAX_DEPTH, Self::MAX_ID_BYTES, false)
    }

    fn with_bounds(max_depth: usize, max_id: usize, any_value: bool) -> Self {
        IdScanner {
            state: State::Start,
            depth: 0,
            objects: Vec::new(),
            max_depth,
            max_id,
            any_value,
            top_array: false,
            key_alive: 0,
            key_len: 0,
            seen: 0,
            ids: 0,
            in_id: false,
            id_unusable: false,
            id: Vec::new(),
        }
    }

    /// Reads the next bytes of the message.
    pub fn feed(&mut self, mut bytes: &[u8]) {
        while let Some(&b) = bytes.first() {
            // Fast path: the body of a string that is neither a top-level key nor the id.
            let plain = match self.state {
                State::Failed => return,
                State::Str { key } => !(self.in_id || key && self.depth == 1),
                State::Deep(Deep::Str) => true,
                _ => false,
            };
            if plain {
                let n = bytes
                    .iter()
                    .position(|&b| matches!(b, b'"' | b'\\' | 0..=0x1f))
                    .unwrap_or(bytes.len());
                if n > 0 {
                    bytes = &bytes[n..];
                    continue;
                }
            }
            if self.step(b) {
                bytes = &bytes[1..];
            }
        }
    }

    /// The top-level `id`'s text exactly as sent, when the bytes fed were one JSON object
    /// with exactly one top-level `id` member, a string or an integer (see [`valid_id`]) of
    /// at most [`IdScanner::MAX_ID_BYTES`] bytes.
    pub fn finish(mut self) -> Option<String> {
        self.end();
        if self.state != State::Done || self.ids != 1 || self.id_unusable {
            return None;
        }
        let text = String::from_utf8(self.id).ok()?;
        valid_id_text(&text).then_some(text)
    }

    /// Whether the bytes fed were one JSON object with a top-level `result` or `error`
    /// member and no `method`: a response to a request, not a request.
    pub fn is_response(&self) -> bool {
        // `Done` needs an object, which never ends in a number: `end` has nothing to add.
        self.state == State::Done && self.seen & METHOD == 0 && self.seen & (RESULT | ERROR) != 0
    }

    /// The end of the input: a number at the top level (only with `any_value`) ends there.
    fn end(&mut self) {
        if self.depth == 0
            && let State::Number(Num::Zero | Num::Int | Num::Frac | Num::Exp) = self.state
        {
            self.state = State::Done;
        }
    }

    /// Reads one byte; false when the byte ended a number and is to be read again.
    fn step(&mut self, b: u8) -> bool {
        let ws = matches!(b, b' ' | b'\t' | b'\n' | b'\r');
        match self.state {
            State::Start | State::Done if ws => {}
            State::Start if b == b'{' => self.open(true),
            State::Start if self.any_value => {
                self.top_array = b == b'[';
                self.value(b);
            }
            State::Start | State::Done | State::Failed => self.state = State::Failed,
            State::Value
            | State::ValueOrEnd
            | State::KeyOrEnd
            | State::Key
            | State::Colon
            | State::AfterValue
                if ws => {}
            State::ValueOrEnd if b == b']' => self.close(false),
            State::Value | State::ValueOrEnd => self.value(b),
            State::KeyOrEnd if b == b'}' => self.close(true),
            State::KeyOrEnd | State::Key if b == b'"' => {
                self.state = State::Str { key: true };
                if self.depth == 1 {
                    self.key_alive = (1 << MEMBERS.len()) - 1;
                    self.key_len = 0;
                }
            }
            State::Colon if b == b':' => self.state = State::Value,
            State::AfterValue if b == b',' => {
                self.state = if self.in_object() {
                    State::Key
                } else {
                    State::Value
                };
            }
            State::AfterValue if b == b'}' || b == b']' => self.close(b == b'}'),
            State::KeyOrEnd | State::Key | State::Colon | State::AfterValue => {
                self.state = State::Failed;
            }
            State::Str { key } => {
                self.keep(b);
                match b {
                    b'"' if key => self.end_key(),
                    b'"' => self.end_value(),
                    b'\\' => self.state = State::Escape { key },
                    0..=0x1f => self.state = State::Failed,
                    _ => self.key_char(key, u32::from(b)),
                }
            }
            State::Escape { key } => {
                self.keep(b);
                let decoded = match b {
                    b'"' | b'\\' | b'/' => b,
                    b'b' => 0x08,
                    b'f' => 0x0c,
                    b'n' => b'\n',
                    b'r' => b'\r',
                    b't' => b'\t',
                    b'u' => {
                        self.state = State::Unicode {
                            key,
                            left: 4,
                            code: 0,
                        };
                        return true;
                    }
                    _ => {
                        self.state = State::Failed;
                        return true;
                    }
                };
                self.key_char(key, u32::from(decoded));
                self.state = State::Str { key };
            }
            State::Unicode { key, left, code } => {
                self.keep(b);
                let Some(digit) = char::from(b).to_digit(16) else {
                    self.state = State::Failed;
                    return true;
                };
                // Four hex digits fit a u16.
                let code = code << 4 | digit as u16;
                if left == 1 {
                    self.key_char(key, u32::from(code));
                    self.state = State::Str { key };
                } else {
                    self.state = State::Unicode {
                        key,
                        left: left - 1,
                        code,
                    };
                }
            }
            State::Number(n) => return self.number(n, b),
            State::Word(rest) => {
                if rest.first() != Some(&b) {
                    self.state = State::Failed;
                    return true;
                }
                self.keep(b);
                if rest.len() == 1 {
                    self.end_value();
                } else {
                    self.state = State::Word(&rest[1..]);
                }
            }
            State::Deep(d) => self.deep(d, b),
        }
        true
    }

    /// The first byte of a value.
    fn value(&mut self, b: u8) {
        if matches!(b, b'{' | b'[') {
            if self.in_id {
                self.in_id = false;
                self.id_unusable = true;
            }
            return self.open(b == b'{');
        }
        self.keep(b);
        self.state = match b {
            b'"' => State::Str { key: false },
            b'-' => State::Number(Num::Minus),
            b'0' => State::Number(Num::Zero),
            b'1'..=b'9' => State::Number(Num::Int),
            b't' => State::Word(b"rue"),
            b'f' => State::Word(b"alse"),
            b'n' => State::Word(b"ull"),
            _ => State::Failed,
        };
    }

    /// A byte in a number; false when it ended the number.
    fn number(&mut self, n: Num, b: u8) -> bool {
        let next = match (n, b) {
            (Num::Minus, b'0') => Num::Zero,
            (Num::Minus | Num::Int, b'1'..=b'9') | (Num::Int, b'0') => Num::Int,
            (Num::Zero | Num::Int, b'.') => Num::Dot,
            (Num::Dot | Num::Frac, b'0'..=b'9') => Num::Frac,
            (Num::Zero | Num::Int | Num::Frac, b'e' | b'E') => Num::E,
            (Num::E, b'+' | b'-') => Num::ESign,
            (Num::E | Num::ESign | Num::Exp, b'0'..=b'9') => Num::Exp,
            (Num::Zero | Num::Int | Num::Frac | Num::Exp, _) => {
                self.end_value();
                return false;
            }
            _ => {
                self.state = State::Failed;
                return true;
            }
        };
        self.keep(b);
        self.state = State::Number(next);
        true
    }

    fn deep(&mut self, d: Deep, b: u8) {
        self.state = State::Deep(match (d, b) {
            (Deep::Out, b'"') => Deep::Str,
            (Deep::Out, b'{' | b'[') => {
                self.depth += 1;
                Deep::Out
            }
            (Deep::Out, b'}' | b']') => {
                self.depth -= 1;
                if self.depth == self.max_depth {
                    return self.end_value();
                }
                Deep::Out
            }
            (Deep::Str, b'"') | (Deep::Out, _) => Deep::Out,
            (Deep::Str, b'\\') => Deep::Escape,
            (Deep::Str | Deep::Escape, _) => Deep::Str,
        });
    }

    fn open(&mut self, object: bool) {
        self.depth += 1;
        if self.depth > self.max_depth {
            self.state = State::Deep(Deep::Out);
            return;
        }
        let (word, bit) = ((self.depth - 1) / 64, (self.depth - 1) % 64);
        if word == self.objects.len() {
            self.objects.push(0);
        }
        if object {
            self.objects[word] |= 1 << bit;
            self.state = State::KeyOrEnd;
        } else {
            self.objects[word] &= !(1 << bit);
            self.state = State::ValueOrEnd;
        }
    }

    fn in_object(&self) -> bool {
        let (word, bit) = ((self.depth - 1) / 64, (self.depth - 1) % 64);
        self.objects[word] & 1 << bit != 0
    }

    fn close(&mut self, object: bool) {
        if self.in_object() != object {
            self.state = State::Failed;
            return;
        }
        self.depth -= 1;
        if self.depth == 0 {
            self.state = State::Done;
        } else {
            self.end_value();
        }
    }

    fn end_value(&mut self) {
        self.state = if self.depth == 0 {
            State::Done
        } else {
            State::AfterValue
        };
        self.in_id = false;
    }

    /// A key's closing quote.
    fn end_key(&mut self) {
        self.state = State::Colon;
        if self.depth != 1 {
            return;
        }
        let mut names = 0;
        for (i, name) in MEMBERS.iter().enumerate() {
            if self.key_alive & 1 << i != 0 && name.len() == usize::from(self.key_len) {
                names |= 1 << i;
            }
        }
        self.seen |= names;
        if names & ID != 0 {
            self.ids = self.ids.saturating_add(1);
            self.in_id = self.ids == 1;
        }
    }

    /// One decoded character (or, past ASCII, one byte) of a key.
    fn key_char(&mut self, key: bool, c: u32) {
        if !key || self.depth != 1 {
            return;
        }
        let at = usize::from(self.key_len);
        for (i, name) in MEMBERS.iter().enumerate() {
            if name.get(at).is_none_or(|&n| u32::from(n) != c) {
                self.key_alive &= !(1 << i);
            }
        }
        self.key_len = self.key_len.saturating_add(1);
    }

    /// Keeps a byte of the top-level id's value.
    fn keep(&mut self, b: u8) {
        if self.in_id {
            if self.id.len() < self.max_id {
                self.id.push(b);
            } else {
                self.id_unusable = true;
            }
        }
    }
}

#[cfg(test)]
mod tests;
