//! Hover: a declaration's doc comment, what a type name resolves to, and the JSON Schema an
//! agent is shown for it (a tool's whole listing entry, a parameter's property); for an
//! attribute, what it does.

use lsp_types::{Hover, HoverContents, MarkupContent, MarkupKind};
use serde_json::{Map, Value};
use toolidl::ast::{self, Attribute, FieldDecl, Item, MemberDecl, Span};
use toolidl::model::{
    Constraints, DefKind, Field, Member, MemberKind, Model, Returns, Tool, Type, TypeDef,
};
use toolidl_codegen::{Listing, SchemaOptions, input_schema};

use super::analysis::Analysis;
use super::attributes;
use super::index::{FileIndex, Indexes, dotted};

/// The hover at `offset` of the file `key`, whose latest compile is `analysis`.
pub fn hover(
    indexes: &mut Indexes<'_>,
    analysis: Option<&Analysis>,
    key: &str,
    offset: usize,
) -> Option<Hover> {
    let file = indexes.get(key)?;
    let file = &*file;
    let ast = file.ast.as_ref()?;
    let model = analysis.and_then(Analysis::model);
    let (span, text) = if let Some(attr) = attribute_at(ast, offset) {
        let doc = attributes::find(&attr.name.name)?;
        (attr.name.span, doc.markdown())
    } else if let Some(r) = file.ref_at(offset).cloned() {
        let text = match indexes.resolve(key, &r.path) {
            Some(target) => {
                let decl_file = indexes.declaration(&target)?;
                let own;
                // While this file has errors, an imported type's schema comes from a
                // compile of the file that declares it.
                let model = match model {
                    None if target.key != key => {
                        own = declaring_model(indexes, &target.key);
                        own.as_ref()
                    }
                    _ => model,
                };
                type_hover(&decl_file, decl_file.type_decl(&target.name)?, model)
            }
            None => primitive_hover(&dotted(&r.path))?,
        };
        (r.span, text)
    } else if let Some(item) = file.decl_at(offset) {
        let text = match item {
            Item::Service(s) => format!(
                "```tool\nservice {}\n```{}",
                s.name.name,
                doc_section(&s.doc)
            ),
            _ => type_hover(file, item, model),
        };
        (item.name().span, text)
    } else if let Some((service, member, param)) = member_at(ast, offset) {
        let (span, text) = match param {
            Some(p) => (p.name.span, param_hover(file, service, member, p, analysis)),
            None => (member.name.span, member_hover(service, member, analysis)),
        };
        (span, text)
    } else if let Some((record, field)) = field_at(ast, offset) {
        (field.name.span, field_hover(file, record, field, model))
    } else {
        return None;
    };
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: text,
        }),
        range: Some(file.lines.range(&file.text, span)),
    })
}

fn contains(span: Span, offset: usize) -> bool {
    span.start <= offset && offset <= span.end
}

/// Every attribute of the file, wherever written.
pub fn all_attributes(ast: &ast::File) -> Vec<&Attribute> {
    let mut out: Vec<&Attribute> = Vec::new();
    if let Some(p) = &ast.package {
        out.extend(&p.attrs);
    }
    for import in &ast.imports {
        out.extend(&import.attrs);
    }
    for item in &ast.items {
        match item {
            Item::Record(r) => {
                out.extend(&r.attrs);
                r.fields.iter().for_each(|f| out.extend(&f.attrs));
            }
            Item::Enum(e) => {
                out.extend(&e.attrs);
                e.variants.iter().for_each(|v| out.extend(&v.attrs));
            }
            Item::Union(u) => {
                out.extend(&u.attrs);
                u.variants.iter().for_each(|v| out.extend(&v.attrs));
            }
            Item::Alias(a) => {
                out.extend(&a.attrs);
                out.extend(&a.type_attrs);
            }
            Item::Service(s) => {
                out.extend(&s.attrs);
                for m in &s.members {
                    out.extend(&m.attrs);
                    m.params.iter().for_each(|p| out.extend(&p.attrs));
                }
            }
        }
    }
    out
}

fn attribute_at(ast: &ast::File, offset: usize) -> Option<&Attribute> {
    all_attributes(ast)
        .into_iter()
        .find(|a| contains(a.name.span, offset))
}

/// The member whose name (or one of whose parameters' names) is at `offset`.
pub fn member_at(
    ast: &ast::File,
    offset: usize,
) -> Option<(&ast::ServiceDecl, &MemberDecl, Option<&FieldDecl>)> {
    for item in &ast.items {
        let Item::Service(s) = item else { continue };
        for m in &s.members {
            if contains(m.name.span, offset) {
                return Some((s, m, None));
            }
            if let Some(p) = m.params.iter().find(|p| contains(p.name.span, offset)) {
                return Some((s, m, Some(p)));
            }
        }
    }
    None
}

fn field_at(ast: &ast::File, offset: usize) -> Option<(&ast::RecordDecl, &FieldDecl)> {
    ast.items.iter().find_map(|item| match item {
        Item::Record(r) => r
            .fields
            .iter()
            .find(|f| contains(f.name.span, offset))
            .map(|f| (r, f)),
        _ => None,
    })
}

