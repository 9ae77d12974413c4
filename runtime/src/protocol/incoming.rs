//! Incoming JSON-RPC messages: one message parsed once (borrowing from the line), the
//! whole-line scanner its error path uses, and the IdScanner for messages too long to keep.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;

/// One incoming message, borrowing from the input line.
///
/// `id` keeps its raw text so it is echoed byte for byte; a present `null` is kept
/// (as `Some("null")`) so it can be refused rather than mistaken for a notification.
#[derive(Deserialize, Clone)]
pub(crate) struct Incoming<'a> {
    #[serde(borrow, default)]
    pub jsonrpc: Option<Cow<'a, str>>,
    #[serde(borrow, default, deserialize_with = "present")]
    pub id: Option<&'a RawValue>,
    #[serde(borrow, default)]
    pub method: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    pub params: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    pub result: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    pub error: Option<&'a RawValue>,
}

fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<&'de RawValue>, D::Error> {
    <&RawValue>::deserialize(d).map(Some)
}

/// A request id is a string or an integer (MCP forbids null).
pub(crate) fn valid_id(id: &RawValue) -> bool {
    valid_id_text(id.get())
}

/// [`valid_id`] on the raw text of a JSON value.
fn valid_id_text(text: &str) -> bool {
    match text.as_bytes().first() {
        Some(b'"') => true,
        Some(b'-' | b'0'..=b'9') => text.bytes().all(|b| b == b'-' || b.is_ascii_digit()),
        _ => false,
    }
}

/// What [`scan`] learned about a line that serde_json would not read as a message.
#[derive(Debug, PartialEq)]
pub(crate) enum Scanned<'a> {
    /// Not one JSON value: a parse error.
    NotJson,
    /// A JSON array (a batch).
    Array,
    /// Other JSON; `id` is its top-level `id` member when there is exactly one and it is
    /// a string or an integer.
    Json { id: Option<&'a str> },
}

/// Checks a whole line against the JSON grammar without recursion (so any depth is safe)
/// and finds its top-level `id`. Only the error path uses it: serde_json stops at the first
/// member of the wrong type, and the error reply should still carry the request's id.
pub(crate) fn scan(line: &str) -> Scanned<'_> {
    let b = line.as_bytes();
    let mut i = 0;
    // One entry per open container: true for an object.
    let mut stack: Vec<bool> = Vec::new();
    let mut ids: Vec<&str> = Vec::new();
    let mut top_key_is_id = false;
    // Where the value of a top-level `id` member started, until it ends.
    let mut id_start = None;
    let top_is_array = {
        skip_ws(b, &mut i);
        b.get(i) == Some(&b'[')
    };
    'value: loop {
        // A value is expected at `i`.
        skip_ws(b, &mut i);
        if stack.len() == 1 && std::mem::take(&mut top_key_is_id) {
            id_start = Some(i);
        }
        match b.get(i) {
            Some(b'{') | Some(b'[') => {
                let object = b[i] == b'{';
                i += 1;
                skip_ws(b, &mut i);
                let close = if object { b'}' } else { b']' };
                if b.get(i) == Some(&close) {
                    i += 1;
                } else {
                    stack.push(object);
                    if object {
                        let Some(is_id) = key(line, &mut i, stack.len() == 1) else {
                            return Scanned::NotJson;
                        };
                        top_key_is_id = is_id;
                    }
                    continue 'value;
                }
            }
            Some(b'"') => {
                if !string(b, &mut i) {
                    return Scanned::NotJson;
                }
            }
            Some(b't') if b[i..].starts_with(b"true") => i += 4,
            Some(b'f') if b[i..].starts_with(b"false") => i += 5,
            Some(b'n') if b[i..].starts_with(b"null") => i += 4,
            Some(b'-' | b'0'..=b'9') => {
                if !number(b, &mut i) {
                    return Scanned::NotJson;
                }
            }
            _ => return Scanned::NotJson,
        }
        // After a value: close containers or move to the next member.
        loop {
            if stack.len() == 1
                && let Some(start) = id_start.take()
            {
                ids.push(&line[start..i]);
            }
            skip_ws(b, &mut i);
            let Some(&object) = stack.last() else {
                if i != b.len() {
                    return Scanned::NotJson;
                }
                if top_is_array {
                    return Scanned::Array;
                }
                let id = match ids[..] {
                    [id] if serde_json::from_str::<&RawValue>(id).is_ok_and(valid_id) => Some(id),
                    _ => None,
                };
                return Scanned::Json { id };
            };
            match (b.get(i), object) {
                (Some(b','), _) => {
                    i += 1;
                    if object {
                        let Some(is_id) = key(line, &mut i, stack.len() == 1) else {
                            return Scanned::NotJson;
                        };
                        top_key_is_id = is_id;
                    }
                    continue 'value;
                }
                (Some(b'}'), true) | (Some(b']'), false) => {
                    i += 1;
                    stack.pop();
                }
                _ => return Scanned::NotJson,
            }
        }
    }
}

