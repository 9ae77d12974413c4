//! Random instances for a JSON Schema of the keyword subset that toolidl emits: valid ones,
//! and near-valid ones (a valid instance changed at one or two random places).

use std::sync::Arc;

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::strategy::Union;
use serde_json::{Map, Value};

use super::json::{self, Step};
use super::samples;

pub type Gen = BoxedStrategy<Value>;

/// How many `$ref`s deep valid instances go (below that, only what ends the recursion:
/// `null`, empty arrays and maps, required members only).
const REF_DEPTH: u32 = 3;
/// Arrays hold at most this many items more than `minItems` (except the `maxItems` case).
const EXTRA_ITEMS: usize = 4;

fn weighted<T: std::fmt::Debug + 'static>(arms: Vec<(u32, BoxedStrategy<T>)>) -> BoxedStrategy<T> {
    if arms.len() == 1 {
        return arms.into_iter().next().unwrap().1;
    }
    Union::new_weighted(arms).boxed()
}

fn just(v: Value) -> Gen {
    Just(v).boxed()
}

/// The `type` keyword as a list (empty when absent).
fn types(s: &Value) -> Vec<String> {
    match s.get("type") {
        Some(Value::String(t)) => vec![t.clone()],
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(|t| t.as_str().map(str::to_owned))
            .collect(),
        _ => Vec::new(),
    }
}

/// The alternatives of `anyOf` (nullable references, untagged unions) or `oneOf` (tagged
/// unions).
fn branches(s: &Value) -> Option<&Vec<Value>> {
    s.get("anyOf")
        .or_else(|| s.get("oneOf"))
        .and_then(Value::as_array)
}

fn is_null_schema(s: &Value) -> bool {
    types(s) == ["null"]
}

fn bound<'a>(s: &'a Value, key: &str) -> Option<&'a Value> {
    s.get(key).filter(|v| v.is_number())
}

fn int_bound(s: &Value, key: &str, default: i128) -> i128 {
    match bound(s, key) {
        Some(Value::Number(n)) => n
            .as_i64()
            .map(i128::from)
            .or_else(|| n.as_u64().map(i128::from))
            .unwrap_or_else(|| n.as_f64().unwrap() as i128),
        _ => default,
    }
}

fn usize_of(s: &Value, key: &str) -> Option<usize> {
    s.get(key).and_then(Value::as_u64).map(|n| n as usize)
}

/// A schema and the document its `$ref`s point into.
#[derive(Clone)]
pub struct Schemas {
    root: Arc<Value>,
}

impl Schemas {
    pub fn new(root: Value) -> Self {
        Schemas {
            root: Arc::new(root),
        }
    }

    /// Every instance the test tries: valid (30%), changed at one place (50%) or two (20%).
    pub fn instances(&self) -> Gen {
        let valid = self.valid(&self.root, REF_DEPTH);
        let (a, b) = (self.clone(), self.clone());
        let once = valid.clone().prop_flat_map(move |v| a.mutate(v)).boxed();
        let twice = once.clone().prop_flat_map(move |v| b.mutate(v)).boxed();
        weighted(vec![(3, valid), (5, once), (2, twice)])
    }

    /// The target of `#/$defs/Name`.
    fn def(&self, reference: &str) -> Value {
        let name = reference
            .strip_prefix("#/$defs/")
            .unwrap_or_else(|| panic!("unsupported $ref {reference}"));
        self.root["$defs"]
            .get(name)
            .unwrap_or_else(|| panic!("no $defs entry {name}"))
            .clone()
    }

    /// Values valid against `s` (some turn out invalid: a pattern combined with lengths,
    /// a set whose duplicates were dropped below `minItems`; that is fine).
    pub fn valid(&self, s: &Value, depth: u32) -> Gen {
        if let Some(r) = s.get("$ref").and_then(Value::as_str) {
            return self.valid(&self.def(r), depth.saturating_sub(1));
        }
        if let Some(c) = s.get("const") {
            return just(c.clone());
        }
        if let Some(branches) = branches(s) {
            if depth == 0 && branches.iter().any(is_null_schema) {
                return just(Value::Null);
            }
            let arms = branches
                .iter()
                .map(|b| {
                    let w = if is_null_schema(b) { 1 } else { 3 };
                    (w, self.valid(b, depth))
                })
                .collect();
            return weighted(arms);
        }
        if let Some(members) = s.get("enum").and_then(Value::as_array) {
            return select(members.clone()).boxed();
        }
        let types = types(s);
        if types.is_empty() {
            return any_json();
        }
        let nullable = types.iter().any(|t| t == "null");
        let others: Vec<&String> = types.iter().filter(|t| *t != "null").collect();
        if nullable && (depth == 0 || others.is_empty()) {
            return just(Value::Null);
        }
        let mut arms: Vec<(u32, Gen)> = others
            .iter()
            .map(|t| (4, self.valid_typed(t, s, depth)))
            .collect();
        if nullable {
            arms.push((1, just(Value::Null)));
        }
        weighted(arms)
    }

