//! Decoding values that arrive as text: prompt arguments (MCP sends them as strings) and
//! resource-template variables (captured from a URI).
//!
//! The error texts are the JSON decoders' texts for the same type, so a client reads the same
//! reason whichever way the value came.

use std::borrow::Cow;

use super::check::{self, Format};
use super::error::ArgError;
use super::path::Path;
use super::read::{not_a_member, object, string};
use super::reader::{Kind, Reader};

/// A type that can be read from a whole string.
pub trait FromText: Sized {
    /// Reads `s` as `Self`; errors are reported at `path`.
    fn from_text(s: &str, path: &Path<'_>) -> Result<Self, ArgError>;
}

/// An integer written in decimal: an optional `-` and ASCII digits, nothing else (no `+`,
/// no spaces, no fraction), so exactly one text stands for each value's canonical form.
fn integer_text(s: &str, path: &Path<'_>, min: i128, max: i128) -> Result<i128, ArgError> {
    let digits = s.strip_prefix('-').unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ArgError::expected(path, "an integer"));
    }
    // Digits that overflow i128 are still an integer, only out of range.
    match s.parse::<i128>() {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        _ => Err(ArgError::new(
            path,
            format!("Expected an integer from {min} to {max}."),
        )),
    }
}

macro_rules! from_text_int {
    ($($t:ty),*) => {$(
        impl FromText for $t {
            fn from_text(s: &str, path: &Path<'_>) -> Result<Self, ArgError> {
                let v = integer_text(s, path, <$t>::MIN as i128, <$t>::MAX as i128)?;
                <$t>::try_from(v).map_err(|_| ArgError::expected(path, "an integer"))
            }
        }
    )*};
}
from_text_int!(i8, i16, i32, i64, u8, u16, u32, u64, i128);

impl FromText for f64 {
    /// Rust's decimal float syntax (`1.5`, `-2`, `1e3`); only finite values.
    fn from_text(s: &str, path: &Path<'_>) -> Result<Self, ArgError> {
        s.parse::<f64>()
            .ok()
            .filter(|f| f.is_finite())
            .ok_or_else(|| ArgError::expected(path, "a number"))
    }
}

impl FromText for f32 {
    fn from_text(s: &str, path: &Path<'_>) -> Result<Self, ArgError> {
        // As the JSON decoder of f32: any finite number, the nearest f32.
        f64::from_text(s, path).map(super::number::to_f32)
    }
}

impl FromText for bool {
    /// Exactly `true` or `false`.
    fn from_text(s: &str, path: &Path<'_>) -> Result<Self, ArgError> {
        match s {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(ArgError::expected(path, "a boolean")),
        }
    }
}

impl FromText for String {
    fn from_text(s: &str, _path: &Path<'_>) -> Result<Self, ArgError> {
        Ok(s.to_owned())
    }
}

impl FromText for char {
    fn from_text(s: &str, path: &Path<'_>) -> Result<Self, ArgError> {
        let mut chars = s.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Ok(c),
            _ => Err(ArgError::new(path, "Expected exactly one character.")),
        }
    }
}

/// Reads `s` as `T` (what generated code calls for a scalar prompt argument or URI variable).
#[inline]
pub fn text<T: FromText>(s: &str, path: &Path<'_>) -> Result<T, ArgError> {
    T::from_text(s, path)
}

/// A text that must have `format`; the same check and text as [`formatted`](super::formatted).
pub fn text_formatted(s: &str, path: &Path<'_>, format: Format) -> Result<String, ArgError> {
    check::format(s, format, path)?;
    Ok(s.to_owned())
}

/// An enum member given as text, matched exactly by name; returns its index in `members`.
/// The same text as [`enum_member`](super::enum_member): `Expected one of: a, b.`
pub fn text_member(s: &str, path: &Path<'_>, members: &[&str]) -> Result<usize, ArgError> {
    members
        .iter()
        .position(|m| *m == s)
        .ok_or_else(|| not_a_member(path, members))
}

/// Walks a prompt's `arguments` object at the reader: `f` gets each key with `Some(text)` for
/// a string (unescaped, borrowed when it can be) or `None` for `null`. Any other value is
/// refused at `path.field(key)` with `Expected a string.`; a value that is not an object, as
/// [`object`](super::object) refuses it.
pub fn text_arguments<'de, F>(
    r: &mut Reader<'de>,
    path: &Path<'_>,
    mut f: F,
) -> Result<(), ArgError>
where
    F: FnMut(&str, Option<Cow<'de, str>>) -> Result<(), ArgError>,
{
    object(r, path, |r, key| {
        let text = match r.kind() {
            Kind::String => Some(string(r, &path.field(key))?),
            // MCP types prompt arguments as strings; `null` is read as "not given".
            Kind::Null if r.eat_null() => None,
            _ => return Err(ArgError::expected(&path.field(key), "a string")),
        };
        f(key, text)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err<T: FromText + std::fmt::Debug>(s: &str) -> String {
        let root = Path::Root;
        text::<T>(s, &root.field("x")).unwrap_err().to_string()
    }

    #[test]
    fn integers_are_plain_decimal() {
        let p = Path::Root;
        assert_eq!(text::<i32>("-42", &p), Ok(-42));
        assert_eq!(text::<u64>("18446744073709551615", &p), Ok(u64::MAX));
        assert_eq!(text::<i64>("-9223372036854775808", &p), Ok(i64::MIN));
        for bad in ["", "-", "+1", " 1", "1 ", "1.0", "1e2", "0x1", "one"] {
            assert_eq!(
                err::<i32>(bad),
                "Argument 'x' is not valid. Expected an integer.",
                "{bad:?}"
            );
        }
        assert_eq!(
            err::<u8>("256"),
            "Argument 'x' is not valid. Expected an integer from 0 to 255."
        );
        assert_eq!(
            err::<u8>("-1"),
            "Argument 'x' is not valid. Expected an integer from 0 to 255."
        );
        assert_eq!(
            err::<i64>("99999999999999999999999999999999999999999999"),
            "Argument 'x' is not valid. Expected an integer from -9223372036854775808 to 9223372036854775807."
        );
        assert_eq!(
            text::<i128>("-232510626956793085952", &p),
            Ok(-232510626956793085952)
        );
        assert_eq!(
            err::<i128>("170141183460469231731687303715884105728"),
            "Argument 'x' is not valid. Expected an integer from -170141183460469231731687303715884105728 to 170141183460469231731687303715884105727."
        );
    }
}
