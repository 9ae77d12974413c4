//! The MCP listings of a model: `tools/list` entries, resources, resource templates and
//! prompts, as JSON values in declaration order.
//!
//! The Rust generator embeds [`Listing::json`] as static strings and `toolidl schema` prints
//! [`Listings::to_pretty_json`], so what a client sees and what the CLI shows are one output.

use serde_json::{Map, Value};
use toolidl::model::{
    Annotations, Field, Member, MemberKind, Model, Resource, ResourceUi, Type, Ui,
};

use crate::hoist::Cycles;
use crate::schema::{
    MCP_APP_MIME, SchemaError, SchemaOptions, input_schema_with, output_schema_with,
};

/// Everything a file lists, per service, in declaration order.
#[derive(Debug, Clone, PartialEq)]
pub struct Listings {
    /// One entry per service, in declaration order.
    pub services: Vec<ServiceListings>,
    /// Notes for the person who wrote the file, not part of any listing: each record whose
    /// `$defs` key got a numeric suffix because another record of its schema has the same
    /// simple name (nothing is renamed silently).
    pub notes: Vec<String>,
}

/// The listings of one service.
#[derive(Debug, Clone, PartialEq)]
pub struct ServiceListings {
    /// The service's declared name.
    pub name: String,
    /// Its `tools/list` entries.
    pub tools: Vec<Listing>,
    /// Resources with a fixed URI.
    pub resources: Vec<Listing>,
    /// Resources whose URI has `{variables}`.
    pub resource_templates: Vec<Listing>,
    /// Its `prompts/list` entries.
    pub prompts: Vec<Listing>,
}

/// One entry of a listing, with the declared identifier it comes from.
#[derive(Debug, Clone, PartialEq)]
pub struct Listing {
    /// The member's name as declared (what the generator derives identifiers from).
    pub ident: String,
    /// The wire name.
    pub name: String,
    /// The listing entry, as the server publishes it.
    pub entry: Value,
}

impl Listing {
    /// The entry as compact JSON, as a generated server embeds it.
    pub fn json(&self) -> String {
        self.entry.to_string()
    }
}

/// Computes every listing of `model`.
pub fn listings(model: &Model, options: &SchemaOptions) -> Result<Listings, SchemaError> {
    let cycles = Cycles::of(model)?;
    let mut notes = Vec::new();
    let mut services = Vec::with_capacity(model.services.len());
    for service in &model.services {
        let mut listed = ServiceListings {
            name: service.name.clone(),
            tools: Vec::new(),
            resources: Vec::new(),
            resource_templates: Vec::new(),
            prompts: Vec::new(),
        };
        for m in &service.members {
            match &m.kind {
                MemberKind::Tool(_) => listed.tools.push(Listing {
                    ident: m.ident.clone(),
                    name: m.name.clone(),
                    entry: tool_entry(model, &cycles, m, options, &mut notes)?,
                }),
                MemberKind::Resource(r) => listed.resources.push(resource_entry(m, r, "uri")),
                MemberKind::Template(r) => {
                    listed
                        .resource_templates
                        .push(resource_entry(m, r, "uriTemplate"))
                }
                MemberKind::Prompt => listed.prompts.push(prompt_entry(m)),
            }
        }
        services.push(listed);
    }
    Ok(Listings { services, notes })
}

/// Selects one kind of listing of a service.
type PickListing = fn(&ServiceListings) -> &Vec<Listing>;

impl Listings {
    /// The object `toolidl schema` prints: `tools` (every service's, in order), then
    /// `resources`, `resourceTemplates` and `prompts`, each only when not empty.
    pub fn document(&self) -> Value {
        let collect = |pick: PickListing| -> Vec<Value> {
            self.services
                .iter()
                .flat_map(|s| pick(s).iter().map(|l| l.entry.clone()))
                .collect()
        };
        let mut document = Map::new();
        document.insert("tools".into(), Value::Array(collect(|s| &s.tools)));
        let optional: [(&str, PickListing); 3] = [
            ("resources", |s| &s.resources),
            ("resourceTemplates", |s| &s.resource_templates),
            ("prompts", |s| &s.prompts),
        ];
        for (key, pick) in optional {
            let entries = collect(pick);
            if !entries.is_empty() {
                document.insert(key.into(), Value::Array(entries));
            }
        }
        Value::Object(document)
    }

    /// [`Listings::document`] pretty-printed (2-space indent) with a trailing newline.
    pub fn to_pretty_json(&self) -> String {
        let mut text =
            serde_json::to_string_pretty(&self.document()).unwrap_or_else(|_| String::from("{}"));
        text.push('\n');
        text
    }
}

/// `{"name","title"?,"description"?,"inputSchema","outputSchema"?,"annotations"?,"execution"?,"_meta"?}`.
fn tool_entry(
    model: &Model,
    cycles: &Cycles,
    tool: &Member,
    options: &SchemaOptions,
    notes: &mut Vec<String>,
) -> Result<Value, SchemaError> {
    let part = tool.tool();
    let mut entry = Map::new();
    entry.insert("name".into(), tool.name.clone().into());
    insert_text(&mut entry, "title", &tool.title);
    if let Some(description) = &tool.description {
        entry.insert("description".into(), description.clone().into());
    }
    entry.insert(
        "inputSchema".into(),
        input_schema_with(model, cycles, tool, options, notes)?,
    );
    if let Some(output) = output_schema_with(model, cycles, tool, options, notes)? {
        entry.insert("outputSchema".into(), output);
    }
    if let Some(annotations) = part.and_then(|t| annotations(&t.annotations)) {
        entry.insert("annotations".into(), annotations);
    }
    if let Some(support) = part.and_then(|t| t.task_support) {
        let mut execution = Map::new();
        execution.insert("taskSupport".into(), support.as_str().into());
        entry.insert("execution".into(), Value::Object(execution));
    }
    if let Some(ui) = part.and_then(|t| t.ui.as_ref()) {
        let mut meta = Map::new();
        meta.insert("ui".into(), ui_meta(ui));
        entry.insert("_meta".into(), Value::Object(meta));
    }
    Ok(Value::Object(entry))
}