    fn valid_typed(&self, t: &str, s: &Value, depth: u32) -> Gen {
        match t {
            "boolean" => any::<bool>().prop_map(Value::Bool).boxed(),
            "integer" => ints_valid(
                int_bound(s, "minimum", i64::MIN.into()),
                int_bound(s, "maximum", i64::MAX.into()),
            ),
            "number" => numbers_valid(
                bound(s, "minimum").and_then(Value::as_f64),
                bound(s, "maximum").and_then(Value::as_f64),
            ),
            "string" => strings_valid(s).prop_map(Value::String).boxed(),
            "array" => self.valid_array(s, depth),
            "object" => self.valid_object(s, depth),
            "null" => just(Value::Null),
            other => panic!("unsupported type {other}"),
        }
    }

    fn items(&self, s: &Value, depth: u32) -> Gen {
        match s.get("items") {
            Some(items) => self.valid(items, depth),
            None => any_json(),
        }
    }

    fn valid_array(&self, s: &Value, depth: u32) -> Gen {
        let min = usize_of(s, "minItems").unwrap_or(0);
        let max = usize_of(s, "maxItems");
        let unique = s.get("uniqueItems") == Some(&Value::Bool(true));
        let hi = if depth == 0 {
            min
        } else {
            max.unwrap_or(usize::MAX).min(min + EXTRA_ITEMS).max(min)
        };
        if hi == 0 {
            return just(Value::Array(Vec::new()));
        }
        let items = self.items(s, depth);
        let finish = move |v: Vec<Value>| Value::Array(if unique { json::dedup(v) } else { v });
        let mut arms = vec![(8, vec(items.clone(), min..=hi).prop_map(finish).boxed())];
        if let Some(max) = max.filter(|&m| m > hi && m <= 1000 && depth > 0) {
            arms.push((1, vec(items, max..=max).prop_map(finish).boxed()));
        }
        weighted(arms)
    }

    /// The schema of member `key` of an object of schema `s`; `None` when `s` forbids it.
    fn member(s: &Value, key: &str) -> Option<Value> {
        if let Some(p) = s.get("properties").and_then(|p| p.get(key)) {
            return Some(p.clone());
        }
        match s.get("additionalProperties") {
            Some(Value::Bool(false)) => None,
            Some(schema @ Value::Object(_)) => Some(schema.clone()),
            _ => Some(json::object()),
        }
    }

    fn valid_object(&self, s: &Value, depth: u32) -> Gen {
        let properties = s.get("properties").and_then(Value::as_object);
        let additional = s.get("additionalProperties");
        if properties.is_none() && additional.is_none() {
            return any_object();
        }
        let required: Vec<&str> = s
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut members: Vec<BoxedStrategy<Vec<(String, Value)>>> = Vec::new();
        for (key, schema) in properties.into_iter().flatten() {
            let key = key.clone();
            if required.contains(&key.as_str()) {
                members.push(
                    self.valid(schema, depth)
                        .prop_map(move |v| vec![(key.clone(), v)])
                        .boxed(),
                );
            } else if depth > 0 {
                members.push(
                    proptest::option::weighted(0.6, self.valid(schema, depth))
                        .prop_map(move |v| v.map(|v| (key.clone(), v)).into_iter().collect())
                        .boxed(),
                );
            }
        }
        if let Some(schema @ Value::Object(_)) = additional
            && depth > 0
        {
            members.push(vec((samples::key(), self.valid(schema, depth)), 0..=3).boxed());
        }
        members
            .prop_map(|groups| groups.into_iter().flatten().collect::<Vec<_>>())
            .prop_shuffle()
            .prop_map(|entries| Value::Object(entries.into_iter().collect::<Map<_, _>>()))
            .boxed()
    }

