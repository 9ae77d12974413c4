//! What the generator knows while it writes one package: the merged model, the facts, the
//! options, and how to name types from here.

use std::collections::HashSet;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use toolidl::model::{Field, Primitive, Type};

use super::facts::Facts;
use super::options::RustOptions;
use crate::naming::{self as names, STD_TYPES};

/// The runtime `Format` a primitive string type must have, if any.
pub(super) fn format_of(p: Primitive) -> Option<TokenStream> {
    Some(match p {
        Primitive::Uuid => quote!(rt::Format::Uuid),
        Primitive::Datetime => quote!(rt::Format::DateTime),
        Primitive::Date => quote!(rt::Format::Date),
        Primitive::Time => quote!(rt::Format::Time),
        Primitive::Duration => quote!(rt::Format::Duration),
        Primitive::Uri => quote!(rt::Format::Uri),
        _ => return None,
    })
}

pub struct Context<'a> {
    pub facts: &'a Facts,
    pub options: &'a RustOptions,
    /// The package being written.
    pub package: &'a str,
    /// Rust names of the types this package declares (they hide standard types of that name).
    pub local_types: HashSet<String>,
}

impl<'a> Context<'a> {
    pub fn new(
        facts: &'a Facts,
        options: &'a RustOptions,
        package: &'a str,
        generated_names: HashSet<String>,
    ) -> Self {
        Context {
            facts,
            options,
            package,
            local_types: generated_names,
        }
    }

