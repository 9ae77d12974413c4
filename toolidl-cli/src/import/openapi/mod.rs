//! `toolidl import --openapi FILE|URL`: one tool per operation of an OpenAPI 3.0 or 3.1
//! document, and the forward binding that says where each argument is sent.
//!
//! Each operation's path, query, header and cookie parameters and its request body's members
//! become the tool's parameters, with their constraints; the success response's schema its
//! result. Schemas are translated by the listing importer's rules ([`super::types`]) after
//! [`schema`] has said in JSON Schema what OpenAPI says in its own words; what the language
//! cannot say is widened and reported, naming the operation and the JSON pointer of the
//! place in the document. docs/openapi.md is the whole mapping.

mod document;
mod schema;

use std::path::PathBuf;

use serde_json::{Map, Value, json};
use toolidl_codegen::forward::{
    BINDING_VERSION, Binding, Body, BodyContent, Location, Operation, Parameter, Read, Response,
    Scheme, Style,
};

use super::types::{Gap, POINTER, Types};
use super::{Imported, Returns, assemble, names, tool_decl_at};
use document::{escape, resolve};
use schema::{Mode, Schemas, examples_line};

/// What `toolidl import --openapi` was asked.
pub struct Args {
    /// The document: a file, or an `http(s)://` URL.
    pub source: String,
    /// Only operations with one of these tags (all when empty).
    pub tags: Vec<String>,
    /// Only these operations (by `operationId` or tool name; `*` matches any text).
    pub include: Vec<String>,
    /// Not these.
    pub exclude: Vec<String>,
    /// Where to write the forward binding.
    pub forward: Option<PathBuf>,
    pub package: Option<String>,
    pub service: Option<String>,
    pub out: Option<PathBuf>,
}

/// Runs the command: 0 when the file was written, 1 when the document cannot be read or is
/// not OpenAPI 3.0 or 3.1.
pub fn run(args: &Args) -> i32 {
    let read = match document::read(&args.source) {
        Ok(read) => read,
        Err(error) => {
            eprintln!("error: {error}");
            return 1;
        }
    };
    let package = args
        .package
        .clone()
        .unwrap_or_else(|| super::package_name(&read.stem));
    let service = args
        .service
        .clone()
        .unwrap_or_else(|| names::type_name(package.rsplit('.').next().unwrap_or(&package)));
    let filter = Filter {
        tags: args.tags.clone(),
        include: args.include.clone(),
        exclude: args.exclude.clone(),
    };
    let imported = match import(
        &read.document,
        read.url.as_deref(),
        &package,
        &service,
        &filter,
    ) {
        Ok(imported) => imported,
        Err(error) => {
            eprintln!("error: `{}`: {error}", args.source);
            return 1;
        }
    };
    for gap in &imported.file.gaps {
        eprintln!("warning: {}: {}", gap.at, gap.what);
    }
    if let Some(path) = &args.forward {
        let text = serde_json::to_string_pretty(&imported.binding).unwrap_or_default() + "\n";
        if let Err(error) = std::fs::write(path, text) {
            eprintln!("error: cannot write `{}`: {error}", path.display());
            return 1;
        }
    }
    super::write_out(args.out.as_deref(), &imported.file.text)
}

/// Which operations become tools.
#[derive(Debug, Default, Clone)]
pub struct Filter {
    pub tags: Vec<String>,
    pub include: Vec<String>,
    pub exclude: Vec<String>,
}

impl Filter {
    fn keeps(&self, operation: &Map<String, Value>, names: &[&str]) -> bool {
        let tags: Vec<&str> = operation
            .get("tags")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        let named = |patterns: &[String]| patterns.iter().any(|p| names.iter().any(|n| glob(p, n)));
        (self.tags.is_empty() || self.tags.iter().any(|t| tags.contains(&t.as_str())))
            && (self.include.is_empty() || named(&self.include))
            && !named(&self.exclude)
    }
}

/// `pattern` matches `text`, `*` standing for any text.
fn glob(pattern: &str, text: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == text,
        Some((head, rest)) => {
            let Some(mut tail) = text.strip_prefix(head) else {
                return false;
            };
            loop {
                if glob(rest, tail) {
                    return true;
                }
                let mut chars = tail.chars();
                if chars.next().is_none() {
                    return false;
                }
                tail = chars.as_str();
            }
        }
    }
}

