//! Constraint checks applied after a value is decoded: `@range`, `@length`, `@pattern`,
//! string formats, set uniqueness.

use std::collections::{HashMap, HashSet};
use std::fmt::Display;
use std::hash::Hash;
use std::sync::OnceLock;

use super::error::ArgError;
use super::json_eq::{json_eq, json_hash};
use super::number;
use super::path::Path;
use toolidl_formats as formats;

/// `@range(min, max)`: `minimum` / `maximum`, both inclusive.
pub fn range<T: PartialOrd + Display + Copy>(
    value: T,
    min: Option<T>,
    max: Option<T>,
    path: &Path<'_>,
) -> Result<(), ArgError> {
    let below = min.is_some_and(|m| value < m);
    let above = max.is_some_and(|m| value > m);
    if below || above {
        return out_of_range(min, max, path);
    }
    Ok(())
}

/// The error for a value outside `[min, max]`.
fn out_of_range<T: Display>(
    min: Option<T>,
    max: Option<T>,
    path: &Path<'_>,
) -> Result<(), ArgError> {
    let reason = match (min, max) {
        (Some(lo), Some(hi)) => format!("Expected a value from {lo} to {hi}."),
        (Some(lo), None) => format!("Expected a value of at least {lo}."),
        (None, Some(hi)) => format!("Expected a value of at most {hi}."),
        // Without bounds nothing is out of range.
        (None, None) => return Ok(()),
    };
    Err(ArgError::new(path, reason))
}

/// `@range(exclusive_min: x, exclusive_max: y)` on a float: `exclusiveMinimum` /
/// `exclusiveMaximum`.
pub fn exclusive_range(
    value: f64,
    min: Option<f64>,
    max: Option<f64>,
    path: &Path<'_>,
) -> Result<(), ArgError> {
    let below = min.is_some_and(|m| value <= m);
    let above = max.is_some_and(|m| value >= m);
    if below || above {
        return out_of_exclusive_range(min, max, path);
    }
    Ok(())
}

/// The error for a value outside `(min, max)`.
fn out_of_exclusive_range(
    min: Option<f64>,
    max: Option<f64>,
    path: &Path<'_>,
) -> Result<(), ArgError> {
    let reason = match (min, max) {
        (Some(lo), Some(hi)) => format!("Expected a value greater than {lo} and less than {hi}."),
        (Some(lo), None) => format!("Expected a value greater than {lo}."),
        (None, Some(hi)) => format!("Expected a value less than {hi}."),
        (None, None) => return Ok(()),
    };
    Err(ArgError::new(path, reason))
}

/// `@range(min, max)` on a float, judged exactly: `text` is the number as the client wrote
/// it and `value` the `f64` read from it. Where `f64` cannot tell the number from a bound
/// (`2.5000000000000001` against `maximum: 2.5`), the decimal text decides, as JSON Schema's
/// exact numbers do. The texts are [`range`]'s.
pub fn number_range(
    value: f64,
    text: &str,
    min: Option<f64>,
    max: Option<f64>,
    path: &Path<'_>,
) -> Result<(), ArgError> {
    use std::cmp::Ordering::{Greater, Less};
    let below = min.is_some_and(|m| number::order(text, value, m) == Less);
    let above = max.is_some_and(|m| number::order(text, value, m) == Greater);
    if below || above {
        return out_of_range(min, max, path);
    }
    Ok(())
}

/// `@range(exclusive_min: x, exclusive_max: y)` on a float, judged exactly as
/// [`number_range`] judges; the texts are [`exclusive_range`]'s.
pub fn exclusive_number_range(
    value: f64,
    text: &str,
    min: Option<f64>,
    max: Option<f64>,
    path: &Path<'_>,
) -> Result<(), ArgError> {
    use std::cmp::Ordering::{Greater, Less};
    let below = min.is_some_and(|m| number::order(text, value, m) != Greater);
    let above = max.is_some_and(|m| number::order(text, value, m) != Less);
    if below || above {
        return out_of_exclusive_range(min, max, path);
    }
    Ok(())
}

/// `@length` on a string: `minLength` / `maxLength`, counted in Unicode code points.
pub fn length(
    s: &str,
    min: Option<usize>,
    max: Option<usize>,
    path: &Path<'_>,
) -> Result<(), ArgError> {
    // Byte length bounds the code-point count from above and below (1..=4 bytes each).
    let bytes = s.len();
    if min.is_none_or(|m| bytes >= m.saturating_mul(4)) && max.is_none_or(|m| bytes <= m) {
        return Ok(());
    }
    counted(s.chars().count(), min, max, "character", path)
}

/// `@length` on a list or set: `minItems` / `maxItems`.
pub fn items(
    count: usize,
    min: Option<usize>,
    max: Option<usize>,
    path: &Path<'_>,
) -> Result<(), ArgError> {
    counted(count, min, max, "item", path)
}

fn counted(
    n: usize,
    min: Option<usize>,
    max: Option<usize>,
    unit: &str,
    path: &Path<'_>,
) -> Result<(), ArgError> {
    let plural = |k: usize| if k == 1 { "" } else { "s" };
    if let Some(m) = min.filter(|&m| n < m) {
        return Err(ArgError::new(
            path,
            format!("Expected at least {m} {unit}{}.", plural(m)),
        ));
    }
    if let Some(m) = max.filter(|&m| n > m) {
        return Err(ArgError::new(
            path,
            format!("Expected at most {m} {unit}{}.", plural(m)),
        ));
    }
    Ok(())
}

