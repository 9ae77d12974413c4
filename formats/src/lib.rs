//! What the toolidl compiler and runtime must agree on: the validators for the string
//! formats a `.tool` schema can advertise, base64 for `bytes`, the client profiles
//! ([`Profile`]) and the "did you mean" suggestions ([`suggest`]).
//!
//! One implementation shared by the language (`toolidl`, which checks defaults at build time),
//! the generator (`toolidl-codegen`, which publishes each profile's listings) and the runtime
//! (`toolidl-runtime`, which checks arguments at call time and reads them in the forms its
//! profile publishes), so a value is accepted at build time exactly when it is accepted at
//! call time. Hand-written to keep the dependency set empty; each validator follows the cited
//! grammar, and none allocates.
//!
//! # Quick start
//!
//! ```
//! use toolidl_formats::{Profile, decode_base64, is_date, is_email};
//!
//! assert!(is_date("2024-02-29"));
//! assert!(!is_date("2023-02-29"));
//! assert!(is_email("ada@example.com"));
//! assert_eq!(decode_base64("aGk="), Some(b"hi".to_vec()));
//! assert_eq!("openai-strict".parse::<Profile>().ok(), Some(Profile::OpenAiStrict));
//! ```
//!
//! # Features
//!
//! | feature | adds | pulls in |
//! |---|---|---|
//! | `publish` | the module `publish`: the listing each client profile accepts, derived from the standard one | `serde_json` (which the generator and the runtime build anyway) |
//!
//! Without it, no dependencies.

#![deny(missing_docs)]

mod net;
mod profile;
#[cfg(feature = "publish")]
pub mod publish;
pub mod suggest;

pub use net::{is_email, is_uri};
pub use profile::{Profile, UnknownProfile};

fn digits(s: &[u8]) -> bool {
    !s.is_empty() && s.iter().all(u8::is_ascii_digit)
}

fn num(s: &[u8]) -> u32 {
    s.iter().fold(0, |acc, d| acc * 10 + u32::from(d - b'0'))
}

fn hex(s: &[u8]) -> bool {
    s.iter().all(u8::is_ascii_hexdigit)
}

/// RFC 4122 text form: 8-4-4-4-12 hex digits.
pub fn is_uuid(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 36
        && b[8] == b'-'
        && b[13] == b'-'
        && b[18] == b'-'
        && b[23] == b'-'
        && [&b[0..8], &b[9..13], &b[14..18], &b[19..23], &b[24..36]]
            .iter()
            .all(|part| hex(part))
}

/// RFC 3339 `full-date`: YYYY-MM-DD with a real day of the month.
pub fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let (y, m, d) = (&b[0..4], &b[5..7], &b[8..10]);
    if !(digits(y) && digits(m) && digits(d)) {
        return false;
    }
    let (y, m, d) = (num(y), num(m), num(d));
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&d)
}

/// `hh:mm:ss[.f]`: the minute of the day, whether the second is 60, and the rest of the input.
fn partial_time(b: &[u8]) -> Option<(i32, bool, &[u8])> {
    if b.len() < 8 || b[2] != b':' || b[5] != b':' {
        return None;
    }
    let (h, m, s) = (&b[0..2], &b[3..5], &b[6..8]);
    if !(digits(h) && digits(m) && digits(s)) || num(h) > 23 || num(m) > 59 || num(s) > 60 {
        return None;
    }
    let mut rest = &b[8..];
    if let [b'.', tail @ ..] = rest {
        let n = tail.iter().take_while(|c| c.is_ascii_digit()).count();
        if n == 0 {
            return None;
        }
        rest = &tail[n..];
    }
    Some(((num(h) * 60 + num(m)) as i32, num(s) == 60, rest))
}