fn doc_section(doc: &ast::Doc) -> String {
    if doc.lines.is_empty() {
        String::new()
    } else {
        format!("\n\n{}", doc.lines.join("\n"))
    }
}

fn json_block(title: &str, value: &Value) -> String {
    let text = serde_json::to_string_pretty(value).unwrap_or_default();
    format!("\n\n{title}:\n```json\n{text}\n```")
}

const NO_SCHEMA: &str = "\n\n_No JSON Schema while the file has errors._";

fn kind_word(item: &Item) -> &'static str {
    match item {
        Item::Record(_) => "record",
        Item::Enum(_) => "enum",
        Item::Union(_) => "union",
        Item::Alias(_) => "type",
        Item::Service(_) => "service",
    }
}

/// A record, enum, union or named type: its header, doc, and its schema where used.
fn type_hover(file: &FileIndex, item: &Item, model: Option<&Model>) -> String {
    let name = &item.name().name;
    let header = match item {
        Item::Alias(a) => format!(
            "type {name} = {}",
            file.text
                .get(a.span.start..a.span.end)
                .and_then(|t| t
                    .split_once('=')
                    .map(|(_, rhs)| rhs.trim().trim_end_matches(';').trim()))
                .unwrap_or_default()
        ),
        _ => format!("{} {name}", kind_word(item)),
    };
    let doc = match item {
        Item::Record(r) => &r.doc,
        Item::Enum(e) => &e.doc,
        Item::Union(u) => &u.doc,
        Item::Alias(a) => &a.doc,
        Item::Service(s) => &s.doc,
    };
    let mut text = format!(
        "```tool\n{header}\n```\npackage `{}`{}",
        file.package,
        doc_section(doc)
    );
    match model.and_then(|m| named_schema(m, &file.package, name)) {
        Some(schema) => text.push_str(&json_block("JSON Schema where it is used", &schema)),
        None if model.is_none() => text.push_str(NO_SCHEMA),
        None => {}
    }
    text
}

/// The model of the file `key` compiled on its own (`None` when it has errors).
fn declaring_model(indexes: &Indexes<'_>, key: &str) -> Option<Model> {
    let workspace = indexes.workspace();
    let text = workspace.read(key).ok()?;
    toolidl::compile(workspace, workspace.source_id(key), text).model
}

/// What a built-in type name maps to.
fn primitive_hover(name: &str) -> Option<String> {
    let fragment = match name {
        "bool" => r#"{"type": "boolean"}"#,
        "string" => r#"{"type": "string"}"#,
        "char" => r#"{"type": "string", "minLength": 1, "maxLength": 1}"#,
        "i8" | "i16" | "i32" | "i64" | "u8" | "u16" | "u32" | "u64" => {
            r#"{"type": "integer", with the type's bounds}"#
        }
        "integer" => r#"{"type": "integer"} (no bounds; an i128 in Rust)"#,
        "f32" | "f64" => r#"{"type": "number"}"#,
        "uuid" => r#"{"type": "string", "format": "uuid"}"#,
        "datetime" => r#"{"type": "string", "format": "date-time"}"#,
        "date" => r#"{"type": "string", "format": "date"}"#,
        "time" => r#"{"type": "string", "format": "time"}"#,
        "duration" => r#"{"type": "string", "pattern": …}"#,
        "bytes" => r#"{"type": "string", "contentEncoding": "base64"}"#,
        "uri" => r#"{"type": "string", "format": "uri"}"#,
        "json" => "{} (any JSON value)",
        "object" => r#"{"type": "object"}"#,
        "array" => r#"{"type": "array"}"#,
        "list" => r#"{"type": "array", "items": …}"#,
        "set" => r#"{"type": "array", "items": …, "uniqueItems": true}"#,
        "map" => r#"{"type": "object", "additionalProperties": …}"#,
        "content" => "a list of MCP content blocks (a result only)",
        "call_result" => "a whole MCP tool call result (a result only)",
        _ => return None,
    };
    Some(format!(
        "```tool\n{name}\n```\nbuilt-in type\n\nJSON Schema: `{fragment}`"
    ))
}

/// A synthetic tool with one required parameter `value` of type `ty`: its `inputSchema`'s
/// property is the type's schema wherever a field or parameter has it.
fn probe_schema(model: &Model, ty: Type, constraints: Constraints) -> Option<Value> {
    let tool = Member {
        ident: "probe".into(),
        name: "probe".into(),
        title: None,
        doc: Vec::new(),
        description: None,
        params: vec![Field {
            name: "value".into(),
            json_name: "value".into(),
            doc: Vec::new(),
            description: None,
            ty,
            default: None,
            required: true,
            constraints,
        }],
        returns: Returns::Nothing,
        scopes: Vec::new(),
        kind: MemberKind::Tool(Tool::default()),
    };
    let schema = input_schema(model, &tool, &SchemaOptions::default()).ok()?;
    let mut fragment = schema.get("properties")?.get("value")?.clone();
    if let (Some(defs), Some(object)) = (schema.get("$defs"), fragment.as_object_mut()) {
        object.insert("$defs".into(), defs.clone());
    }
    Some(fragment)
}

