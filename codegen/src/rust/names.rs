//! Rust identifiers for `.tool` names, and the clashes only the Rust generator can see.

use heck::{ToSnakeCase, ToUpperCamelCase};
use proc_macro2::{Ident, Span};

/// Keywords that are identifiers only as raw identifiers (`r#type`), 2024 edition.
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "do", "dyn",
    "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl", "in", "let",
    "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref", "return",
    "static", "struct", "trait", "true", "try", "type", "typeof", "unsafe", "unsized", "use",
    "virtual", "where", "while", "yield",
];

/// Names Rust reserves that not even a raw identifier can take.
const UNUSABLE: &[&str] = &["self", "Self", "super", "crate", "_"];

/// The Rust name of a record, enum or service: `UpperCamelCase`.
pub fn type_name(name: &str) -> String {
    name.to_upper_camel_case()
}

/// The Rust name of a field, parameter or method: `snake_case`; a name that is snake case
/// already is kept as written (`self_`, `_hidden`).
pub fn value_name(name: &str) -> String {
    let snake = name
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if snake {
        name.to_owned()
    } else {
        name.to_snake_case()
    }
}

/// Whether a converted name cannot be a Rust identifier at all (not even `r#…`).
pub fn is_unusable(name: &str) -> bool {
    UNUSABLE.contains(&name) || name.is_empty()
}

/// An identifier, raw when it is a keyword.
pub fn ident(name: &str) -> Ident {
    if KEYWORDS.contains(&name) {
        Ident::new_raw(name, Span::call_site())
    } else {
        Ident::new(name, Span::call_site())
    }
}

/// A plain (never raw) identifier for names the generator makes up itself.
pub fn plain(name: &str) -> Ident {
    Ident::new(name, Span::call_site())
}

/// The identifier of a record, enum, service or enum member.
pub fn type_ident(name: &str) -> Ident {
    ident(&type_name(name))
}

/// The identifier of a field, parameter or method.
pub fn value_ident(name: &str) -> Ident {
    ident(&value_name(name))
}

/// The generated server of a service: `WeatherToolsServer`.
pub fn server_name(service: &str) -> String {
    format!("{}Server", type_name(service))
}

/// Standard types generated code names by their short name; a package type of the same name
/// hides one of them, and the generator then writes the full path.
pub const STD_TYPES: &[(&str, &str)] = &[
    ("String", "::std::string::String"),
    ("Vec", "::std::vec::Vec"),
    ("Option", "::core::option::Option"),
    ("Result", "::core::result::Result"),
    ("Box", "::std::boxed::Box"),
    ("BTreeMap", "::std::collections::BTreeMap"),
    ("Send", "::core::marker::Send"),
    ("Sync", "::core::marker::Sync"),
];

/// Names a decoder uses for its own locals; a field of one of these names gets a `_`.
pub const DECODER_LOCALS: &[&str] = &["r", "raw", "path", "key", "value", "text", "values"];

/// The local variable that holds a field while its record or parameters are decoded.
pub fn local_ident(field: &str) -> Ident {
    let name = value_name(field);
    if DECODER_LOCALS.contains(&name.as_str()) {
        plain(&format!("{name}_"))
    } else {
        ident(&name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_cases_and_escapes_keywords() {
        assert_eq!(type_name("weather_tools"), "WeatherTools");
        assert_eq!(type_name("HTTPRequest"), "HttpRequest");
        assert_eq!(value_name("tempC"), "temp_c");
        assert_eq!(value_ident("type").to_string(), "r#type");
        assert_eq!(value_ident("city").to_string(), "city");
        assert!(is_unusable("self"));
        assert_eq!(local_ident("path").to_string(), "path_");
    }
}
