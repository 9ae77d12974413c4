//! OpenAPI parameter serialization (`style`, `explode`, `allowReserved`): a value, as JSON,
//! written into a path, a query string, a header or a cookie, percent-encoded where it goes.

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use serde_json::Value;

/// How a parameter's value is written (OpenAPI `style`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// `simple`: `3,4,5`; an object `role,admin` (`role=admin` exploded). Path and header.
    Simple,
    /// `label`: `.3,4,5` (`.3.4.5` exploded). Path.
    Label,
    /// `matrix`: `;id=3,4,5` (`;id=3;id=4;id=5` exploded). Path.
    Matrix,
    /// `form`: `id=3,4,5` (`id=3&id=4&id=5` exploded, the default). Query and cookie.
    Form,
    /// `spaceDelimited`: `id=3%204%205`. Query.
    SpaceDelimited,
    /// `pipeDelimited`: `id=3|4|5`. Query.
    PipeDelimited,
    /// `deepObject`: `id[role]=admin`. Query.
    DeepObject,
    /// A parameter described by `content: application/json`: its JSON text.
    Json,
}

/// RFC 3986 unreserved characters are the only ones left as they are.
const UNRESERVED: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// With `allowReserved`: RFC 3986 reserved characters are left too (those that would end the
/// parameter, `&` and `#`, and `%`, are not).
const RESERVED_ALLOWED: &AsciiSet = &UNRESERVED
    .remove(b':')
    .remove(b'/')
    .remove(b'?')
    .remove(b'[')
    .remove(b']')
    .remove(b'@')
    .remove(b'!')
    .remove(b'$')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')')
    .remove(b'*')
    .remove(b'+')
    .remove(b',')
    .remove(b';')
    .remove(b'=');

/// How text is escaped where it goes.
#[derive(Clone, Copy)]
pub(super) enum Escape {
    /// Percent-encoded but for unreserved characters (paths, queries, cookies).
    Strict,
    /// Reserved characters kept (`allowReserved`).
    Reserved,
    /// As it is (header values, which are not URLs).
    None,
}

fn escape(text: &str, how: Escape) -> String {
    match how {
        Escape::Strict => utf8_percent_encode(text, UNRESERVED).to_string(),
        Escape::Reserved => utf8_percent_encode(text, RESERVED_ALLOWED).to_string(),
        Escape::None => text.to_owned(),
    }
}

