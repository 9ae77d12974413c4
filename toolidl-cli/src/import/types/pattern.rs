//! A `pattern` written in ECMA-262's non-Unicode dialect (Annex B, what `new RegExp(p)`
//! reads) rewritten for Unicode mode (what `@pattern` and JSON Schema read), matching the
//! same strings.
//!
//! Servers written in JavaScript publish the source of their `RegExp`s, and those are often
//! valid only without the `u` flag: identity escapes of characters that need none (`\_`,
//! `\-`, `\@`, `\ `), a lone `{`, `}` or `]`, `\x` or `\u` without their digits, octal
//! escapes (`\07`, `\1` without a group), `\8`, `\c` without a letter, a class escape at one
//! end of a range (`[\w-.]`), a quantified lookahead (`(?=a)*`). Each has a spelling in
//! Unicode mode with the same meaning; [`to_unicode`] writes it.
//!
//! The one difference the rewriting cannot remove: without the `u` flag a pattern reads
//! UTF-16 code units, with it code points. The two agree on every string of characters from
//! the Basic Multilingual Plane; on a character beyond it (an emoji), `.`, a negated class
//! or `\S` match one unit of it in the original and the whole character here. A pattern that
//! itself holds such a character, or a surrogate escape (`\uD83D`), is not rewritten.

/// `pattern` in Unicode mode, when it is not valid there already but is valid without the
/// `u` flag and can be rewritten; `None` otherwise (the caller keeps a pattern that is valid
/// in Unicode mode as it is).
pub fn to_unicode(pattern: &str) -> Option<String> {
    if regress::Regex::with_flags(pattern, "u").is_ok()
        || regress::Regex::with_flags(pattern, "").is_err()
        || pattern.chars().any(|c| u32::from(c) > 0xFFFF)
    {
        return None;
    }
    let chars: Vec<char> = pattern.chars().collect();
    let mut rewriter = Rewriter {
        chars: &chars,
        at: 0,
        out: String::new(),
        groups: capturing_groups(&chars),
        named: has_named(&chars),
        lookaheads: Vec::new(),
        in_class: false,
    };
    rewriter.alternatives()?;
    regress::Regex::with_flags(&rewriter.out, "u")
        .is_ok()
        .then_some(rewriter.out)
}

/// The characters that Unicode mode lets (and needs) `\` before, outside a class.
const SYNTAX: &str = "^$\\.*+?()[]{}|/";

struct Rewriter<'a> {
    chars: &'a [char],
    at: usize,
    out: String,
    /// How many capturing groups the pattern has (`\N` above it is an octal escape).
    groups: usize,
    /// Whether it has a named group (then `\k` is a reference, else the letter `k`).
    named: bool,
    /// For each lookahead open: where its `(?=` starts in `out`.
    lookaheads: Vec<Option<usize>>,
    /// Whether the cursor is inside a class.
    in_class: bool,
}

/// A class atom as written for Unicode mode, and whether it is a single character (a range
/// can end at it) or a class escape (`\w`: a range cannot).
struct Atom {
    text: String,
    single: bool,
}

