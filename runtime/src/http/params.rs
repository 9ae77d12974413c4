//! 2026-07-28's custom headers (SEP-2243): a tool parameter whose schema carries
//! `"x-mcp-header": "Name"` is mirrored by clients into an `Mcp-Param-Name` header, and the
//! server checks that header against the argument in the body.
//!
//! The annotations are read from the tools' listing JSON once per registry (the registry
//! changes only when a service is added or removed), not per request. A `tools/call` of a
//! tool without annotations costs one hash lookup.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, Weak};

use hyper::header::HeaderName;
use hyper::http::request::Parts;
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::Value;
use serde_json::value::RawValue;

use crate::protocol::{RpcError, code};
use crate::server::{Registry, Server};

/// One annotated parameter of a tool.
#[derive(Debug)]
pub(crate) struct ParamHeader {
    /// The chain of `properties` keys from the arguments object to the parameter.
    path: Box<[Box<str>]>,
    /// `mcp-param-<name>`, for the lookup (header names are case-insensitive).
    header: HeaderName,
    /// `Mcp-Param-<Name>` as the schema spells it, for error messages.
    display: Box<str>,
}

/// The annotated parameters of every tool that has any.
#[derive(Debug, Default)]
pub(crate) struct ParamIndex {
    tools: HashMap<Box<str>, Box<[ParamHeader]>>,
}

impl ParamIndex {
    /// Reads the `x-mcp-header` annotations of the registry's tools (the first service
    /// listing a name wins, as for calls). Annotations that break the spec's constraints
    /// are logged; those whose name is a valid header token are still checked.
    pub fn new(registry: &Registry) -> ParamIndex {
        let mut tools = HashMap::new();
        for tool in registry.listed_tools() {
            if !tool.json.contains("x-mcp-header") {
                continue;
            }
            let Ok(json) = serde_json::from_str::<Value>(&tool.json) else {
                continue;
            };
            let mut found = Vec::new();
            if let Some(schema) = json.get("inputSchema") {
                collect(schema, &mut Vec::new(), &mut found);
            }
            let params = params_of(&tool.name, found);
            if !params.is_empty() {
                tools.insert(Box::from(tool.name.as_ref()), params.into_boxed_slice());
            }
        }
        ParamIndex { tools }
    }

    /// The annotated parameters of `tool`, when it has any.
    pub fn tool(&self, tool: &str) -> Option<&[ParamHeader]> {
        if self.tools.is_empty() {
            return None;
        }
        self.tools.get(tool).map(|p| &**p)
    }
}

/// An annotation as found: the property path, the annotation's value, the property schema.
type Found<'a> = (Vec<&'a str>, &'a Value, &'a Value);

/// Every `x-mcp-header` reachable from `schema` through `properties` keys only.
fn collect<'a>(schema: &'a Value, path: &mut Vec<&'a str>, out: &mut Vec<Found<'a>>) {
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return;
    };
    for (key, property) in properties {
        path.push(key);
        if let Some(name) = property.get("x-mcp-header") {
            out.push((path.clone(), name, property));
        }
        collect(property, path, out);
        path.pop();
    }
}

/// RFC 9110 `tchar`.
fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

fn params_of(tool: &str, found: Vec<Found<'_>>) -> Vec<ParamHeader> {
    let mut out: Vec<ParamHeader> = Vec::new();
    for (path, name, property) in found {
        let at = path.join(".");
        let name = match name.as_str() {
            Some(n) if !n.is_empty() && n.bytes().all(is_tchar) => n,
            _ => {
                tracing::warn!(tool, property = %at, "x-mcp-header is not a non-empty header token; not checked (clients reject this tool)");
                continue;
            }
        };
        let Ok(header) = HeaderName::from_bytes(format!("mcp-param-{name}").as_bytes()) else {
            continue;
        };
        let primitive = match property.get("type") {
            Some(Value::String(t)) => matches!(t.as_str(), "string" | "integer" | "boolean"),
            _ => false,
        };
        if !primitive {
            tracing::warn!(tool, property = %at, "x-mcp-header on a parameter whose type is not string, integer or boolean (clients reject this tool)");
        }
        if out.iter().any(|p| p.header == header) {
            tracing::warn!(tool, property = %at, header = name, "x-mcp-header names the same header twice (clients reject this tool)");
        }
        out.push(ParamHeader {
            path: path.into_iter().map(Box::from).collect(),
            header,
            display: format!("Mcp-Param-{name}").into_boxed_str(),
        });
    }
    out
}