    /// Values near `s`: boundaries on both sides, near misses of formats, patterns, enums
    /// and lengths, wrong types, null, and some valid values.
    pub fn near(&self, s: &Value, depth: u32) -> Gen {
        let mut arms = vec![(1, self.valid(s, depth)), (2, wrong_type())];
        if let Some(r) = s.get("$ref").and_then(Value::as_str) {
            arms.push((4, self.near(&self.def(r), depth.saturating_sub(1))));
            return weighted(arms);
        }
        if let Some(branches) = branches(s) {
            for b in branches {
                arms.push((4, self.near(b, depth)));
            }
            return weighted(arms);
        }
        if let Some(c) = s.get("const") {
            // Another member of a tagged union's tags, or a near miss of this one.
            let mut near = vec![c.clone()];
            if let Some(text) = c.as_str() {
                near.push(Value::String(format!("{text}x")));
                near.push(Value::String(text.to_uppercase()));
            }
            arms.push((4, select(near).boxed()));
            return weighted(arms);
        }
        if let Some(members) = s.get("enum").and_then(Value::as_array) {
            arms.push((4, enum_near(members)));
            return weighted(arms);
        }
        for t in types(s) {
            let arm = match t.as_str() {
                "integer" => ints_near(
                    int_bound(s, "minimum", i64::MIN.into()),
                    int_bound(s, "maximum", i64::MAX.into()),
                ),
                "number" => numbers_near(
                    bound(s, "minimum").and_then(Value::as_f64),
                    bound(s, "maximum").and_then(Value::as_f64),
                ),
                "string" => strings_near(s).prop_map(Value::String).boxed(),
                "array" => self.near_array(s, depth),
                "object" => self.valid_object(s, depth),
                _ => continue,
            };
            arms.push((4, arm));
        }
        weighted(arms)
    }

    fn near_array(&self, s: &Value, depth: u32) -> Gen {
        let min = usize_of(s, "minItems").unwrap_or(0);
        let max = usize_of(s, "maxItems");
        let items = self.items(s, depth.max(1));
        let mut arms = Vec::new();
        if min > 0 {
            arms.push((1, vec(items.clone(), min - 1..=min - 1)));
        }
        if let Some(max) = max {
            arms.push((1, vec(items.clone(), max + 1..=max + 1)));
        }
        arms.push((1, vec(items, 0..=min + EXTRA_ITEMS)));
        weighted(
            arms.into_iter()
                .map(|(w, g)| (w, g.prop_map(Value::Array).boxed()))
                .collect(),
        )
    }

    /// The schema that applies at `v`, through `$ref` and, for a value that is not null,
    /// the non-null branch of `anyOf`.
    fn effective(&self, s: &Value, v: &Value) -> Option<Value> {
        let mut s = s.clone();
        loop {
            if let Some(r) = s.get("$ref").and_then(Value::as_str) {
                s = self.def(r);
            } else if let Some(branches) = branches(&s) {
                if v.is_null() {
                    return None;
                }
                // The branch whose `const` properties (a tag) `v` has, else the first.
                let fits = |b: &&&Value| {
                    b.get("properties")
                        .and_then(Value::as_object)
                        .is_some_and(|props| {
                            props
                                .iter()
                                .all(|(k, p)| p.get("const").is_none_or(|c| v.get(k) == Some(c)))
                        })
                };
                let candidates: Vec<&Value> =
                    branches.iter().filter(|b| !is_null_schema(b)).collect();
                s = candidates
                    .iter()
                    .find(fits)
                    .or(candidates.first())
                    .map(|b| (*b).clone())?;
            } else {
                return Some(s);
            }
        }
    }

    /// Where `v` (an instance of `s`) can be changed.
    fn sites(&self, s: &Value, v: &Value, path: &mut Vec<Step>, out: &mut Vec<Change>) {
        out.push(Change::Replace(path.clone(), s.clone()));
        let Some(s) = self.effective(s, v) else {
            return;
        };
        match v {
            Value::Object(members) => {
                out.push(Change::Add(path.clone()));
                for (key, x) in members {
                    path.push(Step::Key(key.clone()));
                    out.push(Change::Remove(path.clone()));
                    if let Some(sub) = Self::member(&s, key) {
                        self.sites(&sub, x, path, out);
                    }
                    path.pop();
                }
            }
            Value::Array(items) => {
                let sub = s.get("items").cloned().unwrap_or_else(json::object);
                if !items.is_empty() {
                    out.push(Change::Duplicate(path.clone(), items.len()));
                }
                // Long arrays (`maxItems` 1000): the first items and the last.
                for (i, x) in items.iter().enumerate() {
                    if i < 4 || i + 1 == items.len() {
                        path.push(Step::Index(i));
                        out.push(Change::Remove(path.clone()));
                        self.sites(&sub, x, path, out);
                        path.pop();
                    }
                }
            }
            _ => {}
        }
    }

