//! A forward-only reader over the JSON text of a tool's arguments, so that generated decoders
//! read every value once, straight into its Rust type: no raw value is captured and scanned
//! again by the next level down, and no `serde_json::Value` tree is built.
//!
//! The text comes from a message the runtime has parsed already (a `&RawValue`), so it is
//! valid JSON; the reader still never panics on anything else, it reports it as malformed.

use std::borrow::Cow;

#[cfg(doc)]
use toolidl_formats::Profile;

/// How a reader reads: its nesting limit, whether it reads the strict profile's forms, and
/// the stack address its stack budget is measured from.
#[derive(Debug, Clone, Copy)]
pub(super) struct Settings {
    pub max_depth: u32,
    pub strict_forms: bool,
    pub stack_base: usize,
}

/// The text was not the JSON the reader expected (never for a parsed message's arguments).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Malformed;

/// The kind of the next value, from its first byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `null`
    Null,
    /// `true` or `false`
    Bool,
    /// A number
    Number,
    /// A string
    String,
    /// An array
    Array,
    /// An object
    Object,
    /// End of input, or a byte no JSON value starts with.
    Invalid,
}

/// A position in a JSON text; each `read_*` method consumes one value or one token.
///
/// The reader counts the arrays and objects open around its position, so that decoders stop
/// at its nesting limit before the stack is at risk (see [`super::depth`]), and knows whether
/// it reads the strict profile's forms too. Both are given when it is made: by
/// [`Arguments::reader`](super::Arguments::reader) for a call's arguments, or here.
#[derive(Debug, Clone)]
pub struct Reader<'de> {
    text: &'de str,
    pos: usize,
    /// Arrays and objects open around the position.
    depth: u32,
    max_depth: u32,
    /// The stack address the stack budget is measured from.
    stack_base: usize,
    /// The text of the last number read, for checks that judge it exactly.
    number: &'de str,
    /// Whether the strict profile's forms are read too ([`Profile::strict_forms`]).
    strict_forms: bool,
    /// Whether the text was written from JSON values someone parsed, whose numbers beyond
    /// 64 bits went through `f64` ([`Reader::through_f64`]).
    through_f64: bool,
}

/// Why the reader will not enter another array or object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TooDeep {
    /// It would be nested deeper than this limit.
    Limit(u32),
    /// Reading has used up its stack budget.
    Stack,
}

impl<'de> Reader<'de> {
    /// A reader at the start of `text` with the defaults: the standard profile's forms, the
    /// default nesting limit ([`DEFAULT_MAX_DEPTH`](super::depth::DEFAULT_MAX_DEPTH)), the
    /// stack budget measured from here.
    pub fn new(text: &'de str) -> Self {
        Self::with_max_depth(text, super::depth::DEFAULT_MAX_DEPTH)
    }

    /// A reader at the start of `text` that enters at most `max_depth` arrays and objects.
    pub fn with_max_depth(text: &'de str, max_depth: u32) -> Self {
        let settings = Settings {
            max_depth,
            strict_forms: false,
            stack_base: super::depth::stack_here(),
        };
        Self::with_settings(text, settings)
    }

    /// A reader at the start of `text`, reading as `settings` say.
    pub(super) fn with_settings(text: &'de str, settings: Settings) -> Self {
        Reader {
            text,
            pos: 0,
            depth: 0,
            max_depth: settings.max_depth,
            stack_base: settings.stack_base,
            number: "",
            strict_forms: settings.strict_forms,
            through_f64: false,
        }
    }

    /// Marks the text as written from parsed JSON values (`serde_json::Value`), whose numbers
    /// that are not 64-bit integers were held as `f64`: an integer spelled with a fraction or
    /// an exponent and at least 2^53 may have lost digits there, and is refused rather than
    /// read rounded.
    pub fn through_f64(mut self) -> Self {
        self.through_f64 = true;
        self
    }

    /// Whether [`Reader::through_f64`] marks this text.
    pub fn read_through_f64(&self) -> bool {
        self.through_f64
    }

    /// Whether the server serves openai-strict, whose forms are read too: `null` for an
    /// optional parameter left out ([`null_as_absent`](super::null_as_absent)), a map as a
    /// list of `{key, value}` entries ([`map`](super::map)).
    pub fn reads_strict_forms(&self) -> bool {
        self.strict_forms
    }

    /// The arrays and objects open around the position.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// The nesting limit of this reader.
    pub fn max_depth(&self) -> u32 {
        self.max_depth
    }

    /// Whether the array or object that is next may be entered: not past the nesting limit,
    /// and not past the stack budget.
    #[inline]
    pub fn may_enter(&self) -> Result<(), TooDeep> {
        if self.depth >= self.max_depth {
            Err(TooDeep::Limit(self.max_depth))
        } else if super::depth::stack_exhausted(self.stack_base) {
            Err(TooDeep::Stack)
        } else {
            Ok(())
        }
    }