/// `annotations.title` (`@title("…")` or `@title(annotations: "…")`) and the hints an
/// attribute assigned.
fn annotations(hints: &Annotations) -> Option<Value> {
    let mut map = Map::new();
    insert_text(&mut map, "title", &hints.title);
    let flags = [
        ("readOnlyHint", hints.read_only),
        ("destructiveHint", hints.destructive),
        ("idempotentHint", hints.idempotent),
        ("openWorldHint", hints.open_world),
    ];
    for (key, value) in flags {
        if let Some(value) = value {
            map.insert(key.into(), value.into());
        }
    }
    (!map.is_empty()).then_some(Value::Object(map))
}

fn ui_meta(ui: &Ui) -> Value {
    let mut map = Map::new();
    if let Some(uri) = &ui.resource_uri {
        map.insert("resourceUri".into(), uri.clone().into());
    }
    if let Some(visibility) = &ui.visibility {
        let values = visibility.iter().cloned().map(Value::String).collect();
        map.insert("visibility".into(), Value::Array(values));
    }
    Value::Object(map)
}

/// A view's `_meta.ui` (MCP Apps 2026-01-26, `UIResourceMeta`): `csp` with its origin lists,
/// `permissions` (`{"camera": {}, …}`, in the order written), `domain`, `prefersBorder`; the
/// listing and the content of `resources/read` carry the same object.
pub fn resource_ui_meta(ui: &ResourceUi) -> Value {
    let mut map = Map::new();
    if let Some(csp) = &ui.csp {
        let mut lists = Map::new();
        for (key, _, origins) in csp.lists() {
            if let Some(origins) = origins {
                let values = origins.iter().cloned().map(Value::String).collect();
                lists.insert(key.into(), Value::Array(values));
            }
        }
        map.insert("csp".into(), Value::Object(lists));
    }
    if let Some(permissions) = &ui.permissions {
        let granted = permissions
            .iter()
            .map(|p| (p.key().to_owned(), Value::Object(Map::new())))
            .collect();
        map.insert("permissions".into(), Value::Object(granted));
    }
    insert_text(&mut map, "domain", &ui.domain);
    if let Some(border) = ui.prefers_border {
        map.insert("prefersBorder".into(), border.into());
    }
    Value::Object(map)
}

/// `{"uri"|"uriTemplate","name","title"?,"description"?,"mimeType"?,"_meta"?}`; `uri_key`
/// says which.
fn resource_entry(resource: &Member, part: &Resource, uri_key: &str) -> Listing {
    let mut entry = Map::new();
    entry.insert(uri_key.into(), part.uri.clone().into());
    entry.insert("name".into(), resource.name.clone().into());
    insert_text(&mut entry, "title", &resource.title);
    insert_text(&mut entry, "description", &resource.description);
    let mime = part.mime_type.clone().or_else(|| {
        part.uri
            .starts_with("ui://")
            .then(|| MCP_APP_MIME.to_owned())
    });
    insert_text(&mut entry, "mimeType", &mime);
    if let Some(ui) = &part.ui {
        let mut meta = Map::new();
        meta.insert("ui".into(), resource_ui_meta(ui));
        entry.insert("_meta".into(), Value::Object(meta));
    }
    Listing {
        ident: resource.ident.clone(),
        name: resource.name.clone(),
        entry: Value::Object(entry),
    }
}

/// `{"name","title"?,"description"?,"arguments":[{"name","description"?,"required"}]}`.
fn prompt_entry(prompt: &Member) -> Listing {
    let mut entry = Map::new();
    entry.insert("name".into(), prompt.name.clone().into());
    insert_text(&mut entry, "title", &prompt.title);
    insert_text(&mut entry, "description", &prompt.description);
    let arguments = prompt.params.iter().map(prompt_argument).collect();
    entry.insert("arguments".into(), Value::Array(arguments));
    Listing {
        ident: prompt.ident.clone(),
        name: prompt.name.clone(),
        entry: Value::Object(entry),
    }
}

/// A prompt argument is required unless it has a default or accepts null: prompt
/// arguments are text, and a client may leave an optional one out.
fn prompt_argument(param: &Field) -> Value {
    let mut argument = Map::new();
    argument.insert("name".into(), param.json_name.clone().into());
    insert_text(&mut argument, "description", &param.description);
    let nullable = matches!(param.ty, Type::Nullable { .. });
    argument.insert("required".into(), (param.required && !nullable).into());
    Value::Object(argument)
}

fn insert_text(map: &mut Map<String, Value>, key: &str, value: &Option<String>) {
    if let Some(value) = value {
        map.insert(key.into(), value.clone().into());
    }
}
