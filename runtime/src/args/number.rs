//! Numbers judged exactly from their decimal text.
//!
//! JSON Schema's data model treats a number as an exact decimal (2020-12 core, §4.2.1), while
//! `f64` keeps about 17 significant digits. Reading through `f64` alone would refuse integers
//! in range (`18446744073709551615.0` for a `u64`), accept ones out of range
//! (`-9223372036854775809.0` for an `i64`), hand a handler a neighbour
//! (`9007199254740993.0` as `9007199254740992`), and let `2.5000000000000001` pass
//! `maximum: 2.5`. So integers are read from the text exactly, whatever the spelling, and a
//! bound is compared with the text itself whenever `f64` cannot tell the two apart.

use std::cmp::Ordering;

/// The `f32` nearest to a finite `f64`: the schema of an `f32` is any number, so a number
/// beyond its range is read as the largest `f32` of that sign, never as infinity.
pub fn to_f32(v: f64) -> f32 {
    v.clamp(-f64::from(f32::MAX), f64::from(f32::MAX)) as f32
}

/// The reason given for a number beyond the range of `f64`.
pub(crate) const TOO_LARGE: &str =
    "Expected a number from -1.7976931348623157e308 to 1.7976931348623157e308.";

/// A decimal as written: `digits × 10^exp`, with neither leading nor trailing zeros in
/// `digits` (zero has no digits).
#[derive(Debug, PartialEq, Eq)]
struct Decimal<'a> {
    negative: bool,
    /// The significant digits, as ASCII, in up to two runs (before and after the point).
    int: &'a [u8],
    frac: &'a [u8],
    exp: i64,
}

/// Exponents are saturated here: far beyond any digit count a message can hold, so the
/// saturation never changes a comparison.
const EXP_LIMIT: i64 = 1 << 40;

impl<'a> Decimal<'a> {
    /// Parses a JSON number token (`-12.50e3`); `None` for anything else.
    fn parse(text: &'a str) -> Option<Self> {
        let b = text.as_bytes();
        let mut i = 0;
        let negative = b.first() == Some(&b'-');
        if negative {
            i += 1;
        }
        let int_start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        let int = &b[int_start..i];
        if int.is_empty() || (int.len() > 1 && int[0] == b'0') {
            return None;
        }
        let mut frac: &[u8] = &[];
        if b.get(i) == Some(&b'.') {
            i += 1;
            let start = i;
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            frac = &b[start..i];
            if frac.is_empty() {
                return None;
            }
        }
        let mut exp: i64 = 0;
        if matches!(b.get(i), Some(b'e' | b'E')) {
            i += 1;
            let minus = match b.get(i) {
                Some(b'-') => {
                    i += 1;
                    true
                }
                Some(b'+') => {
                    i += 1;
                    false
                }
                _ => false,
            };
            let start = i;
            while let Some(d) = b.get(i).filter(|d| d.is_ascii_digit()) {
                exp = (exp * 10 + i64::from(d - b'0')).min(EXP_LIMIT);
                i += 1;
            }
            if i == start {
                return None;
            }
            if minus {
                exp = -exp;
            }
        }
        if i != b.len() {
            return None;
        }
        // value = int.frac × 10^exp = (int ++ frac) × 10^(exp - |frac|)
        exp -= frac.len() as i64;
        // Strip zeros: leading ones of the integer part (only "0" can have one), trailing ones
        // of the fraction, then of the integer part when the fraction is all zeros.
        let int = trim_start_zeros(int);
        let mut frac_trimmed = trim_end_zeros(frac);
        exp += (frac.len() - frac_trimmed.len()) as i64;
        let mut int_trimmed = int;
        if frac_trimmed.is_empty() {
            int_trimmed = trim_end_zeros(int);
            exp += (int.len() - int_trimmed.len()) as i64;
        } else if int.is_empty() {
            frac_trimmed = trim_start_zeros(frac_trimmed);
        }
        Some(Decimal {
            negative,
            int: int_trimmed,
            frac: frac_trimmed,
            exp,
        })
    }

