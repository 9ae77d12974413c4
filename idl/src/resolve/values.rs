//! Types in words, integer ranges, and the string formats a default must satisfy.

use crate::model::{Primitive, Type};

/// A type as it would be written: `list<Forecast>?`, `map<string, u8>`.
pub(crate) fn type_text(ty: &Type) -> String {
    match ty {
        Type::Primitive { name } => primitive_name(*name).to_string(),
        Type::List { item } => format!("list<{}>", type_text(item)),
        Type::Set { item } => format!("set<{}>", type_text(item)),
        Type::Map { value } => format!("map<string, {}>", type_text(value)),
        Type::Named { name, .. } => name.clone(),
        Type::Nullable { inner } => format!("{}?", type_text(inner)),
    }
}

pub(crate) const PRIMITIVES: &[(&str, Primitive)] = &[
    ("bool", Primitive::Bool),
    ("i8", Primitive::I8),
    ("i16", Primitive::I16),
    ("i32", Primitive::I32),
    ("i64", Primitive::I64),
    ("u8", Primitive::U8),
    ("u16", Primitive::U16),
    ("u32", Primitive::U32),
    ("u64", Primitive::U64),
    ("f32", Primitive::F32),
    ("f64", Primitive::F64),
    ("string", Primitive::String),
    ("char", Primitive::Char),
    ("uuid", Primitive::Uuid),
    ("datetime", Primitive::Datetime),
    ("date", Primitive::Date),
    ("time", Primitive::Time),
    ("duration", Primitive::Duration),
    ("uri", Primitive::Uri),
    ("bytes", Primitive::Bytes),
    ("json", Primitive::Json),
    ("object", Primitive::Object),
    ("array", Primitive::Array),
];

pub(crate) fn primitive_name(p: Primitive) -> &'static str {
    PRIMITIVES
        .iter()
        .find(|(_, q)| *q == p)
        .map(|(n, _)| *n)
        .unwrap_or("?")
}

pub(crate) fn primitive_named(name: &str) -> Option<Primitive> {
    PRIMITIVES.iter().find(|(n, _)| *n == name).map(|(_, p)| *p)
}

/// The inclusive range of an integer type.
pub(crate) fn integer_range(p: Primitive) -> Option<(i128, i128)> {
    Some(match p {
        Primitive::I8 => (i8::MIN as i128, i8::MAX as i128),
        Primitive::I16 => (i16::MIN as i128, i16::MAX as i128),
        Primitive::I32 => (i32::MIN as i128, i32::MAX as i128),
        Primitive::I64 => (i64::MIN as i128, i64::MAX as i128),
        Primitive::U8 => (0, u8::MAX as i128),
        Primitive::U16 => (0, u16::MAX as i128),
        Primitive::U32 => (0, u32::MAX as i128),
        Primitive::U64 => (0, u64::MAX as i128),
        _ => return None,
    })
}

pub(crate) fn is_float(p: Primitive) -> bool {
    matches!(p, Primitive::F32 | Primitive::F64)
}

/// Types whose values are JSON strings with a format, and whose defaults are string literals.
pub(crate) fn is_string_like(p: Primitive) -> bool {
    matches!(
        p,
        Primitive::String
            | Primitive::Uuid
            | Primitive::Datetime
            | Primitive::Date
            | Primitive::Time
            | Primitive::Duration
            | Primitive::Uri
    )
}

/// Types a resource template variable or a prompt argument may have: values that arrive
/// as text and parse unambiguously (enums included, and each of these made nullable).
pub(crate) fn is_text_like(ty: &Type, is_enum: impl Fn(&Type) -> bool) -> bool {
    let ty = match ty {
        Type::Nullable { inner } => inner,
        other => other,
    };
    match ty {
        Type::Primitive { name } => {
            integer_range(*name).is_some()
                || is_float(*name)
                || matches!(
                    name,
                    Primitive::String
                        | Primitive::Bool
                        | Primitive::Char
                        | Primitive::Uuid
                        | Primitive::Date
                        | Primitive::Datetime
                        | Primitive::Time
                )
        }
        Type::Named { .. } => is_enum(ty),
        _ => false,
    }
}

