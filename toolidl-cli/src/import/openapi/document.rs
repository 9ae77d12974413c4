//! Reading an OpenAPI document: a file or an `http(s)://` URL, JSON or YAML, into one JSON
//! value; its version checked; local `$ref`s followed.

use serde_json::{Map, Number, Value};
use yaml_rust2::{Yaml, YamlLoader};

/// A document read, and where it was read from (for relative server URLs).
pub struct Read {
    pub document: Value,
    /// The URL it was fetched from; `None` for a file.
    pub url: Option<String>,
    /// The name to derive the package from: the file's or the URL's last segment's stem.
    pub stem: String,
}

/// Reads `source`: a URL when it starts with `http://` or `https://`, else a file.
pub fn read(source: &str) -> Result<Read, String> {
    let (text, url, stem) = if source.starts_with("http://") || source.starts_with("https://") {
        (fetch(source)?, Some(source.to_owned()), url_stem(source))
    } else {
        let path = std::path::Path::new(source);
        let text =
            std::fs::read_to_string(path).map_err(|e| format!("cannot read `{source}`: {e}"))?;
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "api".into());
        (text, None, stem)
    };
    let document = parse(&text).map_err(|e| format!("`{source}`: {e}"))?;
    Ok(Read {
        document,
        url,
        stem,
    })
}

/// GETs `url` on a current-thread runtime (reqwest over rustls, as the runtime's `auth` and
/// `forward` features).
fn fetch(url: &str) -> Result<String, String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start an async runtime: {e}"))?;
    runtime.block_on(async {
        let response = reqwest::Client::new()
            .get(url)
            .header(
                "accept",
                "application/json, application/yaml;q=0.9, */*;q=0.5",
            )
            .send()
            .await
            .map_err(|e| format!("cannot fetch {url}: {e}"))?;
        let status = response.status();
        if !status.is_success() {
            return Err(format!("{url} answered {status}"));
        }
        response
            .text()
            .await
            .map_err(|e| format!("cannot read {url}: {e}"))
    })
}

fn url_stem(url: &str) -> String {
    let path = url.split(['?', '#']).next().unwrap_or(url);
    let last = path
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or(path);
    let stem = last.split('.').next().unwrap_or(last);
    if stem.is_empty() {
        "api".into()
    } else {
        stem.into()
    }
}

/// JSON, else YAML (1.2; a JSON document is YAML too, but JSON is read as JSON first so that
/// its numbers keep their text).
pub fn parse(text: &str) -> Result<Value, String> {
    if text.trim_start().starts_with('{')
        && let Ok(value) = serde_json::from_str(text)
    {
        return Ok(value);
    }
    let documents =
        YamlLoader::load_from_str(text).map_err(|e| format!("neither JSON nor YAML: {e}"))?;
    match documents.as_slice() {
        [one] => yaml_to_json(one),
        [] => Err("the file is empty".into()),
        _ => Err("the YAML file holds several documents; give one".into()),
    }
}

/// A YAML node as JSON: mapping keys that are not strings (`200:`, `true:`) become their
/// text, as OpenAPI means them.
fn yaml_to_json(node: &Yaml) -> Result<Value, String> {
    Ok(match node {
        Yaml::Null => Value::Null,
        Yaml::Boolean(b) => Value::Bool(*b),
        Yaml::Integer(i) => Value::from(*i),
        Yaml::Real(text) => {
            let parsed: f64 = text
                .parse()
                .map_err(|_| format!("`{text}` is not a number JSON can hold"))?;
            Value::Number(
                Number::from_f64(parsed)
                    .ok_or_else(|| format!("`{text}` is not a number JSON can hold"))?,
            )
        }
        Yaml::String(s) => Value::String(s.clone()),
        Yaml::Array(items) => {
            Value::Array(items.iter().map(yaml_to_json).collect::<Result<_, _>>()?)
        }
        Yaml::Hash(entries) => {
            let mut map = Map::new();
            for (key, value) in entries {
                let key = match key {
                    Yaml::String(s) | Yaml::Real(s) => s.clone(),
                    Yaml::Integer(i) => i.to_string(),
                    Yaml::Boolean(b) => b.to_string(),
                    Yaml::Null => "null".into(),
                    _ => return Err("a mapping key is not a scalar".into()),
                };
                map.insert(key, yaml_to_json(value)?);
            }
            Value::Object(map)
        }
        Yaml::Alias(_) | Yaml::BadValue => {
            return Err("the YAML has an alias to no anchor, or a value of no type".into());
        }
    })
}