    fn is_zero(&self) -> bool {
        self.int.is_empty() && self.frac.is_empty()
    }

    fn digit_count(&self) -> i64 {
        (self.int.len() + self.frac.len()) as i64
    }

    fn digits(&self) -> impl Iterator<Item = u8> + '_ {
        self.int.iter().chain(self.frac).copied()
    }

    /// The exact order of two decimals.
    fn cmp(&self, other: &Decimal<'_>) -> Ordering {
        match (self.is_zero(), other.is_zero()) {
            (true, true) => return Ordering::Equal,
            (true, false) => {
                return if other.negative {
                    Ordering::Greater
                } else {
                    Ordering::Less
                };
            }
            (false, true) => {
                return if self.negative {
                    Ordering::Less
                } else {
                    Ordering::Greater
                };
            }
            (false, false) => {}
        }
        if self.negative != other.negative {
            return if self.negative {
                Ordering::Less
            } else {
                Ordering::Greater
            };
        }
        let magnitude = self.cmp_magnitude(other);
        if self.negative {
            magnitude.reverse()
        } else {
            magnitude
        }
    }

    /// The order of the absolute values of two non-zero decimals.
    fn cmp_magnitude(&self, other: &Decimal<'_>) -> Ordering {
        // The power of ten of the leading digit decides, then the digits from the left (with
        // no trailing zeros, the longer of two equal prefixes is the larger).
        let lead = |d: &Decimal<'_>| d.digit_count() + d.exp;
        lead(self)
            .cmp(&lead(other))
            .then_with(|| self.digits().cmp(other.digits()))
    }
}

fn trim_start_zeros(d: &[u8]) -> &[u8] {
    let n = d.iter().take_while(|&&c| c == b'0').count();
    &d[n..]
}

fn trim_end_zeros(d: &[u8]) -> &[u8] {
    let n = d.iter().rev().take_while(|&&c| c == b'0').count();
    &d[..d.len() - n]
}

/// What a number token is, as an integer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Integer {
    /// An integer that fits in `i128`.
    Exact(i128),
    /// Not an integer (a non-zero fraction, however small), or not a number.
    Fractional,
    /// An integer beyond `i128` (below it when `negative`).
    Huge { negative: bool },
}

/// The integer a number token stands for, read exactly: `2.0`, `2e0`, `0.2e1` and `20e-1`
/// are all 2; `31.0000000000000000001` and `1e-400` are no integers.
pub(crate) fn integer(text: &str) -> Integer {
    let Some(d) = Decimal::parse(text) else {
        return Integer::Fractional;
    };
    if d.is_zero() {
        return Integer::Exact(0);
    }
    if d.exp < 0 {
        return Integer::Fractional;
    }
    // i128 holds 38 full digits: past 39 it is out of range however the digits go.
    if d.digit_count() + d.exp > 39 {
        return Integer::Huge {
            negative: d.negative,
        };
    }
    let mut value: i128 = 0;
    let digits = d.digits().chain(std::iter::repeat_n(b'0', d.exp as usize));
    for c in digits {
        let digit = i128::from(c - b'0');
        let next = value.checked_mul(10).and_then(|v| {
            if d.negative {
                v.checked_sub(digit)
            } else {
                v.checked_add(digit)
            }
        });
        match next {
            Some(v) => value = v,
            None => {
                return Integer::Huge {
                    negative: d.negative,
                };
            }
        }
    }
    Integer::Exact(value)
}

/// The exact order of a number token and a bound (the bound as the schema publishes it: the
/// shortest decimal that reads back as that `f64`). `None` when `text` is not a number.
pub(crate) fn cmp_to_bound(text: &str, bound: f64) -> Option<Ordering> {
    let bound_text = shortest(bound);
    let (a, b) = (Decimal::parse(text)?, Decimal::parse(&bound_text)?);
    Some(a.cmp(&b))
}