/// Checks a string default against the format of a string-like primitive (or `bytes`).
/// Returns a short description of the expected form when it does not match.
pub(crate) fn check_format(p: Primitive, s: &str) -> Result<(), &'static str> {
    let ok = match p {
        Primitive::Uuid => is_uuid(s),
        Primitive::Date => is_date(s),
        Primitive::Time => is_time(s),
        Primitive::Datetime => is_datetime(s),
        Primitive::Duration => is_duration(s),
        Primitive::Uri => is_uri(s),
        Primitive::Bytes => is_base64(s),
        _ => true,
    };
    if ok {
        return Ok(());
    }
    Err(match p {
        Primitive::Uuid => "a UUID such as \"123e4567-e89b-12d3-a456-426614174000\"",
        Primitive::Date => "an RFC 3339 date such as \"2025-06-18\"",
        Primitive::Time => "an RFC 3339 time with offset such as \"14:30:00Z\"",
        Primitive::Datetime => "an RFC 3339 date-time such as \"2025-06-18T14:30:00Z\"",
        Primitive::Duration => "a duration `[-][d.]hh:mm:ss[.fffffff]` such as \"1.02:03:04.5\"",
        Primitive::Uri => "an absolute URI such as \"https://example.com/x\"",
        _ => "base64 text such as \"aGVsbG8=\"",
    })
}

fn digits(s: &str, n: usize) -> Option<u32> {
    (s.len() == n && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse().ok())?
}

pub(crate) fn is_uuid(s: &str) -> bool {
    s.len() == 36
        && s.bytes().enumerate().all(|(i, b)| match i {
            8 | 13 | 18 | 23 => b == b'-',
            _ => b.is_ascii_hexdigit(),
        })
}

pub(crate) fn is_date(s: &str) -> bool {
    let (Some(y), Some(m), Some(d)) = (
        s.get(0..4).and_then(|x| digits(x, 4)),
        s.get(5..7).and_then(|x| digits(x, 2)),
        s.get(8..10).and_then(|x| digits(x, 2)),
    ) else {
        return false;
    };
    if s.len() != 10 || &s[4..5] != "-" || &s[7..8] != "-" || !(1..=12).contains(&m) {
        return false;
    }
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let days = match m {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    (1..=days).contains(&d)
}

pub(crate) fn is_time(s: &str) -> bool {
    let (Some(h), Some(m), Some(sec)) = (
        s.get(0..2).and_then(|x| digits(x, 2)),
        s.get(3..5).and_then(|x| digits(x, 2)),
        s.get(6..8).and_then(|x| digits(x, 2)),
    ) else {
        return false;
    };
    let b = s.as_bytes();
    if b[2] != b':' || b[5] != b':' || h > 23 || m > 59 || sec > 60 {
        return false;
    }
    let mut rest = &s[8..];
    if let Some(frac) = rest.strip_prefix('.') {
        let n = frac.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            return false;
        }
        rest = &frac[n..];
    }
    match rest {
        "Z" | "z" => true,
        _ => {
            // Byte tests first: `rest` may hold multi-byte characters.
            let b = rest.as_bytes();
            b.len() == 6
                && matches!(b[0], b'+' | b'-')
                && b[3] == b':'
                && rest
                    .get(1..3)
                    .and_then(|x| digits(x, 2))
                    .is_some_and(|h| h <= 23)
                && rest
                    .get(4..6)
                    .and_then(|x| digits(x, 2))
                    .is_some_and(|m| m <= 59)
        }
    }
}

pub(crate) fn is_datetime(s: &str) -> bool {
    s.len() > 11
        && matches!(s.as_bytes()[10], b'T' | b't' | b' ')
        && s.get(..10).is_some_and(is_date)
        && s.get(11..).is_some_and(is_time)
}

