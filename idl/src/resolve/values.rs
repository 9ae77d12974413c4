//! Foreign type names, integer ranges, and the string formats a default must satisfy.

use crate::formats;
use crate::model::{Primitive, Type};

/// A type name from another language (`int`, `str`, `Vec`, `Option`, `HashMap`) and how a
/// `.tool` file spells it, given the type arguments as written (`["string"]`).
pub(crate) fn foreign_spelling(name: &str, args: &[String]) -> Option<String> {
    let arg = |i: usize| args.get(i).map_or("T", String::as_str).to_string();
    let last = args.last().map_or("T", String::as_str).to_string();
    Some(match name.to_ascii_lowercase().as_str() {
        "int" | "int32" => "i32".into(),
        "i128" | "int128" | "biginteger" | "bigint" => "integer".into(),
        "long" | "int64" | "isize" => "i64".into(),
        "short" | "int16" => "i16".into(),
        "uint" | "uint32" => "u32".into(),
        "ulong" | "uint64" | "usize" => "u64".into(),
        "float" | "double" | "number" | "decimal" | "float64" => "f64".into(),
        "float32" => "f32".into(),
        "str" | "text" | "varchar" => "string".into(),
        "boolean" => "bool".into(),
        "guid" => "uuid".into(),
        "url" => "uri".into(),
        "timestamp" => "datetime".into(),
        "timespan" => "duration".into(),
        "any" | "value" => "json".into(),
        "vec" | "arraylist" | "sequence" | "seq" | "ilist" | "ienumerable" => {
            format!("list<{}>", arg(0))
        }
        "hashset" | "btreeset" | "iset" => format!("set<{}>", arg(0)),
        "option" | "optional" | "maybe" | "nullable" => format!("{}?", arg(0)),
        "hashmap" | "btreemap" | "dict" | "dictionary" | "idictionary" | "hash" => {
            format!("map<string, {last}>")
        }
        _ => return None,
    })
}

/// The inclusive range of an integer type.
pub(crate) fn integer_range(p: Primitive) -> Option<(i128, i128)> {
    Some(match p {
        Primitive::I8 => (i8::MIN as i128, i8::MAX as i128),
        Primitive::I16 => (i16::MIN as i128, i16::MAX as i128),
        Primitive::I32 => (i32::MIN as i128, i32::MAX as i128),
        Primitive::I64 => (i64::MIN as i128, i64::MAX as i128),
        Primitive::U8 => (0, u8::MAX as i128),
        Primitive::U16 => (0, u16::MAX as i128),
        Primitive::U32 => (0, u32::MAX as i128),
        Primitive::U64 => (0, u64::MAX as i128),
        // No bounds in its schema; what its Rust type holds.
        Primitive::Integer => (i128::MIN, i128::MAX),
        _ => return None,
    })
}

pub(crate) fn is_float(p: Primitive) -> bool {
    matches!(p, Primitive::F32 | Primitive::F64)
}

/// Types whose values are JSON strings with a format, and whose defaults are string literals.
pub(crate) fn is_string_like(p: Primitive) -> bool {
    matches!(
        p,
        Primitive::String
            | Primitive::Uuid
            | Primitive::Datetime
            | Primitive::Date
            | Primitive::Time
            | Primitive::Duration
            | Primitive::Uri
    )
}

/// Types a resource template variable or a prompt argument may have: values that arrive
/// as text and parse unambiguously (enums included, and each of these made nullable).
pub(crate) fn is_text_like(ty: &Type, is_enum: impl Fn(&Type) -> bool) -> bool {
    let ty = match ty {
        Type::Nullable { inner } => inner,
        other => other,
    };
    match ty {
        Type::Primitive { name } => {
            integer_range(*name).is_some()
                || is_float(*name)
                || matches!(
                    name,
                    Primitive::String
                        | Primitive::Bool
                        | Primitive::Char
                        | Primitive::Uuid
                        | Primitive::Date
                        | Primitive::Datetime
                        | Primitive::Time
                        | Primitive::Duration
                        | Primitive::Uri
                )
        }
        Type::Named { .. } => is_enum(ty),
        _ => false,
    }
}

/// Checks a string default against the format of a string-like primitive (or `bytes`),
/// with the same validators the runtime applies at call time (`crate::formats`).
/// Returns a short description of the expected form when it does not match.
pub(crate) fn check_format(p: Primitive, s: &str) -> Result<(), &'static str> {
    let ok = match p {
        Primitive::Uuid => formats::is_uuid(s),
        Primitive::Date => formats::is_date(s),
        Primitive::Time => formats::is_time(s),
        Primitive::Datetime => formats::is_date_time(s),
        Primitive::Duration => formats::is_duration(s),
        Primitive::Uri => formats::is_uri(s),
        Primitive::Bytes => formats::decode_base64(s).is_some(),
        _ => true,
    };
    if ok {
        return Ok(());
    }
    Err(match p {
        Primitive::Uuid => "a UUID such as \"123e4567-e89b-12d3-a456-426614174000\"",
        Primitive::Date => "an RFC 3339 date such as \"2025-06-18\"",
        Primitive::Time => {
            "a time such as \"14:30:00\" or \"14:30:00Z\" (RFC 3339, the offset optional)"
        }
        Primitive::Datetime => "an RFC 3339 date-time such as \"2025-06-18T14:30:00Z\"",
        Primitive::Duration => "a duration `[-][d.]hh:mm:ss[.fffffff]` such as \"1.02:03:04.5\"",
        Primitive::Uri => "an absolute URI such as \"https://example.com/x\"",
        _ => "base64 text such as \"aGVsbG8=\"",
    })
}
