//! Decoding JSON argument values straight into typed Rust values, with path tracking.
//!
//! Objects, arrays and maps are walked with callbacks over borrowed raw values, so no
//! intermediate `serde_json::Value` tree is built.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::hash::Hash;

use serde::de::{self, Deserializer as _, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

use super::{ArgError, Path};

/// A type that generated code can read from one argument value.
pub trait Decode: Sized {
    /// Reads `raw`; errors are reported at `path`.
    fn decode(raw: &RawValue, path: &Path<'_>) -> Result<Self, ArgError>;
}

/// The JSON kind of a raw value, from its first byte.
fn first_byte(raw: &RawValue) -> u8 {
    raw.get().as_bytes().first().copied().unwrap_or(b' ')
}

/// The error for a value of the wrong kind (`null` gets its own text).
pub fn wrong_type(raw: &RawValue, path: &Path<'_>, expected: &str) -> ArgError {
    if raw.get() == "null" {
        ArgError::null(path)
    } else {
        ArgError::expected(path, expected)
    }
}

/// Reads an integer in `[min, max]`. Accepts integral numbers written with a fraction
/// or exponent (`2.0`), as JSON Schema's `integer` does.
pub fn integer(raw: &RawValue, path: &Path<'_>, min: i128, max: i128) -> Result<i128, ArgError> {
    let text = raw.get();
    let b = first_byte(raw);
    if !(b == b'-' || b.is_ascii_digit()) {
        return Err(wrong_type(raw, path, "an integer"));
    }
    let value = match text.parse::<i128>() {
        Ok(v) => v,
        Err(_) => match text.parse::<f64>() {
            Ok(f) if f.is_finite() && f.fract() == 0.0 && f.abs() < 1e38 => f as i128,
            _ => return Err(ArgError::expected(path, "an integer")),
        },
    };
    if value < min || value > max {
        return Err(ArgError::new(
            path,
            format!("Expected an integer from {min} to {max}."),
        ));
    }
    Ok(value)
}

macro_rules! decode_int {
    ($($t:ty),*) => {$(
        impl Decode for $t {
            #[inline]
            fn decode(raw: &RawValue, path: &Path<'_>) -> Result<Self, ArgError> {
                // Fast path: a plain literal that fits.
                if let Ok(v) = raw.get().parse::<$t>() {
                    return Ok(v);
                }
                let v = integer(raw, path, <$t>::MIN as i128, <$t>::MAX as i128)?;
                <$t>::try_from(v).map_err(|_| ArgError::expected(path, "an integer"))
            }
        }
    )*};
}
decode_int!(i8, i16, i32, i64, u8, u16, u32, u64);

impl Decode for f64 {
    fn decode(raw: &RawValue, path: &Path<'_>) -> Result<Self, ArgError> {
        let b = first_byte(raw);
        if !(b == b'-' || b.is_ascii_digit()) {
            return Err(wrong_type(raw, path, "a number"));
        }
        raw.get()
            .parse::<f64>()
            .ok()
            .filter(|f| f.is_finite())
            .ok_or_else(|| ArgError::expected(path, "a number"))
    }
}

impl Decode for f32 {
    fn decode(raw: &RawValue, path: &Path<'_>) -> Result<Self, ArgError> {
        let v = f64::decode(raw, path)?;
        if v.abs() > f32::MAX as f64 {
            return Err(ArgError::expected(path, "a number within the range of f32"));
        }
        Ok(v as f32)
    }
}

impl Decode for bool {
    fn decode(raw: &RawValue, path: &Path<'_>) -> Result<Self, ArgError> {
        match raw.get() {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(wrong_type(raw, path, "a boolean")),
        }
    }
}

impl Decode for String {
    fn decode(raw: &RawValue, path: &Path<'_>) -> Result<Self, ArgError> {
        Ok(string(raw, path)?.into_owned())
    }
}

/// Reads a string, borrowing it from the input when it has no escapes.
pub fn string<'a>(raw: &'a RawValue, path: &Path<'_>) -> Result<Cow<'a, str>, ArgError> {
    if first_byte(raw) != b'"' {
        return Err(wrong_type(raw, path, "a string"));
    }
    let text = raw.get();
    let inner = &text[1..text.len() - 1];
    if !inner.contains('\\') {
        return Ok(Cow::Borrowed(inner));
    }
    serde_json::from_str::<String>(text)
        .map(Cow::Owned)
        .map_err(|_| ArgError::expected(path, "a string"))
}

impl Decode for char {
    fn decode(raw: &RawValue, path: &Path<'_>) -> Result<Self, ArgError> {
        let s = string(raw, path)?;
        let mut chars = s.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Ok(c),
            _ => Err(ArgError::new(path, "Expected exactly one character.")),
        }
    }
}

impl<T: Decode> Decode for Option<T> {
    fn decode(raw: &RawValue, path: &Path<'_>) -> Result<Self, ArgError> {
        if raw.get() == "null" {
            Ok(None)
        } else {
            T::decode(raw, path).map(Some)
        }
    }
}

impl<T: Decode> Decode for Box<T> {
    fn decode(raw: &RawValue, path: &Path<'_>) -> Result<Self, ArgError> {
        T::decode(raw, path).map(Box::new)
    }
}

impl<T: Decode> Decode for Vec<T> {
    fn decode(raw: &RawValue, path: &Path<'_>) -> Result<Self, ArgError> {
        let mut out = Vec::new();
        array(raw, path, |i, item| {
            out.push(T::decode(item, &path.index(i))?);
            Ok(())
        })?;
        Ok(out)
    }
}

impl<T: Decode> Decode for BTreeMap<String, T> {
    fn decode(raw: &RawValue, path: &Path<'_>) -> Result<Self, ArgError> {
        let mut out = BTreeMap::new();
        object(raw, path, |key, value| {
            out.insert(key.to_owned(), T::decode(value, &path.key(key))?);
            Ok(())
        })?;
        Ok(out)
    }
}

impl<T: Decode, S: std::hash::BuildHasher + Default> Decode for HashMap<String, T, S> {
    fn decode(raw: &RawValue, path: &Path<'_>) -> Result<Self, ArgError> {
        let mut out = HashMap::default();
        object(raw, path, |key, value| {
            out.insert(key.to_owned(), T::decode(value, &path.key(key))?);
            Ok(())
        })?;
        Ok(out)
    }
}

/// `json`: any value.
impl Decode for serde_json::Value {
    fn decode(raw: &RawValue, path: &Path<'_>) -> Result<Self, ArgError> {
        serde_json::from_str(raw.get()).map_err(|_| ArgError::bare(path))
    }
}

/// `object`: any object.
impl Decode for serde_json::Map<String, serde_json::Value> {
    fn decode(raw: &RawValue, path: &Path<'_>) -> Result<Self, ArgError> {
        if first_byte(raw) != b'{' {
            return Err(wrong_type(raw, path, "an object"));
        }
        serde_json::from_str(raw.get()).map_err(|_| ArgError::bare(path))
    }
}

/// A set: an array whose items must all differ (duplicates are refused at their index).
pub fn set<T: Decode + Eq + Hash>(raw: &RawValue, path: &Path<'_>) -> Result<Vec<T>, ArgError> {
    let items = Vec::<T>::decode(raw, path)?;
    super::check::unique(&items, path)?;
    Ok(items)
}

/// A set of items that are only `PartialEq` (floats, records holding floats): an array whose
/// items must all differ by `==` (duplicates are refused at their index).
pub fn set_by_eq<T: Decode + PartialEq>(
    raw: &RawValue,
    path: &Path<'_>,
) -> Result<Vec<T>, ArgError> {
    let items = Vec::<T>::decode(raw, path)?;
    super::check::unique_by_eq(&items, path)?;
    Ok(items)
}

/// A set whose items need more than [`Decode`] (a string format): the items as [`list`]
/// reads them, then uniqueness by their own equality, as [`set`] checks it.
pub fn set_with<'a, T, F>(raw: &'a RawValue, path: &Path<'_>, f: F) -> Result<Vec<T>, ArgError>
where
    T: Eq + Hash,
    F: FnMut(&'a RawValue, &Path<'_>) -> Result<T, ArgError>,
{
    let items = list(raw, path, f)?;
    super::check::unique(&items, path)?;
    Ok(items)
}

/// A set of records, `json` or `bytes` values: the items as `f` reads them, then `uniqueItems`
/// by JSON equality of the items as sent (two records that differ only in a defaulted field
/// are different items, as JSON Schema sees them).
pub fn set_by_json<'a, T, F>(raw: &'a RawValue, path: &Path<'_>, f: F) -> Result<Vec<T>, ArgError>
where
    F: FnMut(&'a RawValue, &Path<'_>) -> Result<T, ArgError>,
{
    let items = list(raw, path, f)?;
    unique_json_items(raw, path)?;
    Ok(items)
}

/// A list whose items need more than [`Decode`] (a constraint, a nested helper): `f` reads
/// item `i` at `path.index(i)`. Errors for the array itself are those of `Vec<T>::decode`.
pub fn list<'a, T, F>(raw: &'a RawValue, path: &Path<'_>, mut f: F) -> Result<Vec<T>, ArgError>
where
    F: FnMut(&'a RawValue, &Path<'_>) -> Result<T, ArgError>,
{
    let mut out = Vec::new();
    array(raw, path, |i, item| {
        out.push(f(item, &path.index(i))?);
        Ok(())
    })?;
    Ok(out)
}

/// A `map<string, T>` whose values need more than [`Decode`]: `f` reads the value of key `k`
/// at `path.key(k)`. Errors for the object itself are those of `BTreeMap<String, T>::decode`.
pub fn map<'a, T, F>(
    raw: &'a RawValue,
    path: &Path<'_>,
    mut f: F,
) -> Result<BTreeMap<String, T>, ArgError>
where
    F: FnMut(&'a RawValue, &Path<'_>) -> Result<T, ArgError>,
{
    let mut out = BTreeMap::new();
    object(raw, path, |key, value| {
        out.insert(key.to_owned(), f(value, &path.key(key))?);
        Ok(())
    })?;
    Ok(out)
}