/// `Z` or `±hh:mm`: the offset from UTC in minutes.
fn offset(b: &[u8]) -> Option<i32> {
    match b {
        [b'Z' | b'z'] => Some(0),
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
            let (h, m) = ([*h1, *h2], [*m1, *m2]);
            if !(digits(&h) && digits(&m) && num(&h) <= 23 && num(&m) <= 59) {
                return None;
            }
            let minutes = (num(&h) * 60 + num(&m)) as i32;
            Some(if *sign == b'-' { -minutes } else { minutes })
        }
        _ => None,
    }
}

/// A leap second (`:60`) exists only at 23:59 UTC.
fn leap_ok(minute_of_day: i32, leap: bool, offset: i32) -> bool {
    !leap || (minute_of_day - offset).rem_euclid(24 * 60) == 23 * 60 + 59
}

/// RFC 3339 `full-time` with the offset optional: `.tool`'s `time` is a local time of day,
/// so `hh:mm:ss[.f]` alone is accepted (and read as UTC for the leap-second rule).
pub fn is_time(s: &str) -> bool {
    match partial_time(s.as_bytes()) {
        Some((minute, leap, [])) => leap_ok(minute, leap, 0),
        Some((minute, leap, rest)) => offset(rest).is_some_and(|o| leap_ok(minute, leap, o)),
        None => false,
    }
}

/// RFC 3339 `date-time`: `full-date "T" partial-time time-offset` (`T` either case, the
/// offset required).
pub fn is_date_time(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 20 || !matches!(b[10], b'T' | b't') {
        return false;
    }
    // b[10] is ASCII, so byte 10 is a character boundary.
    is_date(&s[..10])
        && partial_time(&b[11..]).is_some_and(|(minute, leap, rest)| {
            offset(rest).is_some_and(|o| leap_ok(minute, leap, o))
        })
}

/// .NET invariant `c` form: `[-][d.]hh:mm:ss[.fffffff]`.
pub fn is_duration(s: &str) -> bool {
    let mut b = s.as_bytes();
    if let [b'-', tail @ ..] = b {
        b = tail;
    }
    let lead = b.iter().take_while(|c| c.is_ascii_digit()).count();
    if b.get(lead) == Some(&b'.') {
        if lead == 0 || lead > 8 {
            return false;
        }
        b = &b[lead + 1..];
    }
    if b.len() < 8 || b[2] != b':' || b[5] != b':' {
        return false;
    }
    let (h, m, sec) = (&b[0..2], &b[3..5], &b[6..8]);
    if !(digits(h) && digits(m) && digits(sec)) || num(h) > 23 || num(m) > 59 || num(sec) > 59 {
        return false;
    }
    match &b[8..] {
        [] => true,
        [b'.', frac @ ..] => (1..=7).contains(&frac.len()) && digits(frac),
        _ => false,
    }
}

fn sextet(c: u8) -> Option<u32> {
    Some(u32::from(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => return None,
    }))
}

/// Standard base64 (RFC 4648 §4) with padding; `None` if the text is not canonical base64.
pub fn decode_base64(s: &str) -> Option<Vec<u8>> {
    let b = s.as_bytes();
    if !b.len().is_multiple_of(4) {
        return None;
    }
    let mut out = Vec::with_capacity(b.len() / 4 * 3);
    let chunks = b.chunks_exact(4);
    let last = chunks.len().saturating_sub(1);
    for (i, chunk) in chunks.enumerate() {
        let pad = chunk.iter().rev().take_while(|&&c| c == b'=').count();
        if pad > 2 || (pad > 0 && i != last) {
            return None;
        }
        let mut n = 0u32;
        for &c in &chunk[..4 - pad] {
            n = (n << 6) | sextet(c)?;
        }
        n <<= 6 * pad as u32;
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        // Non-zero bits beyond the data would make a second text for the same bytes.
        if (pad == 1 && bytes[2] != 0) || (pad == 2 && bytes[1] != 0) {
            return None;
        }
        out.extend_from_slice(&bytes[..3 - pad]);
    }
    Some(out)
}