/// An ECMA-262 pattern, compiled on first use and then shared.
///
/// Declare one per constraint: `static P: Pattern = Pattern::new("^[a-z]+$");`
pub struct Pattern {
    source: &'static str,
    compiled: OnceLock<Option<regress::Regex>>,
}

impl Pattern {
    /// Declares a pattern; nothing is compiled until the first match.
    pub const fn new(source: &'static str) -> Self {
        Pattern {
            source,
            compiled: OnceLock::new(),
        }
    }

    /// The pattern as written in the `.tool` file.
    pub fn source(&self) -> &'static str {
        self.source
    }

    /// Whether `s` matches (JSON Schema `pattern` is not anchored). Compiled in Unicode mode
    /// (the `u` flag), as JSON Schema validators do, so `\p{L}` works and `.` is a code point.
    /// A pattern that does not compile matches nothing and is reported once to `tracing`.
    pub fn is_match(&self, s: &str) -> bool {
        let compiled =
            self.compiled
                .get_or_init(|| match regress::Regex::with_flags(self.source, "u") {
                    Ok(re) => Some(re),
                    Err(e) => {
                        tracing::error!(pattern = self.source, error = %e, "invalid @pattern");
                        None
                    }
                });
        compiled.as_ref().is_some_and(|re| re.find(s).is_some())
    }
}

/// `@pattern("…")`.
pub fn pattern(s: &str, p: &Pattern, path: &Path<'_>) -> Result<(), ArgError> {
    if p.is_match(s) {
        Ok(())
    } else {
        Err(ArgError::new(
            path,
            format!("Expected a string matching the pattern '{}'.", p.source),
        ))
    }
}

/// A string `format` the schema can advertise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `format: email` (`@email`).
    Email,
    /// `format: uri` (`@url`, `uri`): an absolute URI.
    Uri,
    /// `format: uuid`.
    Uuid,
    /// `format: date`: `YYYY-MM-DD`.
    Date,
    /// `format: time`: `hh:mm:ss[.f]` with an optional offset.
    Time,
    /// `format: date-time`: RFC 3339, offset required.
    DateTime,
    /// `[-][d.]hh:mm:ss[.fffffff]`
    Duration,
}

impl Format {
    /// The reason sent when a value does not have the format.
    pub fn reason(self) -> &'static str {
        match self {
            Format::Email => "Expected an email address.",
            Format::Uri => "Expected an absolute URI.",
            Format::Uuid => "Expected a UUID.",
            Format::Date => "Expected a date (YYYY-MM-DD).",
            Format::Time => "Expected a time (hh:mm:ss).",
            Format::DateTime => "Expected a date-time (RFC 3339).",
            Format::Duration => "Expected a duration ([-][d.]hh:mm:ss[.fffffff]).",
        }
    }

    /// Whether `s` has this format.
    pub fn is_valid(self, s: &str) -> bool {
        match self {
            Format::Email => formats::is_email(s),
            Format::Uri => formats::is_uri(s),
            Format::Uuid => formats::is_uuid(s),
            Format::Date => formats::is_date(s),
            Format::Time => formats::is_time(s),
            Format::DateTime => formats::is_date_time(s),
            Format::Duration => formats::is_duration(s),
        }
    }
}

/// `format: email | uri | uuid | date | time | date-time` and the duration pattern.
pub fn format(s: &str, f: Format, path: &Path<'_>) -> Result<(), ArgError> {
    if f.is_valid(s) {
        Ok(())
    } else {
        Err(ArgError::new(path, f.reason()))
    }
}

/// Set uniqueness: the first repeated item is reported at its index.
pub fn unique<T: Eq + Hash>(items: &[T], path: &Path<'_>) -> Result<(), ArgError> {
    if items.len() <= 8 {
        for (i, item) in items.iter().enumerate() {
            if items[..i].contains(item) {
                return Err(ArgError::new(&path.index(i), "Duplicate item."));
            }
        }
        return Ok(());
    }
    let mut seen = HashSet::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        if !seen.insert(item) {
            return Err(ArgError::new(&path.index(i), "Duplicate item."));
        }
    }
    Ok(())
}

/// Set uniqueness for items that are only `PartialEq` (floats, records with floats).
pub fn unique_by_eq<T: PartialEq>(items: &[T], path: &Path<'_>) -> Result<(), ArgError> {
    for (i, item) in items.iter().enumerate() {
        if items[..i].contains(item) {
            return Err(ArgError::new(&path.index(i), "Duplicate item."));
        }
    }
    Ok(())
}

/// `set<json>`: uniqueness as `uniqueItems` defines it (`1` and `1.0` are the same item,
/// object members compare in any order). Hashed, so a long array costs linear time.
pub fn unique_json(items: &[serde_json::Value], path: &Path<'_>) -> Result<(), ArgError> {
    let duplicate = |i: usize| Err(ArgError::new(&path.index(i), "Duplicate item."));
    if items.len() <= 8 {
        for (i, item) in items.iter().enumerate() {
            if items[..i].iter().any(|seen| json_eq(seen, item)) {
                return duplicate(i);
            }
        }
        return Ok(());
    }
    let mut seen: HashMap<u64, Vec<usize>> = HashMap::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let bucket = seen.entry(json_hash(item)).or_default();
        if bucket.iter().any(|&j| json_eq(&items[j], item)) {
            return duplicate(i);
        }
        bucket.push(i);
    }
    Ok(())
}