/// A nullable value whose type needs more than [`Decode`]: `null` is `None`, anything else
/// goes to `f` at the same path.
#[inline]
pub fn nullable<'a, T, F>(raw: &'a RawValue, path: &Path<'_>, f: F) -> Result<Option<T>, ArgError>
where
    F: FnOnce(&'a RawValue, &Path<'_>) -> Result<T, ArgError>,
{
    if raw.get() == "null" {
        Ok(None)
    } else {
        f(raw, path).map(Some)
    }
}

/// `uniqueItems` by JSON Schema's equality, for an array whose items already decoded (sets
/// of records or of `json`, whose Rust types have no `Eq`): `1` and `1.0` are the same item,
/// object members compare in any order. The first repeat is reported at its index.
pub fn unique_json_items(raw: &RawValue, path: &Path<'_>) -> Result<(), ArgError> {
    let items = Vec::<serde_json::Value>::decode(raw, path)?;
    super::check::unique_json(&items, path)
}

/// A required property: `None` (absent) becomes the "A value is required." error.
#[inline]
pub fn required<T>(value: Option<T>, parent: &Path<'_>, name: &str) -> Result<T, ArgError> {
    value.ok_or_else(|| ArgError::missing(parent, name))
}

/// An enum member, matched exactly by name; returns its index in `members`.
pub fn enum_member(raw: &RawValue, path: &Path<'_>, members: &[&str]) -> Result<usize, ArgError> {
    let s = string(raw, path).map_err(|_| expected_member(raw, path, members))?;
    members
        .iter()
        .position(|m| *m == s)
        .ok_or_else(|| expected_member(raw, path, members))
}