    /// The text of the last number read (empty before any).
    pub fn last_number(&self) -> &'de str {
        self.number
    }

    fn bytes(&self) -> &'de [u8] {
        self.text.as_bytes()
    }

    fn skip_whitespace(&mut self) {
        let bytes = self.bytes();
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = bytes.get(self.pos) {
            self.pos += 1;
        }
    }

    /// The next non-whitespace byte (not consumed); 0 at the end.
    pub fn peek(&mut self) -> u8 {
        self.skip_whitespace();
        self.bytes().get(self.pos).copied().unwrap_or(0)
    }

    /// The kind of the next value.
    pub fn kind(&mut self) -> Kind {
        match self.peek() {
            b'n' => Kind::Null,
            b't' | b'f' => Kind::Bool,
            b'-' | b'0'..=b'9' => Kind::Number,
            b'"' => Kind::String,
            b'[' => Kind::Array,
            b'{' => Kind::Object,
            _ => Kind::Invalid,
        }
    }

    /// Consumes `byte` if it is next.
    pub fn eat(&mut self, byte: u8) -> bool {
        if self.peek() == byte {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// Consumes the literal `null`, if it is next.
    pub fn eat_null(&mut self) -> bool {
        self.eat_word("null")
    }

    /// Reads `true` or `false`.
    pub fn read_bool(&mut self) -> Option<bool> {
        if self.eat_word("true") {
            Some(true)
        } else if self.eat_word("false") {
            Some(false)
        } else {
            None
        }
    }

    fn eat_word(&mut self, word: &str) -> bool {
        self.skip_whitespace();
        let rest = &self.bytes()[self.pos.min(self.bytes().len())..];
        let after = rest.get(word.len()).copied().unwrap_or(b' ');
        if rest.starts_with(word.as_bytes()) && !after.is_ascii_alphanumeric() {
            self.pos += word.len();
            true
        } else {
            false
        }
    }

    /// Reads the text of a number token (`-12.5e3`), as written.
    pub fn read_number(&mut self) -> Result<&'de str, Malformed> {
        self.skip_whitespace();
        let start = self.pos;
        let bytes = self.bytes();
        while let Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') = bytes.get(self.pos) {
            self.pos += 1;
        }
        if self.pos == start {
            return Err(Malformed);
        }
        self.number = self.text.get(start..self.pos).ok_or(Malformed)?;
        Ok(self.number)
    }

    /// Reads a string, borrowed from the text when it has no escapes.
    pub fn read_string(&mut self) -> Result<Cow<'de, str>, Malformed> {
        if !self.eat(b'"') {
            return Err(Malformed);
        }
        let start = self.pos;
        let bytes = self.bytes();
        let mut escaped = false;
        loop {
            match bytes.get(self.pos) {
                Some(b'"') => break,
                Some(b'\\') => {
                    escaped = true;
                    self.pos += 2;
                }
                Some(_) => self.pos += 1,
                None => return Err(Malformed),
            }
        }
        let inner = self.text.get(start..self.pos).ok_or(Malformed)?;
        self.pos += 1;
        if !escaped {
            return Ok(Cow::Borrowed(inner));
        }
        // Escapes are rare in arguments: let serde_json apply the exact JSON rules.
        let quoted = self.text.get(start - 1..self.pos).ok_or(Malformed)?;
        serde_json::from_str::<String>(quoted)
            .map(Cow::Owned)
            .map_err(|_| Malformed)
    }

    /// Skips one value and returns its text.
    pub fn read_raw(&mut self) -> Result<&'de str, Malformed> {
        self.skip_whitespace();
        let start = self.pos;
        self.skip_value()?;
        self.text.get(start..self.pos).ok_or(Malformed)
    }

    fn skip_value(&mut self) -> Result<(), Malformed> {
        match self.kind() {
            Kind::String => self.read_string().map(drop),
            Kind::Number => self.read_number().map(drop),
            Kind::Null => self.eat_null().then_some(()).ok_or(Malformed),
            Kind::Bool => self.read_bool().map(drop).ok_or(Malformed),
            Kind::Array | Kind::Object => self.skip_nested(),
            Kind::Invalid => Err(Malformed),
        }
    }

    /// Skips an array or object, strings inside included, by counting brackets.
    fn skip_nested(&mut self) -> Result<(), Malformed> {
        let bytes = self.bytes();
        let mut depth = 0usize;
        while let Some(&b) = bytes.get(self.pos) {
            match b {
                b'"' => {
                    self.read_string()?;
                    continue;
                }
                b'[' | b'{' => depth += 1,
                b']' | b'}' => {
                    depth = depth.checked_sub(1).ok_or(Malformed)?;
                    if depth == 0 {
                        self.pos += 1;
                        return Ok(());
                    }
                }
                _ => {}
            }
            self.pos += 1;
        }
        Err(Malformed)
    }

    /// Walks the members of the object that is next: `f` gets each key with the reader at its
    /// value and must read that value (a value `f` leaves unread is skipped).
    pub fn members<E>(
        &mut self,
        malformed: impl Fn() -> E,
        mut f: impl FnMut(&mut Self, &str) -> Result<(), E>,
    ) -> Result<(), E> {
        if !self.eat(b'{') {
            return Err(malformed());
        }
        self.depth += 1;
        let walked = self.walk_members(malformed, &mut f);
        self.depth -= 1;
        walked
    }

    fn walk_members<E>(
        &mut self,
        malformed: impl Fn() -> E,
        f: &mut impl FnMut(&mut Self, &str) -> Result<(), E>,
    ) -> Result<(), E> {
        if self.eat(b'}') {
            return Ok(());
        }
        loop {
            let key = self.read_string().map_err(|_| malformed())?;
            if !self.eat(b':') {
                return Err(malformed());
            }
            self.skip_whitespace();
            let start = self.pos;
            f(self, &key)?;
            if self.pos == start {
                self.skip_value().map_err(|_| malformed())?;
            }
            if self.eat(b',') {
                continue;
            }
            return if self.eat(b'}') {
                Ok(())
            } else {
                Err(malformed())
            };
        }
    }

    /// Walks the items of the array that is next: `f` gets each index with the reader at the
    /// item and must read it (an item `f` leaves unread is skipped).
    pub fn items<E>(
        &mut self,
        malformed: impl Fn() -> E,
        mut f: impl FnMut(&mut Self, usize) -> Result<(), E>,
    ) -> Result<(), E> {
        if !self.eat(b'[') {
            return Err(malformed());
        }
        self.depth += 1;
        let walked = self.walk_items(malformed, &mut f);
        self.depth -= 1;
        walked
    }

    fn walk_items<E>(
        &mut self,
        malformed: impl Fn() -> E,
        f: &mut impl FnMut(&mut Self, usize) -> Result<(), E>,
    ) -> Result<(), E> {
        if self.eat(b']') {
            return Ok(());
        }
        let mut i = 0;
        loop {
            self.skip_whitespace();
            let start = self.pos;
            f(self, i)?;
            if self.pos == start {
                self.skip_value().map_err(|_| malformed())?;
            }
            i += 1;
            if self.eat(b',') {
                continue;
            }
            return if self.eat(b']') {
                Ok(())
            } else {
                Err(malformed())
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_tokens_strings_and_raw_values() {
        let mut r =
            Reader::new(r#" { "a" : [1, -2.5e3, "x\"y", null, true], "b\u0041": {"c": "}"} } "#);
        let mut seen = Vec::new();
        r.members(
            || "malformed",
            |r, key| {
                seen.push(key.to_owned());
                if key == "a" {
                    r.items(
                        || "malformed",
                        |r, i| {
                            match i {
                                0 | 1 => seen.push(r.read_number().unwrap().to_owned()),
                                2 => seen.push(r.read_string().unwrap().into_owned()),
                                3 => assert!(r.eat_null()),
                                _ => assert_eq!(r.read_bool(), Some(true)),
                            }
                            Ok(())
                        },
                    )
                } else {
                    seen.push(r.read_raw().unwrap().to_owned());
                    Ok(())
                }
            },
        )
        .unwrap();
        assert_eq!(seen, ["a", "1", "-2.5e3", "x\"y", "bA", r#"{"c": "}"}"#]);
    }

    #[test]
    fn unread_values_are_skipped_and_broken_text_is_malformed() {
        let mut r = Reader::new(r#"{"a": {"x": [1, {"y": 2}]}, "b": 3}"#);
        let mut keys = Vec::new();
        r.members(
            || (),
            |_, key| {
                keys.push(key.to_owned());
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(keys, ["a", "b"]);
        for broken in [
            "{",
            "{\"a\"",
            "{\"a\": 1",
            "[1,",
            "\"abc",
            "]",
            "{\"a\" 1}",
            "nul",
        ] {
            let mut r = Reader::new(broken);
            let result = r.members(|| (), |r, _| r.read_raw().map(drop).map_err(drop));
            let items =
                Reader::new(broken).items(|| (), |r, _| r.read_raw().map(drop).map_err(drop));
            assert!(result.is_err() || items.is_err(), "{broken}");
        }
    }
}
