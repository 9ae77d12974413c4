//! Reading argument values in one pass over the JSON text, with path tracking: the one
//! family of decoding functions, what generated decoders call (`Decode::read` and these) and
//! hand-written ones may. Each value is read once, straight into its Rust type; no raw value
//! is captured and scanned again, and no `serde_json::Value` tree is built.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::hash::Hash;

use super::check::{self, Format};
use super::error::ArgError;
use super::number::{self as exact, Integer};
use super::path::Path;
use super::reader::{Kind, Reader, TooDeep};

/// A type that generated code can read from one argument value.
///
/// `read` reads the value at the reader's position with the functions of this module
/// ([`object`], [`list`], …), as generated code does; [`Arguments::decode`](super::Arguments::decode)
/// reads a whole call's arguments as one.
pub trait Decode: Sized {
    /// Reads the value at the reader's position; errors are reported at `path`.
    fn read(r: &mut Reader<'_>, path: &Path<'_>) -> Result<Self, ArgError>;
}

/// The error for a value of the wrong kind (`null` gets its own text).
pub fn wrong_type(r: &mut Reader<'_>, path: &Path<'_>, expected: &str) -> ArgError {
    if r.kind() == Kind::Null {
        ArgError::null(path)
    } else {
        ArgError::expected(path, expected)
    }
}

/// Text that is not the JSON the reader expected (never for a parsed message).
fn malformed(path: &Path<'_>) -> ArgError {
    ArgError::bare(path)
}

/// A required property: `None` (absent) becomes the "A value is required." error.
#[inline]
pub fn required<T>(value: Option<T>, parent: &Path<'_>, name: &str) -> Result<T, ArgError> {
    value.ok_or_else(|| ArgError::missing(parent, name))
}

/// `Expected one of: a, b.`, shared with the text decoder so both say the same.
pub(super) fn not_a_member(path: &Path<'_>, members: &[&str]) -> ArgError {
    ArgError::new(path, format!("Expected one of: {}.", members.join(", ")))
}

/// Reads a string, borrowing it from the text when it has no escapes.
pub fn string<'de>(r: &mut Reader<'de>, path: &Path<'_>) -> Result<Cow<'de, str>, ArgError> {
    if r.kind() != Kind::String {
        return Err(wrong_type(r, path, "a string"));
    }
    r.read_string().map_err(|_| malformed(path))
}

/// Reads an integer in `[min, max]`. Accepts integral numbers written with a fraction or
/// exponent (`2.0`), as JSON Schema's `integer` does.
pub fn integer(
    r: &mut Reader<'_>,
    path: &Path<'_>,
    min: i128,
    max: i128,
) -> Result<i128, ArgError> {
    if r.kind() != Kind::Number {
        return Err(wrong_type(r, path, "an integer"));
    }
    let text = r.read_number().map_err(|_| malformed(path))?;
    if r.read_through_f64() && rounded_by_f64(text) {
        return Err(ArgError::new(path, ROUNDED_BY_F64));
    }
    integer_text(text, path, min, max)
}

/// Why an integer that went through `f64` is refused ([`Reader::through_f64`]).
pub(crate) const ROUNDED_BY_F64: &str = "Expected an integer read exactly; this one was held as a \
    floating-point number on the way (beyond 64 bits, JSON values hold numbers as f64), so \
    its digits may be rounded.";

/// Whether a number token an `f64` wrote may stand for an integer it rounded: spelled with a
/// fraction or an exponent (a 64-bit integer is written with its digits) and at least 2^53,
/// from where not every integer is an `f64`.
pub(super) fn rounded_by_f64(text: &str) -> bool {
    const EXACT: f64 = 9_007_199_254_740_992.0;
    text.contains(['.', 'e', 'E']) && text.parse::<f64>().is_ok_and(|f| f.abs() >= EXACT)
}

/// The integer a number token stands for, in `[min, max]`, read exactly from its decimal
/// text whatever the spelling (`2.0`, `2e0`, `0.2e1`); a fraction, however small, is no
/// integer.
pub(super) fn integer_text(
    text: &str,
    path: &Path<'_>,
    min: i128,
    max: i128,
) -> Result<i128, ArgError> {
    let out_of_range = || ArgError::new(path, format!("Expected an integer from {min} to {max}."));
    match exact::integer(text) {
        Integer::Exact(v) if (min..=max).contains(&v) => Ok(v),
        Integer::Exact(_) | Integer::Huge { .. } => Err(out_of_range()),
        Integer::Fractional => Err(ArgError::expected(path, "an integer")),
    }
}

/// Reads a number, as the nearest `f64`; one beyond the range of `f64` is refused.
pub fn number(r: &mut Reader<'_>, path: &Path<'_>) -> Result<f64, ArgError> {
    if r.kind() != Kind::Number {
        return Err(wrong_type(r, path, "a number"));
    }
    let text = r.read_number().map_err(|_| malformed(path))?;
    number_text(text, path)
}