/// An imported document: the `.tool` file and the forward binding of its service.
#[derive(Debug)]
pub struct OpenApiImport {
    pub file: Imported,
    pub binding: Binding,
}

const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// Imports `document` as package `package`, service `service`; `url` is where it was read
/// from (relative server URLs are resolved against it).
pub fn import(
    document: &Value,
    url: Option<&str>,
    package: &str,
    service: &str,
    filter: &Filter,
) -> Result<OpenApiImport, String> {
    document::version(document)?;
    let schemas = Schemas::new(document);
    let mut types = Types::default();
    types.reserve(service);
    let mut importer = Importer {
        document,
        schemas: &schemas,
        tool_names: Vec::new(),
    };
    let mut members = Vec::new();
    let mut operations = Vec::new();
    let paths = document
        .get("paths")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    for (path, item) in &paths {
        let item_pointer = format!("#/paths/{}", escape(path));
        let Some((item, _)) = resolve(document, item) else {
            gap(
                &mut types,
                &format!("path `{path}`"),
                "its `$ref` points at nothing here; left out",
            );
            continue;
        };
        for method in METHODS {
            let Some(operation) = item.get(method).and_then(Value::as_object) else {
                continue;
            };
            let pointer = format!("{item_pointer}/{method}");
            let id = operation.get("operationId").and_then(Value::as_str);
            let base = tool_base_name(id, method, path);
            let keep_names: Vec<&str> = id.into_iter().chain([base.as_str()]).collect();
            if !filter.keeps(operation, &keep_names) {
                continue;
            }
            let source = Source {
                path,
                method,
                item,
                operation,
                pointer,
                label: match id {
                    Some(id) => format!("operation `{id}`"),
                    None => format!("operation `{} {path}`", method.to_uppercase()),
                },
            };
            if let Some((member, bound)) = importer.operation(&mut types, &source, base)? {
                members.push(member);
                operations.push(bound);
            }
        }
    }
    if document
        .get("webhooks")
        .and_then(Value::as_object)
        .is_some_and(|w| !w.is_empty())
    {
        gap(
            &mut types,
            "`#/webhooks`",
            "webhooks are requests the API sends, not operations it serves; left out",
        );
    }
    let binding = Binding {
        binding: BINDING_VERSION,
        package: package.to_owned(),
        service: service.to_owned(),
        api: api_name(document),
        servers: servers(document, url),
        schemes: schemes(document, &mut types),
        operations,
    };
    let file = assemble(package, service, &[], types, &members)?;
    Ok(OpenApiImport { file, binding })
}

/// `Swagger Petstore 1.0.27`.
fn api_name(document: &Value) -> Option<String> {
    let info = document.get("info")?;
    let title = info.get("title").and_then(Value::as_str)?;
    Some(match info.get("version").and_then(Value::as_str) {
        Some(version) => format!("{title} {version}"),
        None => title.to_owned(),
    })
}

/// The server URLs, variables at their defaults, relative ones against `url`.
fn servers(document: &Value, url: Option<&str>) -> Vec<String> {
    let mut out = Vec::new();
    for server in document
        .get("servers")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let Some(mut text) = server.get("url").and_then(Value::as_str).map(str::to_owned) else {
            continue;
        };
        for (name, variable) in server
            .get("variables")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            if let Some(default) = variable.get("default").and_then(Value::as_str) {
                text = text.replace(&format!("{{{name}}}"), default);
            }
        }
        if !text.contains("://")
            && let Some(base) = url.and_then(|u| reqwest::Url::parse(u).ok())
            && let Ok(joined) = base.join(&text)
        {
            text = joined.to_string();
        }
        out.push(text.trim_end_matches('/').to_owned());
    }
    out
}