/// Standard base64 with padding.
pub fn encode_base64(data: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, &b)| acc | (u32::from(b) << (16 - 8 * i)));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_times() {
        assert!(is_date("2024-02-29"));
        assert!(!is_date("2023-02-29"));
        assert!(!is_date("2024-13-01"));
        assert!(!is_date("2024-1-01"));
        assert!(is_time("23:59:60"));
        assert!(!is_time("12:00:60") && !is_time("23:59:60+01:00"));
        assert!(is_time("15:59:60-08:00") && is_time("01:29:60+01:30"));
        assert!(!is_date_time("1998-12-31T23:58:60Z"));
        assert!(is_date_time("1998-12-31T15:59:60.123-08:00"));
        assert!(is_time("08:30:00.125+02:00"));
        assert!(is_time("08:30:00Z"));
        assert!(!is_time("24:00:00"));
        assert!(!is_time("08:30"));
        assert!(!is_time("08:30:00."));
        assert!(is_date_time("2024-05-01T08:30:00Z"));
        assert!(is_date_time("2024-05-01t08:30:00.5-05:00"));
        assert!(!is_date_time("2024-05-01T08:30:00"));
        assert!(!is_date_time("2024-05-01 08:30:00Z"));
    }

    #[test]
    fn multi_byte_text_where_ascii_is_expected() {
        assert!(!is_time("12:00:00é1234") && !is_time("1é:00:00Z"));
        assert!(!is_date_time("2025-06-18é14:30:00Z") && !is_date_time("2025-06-1éT14:30:00Z"));
        assert!(!is_date("2020-0৪-01") && !is_uuid("৪eb8aa08-aa98-11ea-b4aa-73b441d16380"));
        assert!(!is_duration("1.2.03:04:05") && !is_duration("123456789.00:00:00"));
        assert!(!is_duration("-") && !is_duration(""));
    }

    #[test]
    fn durations_follow_the_c_form() {
        for ok in [
            "00:00:00",
            "-1.02:03:04",
            "12:00:00.1234567",
            "10675199.02:48:05.4775807",
        ] {
            assert!(is_duration(ok), "{ok}");
        }
        for bad in [
            "1:00:00",
            "24:00:00",
            "00:60:00",
            "00:00:00.12345678",
            "PT1H",
            ".01:00:00",
            "01:00:00.",
        ] {
            assert!(!is_duration(bad), "{bad}");
        }
    }

    #[test]
    fn uuid_email_uri() {
        assert!(is_uuid("123e4567-e89b-12d3-a456-426614174000"));
        assert!(!is_uuid("123e4567e89b12d3a456426614174000"));
        assert!(!is_uuid("123e4567-e89b-12d3-a456-42661417400g"));
        assert!(is_email("ada@example.org"));
        assert!(!is_email("ada@"));
        assert!(!is_email("ada example@x.org"));
        assert!(!is_email("ada@x..org"));
        assert!(is_uri("https://example.org/a?b=c"));
        assert!(is_uri("urn:isbn:0451450523"));
        assert!(!is_uri("/relative/path"));
        assert!(!is_uri("https://exa mple.org"));
    }

    #[test]
    fn base64_round_trips_and_refuses_non_canonical_text() {
        for data in [&b""[..], b"f", b"fo", b"foo", b"foob", b"fooba", b"foobar"] {
            let text = encode_base64(data);
            assert_eq!(decode_base64(&text).as_deref(), Some(data));
        }
        assert_eq!(encode_base64(b"foobar"), "Zm9vYmFy");
        assert_eq!(decode_base64("Zm8="), Some(b"fo".to_vec()));
        assert_eq!(decode_base64("Zm9=").as_deref(), None);
        assert_eq!(decode_base64("Zm8"), None);
        assert_eq!(decode_base64("Zm8=Zm8="), None);
        assert_eq!(decode_base64("Zm$="), None);
    }
}
