//! Literals: `@range` bounds and declared defaults as Rust expressions.

use proc_macro2::{Ident, Literal, TokenStream};
use quote::quote;
use toolidl::model::{DefKind, Number, Primitive, Type, Value};

use super::context::Context;
use crate::naming as names;

pub(crate) use crate::schema::integer_range;

pub fn exact_integer(n: Number) -> Option<i128> {
    match n {
        Number::UInt(n) => Some(i128::from(n)),
        Number::Int(n) => Some(i128::from(n)),
        Number::Float(_) => None,
    }
}

pub fn int_literal(n: i128) -> TokenStream {
    let lit = Literal::i128_unsuffixed(n);
    quote!(#lit)
}

/// A float literal (`3.0`, `0.5`); an integer bound on a float type is written as a float.
pub fn float_literal(n: Number) -> TokenStream {
    let f = match n {
        Number::UInt(n) => n as f64,
        Number::Int(n) => n as f64,
        Number::Float(f) => f,
    };
    let lit = Literal::f64_unsuffixed(f);
    quote!(#lit)
}

/// `local.unwrap_or(default)`, lazily when the default allocates.
pub fn unwrap_default(cx: &Context<'_>, local: &Ident, ty: &Type, default: &Value) -> TokenStream {
    if is_empty_default(default) {
        return quote!(#local.unwrap_or_default());
    }
    let expr = default_expr(cx, ty, default);
    let lazy = match default {
        // A record literal of plain values is cheap (clippy: unnecessary_lazy_evaluations).
        Value::Record(_) | Value::Union { .. } => calls(cx, ty, default),
        _ => allocates(ty),
    };
    if lazy {
        quote!(#local.unwrap_or_else(|| #expr))
    } else {
        quote!(#local.unwrap_or(#expr))
    }
}

/// `""` and `[]` are what `Default` gives a `String` or `Vec`.
fn is_empty_default(default: &Value) -> bool {
    match default {
        Value::String(s) => s.is_empty(),
        Value::List(items) => items.is_empty(),
        Value::Map(entries) => entries.is_empty(),
        _ => false,
    }
}

/// Whether the Rust expression of `value` (of type `ty`) calls a function: a string, a
/// list, a map, bytes or JSON, anywhere in it (a record's omitted fields included).
fn calls(cx: &Context<'_>, ty: &Type, value: &Value) -> bool {
    match (ty, value) {
        (_, Value::Null | Value::Bool(_) | Value::Number(_) | Value::Char(_) | Value::Enum(_)) => {
            false
        }
        (Type::Nullable { inner }, v) => calls(cx, inner, v),
        (
            Type::Named {
                package,
                name,
                def: DefKind::Union,
            },
            Value::Union { variant, value },
        ) => cx
            .facts
            .union_variant(package, name, variant)
            .is_none_or(|ty| calls(cx, ty, value)),
        (
            Type::Named {
                package,
                name,
                def: DefKind::Record,
            },
            Value::Record(entries),
        ) => cx.facts.record(package, name).is_some_and(|r| {
            r.fields.iter().any(|f| {
                let given = entries.iter().find(|e| e.key == f.name).map(|e| &e.value);
                given
                    .or(f.default.as_ref())
                    .is_some_and(|v| calls(cx, &f.ty, v))
            })
        }),
        _ => true,
    }
}

fn allocates(ty: &Type) -> bool {
    match ty {
        Type::Primitive { name } => !matches!(
            name,
            Primitive::Bool
                | Primitive::I8
                | Primitive::I16
                | Primitive::I32
                | Primitive::I64
                | Primitive::U8
                | Primitive::U16
                | Primitive::U32
                | Primitive::U64
                | Primitive::Integer
                | Primitive::F32
                | Primitive::F64
                | Primitive::Char
        ),
        Type::Nullable { inner } => allocates(inner),
        Type::Named { def, .. } => *def == DefKind::Record,
        Type::List { .. } | Type::Set { .. } | Type::Map { .. } => true,
    }
}

/// A declared default as an expression of the field's Rust type.
pub fn default_expr(cx: &Context<'_>, ty: &Type, value: &Value) -> TokenStream {
    match (ty, value) {
        (Type::Nullable { .. }, Value::Null) => quote!(None),
        (Type::Nullable { inner }, v) => {
            let inner = default_expr(cx, inner, v);
            quote!(Some(#inner))
        }
        (Type::List { item, .. } | Type::Set { item, .. }, Value::List(items)) => {
            let items = items.iter().map(|v| default_expr(cx, item, v));
            quote!(vec![#(#items),*])
        }
        (
            Type::Named {
                package, name: ty, ..
            },
            Value::Enum(member),
        ) => {
            let path = cx.type_path(package, ty);
            let variant = names::type_ident(member);
            quote!(#path::#variant)
        }
        (Type::Map { value, .. }, Value::Map(entries)) => {
            let map = cx.std("BTreeMap");
            if entries.is_empty() {
                return quote!(#map::new());
            }
            let string = cx.std("String");
            let entries = entries.iter().map(|e| {
                let key = Literal::string(&e.key);
                let value = default_expr(cx, value, &e.value);
                quote!((#string::from(#key), #value))
            });
            quote!(#map::from([#(#entries),*]))
        }
        (
            Type::Named {
                package,
                name,
                def: DefKind::Record,
            },
            Value::Record(entries),
        ) => record_default(cx, package, name, entries),
        (
            Type::Named {
                package, name: ty, ..
            },
            Value::Union { variant, value },
        ) => {
            let path = cx.type_path(package, ty);
            let ident = names::type_ident(variant);
            let inner = match cx.facts.union_variant(package, ty, variant) {
                Some(variant_ty) => default_expr(cx, variant_ty, value),
                None => quote!(::core::default::Default::default()),
            };
            quote!(#path::#ident(#inner))
        }
        (Type::Primitive { name }, v) => primitive_default(cx, *name, v),
        // The resolver type-checks defaults; nothing else reaches here.
        _ => quote!(::core::default::Default::default()),
    }
}

/// A record literal: the fields written, then every other field's own default (`None` for
/// an optional one).
fn record_default(
    cx: &Context<'_>,
    package: &str,
    name: &str,
    entries: &[toolidl::model::MapEntry],
) -> TokenStream {
    let path = cx.type_path(package, name);
    let Some(record) = cx.facts.record(package, name) else {
        return quote!(::core::default::Default::default());
    };
    let fields = record.fields.iter().map(|f| {
        let ident = names::value_ident(&f.name);
        let given = entries.iter().find(|e| e.key == f.name).map(|e| &e.value);
        let value = match (given.or(f.default.as_ref()), f.is_optional()) {
            (None, _) => quote!(None),
            (Some(v), optional) => {
                let boxed = cx.facts.is_boxed(package, name, &f.name);
                let expr = match (&f.ty, v, boxed) {
                    (Type::Nullable { inner }, v, true) if *v != Value::Null => {
                        let inner = default_expr(cx, inner, v);
                        let b = cx.std("Box");
                        quote!(Some(#b::new(#inner)))
                    }
                    _ => default_expr(cx, &f.ty, v),
                };
                if optional { quote!(Some(#expr)) } else { expr }
            }
        };
        quote!(#ident: #value)
    });
    let extra = record
        .open
        .then(|| quote!(extra: ::core::default::Default::default()));
    let inits = fields.chain(extra);
    quote!(#path { #(#inits),* })
}

fn primitive_default(cx: &Context<'_>, p: Primitive, value: &Value) -> TokenStream {
    match (p, value) {
        (Primitive::Json, v) => {
            let json = json_tokens(v);
            quote!(rt::serde_json::json!(#json))
        }
        (Primitive::Bytes, Value::String(s)) => {
            let bytes = toolidl::formats::decode_base64(s).unwrap_or_default();
            let bytes = bytes.iter().map(|b| Literal::u8_unsuffixed(*b));
            quote!(rt::Bytes::from(vec![#(#bytes),*]))
        }
        // Checked against its format at build time (E0504).
        (p, Value::String(s)) if cx.is_typed(p) => {
            let rust = cx.primitive(p);
            let lit = Literal::string(s);
            quote!(rt::typed::default::<#rust>(#lit))
        }
        (_, Value::String(s)) => {
            let string = cx.std("String");
            let lit = Literal::string(s);
            quote!(#string::from(#lit))
        }
        (_, Value::Bool(b)) => quote!(#b),
        (_, Value::Char(c)) => {
            let lit = Literal::character(*c);
            quote!(#lit)
        }
        (Primitive::F32 | Primitive::F64, Value::Number(n)) => float_literal(*n),
        (_, Value::Number(n)) => match exact_integer(*n) {
            Some(i) => int_literal(i),
            None => float_literal(*n),
        },
        _ => quote!(::core::default::Default::default()),
    }
}

/// A literal as `serde_json::json!` input.
fn json_tokens(value: &Value) -> TokenStream {
    match value {
        Value::Null => quote!(null),
        Value::Bool(b) => quote!(#b),
        Value::Number(n) => match exact_integer(*n) {
            Some(i) => int_literal(i),
            None => float_literal(*n),
        },
        Value::String(s) | Value::Enum(s) => {
            let lit = Literal::string(s);
            quote!(#lit)
        }
        Value::Char(c) => {
            let lit = Literal::string(&c.to_string());
            quote!(#lit)
        }
        Value::List(items) => {
            let items = items.iter().map(json_tokens);
            quote!([#(#items),*])
        }
        Value::Union { value, .. } => json_tokens(value),
        Value::Map(entries) | Value::Record(entries) => {
            let entries = entries.iter().map(|e| {
                let key = Literal::string(&e.key);
                let value = json_tokens(&e.value);
                quote!(#key: #value)
            });
            quote!({ #(#entries),* })
        }
    }
}