/// The `f64` nearest to a number token; one beyond the range of `f64` is refused.
pub(super) fn number_text(text: &str, path: &Path<'_>) -> Result<f64, ArgError> {
    match text.parse::<f64>() {
        Ok(f) if f.is_finite() => Ok(f),
        Ok(_) => Err(ArgError::new(path, exact::TOO_LARGE)),
        Err(_) => Err(ArgError::expected(path, "a number")),
    }
}

/// The error for an array or object the reader may not enter (see [`super::depth`]).
pub fn too_deep(path: &Path<'_>, why: TooDeep) -> ArgError {
    ArgError::new(path, too_deep_reason(why))
}

fn too_deep_reason(why: TooDeep) -> String {
    match why {
        TooDeep::Limit(max) => format!("Nested deeper than {max} levels."),
        TooDeep::Stack => "Nested too deeply to read.".to_owned(),
    }
}

/// Walks the object that is next: `f` gets the reader at each member's value and its key.
/// An object past the nesting limit is refused before it is read.
pub fn object<'de, F>(r: &mut Reader<'de>, path: &Path<'_>, f: F) -> Result<(), ArgError>
where
    F: FnMut(&mut Reader<'de>, &str) -> Result<(), ArgError>,
{
    if r.kind() != Kind::Object {
        return Err(wrong_type(r, path, "an object"));
    }
    r.may_enter().map_err(|why| too_deep(path, why))?;
    r.members(|| ArgError::expected(path, "an object"), f)
}

/// Walks the array that is next: `f` gets the reader at each item and its index.
/// An array past the nesting limit is refused before it is read.
pub fn array<'de, F>(r: &mut Reader<'de>, path: &Path<'_>, f: F) -> Result<(), ArgError>
where
    F: FnMut(&mut Reader<'de>, usize) -> Result<(), ArgError>,
{
    if r.kind() != Kind::Array {
        return Err(wrong_type(r, path, "an array"));
    }
    r.may_enter().map_err(|why| too_deep(path, why))?;
    r.items(|| ArgError::expected(path, "an array"), f)
}

/// A list whose items need more than [`Decode`]: `f` reads item `i` at `path.index(i)`.
pub fn list<'de, T, F>(r: &mut Reader<'de>, path: &Path<'_>, mut f: F) -> Result<Vec<T>, ArgError>
where
    F: FnMut(&mut Reader<'de>, &Path<'_>) -> Result<T, ArgError>,
{
    let mut out = Vec::new();
    array(r, path, |r, i| {
        out.push(f(r, &path.index(i))?);
        Ok(())
    })?;
    Ok(out)
}

/// A `map<string, T>` whose values need more than [`Decode`]: `f` reads the value of key
/// `k` at `path.key(k)` (see [`map_into`] for the other form a map may take).
pub fn map<'de, T, F>(
    r: &mut Reader<'de>,
    path: &Path<'_>,
    mut f: F,
) -> Result<BTreeMap<String, T>, ArgError>
where
    F: FnMut(&mut Reader<'de>, &Path<'_>) -> Result<T, ArgError>,
{
    let mut out = BTreeMap::new();
    map_into(r, path, &mut f, |key, value| {
        out.insert(key, value).is_none()
    })?;
    Ok(out)
}

/// Reads the map that is next with `read` (a value at its path), handing each entry to
/// `insert`, which says whether its key was new. A map is an object (the value of key `k` at
/// `path.key(k)`); while the server serves openai-strict it may also be the list of
/// `{key, value}` entries that profile publishes (the value at `path[i].value`), where a key
/// given twice is refused at `path[i].key`.
pub fn map_into<'de, T, F, I>(
    r: &mut Reader<'de>,
    path: &Path<'_>,
    mut read: F,
    mut insert: I,
) -> Result<(), ArgError>
where
    F: FnMut(&mut Reader<'de>, &Path<'_>) -> Result<T, ArgError>,
    I: FnMut(String, T) -> bool,
{
    if !(r.reads_strict_forms() && r.kind() == Kind::Array) {
        return object(r, path, |r, key| {
            let value = read(r, &path.key(key))?;
            insert(key.to_owned(), value);
            Ok(())
        });
    }
    array(r, path, |r, i| {
        let at = path.index(i);
        let (mut key, mut value) = (None, None);
        object(r, &at, |r, member| {
            match member {
                "key" => key = Some(string(r, &at.field("key"))?.into_owned()),
                "value" => value = Some(read(r, &at.field("value"))?),
                _ => return Err(ArgError::unknown_of(&at, member, &["key", "value"])),
            }
            Ok(())
        })?;
        let key = required(key, &at, "key")?;
        let value = required(value, &at, "value")?;
        if insert(key, value) {
            Ok(())
        } else {
            Err(ArgError::new(&at.field("key"), "Duplicate key."))
        }
    })
}