impl Rewriter<'_> {
    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.at + ahead).copied()
    }

    /// The whole pattern (groups are handled inline, by a stack of open lookaheads).
    fn alternatives(&mut self) -> Option<()> {
        while let Some(c) = self.peek(0) {
            match c {
                '\\' => self.escape()?,
                '[' => self.class()?,
                '{' => match self.quantifier_len() {
                    Some(len) => self.copy(len),
                    None => {
                        self.out.push_str("\\{");
                        self.at += 1;
                    }
                },
                '}' | ']' => {
                    self.out.push('\\');
                    self.out.push(c);
                    self.at += 1;
                }
                '(' => {
                    let lookahead = self.chars[self.at..].starts_with(&['(', '?', '='])
                        || self.chars[self.at..].starts_with(&['(', '?', '!']);
                    self.lookaheads.push(lookahead.then_some(self.out.len()));
                    self.out.push('(');
                    self.at += 1;
                }
                ')' => {
                    self.out.push(')');
                    self.at += 1;
                    // A quantifier on a lookahead: on a group holding it in Unicode mode.
                    if let Some(Some(start)) = self.lookaheads.pop()
                        && self.quantifier_follows()
                    {
                        self.out.insert_str(start, "(?:");
                        self.out.push(')');
                    }
                }
                _ => self.copy(1),
            }
        }
        Some(())
    }

    fn copy(&mut self, len: usize) {
        self.out.extend(&self.chars[self.at..self.at + len]);
        self.at += len;
    }

    fn quantifier_follows(&self) -> bool {
        matches!(self.peek(0), Some('*' | '+' | '?')) || self.quantifier_len().is_some()
    }

    /// The length of `{n}`, `{n,}` or `{n,m}` at the cursor, if one is there.
    fn quantifier_len(&self) -> Option<usize> {
        let rest = &self.chars[self.at..];
        if rest.first() != Some(&'{') {
            return None;
        }
        let mut i = 1;
        let digits = |i: &mut usize| {
            let start = *i;
            while rest.get(*i).is_some_and(char::is_ascii_digit) {
                *i += 1;
            }
            *i > start
        };
        if !digits(&mut i) {
            return None;
        }
        if rest.get(i) == Some(&',') {
            i += 1;
            digits(&mut i);
        }
        (rest.get(i) == Some(&'}')).then_some(i + 1)
    }

    /// An escape outside a class.
    fn escape(&mut self) -> Option<()> {
        let next = self.peek(1)?;
        match next {
            'd' | 'D' | 'w' | 'W' | 's' | 'S' | 'b' | 'B' | 'f' | 'n' | 'r' | 't' | 'v' => {
                self.copy(2)
            }
            '1'..='9' => {
                let (value, len) = self.decimal();
                if value <= self.groups {
                    self.copy(1 + len);
                } else {
                    self.at += 1;
                    let atom = self.legacy_octal();
                    self.out.push_str(&atom.text);
                }
            }
            'k' if self.named => self.copy(2),
            c if SYNTAX.contains(c) => self.copy(2),
            _ => {
                self.at += 1;
                let atom = self.character_escape()?;
                self.out.push_str(&atom.text);
            }
        }
        Some(())
    }

    /// The decimal number after `\` at the cursor, and how many digits it has.
    fn decimal(&self) -> (usize, usize) {
        let mut value = 0usize;
        let mut len = 0;
        while let Some(d) = self.peek(1 + len).and_then(|c| c.to_digit(10)) {
            value = value.saturating_mul(10).saturating_add(d as usize);
            len += 1;
        }
        (value, len)
    }

    /// After a `\` (the cursor on the character after it): `\8` and `\9` are the digits,
    /// `\0`…`\7` a legacy octal escape of up to three digits (at most `\377`).
    fn legacy_octal(&mut self) -> Atom {
        let first = self.peek(0).unwrap_or('0');
        if matches!(first, '8' | '9') {
            self.at += 1;
            return literal(first, self.in_class);
        }
        let octal = |c: Option<char>| c.and_then(|c| c.to_digit(8));
        let mut value = octal(Some(first)).unwrap_or(0);
        let mut len = 1;
        let most = if first <= '3' { 3 } else { 2 };
        while len < most
            && let Some(d) = octal(self.peek(len))
        {
            value = value * 8 + d;
            len += 1;
        }
        self.at += len;
        hex(value)
    }

    /// After a `\` (the cursor on the character after it), in or out of a class: a character
    /// escape, or an identity escape (the character itself).
    fn character_escape(&mut self) -> Option<Atom> {
        let c = self.peek(0)?;
        let hex_digits = |from: usize, n: usize| -> Option<u32> {
            let text: String = (0..n).map(|i| self.peek(from + i)).collect::<Option<_>>()?;
            if text.chars().all(|c| c.is_ascii_hexdigit()) {
                u32::from_str_radix(&text, 16).ok()
            } else {
                None
            }
        };
        Some(match c {
            '0'..='9' => self.legacy_octal(),
            'x' => match hex_digits(1, 2) {
                Some(value) => {
                    self.at += 3;
                    hex(value)
                }
                None => {
                    self.at += 1;
                    literal('x', self.in_class)
                }
            },
            'u' => match hex_digits(1, 4) {
                // A surrogate reads differently by code units and by code points.
                Some(value) if (0xD800..0xE000).contains(&value) => return None,
                Some(value) => {
                    self.at += 5;
                    hex(value)
                }
                None => {
                    self.at += 1;
                    literal('u', self.in_class)
                }
            },
            'c' => match self.peek(1) {
                Some(letter) if letter.is_ascii_alphabetic() => {
                    self.at += 2;
                    hex(u32::from(letter) % 32)
                }
                // A `\` followed by `c`: the backslash itself (the `c` is read next).
                _ => literal('\\', self.in_class),
            },
            _ => {
                self.at += 1;
                literal(c, self.in_class)
            }
        })
    }

    /// A class, `[` … `]`, with its ranges.
    fn class(&mut self) -> Option<()> {
        self.out.push('[');
        self.at += 1;
        self.in_class = true;
        if self.peek(0) == Some('^') {
            self.out.push('^');
            self.at += 1;
        }
        loop {
            let c = self.peek(0)?;
            if c == ']' {
                self.out.push(']');
                self.at += 1;
                self.in_class = false;
                return Some(());
            }
            let from = self.class_atom()?;
            // `a-z` is a range; `\w-z` and `a-\w` are the three atoms (Annex B).
            if self.peek(0) == Some('-') && self.peek(1).is_some_and(|c| c != ']') {
                self.at += 1;
                let to = self.class_atom()?;
                let dash = if from.single && to.single { "-" } else { "\\-" };
                self.out.push_str(&from.text);
                self.out.push_str(dash);
                self.out.push_str(&to.text);
            } else {
                self.out.push_str(&from.text);
            }
        }
    }

    /// One atom of a class.
    fn class_atom(&mut self) -> Option<Atom> {
        let c = self.peek(0)?;
        if c != '\\' {
            self.at += 1;
            return Some(literal(c, true));
        }
        let next = self.peek(1)?;
        self.at += 1;
        Some(match next {
            'd' | 'D' | 'w' | 'W' | 's' | 'S' => {
                self.at += 1;
                Atom {
                    text: format!("\\{next}"),
                    single: false,
                }
            }
            'b' => {
                self.at += 1;
                hex(8)
            }
            'f' | 'n' | 'r' | 't' | 'v' => {
                self.at += 1;
                Atom {
                    text: format!("\\{next}"),
                    single: true,
                }
            }
            // `\c` with a digit or `_` in a class is a control character too (Annex B).
            'c' if self.peek(1).is_some_and(|d| d.is_ascii_digit() || d == '_') => {
                let d = self.peek(1).unwrap_or('_');
                self.at += 2;
                hex(u32::from(d) % 32)
            }
            _ => self.character_escape()?,
        })
    }
}

