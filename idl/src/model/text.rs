//! The model as a `.tool` file writes it: the one printer of types, constraints and values
//! (`Display`), used by diagnostics, `toolidl diff` and the generators' doc comments.

use std::fmt::{self, Display, Formatter, Write};

use super::{Constraints, Number, Primitive, Type, Value};

impl Primitive {
    /// Every built-in type with its name in the language, in the order the language
    /// documents them.
    pub const ALL: [(&'static str, Primitive); 24] = [
        ("bool", Primitive::Bool),
        ("i8", Primitive::I8),
        ("i16", Primitive::I16),
        ("i32", Primitive::I32),
        ("i64", Primitive::I64),
        ("u8", Primitive::U8),
        ("u16", Primitive::U16),
        ("u32", Primitive::U32),
        ("u64", Primitive::U64),
        ("integer", Primitive::Integer),
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

    /// Its name in the language (`u8`, `datetime`).
    pub fn name(self) -> &'static str {
        match self {
            Primitive::Bool => "bool",
            Primitive::I8 => "i8",
            Primitive::I16 => "i16",
            Primitive::I32 => "i32",
            Primitive::I64 => "i64",
            Primitive::U8 => "u8",
            Primitive::U16 => "u16",
            Primitive::U32 => "u32",
            Primitive::U64 => "u64",
            Primitive::Integer => "integer",
            Primitive::F32 => "f32",
            Primitive::F64 => "f64",
            Primitive::String => "string",
            Primitive::Char => "char",
            Primitive::Uuid => "uuid",
            Primitive::Datetime => "datetime",
            Primitive::Date => "date",
            Primitive::Time => "time",
            Primitive::Duration => "duration",
            Primitive::Uri => "uri",
            Primitive::Bytes => "bytes",
            Primitive::Json => "json",
            Primitive::Object => "object",
            Primitive::Array => "array",
        }
    }

    /// The built-in type a name in the language stands for.
    pub fn named(name: &str) -> Option<Primitive> {
        Primitive::ALL
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, p)| *p)
    }
}

impl Display for Primitive {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The type as a `.tool` file writes it: `list<Forecast>?`, `map<string, u8>` (named types
/// already inlined). With `{:#}`, each item's constraints stand before the item's type
/// (`list<@length(1, 32) string>`), as `toolidl diff` shows them: a description, not syntax.
impl Display for Type {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let item = |f: &mut Formatter<'_>, item: &Type, each: &Constraints| {
            if f.alternate() {
                let written = each.to_string();
                if !written.is_empty() {
                    return write!(f, "{written} {item:#}");
                }
            }
            item.fmt(f)
        };
        match self {
            Type::Primitive { name } => name.fmt(f),
            Type::List { item: t, each } => {
                f.write_str("list<")?;
                item(f, t, each)?;
                f.write_char('>')
            }
            Type::Set { item: t, each } => {
                f.write_str("set<")?;
                item(f, t, each)?;
                f.write_char('>')
            }
            Type::Map { value, each } => {
                f.write_str("map<string, ")?;
                item(f, value, each)?;
                f.write_char('>')
            }
            Type::Named { name, .. } => f.write_str(name),
            Type::Nullable { inner } => {
                inner.fmt(f)?;
                f.write_char('?')
            }
        }
    }
}

/// The constraints as attributes, an absent bound written `_` (`@range(1, _) @length(_, 5)
/// @pattern("…") @email @url`); nothing when there are none. Annotations (`@title`,
/// `@deprecated`) are left out.
impl Display for Constraints {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let mut sep = "";
        let mut part = |f: &mut Formatter<'_>, args: fmt::Arguments<'_>| {
            f.write_str(sep)?;
            sep = " ";
            f.write_fmt(args)
        };
        fn bound<T: Display>(b: &Option<T>) -> String {
            b.as_ref().map_or_else(|| "_".into(), T::to_string)
        }
        if let Some(r) = &self.range {
            part(
                f,
                format_args!("@range({}, {})", bound(&r.min), bound(&r.max)),
            )?;
        }
        if let Some(l) = &self.length {
            part(
                f,
                format_args!("@length({}, {})", bound(&l.min), bound(&l.max)),
            )?;
        }
        if let Some(p) = &self.pattern {
            part(f, format_args!("@pattern({p:?})"))?;
        }
        if self.email {
            part(f, format_args!("@email"))?;
        }
        if self.url {
            part(f, format_args!("@url"))?;
        }
        Ok(())
    }
}