/// `components.securitySchemes`, as the runtime sends them.
fn schemes(document: &Value, types: &mut Types) -> Vec<Scheme> {
    let mut out = Vec::new();
    for (name, scheme) in document
        .pointer("/components/securitySchemes")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let Some((scheme, _)) = resolve(document, scheme) else {
            continue;
        };
        let text = |key: &str| scheme.get(key).and_then(Value::as_str);
        let at = format!("`#/components/securitySchemes/{}`", escape(name));
        let name = name.clone();
        match text("type") {
            Some("apiKey") => {
                let location = match text("in") {
                    Some("query") => Location::Query,
                    Some("cookie") => Location::Cookie,
                    _ => Location::Header,
                };
                out.push(Scheme::ApiKey {
                    name,
                    location,
                    key: text("name").unwrap_or("api_key").to_owned(),
                });
            }
            Some("http") => match text("scheme").map(str::to_ascii_lowercase).as_deref() {
                Some("basic") => out.push(Scheme::Basic { name }),
                Some("bearer") => out.push(Scheme::Bearer { name }),
                other => gap(
                    types,
                    &at,
                    format!(
                        "the HTTP scheme `{}` is not sent by the runtime; operations that need it are called without it",
                        other.unwrap_or("")
                    ),
                ),
            },
            Some("oauth2") => out.push(Scheme::OAuth2 {
                name,
                token_url: scheme
                    .pointer("/flows/clientCredentials/tokenUrl")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
            }),
            Some("openIdConnect") => out.push(Scheme::OAuth2 {
                name,
                token_url: None,
            }),
            other => gap(
                types,
                &at,
                format!(
                    "the security scheme type `{}` is not sent by the runtime; operations that need it are called without it",
                    other.unwrap_or("")
                ),
            ),
        }
    }
    out
}

fn gap(types: &mut Types, at: &str, what: impl Into<String>) {
    types.gaps.push(Gap {
        at: at.to_owned(),
        what: what.into(),
    });
}

/// The snake_case name of a tool: from `operationId`, else the method and the path.
fn tool_base_name(id: Option<&str>, method: &str, path: &str) -> String {
    let text = match id {
        Some(id) => id.to_owned(),
        None => format!("{method} {}", path.replace(['{', '}'], "")),
    };
    let snake: String = names::snake(&text)
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    let mut name = String::new();
    for part in snake.split('_').filter(|p| !p.is_empty()) {
        if !name.is_empty() {
            name.push('_');
        }
        name.push_str(part);
    }
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        name = format!("{method}_{name}").trim_end_matches('_').to_owned();
    }
    name
}

/// One operation of the document, and where it stands.
struct Source<'a> {
    path: &'a str,
    method: &'a str,
    item: &'a Value,
    operation: &'a Map<String, Value>,
    pointer: String,
    label: String,
}

struct Importer<'a> {
    document: &'a Value,
    schemas: &'a Schemas<'a>,
    tool_names: Vec<String>,
}

/// A parameter of the tool being built: its wire name, schema, whether it is required.
struct Input {
    name: String,
    schema: Value,
    required: bool,
}

