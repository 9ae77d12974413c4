//! Typed format values: what code generated with `typed_formats(true)` holds instead of a
//! `String` for `uuid`, `datetime`, `date`, `time`, `duration` and `uri` (the `typed-formats`
//! feature).
//!
//! | `.tool` | Rust | wire text written |
//! | --- | --- | --- |
//! | `uuid` | [`Uuid`] (`uuid::Uuid`) | lowercase `8-4-4-4-12` |
//! | `datetime` | [`DateTime`] (`chrono::DateTime<FixedOffset>`) | RFC 3339, the offset as sent (`Z` for zero) |
//! | `date` | [`Date`] (`chrono::NaiveDate`) | `YYYY-MM-DD` |
//! | `time` | [`Time`]: a `chrono::NaiveTime` and the offset, if one was sent | `hh:mm:ss[.f][offset]` |
//! | `duration` | [`Duration`]: a `chrono::TimeDelta` | `[-][d.]hh:mm:ss[.fffffff]` |
//! | `uri` | [`Uri`] (`iri_string::types::UriString`) | the text as sent |
//!
//! A value is accepted exactly when the `String` it replaces would be: the text is checked
//! by the same validator (`toolidl-formats`) first, then read into the type, which holds
//! every text the validator accepts (tested over generated strings). The type's equality is
//! its meaning (`08:30:00Z` equals `09:30:00+01:00` as a [`DateTime`]); a set's uniqueness is
//! still judged on the text, as the schema's `uniqueItems` is.
//!
//! What the types do not keep, all of it outside the meaning the formats give a text:
//! - fractions of a second past nanoseconds (`datetime`, `time`) are dropped;
//! - the letter case of a `uuid` and of `T`/`Z` in a `datetime`, and `-00:00` written as a
//!   zero offset (`Z`);
//! - how a fraction or a `duration`'s days were padded (`08:30:00.50` is written
//!   `08:30:00.500`, `-00:00:00` and `0.01:00:00` as `00:00:00` and `01:00:00`).
//!
//! A `duration` of `.tool` is the fixed-length `[-][d.]hh:mm:ss[.fffffff]` (a day is 24
//! hours; there are no months or years), so a `TimeDelta` represents every one exactly.
//!
//! The crates are re-exported ([`chrono`], [`uuid`], [`iri_string`]), so a user names these
//! types without depending on the crates.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::args::{self, ArgError, Decode, Format, FromText, Path, Reader};

pub use chrono;
pub use iri_string;
pub use uuid;

use chrono::{FixedOffset, NaiveDate, NaiveTime, TimeDelta, Timelike};

/// `uuid`.
pub type Uuid = uuid::Uuid;
/// `date`: a calendar date of the proleptic Gregorian calendar.
pub type Date = chrono::NaiveDate;
/// `datetime`: an RFC 3339 date-time with the offset it was written with.
pub type DateTime = chrono::DateTime<FixedOffset>;
/// `uri`: an RFC 3986 absolute URI (with an optional fragment), its text as sent.
pub type Uri = iri_string::types::UriString;

/// `time`: a time of day, with the offset from UTC when the text has one (`.tool`'s `time`
/// allows `08:30:00` as well as `08:30:00+02:00`). Equal when both parts are equal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Time {
    /// The time of day as written; a leap second (`23:59:60`) is chrono's leap-second form.
    pub time: NaiveTime,
    /// The offset written after it, if any (`Z` is a zero offset).
    pub offset: Option<FixedOffset>,
}

/// `duration`: a signed length of time, `[-][d.]hh:mm:ss[.fffffff]` on the wire (a day is
/// 24 hours). Written back with a seven-digit fraction when it has one, as .NET does; a
/// value built in Rust is written to 100 ns (finer parts are dropped), and one of 10⁸ days
/// or more cannot be written (serializing it is an error).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Duration(pub TimeDelta);

/// A type a format's text is read into.
pub trait Typed: Sized {
    /// The format whose validator judges the text.
    const FORMAT: Format;

    /// Reads `text`: `None` exactly when the format's validator refuses it (the validator
    /// judges first; the value is then read from a text known to be well formed, and
    /// tests/generated checks over generated strings that every such text has a value).
    fn parse(text: &str) -> Option<Self>;
}

