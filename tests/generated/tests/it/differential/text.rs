//! JSON text for an instance, spelled in any of the ways JSON allows: whitespace between
//! tokens, `\uXXXX` and `\/` escapes in strings and keys, numbers with fractions, exponents
//! and trailing zeros (`100` as `1.00E+2`). Both sides read the same text.
//!
//! An integer is respelled only within ±2^53, where reading it as an `f64` is exact:
//! jsonschema reads every number through serde_json's `f64`/`i64`/`u64`, so a respelled
//! larger integer would be judged by a rounded value.

use serde_json::{Number, Value};

/// A small deterministic generator (SplitMix64): the spelling of an instance is a function
/// of its seed.
pub struct Spelling {
    state: u64,
}

impl Spelling {
    pub fn new(seed: u64) -> Self {
        Spelling { state: seed }
    }

    fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// True once in `n` times.
    fn one_in(&mut self, n: u64) -> bool {
        self.next().is_multiple_of(n)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// `v` as JSON text: compact and plain without a seed, else respelled.
pub fn render(v: &Value, seed: Option<u64>) -> String {
    match seed {
        None => serde_json::to_string(v).unwrap(),
        Some(seed) => {
            let mut out = String::new();
            write(v, &mut Spelling::new(seed), &mut out);
            out
        }
    }
}

fn space(s: &mut Spelling, out: &mut String) {
    if s.one_in(4) {
        out.push_str([" ", "\n", "\t", "\r\n  ", "  "][s.below(5) as usize]);
    }
}

fn write(v: &Value, s: &mut Spelling, out: &mut String) {
    match v {
        Value::Null | Value::Bool(_) => out.push_str(&v.to_string()),
        Value::Number(n) => number(n, s, out),
        Value::String(text) => string(text, s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                space(s, out);
                write(item, s, out);
                space(s, out);
            }
            out.push(']');
        }
        Value::Object(members) => {
            out.push('{');
            for (i, (key, item)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                space(s, out);
                string(key, s, out);
                space(s, out);
                out.push(':');
                space(s, out);
                write(item, s, out);
                space(s, out);
            }
            out.push('}');
        }
    }
}

fn string(text: &str, s: &mut Spelling, out: &mut String) {
    out.push('"');
    for c in text.chars() {
        let escape = s.one_in(6);
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '/' if escape => out.push_str("\\/"),
            '\n' if !escape => out.push_str("\\n"),
            '\t' if !escape => out.push_str("\\t"),
            '\r' if !escape => out.push_str("\\r"),
            '\u{8}' if !escape => out.push_str("\\b"),
            '\u{c}' if !escape => out.push_str("\\f"),
            c if (c as u32) < 0x20 || escape => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    if s.one_in(2) {
                        out.push_str(&format!("\\u{unit:04x}"));
                    } else {
                        out.push_str(&format!("\\u{unit:04X}"));
                    }
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn number(n: &Number, s: &mut Spelling, out: &mut String) {
    let plain = n.to_string();
    let small_int = n
        .as_i64()
        .map(i128::from)
        .or_else(|| n.as_u64().map(i128::from))
        .is_some_and(|i| i.unsigned_abs() <= 1 << 53);
    if (n.is_f64() || small_int) && !s.one_in(3) {
        out.push_str(&respell(&plain, s));
    } else {
        out.push_str(&plain);
    }
}

/// The same decimal number as `plain` (JSON number syntax), written another way.
fn respell(plain: &str, s: &mut Spelling) -> String {
    let (negative, rest) = match plain.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, plain),
    };
    let (mantissa, exponent) = match rest.find(['e', 'E']) {
        Some(i) => (&rest[..i], rest[i + 1..].parse::<i64>().unwrap()),
        None => (rest, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    // value = digits × 10^exp, digits without leading zeros.
    let mut digits: String = format!("{int}{frac}").trim_start_matches('0').to_owned();
    let mut exp = exponent - frac.len() as i64;
    let sign = if negative { "-" } else { "" };
    if digits.is_empty() {
        // Zero, perhaps negative.
        let zero = ["0", "0.0", "0e0", "0E+5", "0.000", "0e-3"][s.below(6) as usize];
        let sign = if negative || s.one_in(4) { "-" } else { "" };
        return format!("{sign}{zero}");
    }
    for _ in 0..s.below(3) {
        digits.push('0');
        exp -= 1;
    }
    let point = 1 + s.below(digits.len() as u64) as usize;
    let (int, frac) = digits.split_at(point);
    let exp = exp + frac.len() as i64;
    let mut out = format!("{sign}{int}");
    if !frac.is_empty() {
        out.push('.');
        out.push_str(frac);
    }
    if exp != 0 || s.one_in(4) {
        out.push(if s.one_in(2) { 'e' } else { 'E' });
        if exp >= 0 && s.one_in(2) {
            out.push('+');
        }
        out.push_str(&exp.to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn respelled_numbers_keep_their_value() {
        for plain in [
            "0", "-0.0", "123", "-45", "0.5", "1.5e-8", "100.0", "1e+30", "6.02e23",
        ] {
            let value: f64 = plain.parse().unwrap();
            for seed in 0..50 {
                let text = respell(plain, &mut Spelling::new(seed));
                let back: Value = serde_json::from_str(&text).unwrap();
                assert_eq!(back.as_f64(), Some(value), "{plain} as {text}");
            }
        }
    }
}