    /// `v` changed at one random place.
    pub fn mutate(&self, v: Value) -> Gen {
        let mut changes = Vec::new();
        self.sites(&self.root, &v, &mut Vec::new(), &mut changes);
        let changes = Arc::new(changes);
        let me = self.clone();
        (0..changes.len())
            .prop_flat_map(move |i| me.apply(&v, &changes[i]))
            .boxed()
    }

    fn apply(&self, v: &Value, change: &Change) -> Gen {
        let v = v.clone();
        match change.clone() {
            Change::Replace(path, schema) => self
                .near(&schema, 1)
                .prop_map(move |new| json::replaced(v.clone(), &path, new))
                .boxed(),
            Change::Remove(path) => just(json::removed(v, &path)),
            Change::Add(path) => (samples::key(), small_json())
                .prop_map(move |(key, new)| json::inserted(v.clone(), &path, key, new))
                .boxed(),
            Change::Duplicate(path, len) => (0..len, any::<bool>())
                .prop_map(move |(i, respell)| json::duplicated(v.clone(), &path, i, respell))
                .boxed(),
        }
    }
}

/// One way to change an instance.
#[derive(Debug, Clone)]
enum Change {
    /// Replace the value at the path with one near its schema.
    Replace(Vec<Step>, Value),
    /// Remove the member or item at the path.
    Remove(Vec<Step>),
    /// Add a member (often unknown) to the object at the path.
    Add(Vec<Step>),
    /// Append a copy of an item (of `len`) to the array at the path, perhaps respelled.
    Duplicate(Vec<Step>, usize),
}

fn ints_valid(min: i128, max: i128) -> Gen {
    let mut picks: Vec<BoxedStrategy<i128>> =
        vec![Just(min).boxed(), Just(max).boxed(), (min..=max).boxed()];
    if min < max {
        picks.push(Just(min + 1).boxed());
        picks.push(Just(max - 1).boxed());
    }
    if min <= 0 && 0 <= max {
        picks.push(Just(0).boxed());
        picks.push((min.max(-100)..=max.min(100)).boxed());
    }
    let picks = Union::new(picks);
    prop_oneof![
        4 => picks.clone().prop_map(json::int),
        1 => picks.prop_map(json::int_as_float),
    ]
    .boxed()
}

fn ints_near(min: i128, max: i128) -> Gen {
    const BEYOND: [i128; 10] = [
        i64::MIN as i128 - 1,
        i64::MIN as i128,
        i64::MAX as i128,
        i64::MAX as i128 + 1,
        u64::MAX as i128,
        u64::MAX as i128 + 1,
        1 << 100,
        -(1 << 100),
        1 << 126,
        -(1 << 126),
    ];
    let edges: Vec<i128> = [
        min - 1,
        max + 1,
        min - 2,
        max + 2,
        min - (1 << 32),
        max + (1 << 32),
    ]
    .into_iter()
    .chain(BEYOND)
    .collect();
    let mid = min / 2 + max / 2;
    // Near a bound beyond 2^52 a half is lost to rounding, and the text serde_json writes
    // for the rounded f64 is another integer than the bound (`i64::MIN - 0.5` is written
    // `-9.223372036854776e18`, below `i64::MIN`): the oracle, reading f64, cannot judge it.
    let exact = |f: f64| f.abs() < (1u64 << 52) as f64;
    let fractions: Vec<f64> = [(min as f64) - 0.5, (max as f64) + 0.5, (mid as f64) + 0.25]
        .into_iter()
        .filter(|f| exact(*f))
        .chain([0.5, -0.5, 1e-7, 1.000_000_000_000_2, 1e30, -1e30])
        .collect();
    prop_oneof![
        3 => select(edges.clone()).prop_map(json::int),
        1 => select(edges).prop_map(json::int_as_float),
        2 => select(fractions).prop_map(json::float),
        1 => ints_valid(min, max),
    ]
    .boxed()
}