impl Importer<'_> {
    /// The tool of one operation and its binding; `None` when it is left out (reported).
    fn operation(
        &mut self,
        types: &mut Types,
        source: &Source<'_>,
        base: String,
    ) -> Result<Option<(String, Operation)>, String> {
        let label = source.label.as_str();
        let mut name = base.clone();
        let mut n = 2;
        while self.tool_names.contains(&name) {
            name = format!("{base}_{n}");
            n += 1;
        }
        if name != base {
            gap(
                types,
                label,
                format!("its tool name `{base}` is another operation's; named `{name}`"),
            );
        }
        let mut inputs: Vec<Input> = Vec::new();
        let mut parameters = Vec::new();
        for (location, param, pointer) in self.parameters(types, source) {
            let Some(wire) = param.get("name").and_then(Value::as_str) else {
                continue;
            };
            if location == Location::Header
                && ["accept", "content-type", "authorization"]
                    .contains(&wire.to_ascii_lowercase().as_str())
            {
                gap(
                    types,
                    &format!("{label}, `{pointer}`"),
                    format!(
                        "the header `{wire}` is not a parameter (OpenAPI ignores it: the request's media types and credentials set it); left out"
                    ),
                );
                continue;
            }
            let (schema, style) = match param.get("content").and_then(Value::as_object) {
                Some(content) => {
                    let (media, media_type) = content
                        .iter()
                        .next()
                        .map_or(("", &Value::Null), |(k, v)| (k.as_str(), v));
                    let schema = media_type.get("schema").cloned().unwrap_or(json!({}));
                    let at = format!("{pointer}/content/{}/schema", escape(media));
                    let style = if is_json(media) {
                        Style::Json
                    } else {
                        Style::Simple
                    };
                    (self.schemas.normalize(&schema, Mode::Request, &at), style)
                }
                None => {
                    let schema = param
                        .get("schema")
                        .cloned()
                        .unwrap_or(json!({"type": "string"}));
                    let at = format!("{pointer}/schema");
                    let style = match param.get("style").and_then(Value::as_str) {
                        Some("label") => Style::Label,
                        Some("matrix") => Style::Matrix,
                        Some("form") => Style::Form,
                        Some("spaceDelimited") => Style::SpaceDelimited,
                        Some("pipeDelimited") => Style::PipeDelimited,
                        Some("deepObject") => Style::DeepObject,
                        Some("simple") => Style::Simple,
                        _ => match location {
                            Location::Query | Location::Cookie => Style::Form,
                            Location::Path | Location::Header => Style::Simple,
                        },
                    };
                    (self.schemas.normalize(&schema, Mode::Request, &at), style)
                }
            };
            let explode = param
                .get("explode")
                .and_then(Value::as_bool)
                .unwrap_or(style == Style::Form);
            let schema = described(
                schema,
                param.get("description").and_then(Value::as_str),
                param.get("example").or_else(|| {
                    param
                        .get("examples")
                        .and_then(Value::as_object)
                        .and_then(|e| e.values().next())
                        .and_then(|e| e.get("value"))
                }),
                param.get("deprecated") == Some(&Value::Bool(true)),
            );
            let required =
                location == Location::Path || param.get("required") == Some(&Value::Bool(true));
            let argument = self.unique(types, label, &pointer, &inputs, wire, location.as_str());
            inputs.push(Input {
                name: argument.clone(),
                schema,
                required,
            });
            parameters.push(Parameter {
                argument,
                location,
                name: wire.to_owned(),
                style,
                explode,
                allow_reserved: param.get("allowReserved") == Some(&Value::Bool(true)),
            });
        }
        let body = match self.body(types, source, &mut inputs) {
            Ok(body) => body,
            Err(()) => return Ok(None),
        };
        let (returns, read, status, media_type) = self.response(types, source);
        let security = self.security(source);

        let mut properties = Map::new();
        let mut required = Vec::new();
        for input in &inputs {
            properties.insert(input.name.clone(), input.schema.clone());
            if input.required {
                required.push(Value::from(input.name.clone()));
            }
        }
        let mut input_schema = json!({
            "type": "object",
            "properties": properties,
            "additionalProperties": false,
        });
        if !required.is_empty() {
            input_schema["required"] = Value::Array(required);
        }
        let input_schema = self.schemas.rooted(input_schema);
        let mut tool = Map::new();
        tool.insert("name".into(), Value::from(name.clone()));
        let summary = text(source.operation, "summary");
        let description = text(source.operation, "description").or(summary);
        if let Some(summary) = summary {
            tool.insert("title".into(), Value::from(summary.trim()));
        }
        let deprecated = source.operation.get("deprecated") == Some(&Value::Bool(true));
        let description = match (description.map(str::trim), deprecated) {
            (Some(d), true) => Some(format!("{d}\n\nDeprecated.")),
            (None, true) => Some("Deprecated.".to_owned()),
            (d, false) => d.map(str::to_owned),
        };
        if let Some(description) = description {
            tool.insert("description".into(), Value::from(description));
        }
        tool.insert("inputSchema".into(), input_schema);
        // An operation's summary is both titles (`@title("…")`), as the OpenAPI mapping says.
        let mut hints = annotations(source.method);
        if let (Some(summary), Value::Object(hints)) = (summary, &mut hints) {
            hints.insert("title".into(), Value::from(summary.trim()));
        }
        tool.insert("annotations".into(), hints);
        let returns = match &returns {
            Some(schema) => Returns::Schema(schema),
            None => match read {
                Read::Text => Returns::Text,
                Read::Bytes => Returns::Bytes,
                Read::Nothing => Returns::Nothing,
                Read::Json => Returns::Schema(&JSON),
            },
        };
        let member = tool_decl_at(types, &tool, None, label, label, returns)?;
        self.tool_names.push(name.clone());
        Ok(Some((
            member,
            Operation {
                tool: name,
                operation_id: text(source.operation, "operationId").map(str::to_owned),
                method: source.method.to_uppercase(),
                path: source.path.to_owned(),
                parameters,
                body,
                response: Response {
                    status,
                    media_type,
                    read,
                },
                security,
            },
        )))
    }

    /// The operation's parameters (the path item's, with the operation's replacing those of
    /// the same name and location), path first, then query, header and cookie, each with its
    /// pointer.
    fn parameters(
        &self,
        types: &mut Types,
        source: &Source<'_>,
    ) -> Vec<(Location, Map<String, Value>, String)> {
        let mut found: Vec<(Location, Map<String, Value>, String)> = Vec::new();
        let lists = [
            (
                source.item.get("parameters"),
                format!(
                    "{}/parameters",
                    source.pointer.rsplit_once('/').map_or("", |p| p.0)
                ),
            ),
            (
                source.operation.get("parameters"),
                format!("{}/parameters", source.pointer),
            ),
        ];
        for (list, at) in lists {
            for (i, param) in list
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .enumerate()
            {
                let Some((param, reference)) = resolve(self.document, param) else {
                    gap(
                        types,
                        &format!("{}, `{at}/{i}`", source.label),
                        "its `$ref` points at nothing here; left out",
                    );
                    continue;
                };
                let pointer = if reference.is_empty() {
                    format!("{at}/{i}")
                } else {
                    reference
                };
                let Some(param) = param.as_object() else {
                    continue;
                };
                let location = match param.get("in").and_then(Value::as_str) {
                    Some("path") => Location::Path,
                    Some("query") => Location::Query,
                    Some("header") => Location::Header,
                    Some("cookie") => Location::Cookie,
                    _ => continue,
                };
                let name = param.get("name");
                found.retain(|(l, p, _)| !(*l == location && p.get("name") == name));
                found.push((location, param.clone(), pointer));
            }
        }
        found.sort_by_key(|(location, _, _)| match location {
            Location::Path => 0,
            Location::Query => 1,
            Location::Header => 2,
            Location::Cookie => 3,
        });
        found
    }

    /// A parameter name not taken yet: `wire`, else `wire_location` (reported).
    fn unique(
        &self,
        types: &mut Types,
        label: &str,
        pointer: &str,
        inputs: &[Input],
        wire: &str,
        location: &str,
    ) -> String {
        let taken = |n: &str| inputs.iter().any(|i| i.name == n);
        if !taken(wire) {
            return wire.to_owned();
        }
        let base = format!("{wire}_{location}");
        let mut name = base.clone();
        let mut n = 2;
        while taken(&name) {
            name = format!("{base}{n}");
            n += 1;
        }
        gap(
            types,
            &format!("{label}, `{pointer}`"),
            format!(
                "`{wire}` ({location}) has the name of another parameter of the operation; the tool's parameter is `{name}`"
            ),
        );
        name
    }

    /// The request body's parameters (added to `inputs`) and binding; `Err` when the
    /// operation is left out (a multipart body, reported).
    fn body(
        &self,
        types: &mut Types,
        source: &Source<'_>,
        inputs: &mut Vec<Input>,
    ) -> Result<Option<Body>, ()> {
        let Some(body) = source.operation.get("requestBody") else {
            return Ok(None);
        };
        let label = &source.label;
        let Some((body, reference)) = resolve(self.document, body) else {
            gap(
                types,
                label,
                "the request body's `$ref` points at nothing here; left out",
            );
            return Ok(None);
        };
        let pointer = if reference.is_empty() {
            format!("{}/requestBody", source.pointer)
        } else {
            reference
        };
        let required = body.get("required") == Some(&Value::Bool(true));
        let content = body
            .get("content")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        let chosen = content
            .iter()
            .find(|(m, _)| is_json(m))
            .or_else(|| {
                content
                    .iter()
                    .find(|(m, _)| m.starts_with("application/x-www-form-urlencoded"))
            })
            .or_else(|| content.iter().find(|(m, _)| !m.starts_with("multipart/")));
        let Some((media, media_type)) = chosen else {
            if content.is_empty() {
                return Ok(None);
            }
            gap(
                types,
                &format!("{label}, `{pointer}`"),
                "a multipart body is not forwarded; the operation is left out",
            );
            return Err(());
        };
        let at = format!("{pointer}/content/{}/schema", escape(media));
        let description = body.get("description").and_then(Value::as_str);
        let form = media.starts_with("application/x-www-form-urlencoded");
        if !is_json(media) && !form {
            // Bytes, or text: the whole body as one parameter.
            let schema = if media.starts_with("text/") {
                json!({"type": "string", POINTER: at})
            } else {
                json!({"type": "string", "contentEncoding": "base64", POINTER: at})
            };
            let schema = described(schema, description, None, false);
            let name = self.unique(types, label, &pointer, inputs, "body", "body");
            inputs.push(Input {
                name: name.clone(),
                schema,
                required,
            });
            return Ok(Some(Body {
                media_type: media.clone(),
                required,
                content: BodyContent::Value(name),
            }));
        }
        let raw = media_type.get("schema").cloned().unwrap_or(json!({}));
        let schema = self.schemas.normalize(&raw, Mode::Request, &at);
        // An object of known members: flattened into the tool's parameters.
        let object = match schema.get("$ref").and_then(Value::as_str) {
            Some(reference) if schema.get("anyOf").is_none() => reference
                .strip_prefix("#/$defs/")
                .and_then(|key| self.schemas.defs.get(key))
                .cloned(),
            _ => Some(schema.clone()),
        };
        // An object, or a nullable one (whose `null` a tool's parameters cannot send: a call
        // sends the members it has).
        let is_object = |o: &Value| match o.get("type") {
            Some(Value::String(t)) => t == "object",
            Some(Value::Array(ts)) => {
                ts.iter().any(|t| t == "object") && ts.iter().all(|t| t == "object" || t == "null")
            }
            _ => false,
        };
        let flat = object.as_ref().filter(|o| {
            is_object(o)
                && o.get("properties")
                    .is_some_and(|p| p.as_object().is_some_and(|p| !p.is_empty()))
                && !["oneOf", "anyOf", "allOf", "not", "if"]
                    .iter()
                    .any(|k| o.get(*k).is_some())
        });
        if let Some(object) = flat {
            let members: Vec<String> =
                super::types::required_set(object.as_object().unwrap_or(&Map::new()));
            if matches!(
                object.get("additionalProperties"),
                Some(Value::Bool(true) | Value::Object(_))
            ) {
                gap(
                    types,
                    &format!("{label}, `{at}`"),
                    "the body takes members beyond its properties, which the tool's parameters cannot hold; they are refused",
                );
            }
            if !required && !members.is_empty() {
                gap(
                    types,
                    &format!("{label}, `{pointer}`"),
                    "the body is optional: its required members are optional parameters (a body with only some of them is sent as it is)",
                );
            }
            let mut fields = Vec::new();
            for (member, property) in object["properties"].as_object().into_iter().flatten() {
                let name = self.unique(types, label, &pointer, inputs, member, "body");
                inputs.push(Input {
                    name: name.clone(),
                    schema: property.clone(),
                    required: required && members.contains(member),
                });
                fields.push((name, member.clone()));
            }
            return Ok(Some(Body {
                media_type: media.clone(),
                required,
                content: BodyContent::Fields(fields),
            }));
        }
        let schema = described(schema, description, None, false);
        let name = self.unique(types, label, &pointer, inputs, "body", "body");
        inputs.push(Input {
            name: name.clone(),
            schema,
            required,
        });
        Ok(Some(Body {
            media_type: media.clone(),
            required,
            content: BodyContent::Value(name),
        }))
    }

    /// The success response: its schema (rooted) for a JSON one, how it is read, its status
    /// and media type.
    fn response(
        &self,
        types: &mut Types,
        source: &Source<'_>,
    ) -> (Option<Value>, Read, String, Option<String>) {
        let responses = source
            .operation
            .get("responses")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        let success = ["200", "201", "202", "203", "206", "204", "205"]
            .iter()
            .find(|s| responses.contains_key(**s))
            .map(|s| (*s).to_owned())
            .or_else(|| {
                responses
                    .keys()
                    .find(|k| k.starts_with('2') || k.eq_ignore_ascii_case("2XX"))
                    .cloned()
            })
            .or_else(|| {
                responses
                    .contains_key("default")
                    .then(|| "default".to_owned())
            });
        let Some(status) = success else {
            gap(
                types,
                &source.label,
                "no success response is described; the result is the response's JSON, unchecked (`json`)",
            );
            return (None, Read::Json, "2XX".into(), None);
        };
        let Some((response, reference)) = resolve(self.document, &responses[&status]) else {
            return (None, Read::Json, status, None);
        };
        let pointer = if reference.is_empty() {
            format!("{}/responses/{}", source.pointer, escape(&status))
        } else {
            reference
        };
        let content = response
            .get("content")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        if content.is_empty() {
            return (None, Read::Nothing, status, None);
        }
        if let Some((media, media_type)) = content.iter().find(|(m, _)| is_json(m)) {
            let at = format!("{pointer}/content/{}/schema", escape(media));
            let media = Some(media.clone());
            let Some(raw) = media_type.get("schema") else {
                return (None, Read::Json, status, media);
            };
            let schema = self.schemas.normalize(raw, Mode::Response, &at);
            return (Some(self.schemas.rooted(schema)), Read::Json, status, media);
        }
        let media = content.keys().next().cloned().unwrap_or_default();
        let read = if media.starts_with("text/") || media.contains("xml") {
            Read::Text
        } else {
            Read::Bytes
        };
        (None, read, status, Some(media))
    }

    /// The operation's security alternatives (its own, else the document's).
    fn security(&self, source: &Source<'_>) -> Vec<Vec<String>> {
        let security = source
            .operation
            .get("security")
            .or_else(|| self.document.get("security"));
        security
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_object)
            .map(|requirement| requirement.keys().cloned().collect())
            .collect()
    }
}

