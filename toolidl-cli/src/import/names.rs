//! Names and literals of the language, made from what a schema holds.

use heck::{ToLowerCamelCase, ToSnakeCase, ToUpperCamelCase};

/// Names the generated Rust cannot use, even escaped.
const UNUSABLE: &[&str] = &["self", "Self", "super", "crate", "_"];

/// A declaration's name from a property, tool or `$defs` key: `named_points` → `NamedPoints`.
pub fn type_name(text: &str) -> String {
    let name = text.to_upper_camel_case();
    let name: String = name.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
    match name.chars().next() {
        None => "Value".into(),
        Some(c) if c.is_ascii_digit() => format!("T{name}"),
        // `Self` is no name for a type (Rust reserves it).
        Some(_) if is_unusable(&name) => format!("{name}Value"),
        Some(_) => name,
    }
}

/// Whether `text` is an identifier of the language that the Rust generator can use.
pub fn is_ident(text: &str) -> bool {
    let mut chars = text.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !is_unusable(text)
}

/// `self`, `super`, …: not even a raw identifier.
pub fn is_unusable(text: &str) -> bool {
    UNUSABLE.contains(&text)
}

/// A field or parameter's declared name for wire name `wire`: itself when it is an identifier,
/// else a snake_case one (the wire name is then kept with `@json_name`).
pub fn field_ident(wire: &str) -> String {
    if is_ident(wire) {
        return wire.to_owned();
    }
    value_ident(wire, "field")
}

/// An enum member's or a union variant's name for a value (`true`, `false` and `null` read
/// as literals in a default, so such a member is `value_true` with `@value("true")`).
pub fn member_ident(value: &str) -> String {
    if ["true", "false", "null"].contains(&value) {
        return format!("value_{value}");
    }
    if is_ident(value) {
        return value.to_owned();
    }
    value_ident(value, "value")
}

/// The wire name the language gives a tool declared `ident` without `@name`: snake_case
/// without a trailing `_async` (docs/language.md; `GetDocketAsync` → `get_docket`).
pub fn derived_tool_name(ident: &str) -> String {
    let snake = ident.to_snake_case();
    match snake.strip_suffix("_async") {
        Some(stem) if !stem.is_empty() => stem.to_owned(),
        _ => snake,
    }
}

/// A tool's declared name for wire name `wire` (`@name` keeps the wire name otherwise).
pub fn tool_ident(wire: &str) -> String {
    if is_ident(wire) {
        return wire.to_owned();
    }
    value_ident(wire, "tool")
}

fn value_ident(text: &str, fallback: &str) -> String {
    // `+1`, `-1`, `reactions--1`: the signs in words, which snake_case would drop.
    let mut words = text.replace('+', " plus ").replace("--", " minus ");
    if let Some(rest) = words.strip_prefix('-') {
        words = format!("minus {rest}");
    }
    let snake = words.to_snake_case();
    let snake: String = snake
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    let snake = snake.trim_matches('_').to_owned();
    if snake.is_empty() || is_unusable(&snake) {
        return fallback.to_owned();
    }
    if snake.starts_with(|c: char| c.is_ascii_digit()) {
        return format!("{fallback}_{snake}");
    }
    snake
}

/// Why the language refuses `wire` as a tool's name (E0401: 1 to 128 of `A-Z a-z 0-9 _ . -`),
/// if it does.
pub fn tool_name_problem(wire: &str) -> Option<String> {
    let len = wire.chars().count();
    if len == 0 {
        return Some("an empty name".into());
    }
    if len > 128 {
        return Some(format!("a name of {len} characters (at most 128)"));
    }
    wire.chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')))
        .map(|bad| format!("a name with {bad:?}"))
}

/// A tool name the language accepts, from one it refuses: every other character `_`, at most
/// 128 of them, `tool` for none.
pub fn tool_name(wire: &str) -> String {
    let name: String = wire
        .chars()
        .take(128)
        .map(
            |c| match c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-') {
                true => c,
                false => '_',
            },
        )
        .collect();
    if name.is_empty() { "tool".into() } else { name }
}