fn skip_ws(b: &[u8], i: &mut usize) {
    while matches!(b.get(*i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        *i += 1;
    }
}

/// Reads `"key" :`; tells whether the key is `id` (only asked at the top level).
fn key(line: &str, i: &mut usize, top: bool) -> Option<bool> {
    let b = line.as_bytes();
    skip_ws(b, i);
    let start = *i;
    if b.get(*i) != Some(&b'"') || !string(b, i) {
        return None;
    }
    let is_id = top && serde_json::from_str::<Cow<str>>(&line[start..*i]).is_ok_and(|k| k == "id");
    skip_ws(b, i);
    if b.get(*i) != Some(&b':') {
        return None;
    }
    *i += 1;
    Some(is_id)
}

/// Skips a string literal starting at the opening quote.
fn string(b: &[u8], i: &mut usize) -> bool {
    *i += 1;
    loop {
        match b.get(*i) {
            Some(b'"') => {
                *i += 1;
                return true;
            }
            Some(b'\\') => match b.get(*i + 1) {
                Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => *i += 2,
                Some(b'u') => {
                    let hex = b.get(*i + 2..*i + 6);
                    if !hex.is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) {
                        return false;
                    }
                    *i += 6;
                }
                _ => return false,
            },
            Some(0..=0x1f) | None => return false,
            Some(_) => *i += 1,
        }
    }
}

/// Skips `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
fn number(b: &[u8], i: &mut usize) -> bool {
    let digits = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i > start
    };
    if b.get(*i) == Some(&b'-') {
        *i += 1;
    }
    match b.get(*i) {
        Some(b'0') => *i += 1,
        Some(b'1'..=b'9') => {
            digits(i);
        }
        _ => return false,
    }
    if b.get(*i) == Some(&b'.') {
        *i += 1;
        if !digits(i) {
            return false;
        }
    }
    if matches!(b.get(*i), Some(b'e' | b'E')) {
        *i += 1;
        if matches!(b.get(*i), Some(b'+' | b'-')) {
            *i += 1;
        }
        if !digits(i) {
            return false;
        }
    }
    true
}