/// A character as a pattern character in Unicode mode, or (`in_class`) as a class atom.
fn literal(c: char, in_class: bool) -> Atom {
    let special = if in_class { "\\]-^" } else { SYNTAX };
    let text = if special.contains(c) {
        format!("\\{c}")
    } else {
        c.to_string()
    };
    Atom { text, single: true }
}

/// A character as `\xHH` or `\uHHHH`.
fn hex(value: u32) -> Atom {
    let text = if value <= 0xFF {
        format!("\\x{value:02X}")
    } else {
        format!("\\u{value:04X}")
    };
    Atom { text, single: true }
}

/// The capturing groups of a pattern: `(` not followed by `?`, and `(?<name>`.
fn capturing_groups(chars: &[char]) -> usize {
    let mut count = 0;
    let mut in_class = false;
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 1,
            '[' => in_class = true,
            ']' => in_class = false,
            '(' if !in_class => {
                let rest = &chars[i + 1..];
                if rest.first() != Some(&'?')
                    || (rest.get(1) == Some(&'<') && !matches!(rest.get(2), Some('=' | '!')))
                {
                    count += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    count
}

fn has_named(chars: &[char]) -> bool {
    chars
        .windows(4)
        .any(|w| w[0] == '(' && w[1] == '?' && w[2] == '<' && !matches!(w[3], '=' | '!'))
}

#[cfg(test)]
mod tests {
    use super::to_unicode;

    #[track_caller]
    fn rewrites(from: &str, to: &str) {
        assert_eq!(to_unicode(from).as_deref(), Some(to), "{from}");
    }

    #[test]
    fn identity_escapes_become_the_characters() {
        rewrites(r"^agent\_run\_", "^agent_run_");
        rewrites(r"^[a-z]\-[0-9]$", r"^[a-z]-[0-9]$");
        rewrites(r"^\@[a-z]+$", "^@[a-z]+$");
        rewrites(r"a\ b", "a b");
        rewrites(r"\e\g\y\z\a", "egyza");
        rewrites(r"\p{L}\_", r"p\{L\}_");
        rewrites(r"[\_\@\ ]", r"[_@ ]");
        rewrites(r"[a\-z]\_", r"[a\-z]_");
        rewrites(r"[-a-]\_", r"[\-a\-]_");
    }

    #[test]
    fn lone_braces_and_brackets_are_escaped() {
        rewrites(r"^{a}$", r"^\{a\}$");
        rewrites(r"a{,5}", r"a\{,5\}");
        rewrites(r"x{2,3}]", r"x{2,3}\]");
        rewrites(r"^\{\{.*}}$", r"^\{\{.*\}\}$");
    }

    #[test]
    fn escapes_without_their_digits_are_letters() {
        rewrites(r"\x4\u12", "x4u12");
        rewrites(r"\u{41}\_", "u{41}_");
        rewrites(r"\xzz\x41", r"xzz\x41");
    }

    #[test]
    fn octal_escapes_and_references_above_the_groups() {
        rewrites(r"\07", r"\x07");
        rewrites(r"(a)\1\2", r"(a)\1\x02");
        rewrites(r"\8\9", "89");
        rewrites(r"\101", r"\x41");
        rewrites(r"\400", r"\x200");
        rewrites(r"[\1]", r"[\x01]");
        rewrites(r"\0\_", r"\x00_");
        rewrites(r"a\00b", r"a\x00b");
    }

    #[test]
    fn control_escapes() {
        rewrites(r"\c", r"\\c");
        rewrites(r"\c1", r"\\c1");
        rewrites(r"[\c1]\_", r"[\x11]_");
        rewrites(r"[\c_]\_", r"[\x1F]_");
        rewrites(r"\cA\_", r"\x01_");
    }

    #[test]
    fn class_escapes_at_the_end_of_a_range() {
        rewrites(r"^[\w-.]+$", r"^[\w\-.]+$");
        rewrites(r"[a-\d]", r"[a\-\d]");
        rewrites(r"[\s-\S]", r"[\s\-\S]");
        rewrites(r"[a-z\-_]\_", r"[a-z\-_]_");
    }

    #[test]
    fn quantified_lookaheads_are_grouped() {
        rewrites(r"(?=a)*b", r"(?:(?=a))*b");
        rewrites(r"(?!a){2}b", r"(?:(?!a)){2}b");
        rewrites(r"((?=a)+)\_", r"((?:(?=a))+)_");
    }

    #[test]
    fn valid_or_invalid_patterns_are_not_rewritten() {
        // Valid in Unicode mode already: kept as it is by the caller.
        assert_eq!(to_unicode(r"^[a-z_]+$"), None);
        assert_eq!(to_unicode(r"\u{41}\-"), Some(r"u{41}-".into()));
        // Invalid in both dialects.
        assert_eq!(to_unicode(r"(a"), None);
        assert_eq!(to_unicode(r"[z-a]\_"), None);
        assert_eq!(to_unicode(r"(?P<x>a)"), None);
        // Code units and code points read these differently.
        assert_eq!(to_unicode("😀\\_"), None);
        assert_eq!(to_unicode(r"\uD83D\_"), None);
    }

    #[test]
    fn named_groups_keep_their_references() {
        rewrites(r"(?<x>a)\k<x>\_", r"(?<x>a)\k<x>_");
        rewrites(r"\k\_", "k_");
    }

    /// The rewriting keeps the meaning: patterns put together at random from pieces of both
    /// dialects, those valid only without the `u` flag rewritten, and each rewritten pattern
    /// matches (`find`) exactly the strings the original matches, read by regress without
    /// the `u` flag (Annex B), on strings of the characters the patterns speak of.
    #[test]
    fn rewritten_patterns_match_the_same_strings() {
        const PIECES: &[&str] = &[
            "a", "b", "_", "-", "@", " ", "x", "u", "k", "c", "1", "8", "A", "\\_", "\\-", "\\@",
            "\\ ", "\\a", "\\e", "\\k", "\\p", "\\x4", "\\x41", "\\u", "\\u0041", "\\0", "\\07",
            "\\1", "\\2", "\\12", "\\8", "\\c", "\\cA", "\\c1", "{", "}", "]", "{2}", "{1,2}",
            "{,2}", "{a}", "*", "+", "?", ".", "^", "$", "|", "\\b", "\\B", "\\d", "\\w", "\\s",
            "\\W", "(", ")", "(?:", "(?=", "(?!", "[", "[^", "\\w-", "a-z", "-\\d", "\\c_", "\\b",
            "\\-",
        ];
        const ALPHABET: &[char] = &[
            'a', 'b', '_', '-', '@', ' ', 'x', 'u', 'k', 'c', '\\', '1', '8', 'A', 'z', '{', '}',
            ']', '\u{0}', '\u{1}', '\u{2}', '\u{7}', '\u{8}', '\u{a}', '\u{11}', '\u{1f}', 'é',
            '.', '4',
        ];
        let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let mut rewritten = 0;
        for _ in 0..60_000 {
            let mut pattern = String::new();
            let mut open = 0;
            let mut in_class = false;
            for _ in 0..1 + next(7) {
                let piece = PIECES[next(PIECES.len())];
                pattern.push_str(piece);
                in_class |= piece.starts_with('[');
                open += piece.starts_with('(') as i32;
                if in_class && next(3) == 0 {
                    pattern.push(']');
                    in_class = false;
                }
                if open > 0 && !in_class && next(3) == 0 {
                    pattern.push(')');
                    open -= 1;
                }
            }
            if in_class {
                pattern.push(']');
            }
            for _ in 0..open {
                pattern.push(')');
            }
            // regress reads `\u{…}` as a code point without the `u` flag too, where
            // JavaScript reads a `u` repeated (the table above was checked with node).
            if pattern.contains("\\u{") {
                continue;
            }
            let Some(translated) = to_unicode(&pattern) else {
                continue;
            };
            rewritten += 1;
            let (Ok(original), Ok(unicode)) = (
                regress::Regex::with_flags(&pattern, ""),
                regress::Regex::with_flags(&translated, "u"),
            ) else {
                panic!("{pattern} → {translated}: does not compile");
            };
            for _ in 0..40 {
                let text: String = (0..next(6))
                    .map(|_| ALPHABET[next(ALPHABET.len())])
                    .collect();
                assert_eq!(
                    original.find(&text).is_some(),
                    unicode.find(&text).is_some(),
                    "{pattern:?} → {translated:?} on {text:?}"
                );
            }
        }
        assert!(rewritten > 5_000, "only {rewritten} patterns rewritten");
    }
}