/// `name`, or `name_2`, `name_3`, … : the first that `taken` does not hold.
pub fn unique(name: &str, taken: &[String]) -> String {
    let mut candidate = name.to_owned();
    let mut n = 2;
    while taken.contains(&candidate) {
        candidate = format!("{name}_{n}");
        n += 1;
    }
    candidate
}

/// `wire` is the camelCase of its own snake_case (`sideLength`, `id`).
pub fn is_camel(wire: &str) -> bool {
    is_ident(wire) && !wire.contains('_') && snake(wire).to_lower_camel_case() == wire
}

/// snake_case.
pub fn snake(text: &str) -> String {
    text.to_snake_case()
}

/// An untagged union variant's name from its type expression: `list<u8>` → `list`,
/// `string` → `text`, `Point` → `point`.
pub fn variant_name(expr: &str) -> String {
    let base = expr.trim_end_matches('?');
    let head = base.split('<').next().unwrap_or(base);
    match head {
        "string" | "char" => "text".into(),
        "bool" => "flag".into(),
        "f64" | "f32" => "number".into(),
        "i8" | "i16" | "i32" | "i64" | "u8" | "u16" | "u32" | "u64" => "integer".into(),
        h => h.to_snake_case(),
    }
}

/// A string literal of the language: `"…"` with `\"`, `\\`, `\n`, `\r`, `\t` and `\u{…}`
/// escapes for other control characters.
pub fn string_literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A char literal: `'c'`.
pub fn char_literal(text: &str) -> String {
    match text {
        "'" => "'\\''".into(),
        "\\" => "'\\\\'".into(),
        "\n" => "'\\n'".into(),
        "\r" => "'\\r'".into(),
        "\t" => "'\\t'".into(),
        c => format!("'{c}'"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_from_wire_names() {
        assert_eq!(type_name("named_points"), "NamedPoints");
        assert_eq!(type_name("3d"), "T3d");
        assert_eq!(type_name("self"), "SelfValue");
        assert_eq!(member_ident("true"), "value_true");
        assert_eq!(field_ident("sideLength"), "sideLength");
        assert_eq!(field_ident("max-results"), "max_results");
        assert_eq!(field_ident("self"), "field");
        assert_eq!(member_ident("long-running"), "long_running");
        assert_eq!(member_ident("2x"), "value_2x");
        assert_eq!(member_ident("+1"), "plus_1");
        assert_eq!(member_ident("-1"), "minus_1");
        assert_eq!(member_ident("reactions--1"), "reactions_minus_1");
        assert!(is_camel("sideLength"));
        assert!(is_camel("id"));
        assert!(!is_camel("side_length"));
        assert!(!is_camel("URL"));
        assert_eq!(variant_name("list<u8>"), "list");
        assert_eq!(variant_name("i64"), "integer");
        assert_eq!(variant_name("u8?"), "integer");
        assert_eq!(variant_name("Point"), "point");
        assert_eq!(variant_name("uri"), "uri");
        assert_eq!(string_literal("a\"b\\c\n\u{1}"), r#""a\"b\\c\n\u{1}""#);
        assert_eq!(tool_name_problem("read_file.v2-x"), None);
        assert!(tool_name_problem("").is_some());
        assert!(tool_name_problem("a]b").is_some());
        assert!(tool_name_problem(&"a".repeat(129)).is_some());
        assert_eq!(tool_name("a]b:c"), "a_b_c");
        assert_eq!(tool_name(""), "tool");
        assert_eq!(tool_name(&"é".repeat(200)).chars().count(), 128);
        let taken = vec!["a".to_string(), "a_2".to_string()];
        assert_eq!(unique("a", &taken), "a_3");
        assert_eq!(unique("b", &taken), "b");
    }
}