/// Reads `text` as a `T`: refused exactly when the format's validator refuses it, with the
/// same reason as the `String` that `T` replaces.
pub fn typed<T: Typed>(text: &str, path: &Path<'_>) -> Result<T, ArgError> {
    T::parse(text).ok_or_else(|| ArgError::new(path, T::FORMAT.reason()))
}

/// `Some(())` when `text` is in `format`: the first step of every [`Typed::parse`].
fn valid(format: Format, text: &str) -> Option<()> {
    format.is_valid(text).then_some(())
}

/// A `.tool` default of a format type (`due: date = "2026-01-01"`), which the compiler has
/// checked against the same validator.
///
/// # Panics
///
/// Only if `text` is not in the format, which the compiler refuses (E0504).
pub fn default<T: Typed>(text: &str) -> T {
    match T::parse(text) {
        Some(value) => value,
        None => panic!("toolidl: the default {text:?} is not in its format"),
    }
}

macro_rules! typed_impls {
    ($($t:ty),*) => {$(
        impl Decode for $t {
            fn read(r: &mut Reader<'_>, path: &Path<'_>) -> Result<Self, ArgError> {
                typed(&args::string(r, path)?, path)
            }
        }

        impl FromText for $t {
            fn from_text(s: &str, path: &Path<'_>) -> Result<Self, ArgError> {
                typed(s, path)
            }
        }
    )*};
}

typed_impls!(Uuid, Date, DateTime, Time, Duration, Uri);

impl Typed for Uuid {
    const FORMAT: Format = Format::Uuid;

    fn parse(text: &str) -> Option<Self> {
        valid(Self::FORMAT, text)?;
        uuid::Uuid::try_parse(text).ok()
    }
}

impl Typed for Uri {
    const FORMAT: Format = Format::Uri;

    fn parse(text: &str) -> Option<Self> {
        valid(Self::FORMAT, text)?;
        Uri::try_from(text).ok()
    }
}

/// The number that ASCII digits spell (the validator checked they are digits).
fn num(digits: &[u8]) -> u32 {
    digits.iter().fold(0u32, |n, d| {
        n.wrapping_mul(10).wrapping_add(u32::from(d - b'0'))
    })
}

/// Nanoseconds of a fraction's digits, past the ninth dropped.
fn nanos(digits: &[u8]) -> u32 {
    let kept = &digits[..digits.len().min(9)];
    num(kept) * 10u32.pow(9 - kept.len() as u32)
}

fn date(b: &[u8]) -> Option<NaiveDate> {
    NaiveDate::from_ymd_opt(num(&b[0..4]) as i32, num(&b[5..7]), num(&b[8..10]))
}

/// `hh:mm:ss[.f]` and what follows it.
fn time_of_day(b: &[u8]) -> Option<(NaiveTime, &[u8])> {
    let (h, m, s) = (num(&b[0..2]), num(&b[3..5]), num(&b[6..8]));
    let mut rest = &b[8..];
    let mut nano = 0;
    if let [b'.', tail @ ..] = rest {
        let n = tail.iter().take_while(|c| c.is_ascii_digit()).count();
        nano = nanos(&tail[..n]);
        rest = &tail[n..];
    }
    // chrono writes a leap second as second 59 with a nanosecond of a second or more.
    let time = if s == 60 {
        NaiveTime::from_hms_nano_opt(h, m, 59, 1_000_000_000 + nano)
    } else {
        NaiveTime::from_hms_nano_opt(h, m, s, nano)
    };
    Some((time?, rest))
}

fn offset(b: &[u8]) -> Option<FixedOffset> {
    match b {
        [b'Z' | b'z'] => FixedOffset::east_opt(0),
        [sign, h1, h2, b':', m1, m2] => {
            let seconds = (num(&[*h1, *h2]) * 3600 + num(&[*m1, *m2]) * 60) as i32;
            FixedOffset::east_opt(if *sign == b'-' { -seconds } else { seconds })
        }
        _ => None,
    }
}

impl Typed for Date {
    const FORMAT: Format = Format::Date;

