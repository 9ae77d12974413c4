//! Strings, integers and numbers: formats, lengths, patterns and bounds as attributes.

use serde_json::{Map, Value};

use super::{FieldType, Shape, Types, names, pattern, plain, with_attrs};

impl Types {
    pub(super) fn string(&mut self, object: &Map<String, Value>, at: &str) -> FieldType {
        let mut read = vec![
            "minLength",
            "maxLength",
            "pattern",
            "format",
            "contentEncoding",
        ];
        let format = object.get("format").and_then(Value::as_str);
        let min = object.get("minLength").and_then(Value::as_u64);
        let max = object.get("maxLength").and_then(Value::as_u64);
        let written = object.get("pattern").and_then(Value::as_str);
        // A pattern of JavaScript's non-Unicode dialect (`^agent\_run\_`) is rewritten for
        // Unicode mode, matching the same strings; one that is neither is left out.
        let rewritten = written.and_then(pattern::to_unicode);
        let mut pattern = rewritten.as_deref().or(written);
        if let Some(problem) = pattern.and_then(pattern_problem) {
            self.gap(
                at,
                format!("{problem}, which the language does not accept; `pattern` left out"),
            );
            pattern = None;
        }
        if object.get("contentEncoding").and_then(Value::as_str) == Some("base64")
            && format.is_none()
            && pattern.is_none()
            && min.is_none()
            && max.is_none()
        {
            return plain("bytes", Shape::Scalar);
        }
        if object.contains_key("contentEncoding") {
            read.retain(|k| *k != "contentEncoding");
        }
        if pattern == Some(DURATION_PATTERN) && format.is_none() && min.is_none() && max.is_none() {
            return plain("duration", Shape::Scalar);
        }
        let mut attrs = Vec::new();
        let base = match format {
            None => "string",
            Some("uuid") => "uuid",
            Some("date-time") => "datetime",
            Some("date") => "date",
            Some("time") => "time",
            // `@url` on a string publishes the same format, and takes lengths too.
            Some("uri") if min.is_some() || max.is_some() => {
                attrs.push("@url".to_owned());
                "string"
            }
            Some("uri") => "uri",
            Some("email") => {
                attrs.push("@email".to_owned());
                "string"
            }
            Some(other) => {
                self.gap(
                    at,
                    format!("`format: {other}` has no type in the language; imported as `string`"),
                );
                "string"
            }
        };
        if base == "string"
            && min == Some(1)
            && max == Some(1)
            && pattern.is_none()
            && attrs.is_empty()
        {
            self.ignored_keywords(object, at, &read);
            return plain("char", Shape::Char);
        }
        if base != "string" && (min.is_some() || max.is_some()) {
            self.gap(
                at,
                format!(
                    "`minLength`/`maxLength` on `format: {}` cannot be declared; left out",
                    format.unwrap_or_default()
                ),
            );
        } else if let Some(length) = self.length_attr(min, max, "minLength", at) {
            attrs.insert(0, length);
        }
        if let Some(pattern) = pattern {
            attrs.push(format!("@pattern({})", names::string_literal(pattern)));
        }
        self.ignored_keywords(object, at, &read);
        with_attrs(attrs, base, Shape::Scalar)
    }

    pub(super) fn integer(&mut self, object: &Map<String, Value>, at: &str) -> FieldType {
        self.ignored_keywords(
            object,
            at,
            &["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"],
        );
        // An exclusive bound of an integer is the inclusive one next to it; with both kinds
        // at one end, the tighter holds.
        let bound =
            |inclusive: &str, exclusive: &str, step: i128, tighter: fn(i128, i128) -> i128| {
                let a = object.get(inclusive).and_then(as_i128);
                let b = object.get(exclusive).and_then(as_i128).map(|x| x + step);
                match (a, b) {
                    (Some(a), Some(b)) => Some(tighter(a, b)),
                    (a, b) => a.or(b),
                }
            };
        let mut min = bound("minimum", "exclusiveMinimum", 1, i128::max);
        let mut max = bound("maximum", "exclusiveMaximum", -1, i128::min);
        let mut cleared = false;
        if let (Some(lo), Some(hi)) = (min, max)
            && lo > hi
        {
            cleared = true;
            self.gap(
                at,
                "bounds that no integer fits (the lower above the upper): left out",
            );
            (min, max) = (None, None);
        }
        if let Some(exact) = INTEGERS
            .iter()
            .find(|(_, lo, hi)| Some(*lo) == min && Some(*hi) == max)
        {
            return plain(exact.0, Shape::Scalar);
        }
        if let (Some(lo), Some(hi)) = (min, max)
            && let Some(holder) = INTEGERS
                .iter()
                .find(|(_, tlo, thi)| *tlo <= lo && hi <= *thi)
        {
            let attr = range_attr(
                Some(lo).filter(|m| *m != holder.1).map(|m| m.to_string()),
                Some(hi).filter(|m| *m != holder.2).map(|m| m.to_string()),
            );
            return with_attrs(
                attr.into_iter().collect(),
                holder.0.to_owned(),
                Shape::Scalar,
            );
        }
        // A bound missing (or beyond 64 bits): `integer`, which publishes no bounds of its
        // own, so the schema accepts what the original does (a 64-bit type would add the
        // bound the original leaves open).
        let mut literal = |bound: Option<i128>, keys: [&str; 2]| {
            let written = keys
                .iter()
                .find_map(|k| object.get(*k).filter(|v| v.is_number()).map(|v| (*k, v)));
            match (bound, written) {
                (Some(n), _) if i64::try_from(n).is_ok() || u64::try_from(n).is_ok() => {
                    Some(n.to_string())
                }
                (_, None) => None,
                // Left out above, and said so.
                _ if cleared => None,
                (_, Some((key, value))) => {
                    self.gap(
                        at,
                        format!(
                            "`{key}: {value}` is no integer from -9223372036854775808 to 18446744073709551615, which a bound is written with; left out (imported as `integer`)"
                        ),
                    );
                    None
                }
            }
        };
        let lo = literal(min, ["minimum", "exclusiveMinimum"]);
        let hi = literal(max, ["maximum", "exclusiveMaximum"]);
        with_attrs(
            range_attr(lo, hi).into_iter().collect(),
            "integer".to_owned(),
            Shape::Scalar,
        )
    }

