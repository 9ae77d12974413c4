//! Every name the Rust generator writes: identifiers for `.tool` names, the names of the
//! items it makes for a service (its server, client, input structs, methods), and the
//! clashes only the Rust generator can see. The one module of names: below everything that
//! writes them.

use std::collections::HashSet;

use heck::{ToSnakeCase, ToUpperCamelCase};
use proc_macro2::{Ident, Span};
use quote::format_ident;
use toolidl::model::{Keyword, Member, MemberKind, Service};

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

/// The client of a service: `WeatherToolsClient`.
pub fn client_name(service: &str) -> String {
    format!("{}Client", type_name(service))
}

/// The enum of a service's completable arguments: `WeatherToolsArgument`.
pub fn argument_enum_name(service: &str) -> String {
    format!("{}Argument", type_name(service))
}

/// The forwarding implementation of a service: `PetstoreForward`.
pub fn forward_name(service: &str) -> String {
    format!("{}Forward", type_name(service))
}

/// The struct of a service's request functions: `PetstoreRequests`.
pub fn requests_name(service: &str) -> String {
    format!("{}Requests", type_name(service))
}

/// The Rust methods of a service's members: each its name in snake_case. Tools, resources
/// and prompts are separate namespaces in a `.tool` file but one trait in Rust: a resource
/// whose method name a tool has, or a prompt whose method name a tool or resource has, gets
/// `_resource` or `_prompt` appended (only then, so nothing else changes). Two of one kind
/// with one Rust name are E1101.
pub struct Methods {
    tools: HashSet<String>,
    resources: HashSet<String>,
}

impl Methods {
    /// The method names of `service`'s members.
    pub fn of(service: &Service) -> Methods {
        let tools: HashSet<String> = service.tools().map(|(t, _)| value_name(&t.ident)).collect();
        let resources = service
            .resources()
            .map(|(r, _)| suffixed(value_name(&r.ident), Keyword::Resource, &tools))
            .collect();
        Methods { tools, resources }
    }

    /// The method of `member`, one of the service's members.
    pub fn name(&self, member: &Member) -> String {
        let base = value_name(&member.ident);
        match member.kind.keyword() {
            Keyword::Tool => base,
            Keyword::Resource => suffixed(base, Keyword::Resource, &self.tools),
            Keyword::Prompt => {
                let taken = self.tools.contains(&base) || self.resources.contains(&base);
                if taken {
                    format!("{base}_prompt")
                } else {
                    base
                }
            }
        }
    }
}

/// `base`, or `base_resource` when `taken` has it.
fn suffixed(base: String, keyword: Keyword, taken: &HashSet<String>) -> String {
    if taken.contains(&base) {
        format!("{base}_{keyword}")
    } else {
        base
    }
}

/// The input struct of a handler, by its Rust method name: `get_weather` → `GetWeatherArgs`.
pub fn input_name(method: &str) -> String {
    format!("{}Args", type_name(method))
}

/// The input struct of a tool (`GetWeatherArgs`), from its declared name.
pub fn tool_input_name(tool: &Member) -> String {
    input_name(&tool.ident)
}

/// The compile-time check of what a tool's handler returns (`GetWeatherReturns`), from the
/// tool's declared name: a trait implemented for that one output.
pub fn tool_returns_name(tool: &Member) -> String {
    format!("{}Returns", type_name(&tool.ident))
}

/// The input struct of `member`, whose Rust method is `method`, if it has one: every tool
/// and prompt, and resource templates (a resource with a fixed URI takes no input).
pub fn member_input_name(member: &Member, method: &str) -> Option<String> {
    match &member.kind {
        MemberKind::Tool(_) => Some(tool_input_name(member)),
        MemberKind::Template(_) | MemberKind::Prompt => Some(input_name(method)),
        MemberKind::Resource(_) => None,
    }
}

/// The input structs of a service's handlers, each with the member it belongs to (`tool
/// `get_weather``) and that member, in the order of the members: for E1101.
pub fn input_names(service: &Service) -> Vec<(String, String, &Member)> {
    let methods = Methods::of(service);
    service
        .members
        .iter()
        .filter_map(|m| {
            let input = member_input_name(m, &methods.name(m))?;
            Some((format!("{} `{}`", m.kind.keyword(), m.ident), input, m))
        })
        .collect()
}

/// The function that decodes the input of the handler whose Rust method is `method`.
pub fn decoder_name(method: &str) -> Ident {
    format_ident!("decode_{}", value_name(method))
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