/// Finds the top-level `id` of a JSON-RPC message fed to it in pieces, keeping none of the
/// message: a transport feeds it the bytes of a message it will not hold (one over its size
/// limit), and the error it answers with can still carry the request's id.
///
/// Its memory is fixed, however much it is fed: a state, a depth counter, one bit per open
/// container for the first [`IdScanner::MAX_DEPTH`] levels (object or array), and the text of
/// the top-level `id` value, at most [`IdScanner::MAX_ID_BYTES`] bytes.
///
/// It checks the JSON grammar as it goes, as [`scan`] does on a whole line, so bytes that are
/// not one JSON object give no id; deeper than `MAX_DEPTH` levels it only pairs brackets and
/// skips strings until it is back at that depth. Bytes are not checked to be UTF-8, except
/// the id's. Members nested in other values (an `id` inside `params`) are ignored.
#[derive(Debug, Clone)]
pub struct IdScanner {
    state: State,
    /// Containers open.
    depth: usize,
    /// Bit `d - 1` is set when the container at depth `d` (up to `MAX_DEPTH`) is an object.
    objects: [u64; IdScanner::MAX_DEPTH / 64],
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
        IdScanner {
            state: State::Start,
            depth: 0,
            objects: [0; Self::MAX_DEPTH / 64],
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
    pub fn finish(self) -> Option<String> {
        if self.state != State::Done || self.ids != 1 || self.id_unusable {
            return None;
        }
        let text = String::from_utf8(self.id).ok()?;
        valid_id_text(&text).then_some(text)
    }

    /// Whether the bytes fed were one JSON object with a top-level `result` or `error`
    /// member and no `method`: a response to a request, not a request.
    pub fn is_response(&self) -> bool {
        self.state == State::Done && self.seen & METHOD == 0 && self.seen & (RESULT | ERROR) != 0
    }

    /// Reads one byte; false when the byte ended a number and is to be read again.
    fn step(&mut self, b: u8) -> bool {
        let ws = matches!(b, b' ' | b'\t' | b'\n' | b'\r');
        match self.state {
            State::Start | State::Done if ws => {}
            State::Start if b == b'{' => self.open(true),
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
                if self.depth == Self::MAX_DEPTH {
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
        if self.depth > Self::MAX_DEPTH {
            self.state = State::Deep(Deep::Out);
            return;
        }
        let (word, bit) = ((self.depth - 1) / 64, (self.depth - 1) % 64);
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
        self.state = State::AfterValue;
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
            if self.id.len() < Self::MAX_ID_BYTES {
                self.id.push(b);
            } else {
                self.id_unusable = true;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_strings_or_integers() {
        let ok = ["1", "-3", "\"a\""];
        let bad = ["null", "1.5", "true", "{}", "[]", "1e3"];
        for t in ok {
            assert!(valid_id(&RawValue::from_string(t.into()).unwrap()), "{t}");
        }
        for t in bad {
            assert!(!valid_id(&RawValue::from_string(t.into()).unwrap()), "{t}");
        }
    }

    #[test]
    fn scan_agrees_with_serde_json_on_what_is_json() {
        let cases = [
            "{}",
            "[]",
            "1",
            "-0.5e+3",
            "\"a\\u00e9\\n\"",
            "true",
            " null ",
            "[1,[2,{\"a\":[]}]]",
            "{\"a\":1,}",
            "[1,]",
            "{\"a\"}",
            "01",
            "1.",
            "-",
            "\"\\x\"",
            "\"\u{1}\"",
            "{} x",
            "{\"a\":1",
            "",
            "[1 2]",
            "{1:2}",
            "tru",
            "\"\\u12\"",
            "{\"id\":1}{\"id\":2}",
        ];
        for c in cases {
            let serde_ok = serde_json::from_str::<serde::de::IgnoredAny>(c).is_ok();
            assert_eq!(scan(c) != Scanned::NotJson, serde_ok, "{c:?}");
        }
    }

    #[test]
    fn scan_finds_the_top_level_id_at_any_depth() {
        let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
        let line = format!(r#"{{"jsonrpc":"2.0","x":{{"id":5}},"params":{deep},"\u0069d" : "a"}}"#);
        assert_eq!(scan(&line), Scanned::Json { id: Some("\"a\"") });
        assert_eq!(scan(&line[..line.len() - 1]), Scanned::NotJson);
        for (line, id) in [
            (r#"{"id":1,"id":2}"#, None),
            (r#"{"id":1.5}"#, None),
            (r#"{"id":{"id":1}}"#, None),
            (r#"{"id":{"a":1},"id":2}"#, None),
            (r#"{"a":[{"id":1}],"id":2}"#, Some("2")),
            (r#"{"method":5,"id":-7}"#, Some("-7")),
            // Echoed byte for byte, as on the normal path.
            (r#"{"id":"\ud800"}"#, Some(r#""\ud800""#)),
        ] {
            assert_eq!(scan(line), Scanned::Json { id }, "{line}");
        }
        assert_eq!(scan(" [{\"id\":1}]"), Scanned::Array);
    }

    #[test]
    fn null_id_is_kept_as_present() {
        let m: Incoming =
            serde_json::from_str(r#"{"jsonrpc":"2.0","id":null,"method":"x"}"#).unwrap();
        assert_eq!(m.id.map(RawValue::get), Some("null"));
        let m: Incoming = serde_json::from_str(r#"{"jsonrpc":"2.0","method":"x"}"#).unwrap();
        assert!(m.id.is_none());
    }
}

#[cfg(test)]
mod id_scanner_tests {
    use super::*;
    use proptest::prelude::*;

    /// The scanner's answer for `input` fed in pieces of the given sizes (repeated).
    fn scan_in_chunks(input: &[u8], sizes: &[usize]) -> (Option<String>, bool) {
        let mut scanner = IdScanner::new();
        let mut rest = input;
        for &size in sizes.iter().cycle() {
            if rest.is_empty() {
                break;
            }
            let (piece, tail) = rest.split_at(size.clamp(1, rest.len()));
            scanner.feed(piece);
            rest = tail;
        }
        let response = scanner.is_response();
        (scanner.finish(), response)
    }

    /// The scanner's id for `input`, checked to be the same whole, byte by byte and in odd
    /// pieces.
    fn id_of(input: &str) -> Option<String> {
        let whole = scan_in_chunks(input.as_bytes(), &[usize::MAX]).0;
        for sizes in [&[1][..], &[2, 3, 5, 7]] {
            assert_eq!(scan_in_chunks(input.as_bytes(), sizes).0, whole, "{input}");
        }
        whole
    }

    #[test]
    fn finds_the_top_level_id_only() {
        for (line, id) in [
            (r#"{"jsonrpc":"2.0","id":7,"method":"m"}"#, Some("7")),
            (r#" {"id" : -3 } "#, Some("-3")),
            (r#"{"id":-0}"#, Some("-0")),
            (r#"{"id":""}"#, Some(r#""""#)),
            (r#"{"\u0069d":"x","\u0069\u0064x":1}"#, Some(r#""x""#)),
            (
                r#"{"params":{"id":1,"s":"}{\"id\":2,[","a":[{"id":3}]},"id":"a\"b"}"#,
                Some(r#""a\"b""#),
            ),
            (r#"{"id":"\ud800\n\u00e9é"}"#, Some(r#""\ud800\n\u00e9é""#)),
            (r#"{"a":{"id":1}}"#, None),
            (r#"{"idx":1,"i":2,"Id":3,"i\"d":4,"":5}"#, None),
            (r#"{"id":1,"id":2}"#, None),
            (r#"{"id":{"a":1},"id":2}"#, None),
            (r#"{"id":null}"#, None),
            (r#"{"id":1.5}"#, None),
            (r#"{"id":1e3}"#, None),
            (r#"{"id":true}"#, None),
            (r#"{"id":[1]}"#, None),
            (r#"{"id":{"id":1}}"#, None),
            // Not one JSON object.
            (r#"[{"id":1}]"#, None),
            (r#""id""#, None),
            (r#"{"id":1} x"#, None),
            (r#"{"id":1}{"id":2}"#, None),
            (r#"{"id":1"#, None),
            (r#"{"id":01}"#, None),
            (r#"{"id":-}"#, None),
            (r#"{"id":1,}"#, None),
            (r#"{"id":1,"a":[1,]}"#, None),
            (r#"{"id":1,"a":[}"#, None),
            (r#"{"id":1,"a":{"b"}}"#, None),
            (r#"{"id":1,"a":"\x"}"#, None),
            (r#"{"id":1,"a":"\u12g4"}"#, None),
            (r#"{"id":1,"a":tru}"#, None),
            ("{\"id\":1,\"a\":\"\u{1}\"}", None),
            ("", None),
        ] {
            assert_eq!(id_of(line).as_deref(), id, "{line}");
        }
    }

    #[test]
    fn keeps_at_most_max_id_bytes_of_id() {
        let fits = format!("\"{}\"", "x".repeat(IdScanner::MAX_ID_BYTES - 2));
        let line = format!(r#"{{"id":{fits},"method":"m"}}"#);
        assert_eq!(id_of(&line), Some(fits));
        let over = format!("\"{}\"", "x".repeat(IdScanner::MAX_ID_BYTES - 1));
        assert_eq!(id_of(&format!(r#"{{"id":{over}}}"#)), None);
        let long_number = "1".repeat(IdScanner::MAX_ID_BYTES + 1);
        assert_eq!(id_of(&format!(r#"{{"id":{long_number}}}"#)), None);
    }

    #[test]
    fn checks_the_id_is_utf8_and_nothing_else() {
        let mut scanner = IdScanner::new();
        scanner.feed(b"{\"id\":\"\xff\"}");
        assert_eq!(scanner.finish(), None);
        let mut scanner = IdScanner::new();
        scanner.feed(b"{\"id\":\"a\",\"params\":\"\xff\xfe\"}");
        assert_eq!(scanner.finish().as_deref(), Some("\"a\""));
    }

    #[test]
    fn deeper_than_max_depth_only_pairs_brackets() {
        for depth in [IdScanner::MAX_DEPTH - 2, IdScanner::MAX_DEPTH + 5_000] {
            let deep = format!(
                r#"{}{{"id":1,"s":"]}}\"["}}{}"#,
                "[".repeat(depth),
                "]".repeat(depth)
            );
            let line = format!(r#"{{"a":{deep},"id":"ok"}}"#);
            assert_eq!(id_of(&line).as_deref(), Some(r#""ok""#), "{depth}");
            // One closing bracket short: never back at the top level.
            let line = format!(r#"{{"a":{},"id":"ok"}}"#, &deep[..deep.len() - 1]);
            assert_eq!(id_of(&line), None, "{depth}");
        }
    }

    #[test]
    fn tells_responses_from_requests() {
        for (line, response) in [
            (r#"{"jsonrpc":"2.0","id":"s1","result":{}}"#, true),
            (r#"{"id":"s1","error":{"code":1,"message":"m"}}"#, true),
            (r#"{"id":"s1","result":{},"method":"m"}"#, false),
            (r#"{"id":1,"method":"m","params":{"result":1}}"#, false),
            (r#"{"id":1}"#, false),
            (r#"{"id":1,"result":{}"#, false),
        ] {
            assert_eq!(scan_in_chunks(line.as_bytes(), &[3]).1, response, "{line}");
        }
    }

    /// A JSON value to render with random whitespace and escapes.
    #[derive(Debug, Clone)]
    enum J {
        Raw(&'static str),
        Int(i64),
        Str(String),
        Arr(Vec<J>),
        Obj(Vec<(String, J)>),
    }

    /// Strings with the characters a scanner could trip on.
    fn tricky() -> impl Strategy<Value = String> {
        "[a-z{}\\[\\]\":,/\\\\ \n\t\u{1}\u{7f}é😀]{0,10}"
    }

    fn key() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("id".to_owned()),
            Just("method".to_owned()),
            Just("idx".to_owned()),
            Just("i".to_owned()),
            tricky(),
        ]
    }

    fn value() -> impl Strategy<Value = J> {
        let leaf = prop_oneof![
            prop::sample::select(vec![
                "null", "true", "false", "0", "-0", "12", "-7", "1.5", "2e10", "-0.25E-3", "1E+2",
            ])
            .prop_map(J::Raw),
            tricky().prop_map(J::Str),
        ];
        leaf.prop_recursive(5, 48, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(J::Arr),
                prop::collection::vec((key(), inner), 0..6).prop_map(J::Obj),
            ]
        })
    }

    /// A top-level id: the `J` to write, and whether it is one to echo.
    fn id() -> impl Strategy<Value = (J, bool)> {
        prop_oneof![
            tricky().prop_map(J::Str),
            any::<i64>().prop_map(J::Int),
            Just(J::Raw("123456789012345678901234567890")),
            value(),
        ]
        .prop_map(|j| {
            let echo = match &j {
                J::Str(_) | J::Int(_) => true,
                J::Raw(r) => valid_id_text(r),
                J::Arr(_) | J::Obj(_) => false,
            };
            (j, echo)
        })
    }

    /// A tiny deterministic generator for whitespace and escape choices.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            // SplitMix64.
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            (z ^ (z >> 31)) % n
        }

        fn ws(&mut self, out: &mut String) {
            for _ in 0..self.below(4).saturating_sub(1) {
                out.push([' ', '\t', '\n', '\r'][self.below(4) as usize]);
            }
        }
    }

    fn write_str(s: &str, rng: &mut Rng, out: &mut String) {
        out.push('"');
        for c in s.chars() {
            let short = match c {
                '"' => Some("\\\""),
                '\\' => Some("\\\\"),
                '\n' => Some("\\n"),
                '\t' => Some("\\t"),
                '/' => Some("\\/"),
                _ => None,
            };
            let must = (c as u32) < 0x20 || c == '"' || c == '\\';
            match rng.below(3) {
                0 if must || rng.below(2) == 0 => {
                    let mut units = [0; 2];
                    for u in c.encode_utf16(&mut units) {
                        out.push_str(&format!("\\u{u:04x}"));
                    }
                }
                1 if short.is_some() => out.push_str(short.unwrap()),
                _ if must => out.push_str(&format!("\\u{:04X}", c as u32)),
                _ => out.push(c),
            }
        }
        out.push('"');
    }

    fn write(j: &J, rng: &mut Rng, out: &mut String) {
        match j {
            J::Raw(r) => out.push_str(r),
            J::Int(n) => out.push_str(&n.to_string()),
            J::Str(s) => write_str(s, rng, out),
            J::Arr(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    rng.ws(out);
                    write(item, rng, out);
                    rng.ws(out);
                }
                out.push(']');
            }
            J::Obj(members) => {
                out.push('{');
                for (i, (k, v)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    rng.ws(out);
                    write_str(k, rng, out);
                    rng.ws(out);
                    out.push(':');
                    rng.ws(out);
                    write(v, rng, out);
                    rng.ws(out);
                }
                out.push('}');
            }
        }
    }

    /// A message with its top-level members in random order, and the id text the scanner
    /// should find.
    fn message() -> impl Strategy<Value = (String, Option<String>)> {
        (
            prop::option::of(id()),
            value(),
            prop::collection::vec((key(), value()), 0..4),
            any::<u64>(),
        )
            .prop_flat_map(|(id, params, inner, seed)| {
                // `params` is an object holding the random value and inner members (some
                // named `id`).
                let mut params_members = vec![("v".to_owned(), params)];
                params_members.extend(inner);
                let mut members: Vec<(String, Option<J>)> = vec![
                    ("jsonrpc".into(), Some(J::Str("2.0".into()))),
                    ("method".into(), Some(J::Str("m".into()))),
                    ("params".into(), Some(J::Obj(params_members))),
                ];
                let echo = id.as_ref().is_some_and(|(_, echo)| *echo);
                if let Some((j, _)) = id {
                    members.push(("id".into(), Some(j)));
                }
                (Just(members).prop_shuffle(), Just(echo), Just(seed))
            })
            .prop_map(|(members, echo, seed)| {
                let mut rng = Rng(seed);
                let mut out = String::new();
                rng.ws(&mut out);
                out.push('{');
                let mut id_text = None;
                for (i, (k, v)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    rng.ws(&mut out);
                    write_str(k, &mut rng, &mut out);
                    rng.ws(&mut out);
                    out.push(':');
                    rng.ws(&mut out);
                    let start = out.len();
                    write(v.as_ref().unwrap(), &mut rng, &mut out);
                    if k == "id" && echo {
                        id_text = Some(out[start..].to_owned());
                    }
                    rng.ws(&mut out);
                }
                out.push('}');
                rng.ws(&mut out);
                (out, id_text)
            })
    }

    /// What [`scan`] finds on a whole line, within the scanner's id cap.
    fn scan_id(line: &str) -> Option<&str> {
        match scan(line) {
            Scanned::Json { id } => id.filter(|id| id.len() <= IdScanner::MAX_ID_BYTES),
            _ => None,
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn scanner_finds_exactly_the_top_level_id(
            (line, expected) in message(),
            sizes in prop::collection::vec(1usize..40, 1..8),
        ) {
            let (found, response) = scan_in_chunks(line.as_bytes(), &sizes);
            prop_assert_eq!(&found, &expected, "{}", line);
            prop_assert!(!response);
            // The id serde_json reads from the whole message is the same value. (serde_json
            // reads `-0` and integers past u64 as floats; `valid_id` takes them, by their text.)
            let whole: serde_json::Value = serde_json::from_str(&line).unwrap();
            let by_serde = whole.get("id");
            match &found {
                Some(text) => prop_assert_eq!(
                    Some(&serde_json::from_str::<serde_json::Value>(text).unwrap()),
                    by_serde,
                    "{}",
                    line
                ),
                None => prop_assert!(
                    by_serde.is_none_or(|v| !(v.is_string() || v.is_i64() || v.is_u64())),
                    "{}",
                    line
                ),
            }
            prop_assert_eq!(scan_id(&line), expected.as_deref());
        }

        #[test]
        fn scanner_agrees_with_scan_on_damaged_messages(
            (line, _) in message(),
            at in any::<prop::sample::Index>(),
            len in 0usize..4,
            insert in prop::sample::select(vec!["", "{", "}", "[", "]", "\"", ":", ",", "\\", " ", "1", "x", "\"id\":1,"]),
            sizes in prop::collection::vec(1usize..40, 1..8),
        ) {
            let chars: Vec<char> = line.chars().collect();
            let start = at.index(chars.len() + 1);
            let end = (start + len).min(chars.len());
            let damaged: String = chars[..start]
                .iter()
                .chain(insert.chars().collect::<Vec<_>>().iter())
                .chain(&chars[end..])
                .collect();
            let (found, _) = scan_in_chunks(damaged.as_bytes(), &sizes);
            prop_assert_eq!(found.as_deref(), scan_id(&damaged), "{}", damaged);
        }
    }
}
