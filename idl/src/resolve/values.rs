//! Types in words, integer ranges, and the string formats a default must satisfy.

use crate::formats;
use crate::model::{Primitive, Type};

/// A type as it would be written: `list<Forecast>?`, `map<string, u8>`.
pub(crate) fn type_text(ty: &Type) -> String {
    match ty {
        Type::Primitive { name } => primitive_name(*name).to_string(),
        Type::List { item, .. } => format!("list<{}>", type_text(item)),
        Type::Set { item, .. } => format!("set<{}>", type_text(item)),
        Type::Map { value, .. } => format!("map<string, {}>", type_text(value)),
        Type::Named { name, .. } => name.clone(),
        Type::Nullable { inner } => format!("{}?", type_text(inner)),
    }
}

pub(crate) const PRIMITIVES: &[(&str, Primitive)] = &[
    ("bool", Primitive::Bool),
    ("i8", Primitive::I8),
    ("i16", Primitive::I16),
    ("i32", Primitive::I32),
    ("i64", Primitive::I64),
    ("u8", Primitive::U8),
    ("u16", Primitive::U16),
    ("u32", Primitive::U32),
    ("u64", Primitive::U64),
    ("f32", Primitive::F32),
    ("f64", Primitive::F64),
    ("string", Primitive::String),
    ("char", Primitive::Char),
    ("uuid", Primitive::Uuid),
    ("datetime", Primitive::Datetime),
    ("date", Primitive::Date),
    ("time", Primitive::Time),
    ("duration", Primitive::Duration),
    ("uri", Primitive::Uri),
    ("bytes", Primitive::Bytes),
    ("json", Primitive::Json),
    ("object", Primitive::Object),
    ("array", Primitive::Array),
];

pub(crate) fn primitive_name(p: Primitive) -> &'static str {
    PRIMITIVES
        .iter()
        .find(|(_, q)| *q == p)
        .map(|(n, _)| *n)
        .unwrap_or("?")
}

/// A type name from another language (`int`, `str`, `Vec`, `Option`, `HashMap`) and how a
/// `.tool` file spells it, given the type arguments as written (`["string"]`).
pub(crate) fn foreign_spelling(name: &str, args: &[String]) -> Option<String> {
    let arg = |i: usize| args.get(i).map_or("T", String::as_str).to_string();
    let last = args.last().map_or("T", String::as_str).to_string();
    Some(match name.to_ascii_lowercase().as_str() {
        "int" | "integer" | "int32" => "i32".into(),
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

pub(crate) fn primitive_named(name: &str) -> Option<Primitive> {
    PRIMITIVES.iter().find(|(n, _)| *n == name).map(|(_, p)| *p)
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
