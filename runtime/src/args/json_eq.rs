//! JSON Schema's equality of JSON values (`uniqueItems`, `enum`, `const`): structural,
//! numbers by mathematical value (`1` equals `1.0`), object members in any order.
//! `serde_json::Value`'s own `==` tells `1` from `1.0`, so `set<json>` cannot use it.

use std::hash::{DefaultHasher, Hash, Hasher};

use serde_json::{Number, Value};

fn integer(n: &Number) -> Option<i128> {
    n.as_i64()
        .map(i128::from)
        .or_else(|| n.as_u64().map(i128::from))
}

fn number_eq(a: &Number, b: &Number) -> bool {
    match (integer(a), integer(b)) {
        (Some(x), Some(y)) => x == y,
        // One has a fraction or exponent: compare the values (`-0.0 == 0`).
        _ => a.as_f64() == b.as_f64(),
    }
}

/// Whether `a` and `b` are equal as JSON Schema defines it.
pub fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Number(x), Value::Number(y)) => number_eq(x, y),
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_eq(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => false,
    }
}

/// A hash consistent with [`json_eq`]: equal values hash alike.
pub fn json_hash(v: &Value) -> u64 {
    let mut h = DefaultHasher::new();
    match v {
        Value::Null => 0u8.hash(&mut h),
        Value::Bool(b) => (1u8, b).hash(&mut h),
        // Equal numbers have the same f64 value; `+ 0.0` turns `-0.0` into `0.0`.
        Value::Number(n) => (2u8, (n.as_f64().unwrap_or(0.0) + 0.0).to_bits()).hash(&mut h),
        Value::String(s) => (3u8, s).hash(&mut h),
        Value::Array(items) => {
            4u8.hash(&mut h);
            for item in items {
                json_hash(item).hash(&mut h);
            }
        }
        Value::Object(map) => {
            // Order-independent: a sum of the members' hashes.
            let members = map.iter().fold(0u64, |acc, (k, v)| {
                let mut m = DefaultHasher::new();
                (k, json_hash(v)).hash(&mut m);
                acc.wrapping_add(m.finish())
            });
            (5u8, members).hash(&mut h);
        }
    }
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_by_value_members_in_any_order() {
        let pairs = [
            (json!(1), json!(1.0)),
            (json!(0), json!(-0.0)),
            (json!({"a": 1, "b": [2]}), json!({"b": [2.0], "a": 1.0})),
            (json!(u64::MAX), json!(u64::MAX)),
        ];
        for (a, b) in &pairs {
            assert!(json_eq(a, b), "{a} {b}");
            assert_eq!(json_hash(a), json_hash(b), "{a} {b}");
        }
        for (a, b) in [
            (json!(1), json!(true)),
            (json!(0), json!(false)),
            (json!([1]), json!([1, 1])),
            (json!({"a": 1}), json!({"a": 1, "b": 1})),
            (json!(-1), json!(u64::MAX)),
            (json!("1"), json!(1)),
        ] {
            assert!(!json_eq(&a, &b), "{a} {b}");
        }
    }
}