/// The invariant `c` form of a .NET `TimeSpan`, as the schema mapping writes a duration's
/// pattern: `[-][d.]hh:mm:ss[.fffffff]`, days 1 to 8 digits, hours 00-23, minutes and
/// seconds 00-59, 1 to 7 fractional digits.
pub(crate) fn is_duration(s: &str) -> bool {
    let s = s.strip_prefix('-').unwrap_or(s);
    let (clock, fraction) = match s.rsplit_once('.') {
        Some((head, frac)) if !frac.contains(':') => (head, Some(frac)),
        _ => (s, None),
    };
    let clock = match clock.split_once('.') {
        Some((days, rest)) => {
            if !(1..=8).contains(&days.len()) || !days.bytes().all(|b| b.is_ascii_digit()) {
                return false;
            }
            rest
        }
        None => clock,
    };
    let fraction_ok = fraction
        .is_none_or(|f| (1..=7).contains(&f.len()) && f.bytes().all(|b| b.is_ascii_digit()));
    let parts: Vec<&str> = clock.split(':').collect();
    let two = |p: &str, max: u32| digits(p, 2).is_some_and(|n| n <= max);
    fraction_ok && parts.len() == 3 && two(parts[0], 23) && two(parts[1], 59) && two(parts[2], 59)
}

/// An absolute URI (RFC 3986): a scheme, `:`, then characters a URI may hold.
pub(crate) fn is_uri(s: &str) -> bool {
    let Some((scheme, rest)) = s.split_once(':') else {
        return false;
    };
    let scheme_ok = scheme
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    let bytes = rest.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'%' {
            let hex = |j: usize| bytes.get(j).is_some_and(u8::is_ascii_hexdigit);
            if !(hex(i + 1) && hex(i + 2)) {
                return false;
            }
            i += 3;
            continue;
        }
        let allowed = b.is_ascii_alphanumeric() || b"-._~:/?#[]@!$&'()*+,;=".contains(&b);
        if !allowed {
            return false;
        }
        i += 1;
    }
    scheme_ok
}

/// A plain e-mail address check: one `@`, a non-empty local part, a dotted-or-plain domain,
/// no whitespace.
pub(crate) fn is_email(s: &str) -> bool {
    let Some((local, domain)) = s.rsplit_once('@') else {
        return false;
    };
    !local.is_empty()
        && !domain.is_empty()
        && !s.chars().any(char::is_whitespace)
        && !local.contains('@')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !domain.contains("..")
}

pub(crate) fn is_base64(s: &str) -> bool {
    let trimmed = s.trim_end_matches('=');
    s.len().is_multiple_of(4)
        && s.len() - trimmed.len() <= 2
        && trimmed
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert!(is_uuid("123e4567-e89b-12d3-a456-426614174000"));
        assert!(!is_uuid("123e4567e89b12d3a456426614174000"));
        assert!(is_date("2024-02-29") && !is_date("2023-02-29") && !is_date("2023-13-01"));
        assert!(is_time("23:59:60Z") && is_time("08:30:00.5+02:00") && !is_time("08:30:00"));
        assert!(is_datetime("2025-06-18T14:30:00Z") && !is_datetime("2025-06-18"));
        // Multi-byte characters where a separator is expected must not panic.
        assert!(!is_time("12:00:00é1234") && !is_time("1é:00:00Z"));
        assert!(!is_datetime("2025-06-18é14:30:00Z") && !is_datetime("2025-06-1éT14:30:00Z"));
        for ok in [
            "1.02:03:04.5",
            "-00:00:01",
            "00:00:00",
            "12345678.23:59:59.1234567",
        ] {
            assert!(is_duration(ok), "{ok}");
        }
        for bad in [
            "1:00:00",
            "24:00:00",
            "P1D",
            "00:60:00",
            "1.2.03:04:05",
            "00:00:00.",
            "00:00:00.12345678",
            "123456789.00:00:00",
            "-",
            "",
        ] {
            assert!(!is_duration(bad), "{bad}");
        }
        assert!(is_uri("https://example.com/a?b=c#d") && is_uri("urn:isbn:123"));
        assert!(!is_uri("example.com") && !is_uri("https://a b") && !is_uri("1x:y"));
        assert!(is_email("a@b.c") && !is_email("a@") && !is_email("a b@c"));
        assert!(is_base64("aGVsbG8=") && is_base64("") && !is_base64("abc"));
    }
}