/// The index of the current registry, rebuilt when a service is added or removed.
#[derive(Default)]
pub(crate) struct ParamCache {
    slot: Mutex<Option<(Weak<Registry>, Arc<ParamIndex>)>>,
}

impl ParamCache {
    pub fn index(&self, server: &Server) -> Arc<ParamIndex> {
        let registry = server.registry();
        let mut slot = self.slot.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((weak, index)) = &*slot {
            // A live weak reference cannot share its address with another registry.
            if weak.upgrade().is_some_and(|r| Arc::ptr_eq(&r, &registry)) {
                return index.clone();
            }
        }
        let index = Arc::new(ParamIndex::new(&registry));
        *slot = Some((Arc::downgrade(&registry), index.clone()));
        index
    }
}

/// Checks each annotated parameter's `Mcp-Param-*` header against `arguments`:
///
/// - a value (not `null`) in the body needs the header, and the header (after
///   `=?base64?…?=` decoding) must equal it: a string exactly, an integer numerically
///   (`42.0` is `42`), a boolean as `true`/`false`;
/// - no value (absent or `null`) needs no header, and a header then does not match;
/// - a header that is not visible ASCII, given twice, or not valid Base64 inside the
///   sentinel is refused.
///
/// Every failure is `-32020` (`HeaderMismatch`).
pub(crate) fn check(
    parts: &Parts,
    params: &[ParamHeader],
    arguments: Option<&RawValue>,
) -> Result<(), RpcError> {
    for param in params {
        check_one(parts, param, arguments)?;
    }
    Ok(())
}

fn mismatch(detail: String) -> RpcError {
    RpcError::new(code::HEADER_MISMATCH, format!("Header mismatch: {detail}"))
}

fn check_one(
    parts: &Parts,
    param: &ParamHeader,
    arguments: Option<&RawValue>,
) -> Result<(), RpcError> {
    let header = &*param.display;
    let at = || format!("arguments.{}", param.path.join("."));
    let body = value_at(arguments, &param.path).map_err(|()| {
        mismatch(format!(
            "{} is given more than once in the body, so {header} cannot be checked.",
            at()
        ))
    })?;
    let mut values = parts.headers.get_all(&param.header).iter();
    let raw = values.next();
    if values.next().is_some() {
        return Err(mismatch(format!(
            "the {header} header is given more than once."
        )));
    }
    let (body, raw) = match (body, raw) {
        (None, None) => return Ok(()),
        (Some(_), None) => {
            return Err(mismatch(format!(
                "the {header} header is required: {} has a value.",
                at()
            )));
        }
        (None, Some(_)) => {
            return Err(mismatch(format!(
                "the {header} header is present but {} has no value.",
                at()
            )));
        }
        (Some(body), Some(raw)) => (body, raw),
    };
    let Ok(text) = raw.to_str() else {
        return Err(mismatch(format!(
            "the {header} header has invalid characters (encode such values as =?base64?…?=)."
        )));
    };
    let text = text.trim_matches([' ', '\t']);
    let decoded;
    let actual = match text
        .strip_prefix("=?base64?")
        .and_then(|v| v.strip_suffix("?="))
    {
        Some(b64) => {
            let utf8 = toolidl_formats::decode_base64(b64).and_then(|b| String::from_utf8(b).ok());
            let Some(utf8) = utf8 else {
                return Err(mismatch(format!(
                    "the {header} header is not valid base64."
                )));
            };
            decoded = utf8;
            decoded.as_str()
        }
        None => text,
    };
    if same(actual, &body) {
        Ok(())
    } else {
        Err(mismatch(format!(
            "the {header} header does not match {}.",
            at()
        )))
    }
}

/// Whether a header's (decoded) text stands for the body's value.
fn same(header: &str, body: &Value) -> bool {
    match body {
        Value::String(s) => header == s,
        Value::Bool(b) => header == if *b { "true" } else { "false" },
        Value::Number(n) => same_number(header, n),
        _ => false,
    }
}