    fn parse(text: &str) -> Option<Self> {
        valid(Self::FORMAT, text)?;
        date(text.as_bytes())
    }
}

impl Typed for DateTime {
    const FORMAT: Format = Format::DateTime;

    fn parse(text: &str) -> Option<Self> {
        valid(Self::FORMAT, text)?;
        let b = text.as_bytes();
        let (time, rest) = time_of_day(b.get(11..)?)?;
        let local = date(b)?.and_time(time);
        local.and_local_timezone(offset(rest)?).single()
    }
}

impl Typed for Time {
    const FORMAT: Format = Format::Time;

    fn parse(text: &str) -> Option<Self> {
        valid(Self::FORMAT, text)?;
        let (time, rest) = time_of_day(text.as_bytes())?;
        let offset = match rest {
            [] => None,
            rest => Some(offset(rest)?),
        };
        Some(Time { time, offset })
    }
}

impl Typed for Duration {
    const FORMAT: Format = Format::Duration;

    fn parse(text: &str) -> Option<Self> {
        valid(Self::FORMAT, text)?;
        let b = text.as_bytes();
        let (negative, b) = match b {
            [b'-', rest @ ..] => (true, rest),
            b => (false, b),
        };
        let lead = b.iter().take_while(|c| c.is_ascii_digit()).count();
        let (days, b) = match b.get(lead) {
            Some(b'.') => (i64::from(num(&b[..lead])), &b[lead + 1..]),
            _ => (0, b),
        };
        let (h, m, s) = (num(&b[0..2]), num(&b[3..5]), num(&b[6..8]));
        let nano = match b.get(8..) {
            Some([b'.', frac @ ..]) => nanos(frac),
            _ => 0,
        };
        let seconds = days * 86_400 + i64::from(h * 3600 + m * 60 + s);
        let delta = TimeDelta::new(seconds, nano)?;
        Some(Duration(if negative { -delta } else { delta }))
    }
}

/// A fraction of a second as chrono writes one in RFC 3339 (`AutoSi`): none, or 3, 6 or 9
/// digits, whichever is the shortest exact one.
fn write_fraction(f: &mut fmt::Formatter<'_>, nano: u32) -> fmt::Result {
    if nano == 0 {
        Ok(())
    } else if nano.is_multiple_of(1_000_000) {
        write!(f, ".{:03}", nano / 1_000_000)
    } else if nano.is_multiple_of(1_000) {
        write!(f, ".{:06}", nano / 1_000)
    } else {
        write!(f, ".{nano:09}")
    }
}

fn write_offset(f: &mut fmt::Formatter<'_>, offset: FixedOffset) -> fmt::Result {
    let seconds = offset.local_minus_utc();
    if seconds == 0 {
        return f.write_str("Z");
    }
    let sign = if seconds < 0 { '-' } else { '+' };
    let minutes = seconds.unsigned_abs() / 60;
    write!(f, "{sign}{:02}:{:02}", minutes / 60, minutes % 60)
}

impl fmt::Display for Time {
    /// `hh:mm:ss[.f][offset]`, the offset `Z` when it is zero.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = self.time;
        let (second, nano) = match t.nanosecond() {
            n if n >= 1_000_000_000 => (60, n - 1_000_000_000),
            n => (t.second(), n),
        };
        write!(f, "{:02}:{:02}:{second:02}", t.hour(), t.minute())?;
        write_fraction(f, nano)?;
        match self.offset {
            Some(offset) => write_offset(f, offset),
            None => Ok(()),
        }
    }
}

/// A [`Duration`] outside what `[-][d.]hh:mm:ss[.fffffff]` can write: 10⁸ days or more.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DurationOutOfRange;

impl fmt::Display for DurationOutOfRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a duration of 10^8 days or more has no [-][d.]hh:mm:ss[.fffffff] form")
    }
}

impl std::error::Error for DurationOutOfRange {}