fn numbers_valid(min: Option<f64>, max: Option<f64>) -> Gen {
    let picks: BoxedStrategy<f64> = match (min, max) {
        (Some(lo), Some(hi)) => prop_oneof![Just(lo), Just(hi), lo..=hi, Just(lo / 2.0 + hi / 2.0)]
            .boxed(),
        (Some(lo), None) => prop_oneof![Just(lo), lo..lo + 1e6, Just(lo + 1e30)].boxed(),
        (None, Some(hi)) => prop_oneof![Just(hi), hi - 1e6..hi, Just(hi - 1e30)].boxed(),
        (None, None) => prop_oneof![
            2 => select(vec![
                0.0,
                -0.0,
                1.0,
                -1.0,
                0.5,
                -2.5,
                0.1,
                1e-300,
                5e-324,
                1e30,
                -1e30,
                f32::MAX as f64,
                -(f32::MAX as f64),
                3.402_823_5e38,
                1e39,
                -1e39,
                1e308,
                f64::MAX,
                f64::MIN_POSITIVE,
            ]),
            2 => -1e6f64..1e6,
            1 => proptest::num::f64::NORMAL | proptest::num::f64::ZERO | proptest::num::f64::SUBNORMAL,
        ]
        .boxed(),
    };
    let in_range = move |i: &i128| {
        min.is_none_or(|lo| *i as f64 >= lo) && max.is_none_or(|hi| *i as f64 <= hi)
    };
    let ints: Vec<i128> = [0, 1, -1, 7, 100, -3, u64::MAX as i128, i64::MIN as i128]
        .into_iter()
        .filter(in_range)
        .collect();
    let mut arms = vec![(4, picks.prop_map(json::float).boxed())];
    if !ints.is_empty() {
        arms.push((1, select(ints).prop_map(json::int).boxed()));
    }
    weighted(arms)
}

fn numbers_near(min: Option<f64>, max: Option<f64>) -> Gen {
    let mut edges = vec![1e39, -1e39, 0.0, -0.0];
    if let Some(lo) = min {
        edges.extend([lo.next_down(), lo - 1.0, lo - 1e-9, lo.next_up()]);
    }
    if let Some(hi) = max {
        edges.extend([hi.next_up(), hi + 1.0, hi + 1e-9, hi.next_down()]);
    }
    prop_oneof![
        3 => select(edges).prop_map(json::float),
        1 => numbers_valid(min, max),
    ]
    .boxed()
}

fn length_bounds(s: &Value) -> (usize, Option<usize>) {
    (
        usize_of(s, "minLength").unwrap_or(0),
        usize_of(s, "maxLength"),
    )
}

/// Strings of the pattern, when proptest can generate it (`\d` read as ECMA-262 reads it,
/// `[0-9]`). A pattern without `^` lets a few characters precede; one without `$` is
/// followed by text that brings the length within `min..=max` when it can.
fn pattern_strings(pattern: &str, min: usize, max: usize) -> Option<BoxedStrategy<String>> {
    let start = pattern.starts_with('^');
    let end = pattern.ends_with('$') && !pattern.ends_with("\\$");
    let core = &pattern[usize::from(start)..pattern.len() - usize::from(end)];
    let core = proptest::string::string_regex(&core.replace("\\d", "[0-9]")).ok()?;
    let prefix = if start {
        Just(String::new()).boxed()
    } else {
        prop_oneof![Just(String::new()), samples::text(0..=3)].boxed()
    };
    let text = (prefix, core).prop_map(|(a, b)| format!("{a}{b}"));
    if end {
        return Some(text.boxed());
    }
    Some(
        text.prop_flat_map(move |t| {
            let len = t.chars().count();
            let (lo, hi) = (
                min.saturating_sub(len),
                max.saturating_sub(len).max(min.saturating_sub(len)),
            );
            samples::text(lo..=hi).prop_map(move |rest| format!("{t}{rest}"))
        })
        .boxed(),
    )
}

fn strings_valid(s: &Value) -> BoxedStrategy<String> {
    if let Some(format) = s.get("format").and_then(Value::as_str) {
        return samples::format_valid(format);
    }
    if s.get("contentEncoding").and_then(Value::as_str) == Some("base64") {
        return samples::base64_valid();
    }
    let (min, max) = length_bounds(s);
    let max = max.unwrap_or(min + 12);
    let lengths = prop_oneof![
        samples::text(min..=min),
        samples::text(max..=max),
        samples::text(min..=max),
    ]
    .boxed();
    match s
        .get("pattern")
        .and_then(Value::as_str)
        .and_then(|p| pattern_strings(p, min, max))
    {
        Some(pattern) => prop_oneof![6 => pattern, 1 => lengths].boxed(),
        None => lengths,
    }
}