    /// A standard type by its short name, or by its full path when the package hides it.
    pub fn std(&self, short: &str) -> TokenStream {
        let hidden = self.local_types.contains(short);
        match STD_TYPES.iter().find(|(s, _)| *s == short) {
            Some((_, full)) if hidden => full.parse().unwrap_or_default(),
            _ => {
                let ident = format_ident!("{}", short);
                quote!(#ident)
            }
        }
    }

    /// The path of a record or enum as seen from this package: its name in the same package,
    /// `super::…` for another package (modules nest by package path), or the user's path for
    /// an `extern_path` package.
    pub fn type_path(&self, package: &str, name: &str) -> TokenStream {
        let ident = names::type_ident(name);
        if let Some((_, path)) = self.options.extern_paths.iter().find(|(p, _)| p == package) {
            let base: TokenStream = path.parse().unwrap_or_default();
            return quote!(#base::#ident);
        }
        if package == self.package {
            return quote!(#ident);
        }
        let from: Vec<&str> = self.package.split('.').collect();
        let to: Vec<&str> = package.split('.').collect();
        let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
        let supers = (common..from.len()).map(|_| quote!(super));
        let downs = to[common..].iter().map(|m| names::ident(m));
        quote!(#(#supers::)* #(#downs::)* #ident)
    }

    /// The Rust type of a value of `ty`; `boxed` puts a record held inline into a `Box`.
    pub fn rust_type(&self, ty: &Type, boxed: bool) -> TokenStream {
        match ty {
            Type::Primitive { name } => self.primitive(*name),
            Type::List { item, .. } | Type::Set { item, .. } => {
                let vec = self.std("Vec");
                let item = self.rust_type(item, false);
                quote!(#vec<#item>)
            }
            Type::Map { value, .. } => {
                let map = self.std("BTreeMap");
                let string = self.std("String");
                let value = self.rust_type(value, false);
                quote!(#map<#string, #value>)
            }
            Type::Nullable { inner } => {
                let option = self.std("Option");
                let inner = self.rust_type(inner, boxed);
                quote!(#option<#inner>)
            }
            Type::Named { package, name, .. } => {
                let path = self.type_path(package, name);
                if boxed {
                    let b = self.std("Box");
                    quote!(#b<#path>)
                } else {
                    path
                }
            }
        }
    }

    /// The Rust type of a field or parameter: its type's, in an `Option` when the field is
    /// optional (`name?: T` is `Option<T>`, `name?: T?` is `Option<Option<T>>`).
    pub fn field_type(&self, f: &Field, boxed: bool) -> TokenStream {
        let ty = self.rust_type(&f.ty, boxed);
        if f.is_optional() {
            let option = self.std("Option");
            quote!(#option<#ty>)
        } else {
            ty
        }
    }

    /// Whether values of `p` are typed format values (`rt::typed::…`), not checked strings.
    pub fn is_typed(&self, p: Primitive) -> bool {
        self.options.typed_formats && format_of(p).is_some()
    }

    pub fn primitive(&self, p: Primitive) -> TokenStream {
        if self.options.typed_formats {
            match p {
                Primitive::Uuid => return quote!(rt::typed::Uuid),
                Primitive::Datetime => return quote!(rt::typed::DateTime),
                Primitive::Date => return quote!(rt::typed::Date),
                Primitive::Time => return quote!(rt::typed::Time),
                Primitive::Duration => return quote!(rt::typed::Duration),
                Primitive::Uri => return quote!(rt::typed::Uri),
                _ => {}
            }
        }
        match p {
            Primitive::Bool => quote!(bool),
            Primitive::I8 => quote!(i8),
            Primitive::I16 => quote!(i16),
            Primitive::I32 => quote!(i32),
            Primitive::I64 => quote!(i64),
            Primitive::U8 => quote!(u8),
            Primitive::U16 => quote!(u16),
            Primitive::U32 => quote!(u32),
            Primitive::U64 => quote!(u64),
            Primitive::Integer => quote!(i128),
            Primitive::F32 => quote!(f32),
            Primitive::F64 => quote!(f64),
            Primitive::Char => quote!(char),
            Primitive::String
            | Primitive::Uuid
            | Primitive::Datetime
            | Primitive::Date
            | Primitive::Time
            | Primitive::Duration
            | Primitive::Uri => self.std("String"),
            Primitive::Bytes => quote!(rt::Bytes),
            Primitive::Json => quote!(rt::serde_json::Value),
            Primitive::Object => {
                let string = self.std("String");
                quote!(rt::serde_json::Map<#string, rt::serde_json::Value>)
            }
            Primitive::Array => {
                let vec = self.std("Vec");
                quote!(#vec<rt::serde_json::Value>)
            }
        }
    }
}

/// A field's or parameter's doc comment lines, then a note when it is `@deprecated`: a
/// `#[deprecated]` attribute would warn in the generated code itself, which builds and
/// passes the value.
pub fn field_doc(f: &Field) -> Vec<String> {
    let mut lines = f.doc.clone();
    if f.constraints.deprecated {
        if !lines.is_empty() {
            lines.push(String::new());
        }
        lines.push("Deprecated: its schema says `deprecated: true`.".into());
    }
    lines
}

/// `#[doc = "…"]` attributes for doc comment lines, one per line (rendered as `///`).
pub fn doc_attrs(lines: &[String]) -> TokenStream {
    let lines = lines.iter().map(|l| {
        let text = if l.is_empty() {
            String::new()
        } else {
            format!(" {l}")
        };
        quote!(#[doc = #text])
    });
    quote!(#(#lines)*)
}

/// Constraints in words, as written in the `.tool` file (`` `@range(1, 14)` ``).
pub fn constraint_text(c: &toolidl::model::Constraints) -> String {
    let number = |n: Option<toolidl::model::Number>| n.map(|n| n.to_string());
    let bounds = |name: &str, min: Option<String>, max: Option<String>| match (min, max) {
        (Some(a), Some(b)) => format!("`@{name}({a}, {b})`"),
        (Some(a), None) => format!("`@{name}(min: {a})`"),
        (None, Some(b)) => format!("`@{name}(max: {b})`"),
        (None, None) => String::new(),
    };
    let mut parts = Vec::new();
    if let Some(r) = &c.range {
        parts.push(bounds("range", number(r.min), number(r.max)));
    }
    if let Some(l) = &c.length {
        parts.push(bounds(
            "length",
            l.min.map(|n| n.to_string()),
            l.max.map(|n| n.to_string()),
        ));
    }
    if let Some(p) = &c.pattern {
        parts.push(format!("`@pattern({p:?})`"));
    }
    if c.email {
        parts.push("`@email`".into());
    }
    if c.url {
        parts.push("`@url`".into());
    }
    parts.join(", ")
}

/// What the model says of a parameter, in one line for its field's doc: its type as the
/// `.tool` file writes it, whether it is required or its default, and its constraints
/// (`` `u8`, default `3`, `@range(1, 14)`. ``).
pub fn field_summary(f: &Field) -> String {
    let mut parts = vec![format!("`{}`", f.ty)];
    parts.push(match &f.default {
        _ if f.required => "required".to_owned(),
        Some(toolidl::model::Value::Null) | None => "optional".to_owned(),
        Some(d) => format!("default `{d}`"),
    });
    let constraints = constraint_text(&f.constraints);
    if !constraints.is_empty() {
        parts.push(constraints);
    }
    format!("{}.", parts.join(", "))
}
