//! Checking what a server sent against what the `.tool` file declares: a value is read with
//! the same decoders the server runs on arguments, so every constraint of the declared type
//! is checked on the way in, and a failure names the call and the place in the value.

use serde_json::Value;
use serde_json::value::RawValue;

use super::ClientError;
use crate::args::{ArgError, Path, Reader};

/// How generated code reads a value of its declared type: `<T as Decode>::read`, or a
/// reader that also checks the type's formats and item constraints.
pub trait ReadValue<T>: FnOnce(&mut Reader<'_>, &Path<'_>) -> Result<T, ArgError> {}

impl<T, F: FnOnce(&mut Reader<'_>, &Path<'_>) -> Result<T, ArgError>> ReadValue<T> for F {}

/// The reply of `call` (`tool `locate``) breaks its declaration: `problem`.
pub(super) fn mismatch(call: &str, problem: impl Into<String>) -> ClientError {
    ClientError::Mismatch {
        call: call.to_owned(),
        problem: problem.into(),
    }
}

/// Reads `json` (JSON text a server sent) with `read`.
pub(super) fn json_text<T>(
    call: &str,
    json: &str,
    read: impl ReadValue<T>,
) -> Result<T, ClientError> {
    // Parsed first, so that text which is not one JSON value is refused as such.
    let raw: Box<RawValue> = serde_json::from_str(json)
        .map_err(|e| mismatch(call, format!("the result is not JSON: {e}")))?;
    read(&mut Reader::new(raw.get()), &Path::Root).map_err(|e| invalid(call, &e))
}

/// Reads `value` (already parsed by the transport) with `read`.
pub(super) fn json_value<T>(
    call: &str,
    value: &Value,
    read: impl ReadValue<T>,
) -> Result<T, ClientError> {
    let json = serde_json::to_string(value)
        .map_err(|e| mismatch(call, format!("the result cannot be read: {e}")))?;
    // What the transport parsed beyond 64 bits is an `f64` now: an integer there is refused,
    // never read rounded.
    read(&mut Reader::new(&json).through_f64(), &Path::Root).map_err(|e| invalid(call, &e))
}

/// Whether `value` holds a number that is neither an `i64` nor a `u64`: one the transport
/// parsed as an `f64`, which an integer beyond 64 bits does not survive.
pub(super) fn holds_float(value: &Value) -> bool {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Number(n) if n.is_f64() => return true,
            Value::Array(items) => stack.extend(items),
            Value::Object(members) => stack.extend(members.values()),
            _ => {}
        }
    }
    false
}

/// Whether the JSON text `text` is the value `value` (as the transport parsed it).
pub(super) fn same_json(text: &str, value: &Value) -> bool {
    serde_json::from_str::<Value>(text).is_ok_and(|parsed| parsed == *value)
}

/// Reads an enum member sent as its name (`sad`), or the text `null` for none.
pub(super) fn member<T>(call: &str, text: &str, read: impl ReadValue<T>) -> Result<T, ClientError> {
    let json = if text == "null" {
        "null".to_owned()
    } else {
        Value::String(text.to_owned()).to_string()
    };
    read(&mut Reader::new(&json), &Path::Root).map_err(|e| invalid(call, &e))
}

/// A decoder's refusal, as the problem of a mismatch: where in the value, and why.
fn invalid(call: &str, error: &ArgError) -> ClientError {
    let place = match error.path() {
        "" => "the value".to_owned(),
        path => format!("`{path}`"),
    };
    let reason = error
        .reason()
        .unwrap_or("It does not have the declared type.");
    mismatch(call, format!("{place} is not valid: {reason}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_integer_beyond_64_bits_is_read_from_the_text_not_the_f64() {
        let text = r#"{"n":232510626956793085952}"#;
        let parsed: Value = serde_json::from_str(text).unwrap();
        // What a transport hands over: the integer as an f64, its last digits gone.
        assert!(holds_float(&parsed));
        assert!(same_json(text, &parsed));
        assert!(!same_json(r#"{"n":1}"#, &parsed));
        assert!(!holds_float(&serde_json::json!({"n": [1, -2, u64::MAX]})));
        let read = |r: &mut Reader<'_>, path: &Path<'_>| {
            let mut n = None;
            crate::args::object(r, path, |r, key| {
                assert_eq!(key, "n");
                n = Some(<i128 as crate::args::Decode>::read(r, &path.field("n"))?);
                Ok(())
            })?;
            Ok(n)
        };
        assert_eq!(
            json_text("t", text, read).unwrap(),
            Some(232510626956793085952)
        );
        // Where only the parsed value is there (the text is another, as `@text` makes it), the
        // integer is refused, not read as 232510626956793090000.
        let error = json_value("t", &parsed, read).unwrap_err().to_string();
        assert!(error.contains("held as a floating-point number"), "{error}");
        // An f64 stays an f64, and integers below 2^53 or written with their digits are read.
        let float = |r: &mut Reader<'_>, path: &Path<'_>| crate::args::number(r, path);
        assert_eq!(
            json_value("t", &parsed["n"], float).unwrap(),
            2.325_106_269_567_931e20
        );
        let small: Value = serde_json::from_str(r#"{"n":4.0e3}"#).unwrap();
        assert_eq!(json_value("t", &small, read).unwrap(), Some(4000));
        let wide = serde_json::json!({"n": u64::MAX});
        assert_eq!(
            json_value("t", &wide, read).unwrap(),
            Some(i128::from(u64::MAX))
        );
    }
}