/// Which OpenAPI the document is: 3.0 or 3.1 (3.2 is read as 3.1); anything else refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    V30,
    V31,
}

pub fn version(document: &Value) -> Result<Version, String> {
    if let Some(swagger) = document.get("swagger") {
        let swagger = swagger
            .as_str()
            .map_or_else(|| swagger.to_string(), str::to_owned);
        return Err(format!(
            "this is a Swagger {swagger} document (`swagger: \"{swagger}\"`), which is not read: \
             convert it to OpenAPI 3 first (swagger2openapi, or the Swagger Editor's \
             \"Convert to OpenAPI 3\"), then import the converted document"
        ));
    }
    let Some(openapi) = document.get("openapi").and_then(Value::as_str) else {
        return Err(
            "not an OpenAPI document: expected an object with `openapi: 3.0.x` or `3.1.x`".into(),
        );
    };
    if openapi.starts_with("3.0") {
        Ok(Version::V30)
    } else if openapi.starts_with("3.1") || openapi.starts_with("3.2") {
        Ok(Version::V31)
    } else {
        Err(format!(
            "OpenAPI {openapi} is not read: toolidl imports OpenAPI 3.0 and 3.1"
        ))
    }
}

/// The value a local `$ref` (`#/components/parameters/limit`) points at, following chains of
/// references; `None` for an external or dangling one.
pub fn resolve<'a>(document: &'a Value, value: &'a Value) -> Option<(&'a Value, String)> {
    let mut value = value;
    let mut pointer = None;
    for _ in 0..32 {
        let Some(reference) = value.get("$ref").and_then(Value::as_str) else {
            return Some((value, pointer.unwrap_or_default()));
        };
        let target = reference.strip_prefix('#')?;
        value = document.pointer(&unescape_uri(target))?;
        pointer = Some(reference.to_owned());
    }
    None
}

/// A JSON pointer as written in a URI fragment: `%7B` and the like decoded.
fn unescape_uri(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let Ok(byte) = u8::from_str_radix(&text[i + 1..i + 3], 16)
        {
            out.push(byte);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `~` and `/` escaped, for a segment of a JSON pointer.
pub fn escape(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_keys_that_are_numbers_are_their_text() {
        let value = parse("responses:\n  200:\n    description: ok\n  default: {}\n").unwrap();
        assert_eq!(value["responses"]["200"]["description"], "ok");
        assert!(value["responses"].get("default").is_some());
    }

    #[test]
    fn json_is_read_as_json() {
        assert_eq!(parse(r#"{"a": 1.50}"#).unwrap()["a"], 1.5);
    }

    #[test]
    fn swagger_is_refused_with_a_way_out() {
        let error = version(&serde_json::json!({"swagger": "2.0"})).unwrap_err();
        assert!(error.contains("Swagger 2.0") && error.contains("convert it to OpenAPI 3"));
        assert!(version(&serde_json::json!({"openapi": "2.5"})).is_err());
        assert_eq!(
            version(&serde_json::json!({"openapi": "3.1.0"})),
            Ok(Version::V31)
        );
    }

    #[test]
    fn references_are_followed() {
        let doc = serde_json::json!({"components": {"parameters": {"a": {"$ref": "#/components/parameters/b"}, "b": {"name": "b"}}}});
        let reference = serde_json::json!({"$ref": "#/components/parameters/a"});
        let (value, pointer) = resolve(&doc, &reference).unwrap();
        assert_eq!(value["name"], "b");
        assert_eq!(pointer, "#/components/parameters/b");
    }
}
