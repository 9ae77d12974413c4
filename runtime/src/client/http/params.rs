//! 2026-07-28's custom headers from tool parameters, from the client side: a parameter
//! whose schema carries `"x-mcp-header": "Name"` is mirrored into an `Mcp-Param-Name`
//! header of each `tools/call` that gives it a value.
//!
//! The annotations are read from the tools' `inputSchema` as `tools/list` lists them. A
//! tool whose annotations break the specification's constraints (an empty or non-token
//! name, a name given twice ignoring case, a parameter that is not a string, integer or
//! boolean, or an annotation not reachable from the root through `properties` alone) is
//! invalid, and a client on Streamable HTTP leaves it out of `tools/list`.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::mirror::header_text;

/// One annotated parameter: where it is in the arguments, and its header's name part.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Param {
    path: Vec<String>,
    name: String,
}

/// The annotated parameters of each valid tool that has any, by tool name.
pub(crate) type ToolParams = HashMap<String, Vec<Param>>;

/// The annotated parameters of `tool` (a `Tool` of `tools/list`), or why it is invalid.
pub(crate) fn of_tool(tool: &Value) -> Result<Vec<Param>, String> {
    let Some(schema) = tool.get("inputSchema") else {
        return Ok(Vec::new());
    };
    let mut found = Vec::new();
    walk(schema, &mut Vec::new(), true, &mut found)?;
    let mut params: Vec<Param> = Vec::new();
    for (path, annotation, property) in found {
        let at = path.join(".");
        let name = match annotation.as_str() {
            Some(n) if !n.is_empty() && n.bytes().all(is_tchar) => n,
            _ => return Err(format!("`x-mcp-header` of `{at}` is not a header token")),
        };
        let primitive = matches!(
            property.get("type").and_then(Value::as_str),
            Some("string" | "integer" | "boolean")
        );
        if !primitive {
            return Err(format!(
                "`{at}` has `x-mcp-header` but is not a string, integer or boolean"
            ));
        }
        if params.iter().any(|p| p.name.eq_ignore_ascii_case(name)) {
            return Err(format!("`x-mcp-header` names `{name}` twice"));
        }
        params.push(Param {
            path,
            name: name.to_owned(),
        });
    }
    Ok(params)
}

/// RFC 9110 `tchar`.
fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// The keywords whose value is one subschema, a list of them, or a map of them.
const ONE: [&str; 11] = [
    "items",
    "additionalItems",
    "additionalProperties",
    "contains",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "not",
    "if",
    "then",
    "else",
];
const LIST: [&str; 4] = ["allOf", "anyOf", "oneOf", "prefixItems"];
const MAP: [&str; 5] = [
    "$defs",
    "definitions",
    "patternProperties",
    "dependentSchemas",
    "dependencies",
];

/// An annotation found: its property path, its value, the property's schema.
type Found<'a> = (Vec<String>, &'a Value, &'a Value);

/// Every `x-mcp-header` of `schema`; one where `reachable` is false (not on a chain of
/// `properties` keys from the root) makes the tool invalid.
fn walk<'a>(
    schema: &'a Value,
    path: &mut Vec<String>,
    reachable: bool,
    found: &mut Vec<Found<'a>>,
) -> Result<(), String> {
    let Some(object) = schema.as_object() else {
        return Ok(());
    };
    if let Some(annotation) = object.get("x-mcp-header") {
        if !reachable || path.is_empty() {
            return Err("an `x-mcp-header` is not reachable through `properties` alone".into());
        }
        found.push((path.clone(), annotation, schema));
    }
    if let Some(Value::Object(properties)) = object.get("properties") {
        for (key, property) in properties {
            path.push(key.clone());
            let outcome = walk(property, path, reachable, found);
            path.pop();
            outcome?;
        }
    }
    for keyword in ONE {
        if let Some(sub) = object.get(keyword) {
            walk(sub, &mut Vec::new(), false, found)?;
        }
    }
    for keyword in LIST {
        if let Some(Value::Array(subs)) = object.get(keyword) {
            for sub in subs {
                walk(sub, &mut Vec::new(), false, found)?;
            }
        }
    }
    for keyword in MAP {
        if let Some(Value::Object(subs)) = object.get(keyword) {
            for sub in subs.values() {
                walk(sub, &mut Vec::new(), false, found)?;
            }
        }
    }
    Ok(())
}

/// The `Mcp-Param-*` headers of a call with `arguments`: one per parameter that has a
/// value (not `null`), a string as itself, an integer in decimal, a boolean as
/// `true`/`false`, each encoded as header values are.
pub(crate) fn headers(params: &[Param], arguments: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for param in params {
        let mut value = Some(arguments);
        for key in &param.path {
            value = value.and_then(|v| v.get(key));
        }
        let text = match value {
            Some(Value::String(text)) => text.clone(),
            Some(Value::Bool(b)) => b.to_string(),
            Some(Value::Number(n)) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
                (Some(i), _, _) => i.to_string(),
                (_, Some(u), _) => u.to_string(),
                (_, _, Some(f)) if f.fract() == 0.0 && f.abs() < 9_007_199_254_740_992.0 => {
                    format!("{f:.0}")
                }
                _ => continue,
            },
            _ => continue,
        };
        out.push((format!("mcp-param-{}", param.name), header_text(&text)));
    }
    out
}