/// `{}`: a JSON result with no schema.
static JSON: Value = Value::Bool(true);

/// A media type that is JSON: `application/json`, `…+json`, `application/json; charset=…`.
fn is_json(media: &str) -> bool {
    let media = media.split(';').next().unwrap_or(media).trim();
    media == "application/json" || media.ends_with("+json")
}

fn text<'a>(object: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    object.get(key).and_then(Value::as_str)
}

/// A parameter's description, example and deprecation on its schema, where the importer
/// reads them.
fn described(
    mut schema: Value,
    description: Option<&str>,
    example: Option<&Value>,
    deprecated: bool,
) -> Value {
    let Some(object) = schema.as_object_mut() else {
        return schema;
    };
    let own = object
        .get("description")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let text = description.map(str::trim_end).or(own.as_deref());
    if let Some(line) = examples_line(text, example) {
        object.insert("description".into(), Value::from(line));
    }
    if deprecated {
        object.insert("deprecated".into(), Value::Bool(true));
    }
    schema
}

/// The hints a method gives: `GET` reads, `PUT` and `DELETE` may be repeated, `DELETE`
/// destroys, `POST` adds.
fn annotations(method: &str) -> Value {
    match method {
        "get" | "head" | "options" | "trace" => {
            json!({"readOnlyHint": true, "idempotentHint": true})
        }
        "put" => json!({"destructiveHint": true, "idempotentHint": true}),
        "delete" => json!({"destructiveHint": true, "idempotentHint": true}),
        "post" => json!({"destructiveHint": false}),
        _ => json!({"destructiveHint": true}),
    }
}