/// Numeric equality of a decimal header value and a JSON number (`42`, `42.0`, `4.2e1`).
fn same_number(header: &str, body: &serde_json::Number) -> bool {
    let Ok(h) = serde_json::from_str::<serde_json::Number>(header) else {
        return false;
    };
    if let (Some(a), Some(b)) = (h.as_i64(), body.as_i64()) {
        return a == b;
    }
    if let (Some(a), Some(b)) = (h.as_u64(), body.as_u64()) {
        return a == b;
    }
    matches!((h.as_f64(), body.as_f64()), (Some(a), Some(b)) if a == b)
}

/// The value at `path` in `arguments`, `None` when absent or `null` (or when a step is not
/// an object). `Err` when a key on the way appears more than once: decoders and the header
/// could then see different values.
fn value_at(arguments: Option<&RawValue>, path: &[Box<str>]) -> Result<Option<Value>, ()> {
    let mut current = match arguments {
        Some(a) => a,
        None => return Ok(None),
    };
    for key in path {
        let Ok(Members(members)) = serde_json::from_str::<Members>(current.get()) else {
            return Ok(None);
        };
        let mut hits = members.into_iter().filter(|(k, _)| k == &**key);
        match (hits.next(), hits.next()) {
            (None, _) => return Ok(None),
            (Some(_), Some(_)) => return Err(()),
            (Some((_, v)), None) => current = v,
        }
    }
    match serde_json::from_str::<Value>(current.get()) {
        Ok(Value::Null) | Err(_) => Ok(None),
        Ok(v) => Ok(Some(v)),
    }
}

/// An object's members in order, duplicates kept.
struct Members<'a>(Vec<(Cow<'a, str>, &'a RawValue)>);

impl<'de> Deserialize<'de> for Members<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Members<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Members<'de>, A::Error> {
                let mut out = Vec::new();
                while let Some(entry) = map.next_entry::<Key<'de>, &'de RawValue>()? {
                    out.push((entry.0.0, entry.1));
                }
                Ok(Members(out))
            }
        }
        d.deserialize_map(V)
    }
}