    pub(super) fn number(&mut self, object: &Map<String, Value>, at: &str) -> FieldType {
        self.ignored_keywords(
            object,
            at,
            &["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"],
        );
        // Bounds as written: `@range(-90, 90)` on a float publishes `-90`, `-90.0` publishes
        // `-90.0`.
        let text = |k: &str| {
            object
                .get(k)
                .filter(|v| v.is_number())
                .map(Value::to_string)
        };
        let mut attrs = Vec::new();
        let (min, max) = (text("minimum"), text("maximum"));
        let (xmin, xmax) = (text("exclusiveMinimum"), text("exclusiveMaximum"));
        // As the language reads `@range`: an inclusive bound before an exclusive one at the
        // same end; none fits when the lower is above the upper, or equal to it and open.
        let as_f64 = |v: &Option<String>| v.as_deref().and_then(|t| t.parse::<f64>().ok());
        let open = xmin.is_some() || xmax.is_some();
        if let (Some(lo), Some(hi)) = (
            as_f64(&min).or(as_f64(&xmin)),
            as_f64(&max).or(as_f64(&xmax)),
        ) && (lo > hi || (open && lo == hi))
        {
            self.gap(at, "bounds that no number fits (the lower above the upper, or equal and exclusive): left out");
            return with_attrs(attrs, "f64", Shape::Float);
        }
        let mut args = Vec::new();
        if let Some(v) = &min {
            args.push(format!("min: {}", v.clone()));
        }
        if let Some(v) = &xmin {
            args.push(format!("exclusive_min: {}", v.clone()));
        }
        if let Some(v) = &max {
            args.push(format!("max: {}", v.clone()));
        }
        if let Some(v) = &xmax {
            args.push(format!("exclusive_max: {}", v.clone()));
        }
        if xmin.is_none() && xmax.is_none() {
            if let Some(attr) = range_attr(min, max) {
                attrs.push(attr);
            }
        } else if !args.is_empty() {
            attrs.push(format!("@range({})", args.join(", ")));
        }
        with_attrs(attrs, "f64", Shape::Float)
    }
}

/// The pattern toolidl publishes for `duration`.
const DURATION_PATTERN: &str = r"^-?(\d{1,8}\.)?([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,7})?$";

/// The integer types, narrowest first: a bounded integer becomes the first that holds it.
const INTEGERS: &[(&str, i128, i128)] = &[
    ("u8", 0, u8::MAX as i128),
    ("i8", i8::MIN as i128, i8::MAX as i128),
    ("u16", 0, u16::MAX as i128),
    ("i16", i16::MIN as i128, i16::MAX as i128),
    ("u32", 0, u32::MAX as i128),
    ("i32", i32::MIN as i128, i32::MAX as i128),
    ("u64", 0, u64::MAX as i128),
    ("i64", i64::MIN as i128, i64::MAX as i128),
];

fn as_i128(value: &Value) -> Option<i128> {
    if let Some(i) = value.as_i64() {
        return Some(i.into());
    }
    if let Some(u) = value.as_u64() {
        return Some(u.into());
    }
    // `1.0` as an integer bound.
    let f = value.as_f64()?;
    (f.fract() == 0.0 && f.abs() < 1e18).then_some(f as i128)
}

/// Why the language refuses `pattern` as a `@pattern` (E0603: not an ECMA-262 regular
/// expression in Unicode mode), if it does.
fn pattern_problem(pattern: &str) -> Option<String> {
    let text = format!(
        "package probe;\n\ntype Probe_Pattern = @pattern({}) string;\n",
        names::string_literal(pattern)
    );
    super::super::refusal(text, &["E0603"])
}

impl Types {
    /// `@length` of a string's or a list's bounds (`minLength`/`maxLength`, or
    /// `minItems`/`maxItems`, named by `keyword`); left out with a gap when no value fits
    /// them (the language refuses a minimum above the maximum: E0602).
    pub(super) fn length_attr(
        &mut self,
        min: Option<u64>,
        max: Option<u64>,
        keyword: &str,
        at: &str,
    ) -> Option<String> {
        if let (Some(lo), Some(hi)) = (min, max)
            && lo > hi
        {
            self.gap(
                at,
                format!("`{keyword}` above its maximum: no value fits; both bounds left out"),
            );
            return None;
        }
        bounds_attr("@length", min, max)
    }
}

pub(super) fn bounds_attr(name: &str, min: Option<u64>, max: Option<u64>) -> Option<String> {
    match (min, max) {
        (Some(lo), Some(hi)) => Some(format!("{name}({lo}, {hi})")),
        (Some(lo), None) => Some(format!("{name}(min: {lo})")),
        (None, Some(hi)) => Some(format!("{name}(max: {hi})")),
        (None, None) => None,
    }
}

fn range_attr(min: Option<String>, max: Option<String>) -> Option<String> {
    match (min, max) {
        (Some(lo), Some(hi)) => Some(format!("@range({lo}, {hi})")),
        (Some(lo), None) => Some(format!("@range(min: {lo})")),
        (None, Some(hi)) => Some(format!("@range(max: {hi})")),
        (None, None) => None,
    }
}