/// Leaves the invalid tools out of a `tools/list` result (logging each), and returns the
/// annotated parameters of the valid ones.
pub(crate) fn screen(result: &mut Value) -> ToolParams {
    let mut out = ToolParams::new();
    let Some(Value::Array(tools)) = result.get_mut("tools") else {
        return out;
    };
    tools.retain(|tool| {
        let name = tool.get("name").and_then(Value::as_str).unwrap_or_default();
        match of_tool(tool) {
            Ok(params) => {
                if !params.is_empty() {
                    out.insert(name.to_owned(), params);
                }
                true
            }
            Err(why) => {
                tracing::warn!(tool = name, reason = %why, "leaving out a tool whose x-mcp-header annotations are invalid");
                false
            }
        }
    });
    out
}

/// The `arguments` of `tools/call` params.
pub(crate) fn arguments(params: &Value) -> &Value {
    static EMPTY: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
    params
        .get("arguments")
        .unwrap_or_else(|| EMPTY.get_or_init(|| Value::Object(Map::new())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(properties: Value) -> Value {
        json!({"name": "t", "inputSchema": {"type": "object", "properties": properties}})
    }

    #[test]
    fn annotated_parameters_become_headers() {
        let t = tool(json!({
            "region": {"type": "string", "x-mcp-header": "Region"},
            "n": {"type": "integer", "x-mcp-header": "N"},
            "dry": {"type": "boolean", "x-mcp-header": "Dry"},
            "target": {"type": "object", "properties": {"zone": {"type": "string", "x-mcp-header": "Zone"}}},
            "query": {"type": "string"}
        }));
        let params = of_tool(&t).unwrap();
        let args = json!({"region": "Hello, 世界", "n": 42, "dry": false,
                          "target": {"zone": "eu"}, "query": "x"});
        assert_eq!(
            headers(&params, &args),
            [
                (
                    "mcp-param-Region".to_owned(),
                    "=?base64?SGVsbG8sIOS4lueVjA==?=".to_owned()
                ),
                ("mcp-param-N".to_owned(), "42".to_owned()),
                ("mcp-param-Dry".to_owned(), "false".to_owned()),
                ("mcp-param-Zone".to_owned(), "eu".to_owned()),
            ]
        );
        // No value, or null: no header.
        assert_eq!(
            headers(&params, &json!({"region": null, "n": 42.0})).len(),
            1
        );
        assert_eq!(
            headers(&params, &json!({"region": null, "n": 42.0}))[0].1,
            "42"
        );
    }

    #[test]
    fn tools_breaking_the_constraints_are_invalid() {
        let bad = [
            tool(json!({"a": {"type": "string", "x-mcp-header": ""}})),
            tool(json!({"a": {"type": "string", "x-mcp-header": "Bad Name"}})),
            tool(json!({"a": {"type": "number", "x-mcp-header": "A"}})),
            tool(json!({"a": {"type": "string", "x-mcp-header": "A"},
                        "b": {"type": "string", "x-mcp-header": "a"}})),
            tool(json!({"a": {"type": "array", "items": {"type": "string", "x-mcp-header": "A"}}})),
            tool(json!({"a": {"anyOf": [{"type": "string", "x-mcp-header": "A"}]}})),
            json!({"name": "t", "inputSchema": {"type": "object", "x-mcp-header": "Root"}}),
            json!({"name": "t", "inputSchema": {"$defs": {"d": {"type": "string", "x-mcp-header": "D"}}}}),
        ];
        for t in bad {
            assert!(of_tool(&t).is_err(), "{t}");
        }
        // A property that is itself named x-mcp-header is no annotation.
        let named = tool(json!({"x-mcp-header": {"type": "string"}}));
        assert_eq!(of_tool(&named).unwrap(), vec![]);
    }

    #[test]
    fn screening_a_listing_drops_the_invalid_tools() {
        let mut result = json!({"tools": [
            {"name": "ok", "inputSchema": {"properties": {"r": {"type": "string", "x-mcp-header": "R"}}}},
            {"name": "plain", "inputSchema": {"type": "object"}},
            {"name": "bad", "inputSchema": {"properties": {"r": {"type": "number", "x-mcp-header": "R"}}}}
        ]});
        let params = screen(&mut result);
        let names: Vec<&str> = result["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["ok", "plain"]);
        assert_eq!(params.keys().collect::<Vec<_>>(), ["ok"]);
    }
}