/// A key, borrowed from the text when it has no escapes.
struct Key<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
        }
        d.deserialize_str(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(name: &str, path: &[&str]) -> ParamHeader {
        ParamHeader {
            path: path.iter().map(|k| Box::from(*k)).collect(),
            header: HeaderName::from_bytes(format!("mcp-param-{name}").as_bytes()).unwrap(),
            display: format!("Mcp-Param-{name}").into(),
        }
    }

    fn parts(headers: &[(&str, &[u8])]) -> Parts {
        let mut b = hyper::Request::builder().uri("/mcp");
        for (k, v) in headers {
            b = b.header(*k, hyper::header::HeaderValue::from_bytes(v).unwrap());
        }
        b.body(()).unwrap().into_parts().0
    }

    fn run(headers: &[(&str, &[u8])], param: &ParamHeader, args: &str) -> Result<(), String> {
        let raw = RawValue::from_string(args.to_owned()).unwrap();
        check(&parts(headers), std::slice::from_ref(param), Some(&raw)).map_err(|e| {
            assert_eq!(e.code, -32020);
            e.message.to_string()
        })
    }

    #[test]
    fn values_are_compared_by_type_after_decoding() {
        let region = header("Region", &["region"]);
        let ok = |h: &str, args: &str| run(&[("mcp-param-region", h.as_bytes())], &region, args);
        ok("us-west1", r#"{"region":"us-west1"}"#).unwrap();
        ok("  us-west1\t", r#"{"region":"us-west1"}"#).unwrap();
        ok(
            "=?base64?SGVsbG8sIOS4lueVjA==?=",
            r#"{"region":"Hello, 世界"}"#,
        )
        .unwrap();
        ok("=?base64?IHBhZGRlZCA=?=", r#"{"region":" padded "}"#).unwrap();
        ok(
            "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=",
            r#"{"region":"=?base64?literal?="}"#,
        )
        .unwrap();
        // Not the sentinel: literal.
        ok("SGVsbG8=", r#"{"region":"SGVsbG8="}"#).unwrap();
        ok("=?base64?SGVsbG8=", r#"{"region":"=?base64?SGVsbG8="}"#).unwrap();
        ok("=?BASE64?SGVsbG8=?=", r#"{"region":"=?BASE64?SGVsbG8=?="}"#).unwrap();
        ok("42", r#"{"region":42}"#).unwrap();
        ok("42.0", r#"{"region":42}"#).unwrap();
        ok("-7", r#"{"region":-7.0}"#).unwrap();
        ok("true", r#"{"region":true}"#).unwrap();
        ok("false", r#"{"region":false}"#).unwrap();

        let e = ok("us-east1", r#"{"region":"us-west1"}"#).unwrap_err();
        assert_eq!(
            e,
            "Header mismatch: the Mcp-Param-Region header does not match arguments.region."
        );
        assert!(ok("=?base64?SGVsbG8?=", r#"{"region":"Hello"}"#).is_err());
        assert!(ok("=?base64?SGVs!!!bG8=?=", r#"{"region":"Hello"}"#).is_err());
        assert!(ok("=?base64?/w==?=", r#"{"region":"\u00ff"}"#).is_err()); // not UTF-8
        assert!(ok("US-WEST1", r#"{"region":"us-west1"}"#).is_err());
        assert!(ok("43", r#"{"region":42}"#).is_err());
        assert!(ok("0x2a", r#"{"region":42}"#).is_err());
        assert!(ok("True", r#"{"region":true}"#).is_err());
        assert!(ok("1", r#"{"region":true}"#).is_err());
        assert!(ok("{}", r#"{"region":{}}"#).is_err());
        let e = run(
            &[("mcp-param-region", b"caf\xc3\xa9")],
            &region,
            r#"{"region":"café"}"#,
        )
        .unwrap_err();
        assert!(e.contains("invalid characters"), "{e}");
    }

    #[test]
    fn presence_follows_the_body() {
        let region = header("Region", &["region"]);
        let none: &[(&str, &[u8])] = &[];
        run(none, &region, r#"{}"#).unwrap();
        run(none, &region, r#"{"region":null}"#).unwrap();
        run(none, &region, r#"{"other":"x"}"#).unwrap();
        let e = run(none, &region, r#"{"region":"x"}"#).unwrap_err();
        assert_eq!(
            e,
            "Header mismatch: the Mcp-Param-Region header is required: arguments.region has a value."
        );
        assert!(run(&[("Mcp-Param-Region", b"x")], &region, r#"{}"#).is_err());
        assert!(run(&[("Mcp-Param-Region", b"x")], &region, r#"{"region":null}"#).is_err());
        let twice = [("mcp-param-region", &b"x"[..]), ("mcp-param-region", b"x")];
        assert!(run(&twice, &region, r#"{"region":"x"}"#).is_err());
        // A key given twice in the body is refused, whatever the header says.
        let e = run(
            &[("mcp-param-region", b"b")],
            &region,
            r#"{"region":"a","region":"b"}"#,
        )
        .unwrap_err();
        assert!(e.contains("more than once"), "{e}");
        // Nested properties; escaped keys.
        let zone = header("Zone", &["target", "zone"]);
        run(
            &[("mcp-param-zone", b"z1")],
            &zone,
            r#"{"target":{"zone":"z1"}}"#,
        )
        .unwrap();
        run(
            &[("mcp-param-zone", b"z1")],
            &zone,
            r#"{"t\u0061rget":{"zone":"z1"}}"#,
        )
        .unwrap();
        run(none, &zone, r#"{"target":"flat"}"#).unwrap();
        assert!(run(none, &zone, r#"{"target":{"zone":"z1"}}"#).is_err());
    }

    #[test]
    fn annotations_are_found_through_properties_only() {
        let schema: Value = serde_json::from_str(
            r#"{"type":"object","properties":{
                "region":{"type":"string","x-mcp-header":"Region"},
                "plain":{"type":"string"},
                "target":{"type":"object","properties":{"zone":{"type":"string","x-mcp-header":"Zone"}}},
                "list":{"type":"array","items":{"type":"object","properties":{"x":{"x-mcp-header":"X"}}}},
                "bad":{"type":"string","x-mcp-header":"Bad Name"}
            }}"#,
        )
        .unwrap();
        let mut found = Vec::new();
        collect(&schema, &mut Vec::new(), &mut found);
        let params = params_of("t", found);
        let names: Vec<(&str, String)> = params
            .iter()
            .map(|p| (&*p.display, p.path.join(".")))
            .collect();
        assert_eq!(
            names,
            [
                ("Mcp-Param-Region", "region".to_owned()),
                ("Mcp-Param-Zone", "target.zone".to_owned())
            ]
        );
    }
}