/// The tool names a document's operations get, for tests.
#[cfg(test)]
fn names_of(document: &Value) -> std::collections::BTreeSet<String> {
    let imported = import(document, None, "api", "Api", &Filter::default()).unwrap();
    imported
        .binding
        .operations
        .into_iter()
        .map(|o| o.tool)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_names_are_snake_case_operation_ids_or_method_and_path() {
        assert_eq!(
            tool_base_name(Some("getPetById"), "get", "/x"),
            "get_pet_by_id"
        );
        assert_eq!(
            tool_base_name(Some("repos/list-for-org"), "get", "/x"),
            "repos_list_for_org"
        );
        assert_eq!(tool_base_name(None, "get", "/pets/{id}"), "get_pets_id");
        assert_eq!(tool_base_name(Some("2fa"), "post", "/x"), "post_2fa");
    }

    #[test]
    fn globs() {
        assert!(glob("pets*", "pets_list"));
        assert!(glob("*pet*", "get_pet_by_id"));
        assert!(!glob("pet", "pets"));
        assert!(glob("*", ""));
    }

    #[test]
    fn colliding_names_are_numbered() {
        let doc = json!({"openapi": "3.1.0", "paths": {
            "/a": {"get": {"operationId": "list", "responses": {"204": {"description": "ok"}}}},
            "/b": {"get": {"operationId": "List", "responses": {"204": {"description": "ok"}}}},
        }});
        assert_eq!(
            names_of(&doc),
            ["list".to_owned(), "list_2".to_owned()]
                .into_iter()
                .collect()
        );
    }
}