fn expected_member(raw: &RawValue, path: &Path<'_>, members: &[&str]) -> ArgError {
    if raw.get() == "null" {
        return ArgError::null(path);
    }
    not_a_member(path, members)
}

/// `Expected one of: a, b.`, shared with the text decoder so both say the same.
pub(crate) fn not_a_member(path: &Path<'_>, members: &[&str]) -> ArgError {
    ArgError::new(path, format!("Expected one of: {}.", members.join(", ")))
}

/// Walks an object's entries in input order, borrowing keys and values.
pub fn object<'a, F>(raw: &'a RawValue, path: &Path<'_>, f: F) -> Result<(), ArgError>
where
    F: FnMut(&str, &'a RawValue) -> Result<(), ArgError>,
{
    if first_byte(raw) != b'{' {
        return Err(wrong_type(raw, path, "an object"));
    }
    let mut failure = None;
    let mut de = serde_json::Deserializer::from_str(raw.get());
    let walked = de.deserialize_map(EntryVisitor {
        f,
        failure: &mut failure,
    });
    match (walked, failure) {
        (_, Some(e)) => Err(e),
        (Ok(()), None) => Ok(()),
        (Err(_), None) => Err(ArgError::expected(path, "an object")),
    }
}

/// Walks an array's items in order.
pub fn array<'a, F>(raw: &'a RawValue, path: &Path<'_>, f: F) -> Result<(), ArgError>
where
    F: FnMut(usize, &'a RawValue) -> Result<(), ArgError>,
{
    if first_byte(raw) != b'[' {
        return Err(wrong_type(raw, path, "an array"));
    }
    let mut failure = None;
    let mut de = serde_json::Deserializer::from_str(raw.get());
    let walked = de.deserialize_seq(ItemVisitor {
        f,
        failure: &mut failure,
    });
    match (walked, failure) {
        (_, Some(e)) => Err(e),
        (Ok(()), None) => Ok(()),
        (Err(_), None) => Err(ArgError::expected(path, "an array")),
    }
}

/// A key borrowed from the input when it has no escapes.
struct Key<'de>(Cow<'de, str>);

impl<'de> de::Deserialize<'de> for Key<'de> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string key")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E>(self, v: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v)))
            }
        }
        d.deserialize_str(V)
    }
}

struct EntryVisitor<'f, F> {
    f: F,
    failure: &'f mut Option<ArgError>,
}

impl<'de, F> Visitor<'de> for EntryVisitor<'_, F>
where
    F: FnMut(&str, &'de RawValue) -> Result<(), ArgError>,
{
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<(), A::Error> {
        while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
            let value: &'de RawValue = map.next_value()?;
            if let Err(e) = (self.f)(&key, value) {
                *self.failure = Some(e);
                return Err(de::Error::custom("argument error"));
            }
        }
        Ok(())
    }
}

struct ItemVisitor<'f, F> {
    f: F,
    failure: &'f mut Option<ArgError>,
}

impl<'de, F> Visitor<'de> for ItemVisitor<'_, F>
where
    F: FnMut(usize, &'de RawValue) -> Result<(), ArgError>,
{
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an array")
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<(), A::Error> {
        let mut i = 0;
        while let Some(item) = seq.next_element::<&'de RawValue>()? {
            if let Err(e) = (self.f)(i, item) {
                *self.failure = Some(e);
                return Err(de::Error::custom("argument error"));
            }
            i += 1;
        }
        Ok(())
    }
}