/// `null` at an optional parameter without a default (`name?: T`), read as the parameter
/// left out: consumed, `true`, while the server serves openai-strict (whose listing requires
/// every parameter and publishes these as also taking `null`); else nothing is consumed and
/// `null` is refused by the parameter's own type.
#[inline]
pub fn null_as_absent(r: &mut Reader<'_>) -> bool {
    r.reads_strict_forms() && r.eat_null()
}

/// A nullable value whose type needs more than [`Decode`]: `null` is `None`, anything else
/// goes to `f` at the same path.
#[inline]
pub fn nullable<'de, T, F>(
    r: &mut Reader<'de>,
    path: &Path<'_>,
    f: F,
) -> Result<Option<T>, ArgError>
where
    F: FnOnce(&mut Reader<'de>, &Path<'_>) -> Result<T, ArgError>,
{
    if r.eat_null() {
        Ok(None)
    } else {
        f(r, path).map(Some)
    }
}

/// A set: an array whose items must all differ (duplicates are refused at their index).
pub fn set<T: Decode + Eq + Hash>(r: &mut Reader<'_>, path: &Path<'_>) -> Result<Vec<T>, ArgError> {
    let items = list(r, path, T::read)?;
    check::unique(&items, path)?;
    Ok(items)
}

/// A set of items that are only `PartialEq` (floats).
pub fn set_by_eq<T: Decode + PartialEq>(
    r: &mut Reader<'_>,
    path: &Path<'_>,
) -> Result<Vec<T>, ArgError> {
    let items = list(r, path, T::read)?;
    check::unique_by_eq(&items, path)?;
    Ok(items)
}

/// A set whose items need more than [`Decode`] (a string format), unique by their equality.
pub fn set_with<'de, T, F>(r: &mut Reader<'de>, path: &Path<'_>, f: F) -> Result<Vec<T>, ArgError>
where
    T: Eq + Hash,
    F: FnMut(&mut Reader<'de>, &Path<'_>) -> Result<T, ArgError>,
{
    let items = list(r, path, f)?;
    check::unique(&items, path)?;
    Ok(items)
}

/// A set of records, `json` or `bytes` values: the items as `f` reads them, then
/// `uniqueItems` by JSON equality of the items as sent.
pub fn set_by_json<'de, T, F>(
    r: &mut Reader<'de>,
    path: &Path<'_>,
    mut f: F,
) -> Result<Vec<T>, ArgError>
where
    F: FnMut(&mut Reader<'de>, &Path<'_>) -> Result<T, ArgError>,
{
    let mut items = Vec::new();
    let mut sent = Vec::new();
    array(r, path, |r, i| {
        let item_path = path.index(i);
        let text = r.clone().read_raw().map_err(|_| malformed(&item_path))?;
        items.push(f(r, &item_path)?);
        sent.push(serde_json::from_str(text).map_err(|_| malformed(&item_path))?);
        Ok(())
    })?;
    check::unique_json(&sent, path)?;
    Ok(items)
}

/// A string that must have `format` (uuid, date, time, date-time, uri, email, duration).
pub fn formatted(r: &mut Reader<'_>, path: &Path<'_>, format: Format) -> Result<String, ArgError> {
    let s = string(r, path)?;
    check::format(&s, format, path)?;
    Ok(s.into_owned())
}

/// `bytes`: a base64 string decoded to its bytes.
pub fn bytes(r: &mut Reader<'_>, path: &Path<'_>) -> Result<Vec<u8>, ArgError> {
    let s = string(r, path)?;
    toolidl_formats::decode_base64(&s).ok_or_else(|| ArgError::new(path, "Expected base64 data."))
}

/// An enum member, matched exactly by name; returns its index in `members`.
pub fn enum_member(
    r: &mut Reader<'_>,
    path: &Path<'_>,
    members: &[&str],
) -> Result<usize, ArgError> {
    let expected = || not_a_member(path, members);
    match r.kind() {
        Kind::Null => Err(ArgError::null(path)),
        Kind::String => {
            let s = r.read_string().map_err(|_| malformed(path))?;
            members.iter().position(|m| *m == s).ok_or_else(expected)
        }
        _ => Err(expected()),
    }
}