/// Strings that almost fit `s`. For a format, only its near misses and valid samples: no
/// character edits, which could turn `12:00:00Z` into a local time.
fn strings_near(s: &Value) -> BoxedStrategy<String> {
    if let Some(format) = s.get("format").and_then(Value::as_str) {
        return samples::format_invalid(format);
    }
    if s.get("contentEncoding").and_then(Value::as_str) == Some("base64") {
        return samples::base64_invalid();
    }
    let (min, max) = length_bounds(s);
    let mut arms = vec![(2, samples::odd_strings())];
    if min > 0 {
        arms.push((2, samples::text(min - 1..=min - 1)));
    }
    if let Some(max) = max {
        arms.push((2, samples::text(max + 1..=max + 1)));
    }
    if let Some(pattern) = s.get("pattern").and_then(Value::as_str) {
        let valid = strings_valid(s);
        arms.push((
            3,
            (
                valid,
                any::<prop::sample::Index>(),
                samples::character(),
                0..3u8,
            )
                .prop_map(|(text, at, c, edit)| edit_string(&text, at, c, edit))
                .boxed(),
        ));
        if pattern.contains("\\d") {
            // ECMA-262's `\d` is ASCII only, even in Unicode mode.
            arms.push((
                1,
                strings_valid(s)
                    .prop_map(|t| {
                        t.chars()
                            .map(|c| match c.to_digit(10) {
                                Some(d) => char::from_u32(0x660 + d).unwrap(),
                                None => c,
                            })
                            .collect()
                    })
                    .boxed(),
            ));
        }
    }
    weighted(arms)
}

/// `text` with character `c` inserted (edit 0), replacing one (1), or one removed (2).
fn edit_string(text: &str, at: prop::sample::Index, c: char, edit: u8) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let i = at.index(chars.len() + 1);
    match edit {
        0 => chars.insert(i, c),
        _ if i == chars.len() => chars.push(c),
        1 => chars[i] = c,
        _ => {
            chars.remove(i);
        }
    }
    chars.into_iter().collect()
}

fn enum_near(members: &[Value]) -> Gen {
    let names: Vec<String> = members
        .iter()
        .filter_map(|m| m.as_str().map(str::to_owned))
        .collect();
    let mut arms = vec![
        (1, select(members.to_vec()).boxed()),
        (2, samples::odd_strings().prop_map(Value::String).boxed()),
    ];
    if !names.is_empty() {
        arms.push((
            3,
            (select(names), 0..4u8)
                .prop_map(|(name, how)| {
                    Value::String(match how {
                        0 => name.to_uppercase(),
                        1 => format!("{name} "),
                        2 => {
                            let mut short = name;
                            short.pop();
                            short
                        }
                        _ => format!("{name}{name}"),
                    })
                })
                .boxed(),
        ));
    }
    weighted(arms)
}

/// A value of some other type than usual: each JSON type once.
fn wrong_type() -> Gen {
    select(vec![
        Value::Null,
        Value::Bool(true),
        Value::Bool(false),
        Value::from(0),
        Value::from(1),
        Value::from(-1),
        json::float(1.5),
        Value::String(String::new()),
        Value::String("x".into()),
        Value::String("1".into()),
        Value::Array(Vec::new()),
        serde_json::json!([1]),
        json::object(),
        serde_json::json!({"a": 1}),
    ])
    .boxed()
}

fn scalar() -> Gen {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-1000i64..1000).prop_map(Value::from),
        select(vec![0.5, -0.0, 1.0, 1e30, 2.5e-8]).prop_map(json::float),
        samples::text(0..=4).prop_map(Value::String),
    ]
    .boxed()
}

fn small_json() -> Gen {
    prop_oneof![4 => scalar(), 1 => Just(Value::Array(Vec::new())), 1 => Just(json::object())]
        .boxed()
}

/// Any JSON value, nested a little.
fn any_json() -> Gen {
    scalar()
        .prop_recursive(2, 8, 3, |inner| {
            prop_oneof![
                vec(inner.clone(), 0..3).prop_map(Value::Array),
                vec((samples::key(), inner), 0..3)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
        .boxed()
}

fn any_object() -> Gen {
    vec((samples::key(), any_json()), 0..3)
        .prop_map(|m| Value::Object(m.into_iter().collect()))
        .boxed()
}