/// The number as written: `3`, `-1`, `0.5`; a float keeps its fraction (`1.0`) and is written
/// with an exponent when very large or small (`1e300`).
impl Display for Number {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Number::UInt(n) => n.fmt(f),
            Number::Int(n) => n.fmt(f),
            Number::Float(x) => write!(f, "{x:?}"),
        }
    }
}

/// The value as a `.tool` file writes it: `3`, `"x"`, `'c'`, `celsius`, `[1, 2]`,
/// `{"k": 1}`, `{ x: 1 }`.
impl Display for Value {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        fn list<T>(
            f: &mut Formatter<'_>,
            items: &[T],
            one: impl Fn(&mut Formatter<'_>, &T) -> fmt::Result,
        ) -> fmt::Result {
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                one(f, item)?;
            }
            Ok(())
        }
        match self {
            Value::Null => f.write_str("null"),
            Value::Bool(b) => b.fmt(f),
            Value::Number(n) => n.fmt(f),
            Value::String(s) => write!(f, "{s:?}"),
            Value::Char(c) => write!(f, "{c:?}"),
            Value::Enum(e) => f.write_str(e),
            Value::List(items) => {
                f.write_char('[')?;
                list(f, items, |f, v| v.fmt(f))?;
                f.write_char(']')
            }
            Value::Map(entries) => {
                f.write_char('{')?;
                list(f, entries, |f, e| write!(f, "{:?}: {}", e.key, e.value))?;
                f.write_char('}')
            }
            Value::Record(entries) => {
                f.write_str("{ ")?;
                list(f, entries, |f, e| write!(f, "{}: {}", e.key, e.value))?;
                f.write_str(" }")
            }
            // Written as the literal: the variant is implied.
            Value::Union { value, .. } => value.fmt(f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Bounds, DefKind, MapEntry};

    fn p(name: Primitive) -> Type {
        Type::Primitive { name }
    }

    #[test]
    fn primitive_names_round_trip() {
        for (name, primitive) in Primitive::ALL {
            assert_eq!(primitive.name(), name);
            assert_eq!(Primitive::named(name), Some(primitive));
            // serde's names are the language's.
            assert_eq!(format!("{primitive:?}").to_lowercase(), name);
        }
    }

    #[test]
    fn types_with_and_without_item_constraints() {
        let tag = Constraints {
            length: Some(Bounds {
                min: Some(1),
                max: Some(32),
            }),
            ..Constraints::default()
        };
        let ty = Type::Nullable {
            inner: Box::new(Type::Map {
                value: Box::new(Type::List {
                    item: Box::new(p(Primitive::String)),
                    each: Box::new(tag),
                }),
                each: Box::default(),
            }),
        };
        assert_eq!(ty.to_string(), "map<string, list<string>>?");
        assert_eq!(
            format!("{ty:#}"),
            "map<string, list<@length(1, 32) string>>?"
        );
        let named = Type::Named {
            package: "p".into(),
            name: "Forecast".into(),
            def: DefKind::Record,
        };
        assert_eq!(format!("{named:#}"), "Forecast");
    }

    #[test]
    fn values_as_written() {
        let v = Value::Record(vec![
            MapEntry {
                key: "x".into(),
                value: Value::Number(Number::Float(1.0)),
            },
            MapEntry {
                key: "tags".into(),
                value: Value::Map(vec![MapEntry {
                    key: "k".into(),
                    value: Value::List(vec![Value::Char('c'), Value::Enum("celsius".into())]),
                }]),
            },
        ]);
        assert_eq!(v.to_string(), r#"{ x: 1.0, tags: {"k": ['c', celsius]} }"#);
        assert_eq!(Value::Number(Number::Int(-3)).to_string(), "-3");
        assert_eq!(Value::String("a\"b".into()).to_string(), r#""a\"b""#);
    }

    #[test]
    fn constraints_as_attributes() {
        let c = Constraints {
            range: Some(Bounds {
                min: Some(Number::UInt(1)),
                max: None,
            }),
            pattern: Some("^a$".into()),
            email: true,
            title: Some("not a constraint".into()),
            ..Constraints::default()
        };
        assert_eq!(c.to_string(), r#"@range(1, _) @pattern("^a$") @email"#);
        assert_eq!(Constraints::default().to_string(), "");
    }
}