/// The variant of a tagged union: the index in `values` of the string at member `key` of the
/// object that is next (read from a copy of the reader, so the object can be read again).
/// A missing tag is "A value is required." at `path.key`, another value "Expected one of:
/// …" there.
pub fn tag(r: &Reader<'_>, path: &Path<'_>, key: &str, values: &[&str]) -> Result<usize, ArgError> {
    let mut r = r.clone();
    let mut found = None;
    object(&mut r, path, |r, k| {
        if k == key && found.is_none() {
            let at = path.field(key);
            let index = match r.kind() {
                Kind::String => {
                    let s = r.read_string().map_err(|_| malformed(&at))?;
                    values.iter().position(|v| *v == s)
                }
                _ => None,
            };
            found = Some(index.ok_or_else(|| not_a_member(&at, values))?);
        }
        Ok(())
    })?;
    found.ok_or_else(|| ArgError::missing(path, key))
}

/// No variant of an untagged union fits: each variant's name and why it does not.
pub fn no_variant(path: &Path<'_>, failures: &[(&str, ArgError)]) -> ArgError {
    let reasons: Vec<String> = failures
        .iter()
        .map(|(name, e)| {
            let reason = e.reason().unwrap_or("Not valid.");
            if e.path() == path.render() {
                format!("{name}: {reason}")
            } else {
                format!("{name}: '{}' {reason}", e.path())
            }
        })
        .collect();
    ArgError::new(
        path,
        format!("It fits none of its variants ({}).", reasons.join(" ")),
    )
}

/// Reads any value as `serde_json::Value`, without recursion: the containers being built
/// are kept on a heap stack, and one nested past the nesting limit is refused at its path
/// (`doc["a"][0]`), as a decoder refuses a record.
pub fn json(r: &mut Reader<'_>, path: &Path<'_>) -> Result<serde_json::Value, ArgError> {
    use serde_json::{Map, Value};
    /// A container being read, and where it sits in its parent.
    enum Open {
        Array(Vec<Value>),
        Object(Map<String, Value>, String),
    }
    /// Where the value being read sits, for an error: one entry per open container.
    fn rendered(path: &Path<'_>, open: &[Open]) -> String {
        let mut out = path.render();
        for frame in open {
            match frame {
                Open::Array(items) => out.push_str(&format!("[{}]", items.len())),
                Open::Object(_, key) => {
                    out.push('[');
                    crate::protocol::push_json_string(&mut out, key);
                    out.push(']');
                }
            }
        }
        out
    }
    let start_depth = r.depth();
    let mut open: Vec<Open> = Vec::new();
    // Text that is not JSON (never for a parsed message's arguments).
    let fail = || malformed(path);
    loop {
        // Read one value; a container is opened and its first member awaited.
        let value = match r.kind() {
            Kind::Array | Kind::Object => {
                let depth = start_depth.saturating_add(open.len() as u32);
                if depth >= r.max_depth() {
                    let reason = too_deep_reason(TooDeep::Limit(r.max_depth()));
                    return Err(ArgError::at(rendered(path, &open), Some(reason)));
                }
                if r.eat(b'[') {
                    if r.eat(b']') {
                        Value::Array(Vec::new())
                    } else {
                        open.push(Open::Array(Vec::new()));
                        continue;
                    }
                } else {
                    r.eat(b'{');
                    if r.eat(b'}') {
                        Value::Object(Map::new())
                    } else {
                        let key = r.read_string().map_err(|_| fail())?.into_owned();
                        if !r.eat(b':') {
                            return Err(fail());
                        }
                        open.push(Open::Object(Map::new(), key));
                        continue;
                    }
                }
            }
            Kind::String => Value::String(r.read_string().map_err(|_| fail())?.into_owned()),
            Kind::Number => {
                let text = r.read_number().map_err(|_| fail())?;
                let n = text.parse::<serde_json::Number>().map_err(|_| {
                    ArgError::at(rendered(path, &open), Some(exact::TOO_LARGE.into()))
                })?;
                Value::Number(n)
            }
            Kind::Bool => Value::Bool(r.read_bool().ok_or_else(fail)?),
            Kind::Null if r.eat_null() => Value::Null,
            Kind::Null | Kind::Invalid => return Err(fail()),
        };
        // Hand the value to the container it belongs to, closing those that end with it.
        let mut value = value;
        loop {
            let Some(frame) = open.pop() else {
                return Ok(value);
            };
            match frame {
                Open::Array(mut items) => {
                    items.push(value);
                    if r.eat(b',') {
                        open.push(Open::Array(items));
                        break;
                    }
                    if !r.eat(b']') {
                        return Err(fail());
                    }
                    value = Value::Array(items);
                }
                Open::Object(mut map, key) => {
                    map.insert(key, value);
                    if r.eat(b',') {
                        let key = r.read_string().map_err(|_| fail())?.into_owned();
                        if !r.eat(b':') {
                            return Err(fail());
                        }
                        open.push(Open::Object(map, key));
                        break;
                    }
                    if !r.eat(b'}') {
                        return Err(fail());
                    }
                    value = Value::Object(map);
                }
            }
        }
    }
}