/// A scalar's text: strings as they are, numbers and booleans as JSON writes them; arrays
/// and objects inside a value (which no style spells out) as JSON text.
fn scalar(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// The text of a path parameter `name` in `style`: what replaces `{name}` in the template.
pub(super) fn path(name: &str, style: Style, explode: bool, value: &Value) -> String {
    let e = |t: &str| escape(t, Escape::Strict);
    let (prefix, separator) = match style {
        Style::Label => (".".to_owned(), if explode { "." } else { "," }),
        Style::Matrix => (String::new(), ","),
        Style::Json => return e(&value.to_string()),
        _ => (String::new(), ","),
    };
    if style == Style::Matrix {
        return match value {
            Value::Array(items) if explode => items
                .iter()
                .map(|i| format!(";{}={}", e(name), e(&scalar(i))))
                .collect(),
            Value::Object(members) if explode => members
                .iter()
                .map(|(k, v)| format!(";{}={}", e(k), e(&scalar(v))))
                .collect(),
            other => format!(";{}={}", e(name), joined(other, ",", false, Escape::Strict)),
        };
    }
    format!(
        "{prefix}{}",
        joined(value, separator, explode, Escape::Strict)
    )
}

/// The items of an array, or an object's members (`k,v` or, exploded, `k=v`), joined with
/// `separator`; a scalar's text.
fn joined(value: &Value, separator: &str, explode: bool, how: Escape) -> String {
    match value {
        Value::Array(items) => items
            .iter()
            .map(|i| escape(&scalar(i), how))
            .collect::<Vec<_>>()
            .join(separator),
        Value::Object(members) => members
            .iter()
            .map(|(k, v)| {
                let (k, v) = (escape(k, how), escape(&scalar(v), how));
                if explode {
                    format!("{k}={v}")
                } else {
                    format!("{k}{separator}{v}")
                }
            })
            .collect::<Vec<_>>()
            .join(separator),
        other => escape(&scalar(other), how),
    }
}

/// The `key=value` pairs of a query (or cookie) parameter, each already escaped.
pub(super) fn query(
    name: &str,
    style: Style,
    explode: bool,
    allow_reserved: bool,
    value: &Value,
) -> Vec<(String, String)> {
    let how = if allow_reserved {
        Escape::Reserved
    } else {
        Escape::Strict
    };
    let key = escape(name, Escape::Strict);
    match (style, value) {
        (Style::Json, v) => vec![(key, escape(&v.to_string(), how))],
        (Style::DeepObject, Value::Object(members)) => members
            .iter()
            .map(|(k, v)| {
                (
                    format!("{key}[{}]", escape(k, Escape::Strict)),
                    escape(&scalar(v), how),
                )
            })
            .collect(),
        (Style::Form | Style::DeepObject, Value::Array(items)) if explode => items
            .iter()
            .map(|i| (key.clone(), escape(&scalar(i), how)))
            .collect(),
        (Style::Form, Value::Object(members)) if explode => members
            .iter()
            .map(|(k, v)| (escape(k, Escape::Strict), escape(&scalar(v), how)))
            .collect(),
        (Style::SpaceDelimited, v @ (Value::Array(_) | Value::Object(_))) => {
            vec![(key, joined(v, "%20", false, how))]
        }
        (Style::PipeDelimited, v @ (Value::Array(_) | Value::Object(_))) => {
            vec![(key, joined(v, "|", false, how))]
        }
        (_, v) => vec![(key, joined(v, ",", false, how))],
    }
}

/// A header's value (`simple`): `3,4,5`, `role,admin` (`role=admin` exploded).
pub(super) fn header(style: Style, explode: bool, value: &Value) -> String {
    match style {
        Style::Json => value.to_string(),
        _ => joined(value, ",", explode, Escape::None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn q(style: Style, explode: bool, value: Value) -> String {
        query("id", style, explode, false, &value)
            .into_iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("&")
    }

    // The examples of the OpenAPI 3.1 specification's "Style Examples" table.
    #[test]
    fn the_specification_style_examples() {
        let array = json!([3, 4, 5]);
        let object = json!({"role": "admin", "firstName": "Alex"});
        assert_eq!(path("id", Style::Simple, false, &json!(5)), "5");
        assert_eq!(path("id", Style::Simple, false, &array), "3,4,5");
        assert_eq!(
            path("id", Style::Simple, false, &object),
            "role,admin,firstName,Alex"
        );
        assert_eq!(
            path("id", Style::Simple, true, &object),
            "role=admin,firstName=Alex"
        );
        assert_eq!(path("id", Style::Label, false, &array), ".3,4,5");
        assert_eq!(path("id", Style::Label, true, &array), ".3.4.5");
        assert_eq!(
            path("id", Style::Label, true, &object),
            ".role=admin.firstName=Alex"
        );
        assert_eq!(path("id", Style::Matrix, false, &json!(5)), ";id=5");
        assert_eq!(path("id", Style::Matrix, false, &array), ";id=3,4,5");
        assert_eq!(path("id", Style::Matrix, true, &array), ";id=3;id=4;id=5");
        assert_eq!(
            path("id", Style::Matrix, true, &object),
            ";role=admin;firstName=Alex"
        );
        assert_eq!(q(Style::Form, false, json!(5)), "id=5");
        assert_eq!(q(Style::Form, false, array.clone()), "id=3,4,5");
        assert_eq!(q(Style::Form, true, array.clone()), "id=3&id=4&id=5");
        assert_eq!(
            q(Style::Form, false, object.clone()),
            "id=role,admin,firstName,Alex"
        );
        assert_eq!(
            q(Style::Form, true, object.clone()),
            "role=admin&firstName=Alex"
        );
        assert_eq!(
            q(Style::SpaceDelimited, false, array.clone()),
            "id=3%204%205"
        );
        assert_eq!(q(Style::PipeDelimited, false, array), "id=3|4|5");
        assert_eq!(
            q(Style::DeepObject, true, object),
            "id[role]=admin&id[firstName]=Alex"
        );
    }

    #[test]
    fn values_are_percent_encoded_where_they_go() {
        assert_eq!(
            path("p", Style::Simple, false, &json!("a/b c?")),
            "a%2Fb%20c%3F"
        );
        assert_eq!(
            q(Style::Form, true, json!("a&b=c é")),
            "id=a%26b%3Dc%20%C3%A9"
        );
        let kept = query("u", Style::Form, true, true, &json!("http://x/y?z"));
        assert_eq!(kept, vec![("u".to_owned(), "http://x/y?z".to_owned())]);
        assert_eq!(header(Style::Simple, false, &json!(["a b", "c"])), "a b,c");
        assert_eq!(
            q(Style::Json, false, json!({"a": 1})),
            "id=%7B%22a%22%3A1%7D"
        );
    }
}
