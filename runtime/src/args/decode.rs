//! Decoding JSON argument values straight into typed Rust values, with path tracking.
//!
//! Objects, arrays and maps are walked with callbacks over borrowed raw values, so no
//! intermediate `serde_json::Value` tree is built.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::hash::Hash;

use serde::de::{self, Deserializer as _, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

use super::reader::{Kind, Reader};
use super::{ArgError, Path, read};

/// A type that generated code can read from one argument value.
///
/// Implement [`Decode::read`] (one pass over the text, as generated code does) or
/// [`Decode::decode`] (from a raw value, as hand-written code may); each has a default in
/// terms of the other.
pub trait Decode: Sized {
    /// Reads the value at the reader's position; errors are reported at `path`.
    fn read(r: &mut Reader<'_>, path: &Path<'_>) -> Result<Self, ArgError> {
        let text = r.read_raw().map_err(|_| ArgError::bare(path))?;
        let raw = RawValue::from_string(text.to_owned()).map_err(|_| ArgError::bare(path))?;
        Self::decode(&raw, path)
    }

    /// Reads `raw`; errors are reported at `path`.
    fn decode(raw: &RawValue, path: &Path<'_>) -> Result<Self, ArgError> {
        Self::read(&mut Reader::new(raw.get()), path)
    }
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
    read::integer(&mut Reader::new(raw.get()), path, min, max)
}

macro_rules! decode_int {
    ($($t:ty),*) => {$(
        impl Decode for $t {
            #[inline]
            fn read(r: &mut Reader<'_>, path: &Path<'_>) -> Result<Self, ArgError> {
                if r.kind() != Kind::Number {
                    return Err(read::wrong_type(r, path, "an integer"));
                }
                let text = r.read_number().map_err(|_| ArgError::bare(path))?;
                // Fast path: a plain literal that fits.
                if let Ok(v) = text.parse::<$t>() {
                    return Ok(v);
                }
                let v = read::integer_text(text, path, <$t>::MIN as i128, <$t>::MAX as i128)?;
                <$t>::try_from(v).map_err(|_| ArgError::expected(path, "an integer"))
            }
        }
    )*};
}
decode_int!(i8, i16, i32, i64, u8, u16, u32, u64);

impl Decode for f64 {
    fn read(r: &mut Reader<'_>, path: &Path<'_>) -> Result<Self, ArgError> {
        read::number(r, path)
    }
}

impl Decode for f32 {
    fn read(r: &mut Reader<'_>, path: &Path<'_>) -> Result<Self, ArgError> {
        read::number(r, path).map(super::to_f32)
    }
}

impl Decode for bool {
    fn read(r: &mut Reader<'_>, path: &Path<'_>) -> Result<Self, ArgError> {
        if r.kind() == Kind::Bool
            && let Some(b) = r.read_bool()
        {
            return Ok(b);
        }
        Err(read::wrong_type(r, path, "a boolean"))
    }
}

impl Decode for String {
    fn read(r: &mut Reader<'_>, path: &Path<'_>) -> Result<Self, ArgError> {
        Ok(read::string(r, path)?.into_owned())
    }
}

/// Reads a string, borrowing it from the input when it has no escapes.
pub fn string<'a>(raw: &'a RawValue, path: &Path<'_>) -> Result<Cow<'a, str>, ArgError> {
    read::string(&mut Reader::new(raw.get()), path)
}

impl Decode for char {
    fn read(r: &mut Reader<'_>, path: &Path<'_>) -> Result<Self, ArgError> {
        let s = read::string(r, path)?;
        let mut chars = s.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Ok(c),
            _ => Err(ArgError::new(path, "Expected exactly one character.")),
        }
    }
}

impl<T: Decode> Decode for Option<T> {
    fn read(r: &mut Reader<'_>, path: &Path<'_>) -> Result<Self, ArgError> {
        if r.eat_null() {
            Ok(None)
        } else {
            T::read(r, path).map(Some)
        }
    }
}

impl<T: Decode> Decode for Box<T> {
    fn read(r: &mut Reader<'_>, path: &Path<'_>) -> Result<Self, ArgError> {
        T::read(r, path).map(Box::new)
    }
}

impl<T: Decode> Decode for Vec<T> {
    fn read(r: &mut Reader<'_>, path: &Path<'_>) -> Result<Self, ArgError> {
        let mut out = Vec::new();
        read::array(r, path, |r, i| {
            out.push(T::read(r, &path.index(i))?);
            Ok(())
        })?;
        Ok(out)
    }
}

impl<T: Decode> Decode for BTreeMap<String, T> {
    fn read(r: &mut Reader<'_>, path: &Path<'_>) -> Result<Self, ArgError> {
        let mut out = BTreeMap::new();
        read::map_into(r, path, T::read, |k, v| out.insert(k, v).is_none())?;
        Ok(out)
    }
}

impl<T: Decode, S: std::hash::BuildHasher + Default> Decode for HashMap<String, T, S> {
    fn read(r: &mut Reader<'_>, path: &Path<'_>) -> Result<Self, ArgError> {
        let mut out = HashMap::default();
        read::map_into(r, path, T::read, |k, v| out.insert(k, v).is_none())?;
        Ok(out)
    }
}

/// `json`: any value.
impl Decode for serde_json::Value {
    fn read(r: &mut Reader<'_>, path: &Path<'_>) -> Result<Self, ArgError> {
        read::json(r, path)
    }
}

/// `object`: any object.
impl Decode for serde_json::Map<String, serde_json::Value> {
    fn read(r: &mut Reader<'_>, path: &Path<'_>) -> Result<Self, ArgError> {
        if r.kind() != Kind::Object {
            return Err(read::wrong_type(r, path, "an object"));
        }
        match read::json(r, path)? {
            serde_json::Value::Object(map) => Ok(map),
            _ => Err(ArgError::expected(path, "an object")),
        }
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
    read::enum_member(&mut Reader::new(raw.get()), path, members)
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
