//! JSON helpers: numbers written exactly, JSON Schema's equality, paths into values.

use serde_json::{Map, Number, Value};

/// An integer as JSON: `i64`/`u64` when it fits, else an `f64` beyond 64 bits (exact for
/// the powers of two the generator uses). `i64::MIN - 1` rounds onto `i64::MIN` as an `f64`,
/// which the oracle would read as in range while its text is an integer below it: such a
/// value is moved one `f64` further out, where both sides read it as beyond 64 bits.
pub fn int(i: i128) -> Value {
    if let Ok(v) = i64::try_from(i) {
        Value::from(v)
    } else if let Ok(v) = u64::try_from(i) {
        Value::from(v)
    } else {
        let mut f = i as f64;
        if i < 0 && f >= i64::MIN as f64 {
            f = f.next_down();
        }
        float(f)
    }
}

/// A finite `f64` as JSON (serde_json writes integral ones as `2.0`).
pub fn float(f: f64) -> Value {
    Value::Number(Number::from_f64(f).expect("a finite number"))
}

/// `i` written as a float (`2.0`, `-1.5e3`) when the text serde_json writes for it stands for
/// `i` exactly, else as an integer. Beyond 2^53 it may not: `i64::MIN` is an `f64`, but its
/// shortest text `-9.223372036854776e18` is the integer -9223372036854776000, below
/// `i64::MIN`, which the decoders (reading integers exactly) refuse.
pub fn int_as_float(i: i128) -> Value {
    let f = i as f64;
    if f as i128 == i && f.abs() <= 9007199254740992.0 {
        float(f)
    } else {
        int(i)
    }
}

fn exact(n: &Number) -> Result<i128, f64> {
    if let Some(i) = n.as_i64() {
        Ok(i.into())
    } else if let Some(u) = n.as_u64() {
        Ok(u.into())
    } else {
        let f = n.as_f64().unwrap();
        if f.fract() == 0.0 && f.abs() < 1.7e38 {
            Ok(f as i128)
        } else {
            Err(f)
        }
    }
}

/// JSON Schema's equality: numbers by value, object members in any order.
pub fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => exact(x) == exact(y),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| equal(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| equal(v, w)))
        }
        _ => a == b,
    }
}

/// Drops every item equal (as JSON Schema compares) to an earlier one.
pub fn dedup(items: Vec<Value>) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::with_capacity(items.len());
    for item in items {
        if !out.iter().any(|seen| equal(seen, &item)) {
            out.push(item);
        }
    }
    out
}

/// The same JSON value, written differently: integers as floats, object members reversed.
pub fn respelled(v: &Value) -> Value {
    match v {
        Value::Number(n) => match exact(n) {
            Ok(i) => int_as_float(i),
            Err(_) => v.clone(),
        },
        Value::Array(items) => Value::Array(items.iter().map(respelled).collect()),
        Value::Object(members) => Value::Object(
            members
                .iter()
                .rev()
                .map(|(k, v)| (k.clone(), respelled(v)))
                .collect(),
        ),
        _ => v.clone(),
    }
}

/// One step into a value.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    Key(String),
    Index(usize),
}

/// The value at `path`, mutably.
pub fn at_mut<'a>(v: &'a mut Value, path: &[Step]) -> Option<&'a mut Value> {
    let mut cur = v;
    for step in path {
        cur = match (step, cur) {
            (Step::Key(k), Value::Object(m)) => m.get_mut(k)?,
            (Step::Index(i), Value::Array(a)) => a.get_mut(*i)?,
            _ => return None,
        };
    }
    Some(cur)
}

/// `v` with the value at `path` replaced.
pub fn replaced(mut v: Value, path: &[Step], new: Value) -> Value {
    if let Some(slot) = at_mut(&mut v, path) {
        *slot = new;
    }
    v
}

/// `v` without the member or item at `path` (not empty).
pub fn removed(mut v: Value, path: &[Step]) -> Value {
    let (last, parent) = path.split_last().expect("a path below the root");
    match (at_mut(&mut v, parent), last) {
        (Some(Value::Object(m)), Step::Key(k)) => {
            m.shift_remove(k);
        }
        (Some(Value::Array(a)), Step::Index(i)) if *i < a.len() => {
            a.remove(*i);
        }
        _ => {}
    }
    v
}

/// `v` with `key: value` added to the object at `path`.
pub fn inserted(mut v: Value, path: &[Step], key: String, value: Value) -> Value {
    if let Some(Value::Object(m)) = at_mut(&mut v, path) {
        m.insert(key, value);
    }
    v
}

/// `v` with a respelled copy of item `i` of the array at `path` appended.
pub fn duplicated(mut v: Value, path: &[Step], i: usize, respell: bool) -> Value {
    if let Some(Value::Array(a)) = at_mut(&mut v, path)
        && let Some(item) = a.get(i).cloned()
    {
        a.push(if respell { respelled(&item) } else { item });
    }
    v
}

/// Every path in `v`, parents before children.
pub fn paths(v: &Value) -> Vec<Vec<Step>> {
    fn walk(v: &Value, path: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
        out.push(path.clone());
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    path.push(Step::Key(k.clone()));
                    walk(x, path, out);
                    path.pop();
                }
            }
            Value::Array(a) => {
                for (i, x) in a.iter().enumerate() {
                    path.push(Step::Index(i));
                    walk(x, path, out);
                    path.pop();
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(v, &mut Vec::new(), &mut out);
    out
}

/// An empty object.
pub fn object() -> Value {
    Value::Object(Map::new())
}