/// The shortest JSON decimal that reads back as `v` (finite), as the schema writer prints it.
fn shortest(v: f64) -> String {
    // `{:e}` prints the shortest round-tripping digits in scientific notation (`2.5e0`),
    // which is valid JSON.
    format!("{v:e}")
}

/// The order of a number token against a bound, as JSON Schema judges it: by `f64` when the
/// two differ as `f64`s (the exact decimals are then in the same order), exactly from the
/// text when they are equal as `f64`s.
pub(crate) fn order(text: &str, value: f64, bound: f64) -> Ordering {
    match value.partial_cmp(&bound) {
        Some(Ordering::Equal) | None => cmp_to_bound(text, bound).unwrap_or(Ordering::Equal),
        Some(o) => o,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_are_read_exactly_whatever_the_spelling() {
        for (text, expected) in [
            ("0", Integer::Exact(0)),
            ("-0.0", Integer::Exact(0)),
            ("0e-400", Integer::Exact(0)),
            ("2.0", Integer::Exact(2)),
            ("0.2e1", Integer::Exact(2)),
            ("20e-1", Integer::Exact(2)),
            ("4.2E+1", Integer::Exact(42)),
            (
                "18446744073709551615.0",
                Integer::Exact(18446744073709551615),
            ),
            (
                "1.8446744073709551615e19",
                Integer::Exact(18446744073709551615),
            ),
            (
                "18446744073709551615e0",
                Integer::Exact(18446744073709551615),
            ),
            ("9223372036854775807.0", Integer::Exact(9223372036854775807)),
            (
                "9.223372036854775807e18",
                Integer::Exact(9223372036854775807),
            ),
            (
                "-9223372036854775809.0",
                Integer::Exact(-9223372036854775809),
            ),
            (
                "-9.223372036854775809e18",
                Integer::Exact(-9223372036854775809),
            ),
            ("9007199254740993.0", Integer::Exact(9007199254740993)),
            (
                "-170141183460469231731687303715884105728",
                Integer::Exact(i128::MIN),
            ),
            (
                "170141183460469231731687303715884105727",
                Integer::Exact(i128::MAX),
            ),
            ("-9223372036854775808.5", Integer::Fractional),
            ("31.0000000000000000001", Integer::Fractional),
            ("1e-400", Integer::Fractional),
            ("-1e-400", Integer::Fractional),
            ("2.5", Integer::Fractional),
            (
                "170141183460469231731687303715884105728",
                Integer::Huge { negative: false },
            ),
            ("1e400", Integer::Huge { negative: false }),
            ("-1e99999999999999999999", Integer::Huge { negative: true }),
            ("1e-99999999999999999999", Integer::Fractional),
            ("01", Integer::Fractional),
            ("1.", Integer::Fractional),
            ("", Integer::Fractional),
        ] {
            assert_eq!(integer(text), expected, "{text}");
        }
    }

    #[test]
    fn bounds_are_compared_with_the_text_exactly() {
        use Ordering::*;
        for (text, bound, expected) in [
            ("2.5", 2.5, Equal),
            ("2.50", 2.5, Equal),
            ("25e-1", 2.5, Equal),
            ("2.5000000000000001", 2.5, Greater),
            ("2.4999999999999999", 2.5, Less),
            ("-1e-400", 0.0, Less),
            ("1e-400", 0.0, Greater),
            ("-0", 0.0, Equal),
            ("0.1", 0.1, Equal),
            ("0.10000000000000000001", 0.1, Greater),
            ("-0.10000000000000000001", -0.1, Less),
            ("100", 1e2, Equal),
            ("99.999999999999999999", 100.0, Less),
        ] {
            let value: f64 = text.parse().unwrap();
            assert_eq!(order(text, value, bound), expected, "{text} vs {bound}");
        }
    }
}