impl Duration {
    /// The `[-][d.]hh:mm:ss[.fffffff]` text (days only when there are some, a fraction of
    /// seven digits only when there is one of 100 ns or more).
    pub fn to_text(&self) -> Result<String, DurationOutOfRange> {
        let delta = self.0;
        let sign = if delta < TimeDelta::zero() { "-" } else { "" };
        let abs = delta.abs();
        let (seconds, ticks) = (abs.num_seconds(), abs.subsec_nanos() / 100);
        let days = seconds / 86_400;
        if days >= 100_000_000 {
            return Err(DurationOutOfRange);
        }
        let rest = seconds % 86_400;
        let mut text = String::from(sign);
        if days > 0 {
            text.push_str(&format!("{days}."));
        }
        text.push_str(&format!(
            "{:02}:{:02}:{:02}",
            rest / 3600,
            rest / 60 % 60,
            rest % 60
        ));
        if ticks > 0 {
            text.push_str(&format!(".{ticks:07}"));
        }
        Ok(text)
    }
}

impl Serialize for Time {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl Serialize for Duration {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let text = self.to_text().map_err(serde::ser::Error::custom)?;
        serializer.serialize_str(&text)
    }
}

/// Reads a string in `T`'s format, the validator first, as [`typed`] does.
fn deserialize_typed<'de, T: Typed, D: Deserializer<'de>>(deserializer: D) -> Result<T, D::Error> {
    let text = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
    T::parse(&text).ok_or_else(|| serde::de::Error::custom(T::FORMAT.reason()))
}

impl<'de> Deserialize<'de> for Time {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize_typed(deserializer)
    }
}

impl<'de> Deserialize<'de> for Duration {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize_typed(deserializer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read<T: Typed>(text: &str) -> T {
        typed(text, &Path::Root).unwrap()
    }

    #[test]
    fn times_and_durations_write_their_format() {
        for (text, written) in [
            ("23:59:60.5", "23:59:60.500"),
            ("08:30:00+00:00", "08:30:00Z"),
            ("08:30:00.000000001-01:30", "08:30:00.000000001-01:30"),
            ("08:30:00.1234567891", "08:30:00.123456789"),
        ] {
            assert_eq!(read::<Time>(text).to_string(), written);
        }
        for (text, written) in [
            ("-00:00:00", "00:00:00"),
            ("00000001.00:00:00.1", "1.00:00:00.1000000"),
            ("-99999999.23:59:59.9999999", "-99999999.23:59:59.9999999"),
        ] {
            assert_eq!(read::<Duration>(text).to_text().unwrap(), written);
        }
    }

    #[test]
    fn a_duration_past_the_format_does_not_serialize() {
        let long = Duration(TimeDelta::days(100_000_000));
        assert_eq!(long.to_text(), Err(DurationOutOfRange));
        assert!(serde_json::to_string(&long).is_err());
        let fine = Duration(TimeDelta::nanoseconds(150));
        assert_eq!(
            serde_json::to_string(&fine).unwrap(),
            "\"00:00:00.0000001\""
        );
    }

    #[test]
    fn deserializing_checks_the_format() {
        let time: Time = serde_json::from_str("\"08:30:00\"").unwrap();
        assert_eq!(time.offset, None);
        assert!(serde_json::from_str::<Time>("\"8:30:00\"").is_err());
        assert!(serde_json::from_str::<Duration>("\"PT1H\"").is_err());
        let error = typed::<Date>("2023-02-29", &Path::Root.field("due")).unwrap_err();
        assert_eq!(
            error.to_string(),
            "Argument 'due' is not valid. Expected a date (YYYY-MM-DD)."
        );
    }

    #[test]
    fn parse_refuses_what_the_validator_refuses() {
        for text in ["", "x", "2024-02-3", "08:30", "-", "1.", "a", "123e4567"] {
            assert!(Uuid::parse(text).is_none() && Date::parse(text).is_none());
            assert!(DateTime::parse(text).is_none() && Time::parse(text).is_none());
            assert!(Duration::parse(text).is_none() && Uri::parse(text).is_none());
        }
    }

    #[test]
    fn defaults_read_their_text() {
        assert_eq!(default::<Date>("2026-01-01").to_string(), "2026-01-01");
        let at = default::<DateTime>("1998-12-31T15:59:60.123-08:00");
        assert_eq!(
            serde_json::to_string(&at).unwrap(),
            "\"1998-12-31T15:59:60.123-08:00\""
        );
    }
}