/// The schema of the record, enum, union or named type `package.name` of `model`.
fn named_schema(model: &Model, package: &str, name: &str) -> Option<Value> {
    let def = model.lookup(package, name)?;
    let kind = match def {
        TypeDef::Record(_) => DefKind::Record,
        TypeDef::Enum(_) => DefKind::Enum,
        TypeDef::Union(_) => DefKind::Union,
        TypeDef::Alias(a) => return probe_schema(model, a.ty.clone(), a.constraints.clone()),
    };
    let ty = Type::Named {
        package: package.into(),
        name: name.into(),
        def: kind,
    };
    probe_schema(model, ty, Constraints::default())
}

/// The listing entry of a member, by service and declared name.
fn listing<'a>(analysis: &'a Analysis, service: &str, member: &MemberDecl) -> Option<&'a Listing> {
    let services = &analysis.listings()?.services;
    let s = services.iter().find(|s| s.name == service)?;
    let lists = match member.kind {
        ast::Keyword::Tool => vec![&s.tools],
        ast::Keyword::Resource => vec![&s.resources, &s.resource_templates],
        ast::Keyword::Prompt => vec![&s.prompts],
    };
    lists
        .into_iter()
        .flatten()
        .find(|l| l.ident == member.name.name)
}

fn member_hover(
    service: &ast::ServiceDecl,
    member: &MemberDecl,
    analysis: Option<&Analysis>,
) -> String {
    let mut text = format!(
        "```tool\n{} {}\n```\nservice `{}`{}",
        member.kind,
        member.name.name,
        service.name.name,
        doc_section(&member.doc)
    );
    match analysis.and_then(|a| listing(a, &service.name.name, member)) {
        Some(l) => text.push_str(&json_block("Listing entry (what an agent sees)", &l.entry)),
        None => text.push_str(NO_SCHEMA),
    }
    text
}

fn param_hover(
    file: &FileIndex,
    service: &ast::ServiceDecl,
    member: &MemberDecl,
    param: &FieldDecl,
    analysis: Option<&Analysis>,
) -> String {
    let mut text = value_header(file, param, "parameter");
    let property = analysis.and_then(|a| {
        let entry = &listing(a, &service.name.name, member)?.entry;
        let model = a.model()?;
        let tool = model
            .services
            .iter()
            .find(|s| s.name == service.name.name)?
            .tools()
            .find(|(t, _)| t.ident == member.name.name)
            .map(|(t, _)| t);
        let wire = tool
            .and_then(|t| t.params.iter().find(|p| p.name == param.name.name))
            .map_or(param.name.name.as_str(), |p| p.json_name.as_str());
        let schema = entry.get("inputSchema").unwrap_or(entry);
        Some((
            wire.to_string(),
            schema.get("properties")?.get(wire)?.clone(),
        ))
    });
    push_property(&mut text, property);
    text
}

fn field_hover(
    file: &FileIndex,
    record: &ast::RecordDecl,
    field: &FieldDecl,
    model: Option<&Model>,
) -> String {
    let mut text = value_header(file, field, &format!("field of `{}`", record.name.name));
    let property = model.and_then(|m| {
        let TypeDef::Record(r) = m.lookup(&file.package, &record.name.name)? else {
            return None;
        };
        let wire = r
            .fields
            .iter()
            .find(|f| f.name == field.name.name)?
            .json_name
            .clone();
        let schema = named_schema(m, &file.package, &record.name.name)?;
        let object = deref(&schema)?;
        Some((wire.clone(), object.get("properties")?.get(&wire)?.clone()))
    });
    push_property(&mut text, property);
    text
}

/// The schema of a property (by its wire name), or why there is none.
fn push_property(text: &mut String, property: Option<(String, Value)>) {
    match property {
        Some((wire, value)) => text.push_str(&json_block(
            &format!("JSON Schema (property `{wire}`)"),
            &value,
        )),
        None => text.push_str(NO_SCHEMA),
    }
}

/// A fragment itself, or the `$defs` entry its `$ref` names.
fn deref(fragment: &Value) -> Option<&Map<String, Value>> {
    match fragment.get("$ref").and_then(Value::as_str) {
        Some(pointer) => {
            let key = pointer.strip_prefix("#/$defs/")?;
            fragment.get("$defs")?.get(key)?.as_object()
        }
        None => fragment.as_object(),
    }
}

/// `name: T = default` as written, and the doc comment.
fn value_header(file: &FileIndex, value: &FieldDecl, what: &str) -> String {
    let written = file
        .text
        .get(value.name.span.start..value.span.end)
        .unwrap_or(&value.name.name);
    format!("```tool\n{written}\n```\n{what}{}", doc_section(&value.doc))
}
