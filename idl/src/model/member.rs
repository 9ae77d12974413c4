//! Services and their members: one [`Member`] type for every kind (tools, resources,
//! resource templates, prompts), what only one kind has in its [`MemberKind`].
//!
//! A new kind of member is a new [`MemberKind`] variant (and [`Keyword`], when it is declared
//! with a keyword of its own) carrying what is particular to it; what every member has
//! (names, docs, parameters, result, scopes) stays on [`Member`].

use std::fmt;

use serde::{Deserialize, Serialize};

use super::{Field, Returns};

/// A resolved `service`: its tools, resources and prompts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(into = "super::wire::Service", from = "super::wire::Service")]
pub struct Service {
    /// The name as declared.
    pub name: String,
    /// Doc comment lines as written (after `///`, one leading space removed).
    pub doc: Vec<String>,
    /// The members grouped by [`Keyword`] in its order (the tools, then the resources and
    /// resource templates, then the prompts: the order of the generated trait, the listings
    /// and `toolidl diff`), each group in declaration order.
    pub members: Vec<Member>,
}

impl Service {
    /// The tools, in declaration order, each with what only a tool has.
    pub fn tools(&self) -> impl Iterator<Item = (&Member, &Tool)> {
        self.members.iter().filter_map(|m| Some((m, m.tool()?)))
    }

    /// The resources and resource templates, in declaration order, each with its URI.
    pub fn resources(&self) -> impl Iterator<Item = (&Member, &Resource)> {
        self.members.iter().filter_map(|m| Some((m, m.resource()?)))
    }

    /// The prompts, in declaration order.
    pub fn prompts(&self) -> impl Iterator<Item = &Member> {
        self.members_of(Keyword::Prompt)
    }

    /// The members declared with `keyword`, in declaration order.
    pub fn members_of(&self, keyword: Keyword) -> impl Iterator<Item = &Member> {
        self.members
            .iter()
            .filter(move |m| m.kind.keyword() == keyword)
    }
}

/// A member of a service: a tool, a resource, a resource template or a prompt.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    /// The name as declared (`get_weather`, `GetDocketAsync`); generators derive identifiers
    /// from it.
    pub ident: String,
    /// The wire name: `@name`, else for a tool `ident` in snake_case without a trailing
    /// `Async`, for the others `ident` as declared.
    pub name: String,
    /// `title`: `@title("…")` (a tool's is also its annotations' title, see
    /// [`Annotations::title`]), or a tool's `@title(tool: "…")`.
    pub title: Option<String>,
    /// Doc comment lines as written (after `///`, one leading space removed).
    pub doc: Vec<String>,
    /// `@description`, else the doc comment, whitespace collapsed.
    pub description: Option<String>,
    /// The parameters, in order: a tool's (spreads expanded in place), a resource
    /// template's variables or a prompt's arguments (each of a text-like type); a resource
    /// with a fixed URI has none.
    pub params: Vec<Field>,
    /// What calling, reading or getting it returns.
    pub returns: Returns,
    /// `@scopes(…)`, else its service's: the OAuth scopes a client's token must hold to use
    /// it (all of them); empty when none is needed.
    pub scopes: Vec<String>,
    /// Which kind of member it is, and what only that kind has.
    pub kind: MemberKind,
}

impl Member {
    /// What only a tool has, when it is one.
    pub fn tool(&self) -> Option<&Tool> {
        match &self.kind {
            MemberKind::Tool(tool) => Some(tool),
            _ => None,
        }
    }

    /// The URI and MIME type of a resource or resource template, when it is one.
    pub fn resource(&self) -> Option<&Resource> {
        match &self.kind {
            MemberKind::Resource(r) | MemberKind::Template(r) => Some(r),
            _ => None,
        }
    }

    /// True for a resource template (a `@uri` with `{variables}`).
    pub fn is_template(&self) -> bool {
        matches!(self.kind, MemberKind::Template(_))
    }
}

/// Which kind of member, and what is particular to it.
#[derive(Debug, Clone, PartialEq)]
pub enum MemberKind {
    /// A `tool`.
    Tool(Tool),
    /// A `resource` with a fixed URI (listed by `resources/list`).
    Resource(Resource),
    /// A `resource` whose URI is an RFC 6570 template (listed by `resources/templates/list`).
    Template(Resource),
    /// A `prompt`.
    Prompt,
}

impl MemberKind {
    /// The keyword that declares it.
    pub fn keyword(&self) -> Keyword {
        match self {
            MemberKind::Tool(_) => Keyword::Tool,
            MemberKind::Resource(_) | MemberKind::Template(_) => Keyword::Resource,
            MemberKind::Prompt => Keyword::Prompt,
        }
    }
}

/// The keyword that declares a member. The members of one keyword share a namespace (a tool
/// and a prompt may have one name, two tools may not); services group their members in this
/// order. Displayed as the keyword (`tool`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Keyword {
    /// `tool`.
    Tool,
    /// `resource`: resources and resource templates.
    Resource,
    /// `prompt`.
    Prompt,
}

impl Keyword {
    /// Every keyword, in order.
    pub const ALL: [Keyword; 3] = [Keyword::Tool, Keyword::Resource, Keyword::Prompt];

    /// The keyword as written: `tool`, `resource` or `prompt`.
    pub fn as_str(self) -> &'static str {
        match self {
            Keyword::Tool => "tool",
            Keyword::Resource => "resource",
            Keyword::Prompt => "prompt",
        }
    }
}

impl fmt::Display for Keyword {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What only a tool has.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tool {
    /// Its behaviour hints.
    pub annotations: Annotations,
    /// `@ui`: the MCP Apps resource that renders it.
    pub ui: Option<Ui>,
    /// `@task`: the tool can run as a task (the MCP tasks extension).
    pub task: Option<TaskMode>,
    /// `@open`: arguments the tool does not declare are accepted (and ignored), as many
    /// servers' schemas allow; its `inputSchema` has no `additionalProperties: false`.
    pub open: bool,
    /// `execution.taskSupport` as the listing states it, from
    /// `@execution(task_support: forbidden | optional | required)`. `None` lists no
    /// `execution` (what a plain `@task` does).
    pub task_support: Option<TaskSupport>,
    /// `@schema_dialect("…")` of the tool, else of its service, else of its file's package:
    /// the `$schema` written first in its `inputSchema` and `outputSchema`.
    pub schema_dialect: Option<String>,
    /// `@text(…)`: the text block sent beside its structured content, when it is not the
    /// result's JSON (the default). Only on a tool whose result is a record or a map.
    pub text: Option<ResultText>,
}

/// `@text(…)` of a tool: what its text block holds beside the structured content.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ResultText {
    /// `@text("…")`: a fixed sentence, or a template over the result's fields
    /// (`"Created {count} entities"`), in order.
    Template {
        /// The literal text and the fields written into it, in order.
        parts: Vec<TextPart>,
    },
    /// `@text(pretty)`: the result's JSON laid out as `JSON.stringify(value, null, 2)`;
    /// `@text(pretty: field)`: one field's JSON, so laid out.
    Pretty {
        /// The field (its declared name), or `None` for the whole result.
        field: Option<String>,
    },
    /// `@text(handler)`: the handler returns its result with an optional text of its own,
    /// chosen per call (its JSON when it gives none).
    Handler,
}

impl ResultText {
    /// The attribute as written in a `.tool` file: `@text(pretty: entities)`.
    pub fn attribute(&self) -> String {
        match self {
            ResultText::Template { parts } => {
                let mut text = String::new();
                for part in parts {
                    match part {
                        TextPart::Text(t) => {
                            text.push_str(&t.replace('{', "{{").replace('}', "}}"))
                        }
                        TextPart::Field(f) => {
                            text.push('{');
                            text.push_str(f);
                            text.push('}');
                        }
                    }
                }
                format!("@text({text:?})")
            }
            ResultText::Pretty { field: None } => "@text(pretty)".into(),
            ResultText::Pretty { field: Some(f) } => format!("@text(pretty: {f})"),
            ResultText::Handler => "@text(handler)".into(),
        }
    }
}

/// A piece of a `@text("…")` template.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TextPart {
    /// Text as written (`{{` and `}}` already read as `{` and `}`).
    Text(String),
    /// `{field}`: the value of the result's field of that declared name.
    Field(String),
}

/// What only a resource or resource template has.
#[derive(Debug, Clone, PartialEq)]
pub struct Resource {
    /// `@uri`: a URI, or an RFC 6570 template when it has `{variables}`.
    pub uri: String,
    /// `@mime`, if given.
    pub mime_type: Option<String>,
    /// `@csp`, `@permissions`, `@domain`, `@prefers_border`: an MCP Apps view's `_meta.ui`
    /// (a `ui://` resource only), listed and sent with its content.
    pub ui: Option<ResourceUi>,
}

/// The MCP Apps metadata of a view (a `ui://` resource): its `_meta.ui`, which the Apps
/// extension (2026-01-26) puts both on its `resources/list` entry and on the content
/// `resources/read` returns. `None` members are not written.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResourceUi {
    /// `@csp(…)`: the origins the view may reach (`ui.csp`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub csp: Option<Csp>,
    /// `@permissions(…)`: the browser capabilities the view asks for (`ui.permissions`), in
    /// the order written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permissions: Option<Vec<Permission>>,
    /// `@domain("…")`: a dedicated sandbox origin (`ui.domain`), in the host's format.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub domain: Option<String>,
    /// `@prefers_border` or `@prefers_border(false)` (`ui.prefersBorder`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prefers_border: Option<bool>,
}

/// `@csp(connect_domains: […], resource_domains: […], frame_domains: […], base_uri_domains:
/// […])`: `ui.csp`'s origin lists, each `None` when not given (an empty list is written).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Csp {
    /// `connectDomains`: fetch, XHR and WebSocket origins (`connect-src`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub connect_domains: Option<Vec<String>>,
    /// `resourceDomains`: images, scripts, styles, fonts and media (`img-src`, `script-src`…).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_domains: Option<Vec<String>>,
    /// `frameDomains`: nested iframes (`frame-src`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame_domains: Option<Vec<String>>,
    /// `baseUriDomains`: the document's base URIs (`base-uri`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_uri_domains: Option<Vec<String>>,
}

impl Csp {
    /// The lists as the listing names them (`connectDomains`…), with the argument of `@csp`
    /// that gives each (`connect_domains`…), in the specification's order.
    pub fn lists(&self) -> [(&'static str, &'static str, Option<&Vec<String>>); 4] {
        [
            (
                "connectDomains",
                "connect_domains",
                self.connect_domains.as_ref(),
            ),
            (
                "resourceDomains",
                "resource_domains",
                self.resource_domains.as_ref(),
            ),
            ("frameDomains", "frame_domains", self.frame_domains.as_ref()),
            (
                "baseUriDomains",
                "base_uri_domains",
                self.base_uri_domains.as_ref(),
            ),
        ]
    }
}

/// A browser capability a view asks for (`ui.permissions`, Permission Policy features).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Permission {
    /// `camera`.
    Camera,
    /// `microphone`.
    Microphone,
    /// `geolocation`.
    Geolocation,
    /// `clipboard_write`, listed `clipboardWrite`.
    ClipboardWrite,
}

impl Permission {
    /// Every permission, in the specification's order.
    pub const ALL: [Permission; 4] = [
        Permission::Camera,
        Permission::Microphone,
        Permission::Geolocation,
        Permission::ClipboardWrite,
    ];

    /// The word `@permissions` takes: `clipboard_write`.
    pub fn word(self) -> &'static str {
        match self {
            Permission::Camera => "camera",
            Permission::Microphone => "microphone",
            Permission::Geolocation => "geolocation",
            Permission::ClipboardWrite => "clipboard_write",
        }
    }

    /// The key of `ui.permissions`: `clipboardWrite`.
    pub fn key(self) -> &'static str {
        match self {
            Permission::ClipboardWrite => "clipboardWrite",
            other => other.word(),
        }
    }
}

/// How a `@task` tool runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskMode {
    /// `@task` or `@task(optional)`: a task when the client asks for one, else a plain call.
    Optional,
    /// `@task(required)`: only as a task.
    Required,
}

/// The value of a listed `execution.taskSupport` (MCP 2025-11-25's `ToolExecution`; absent
/// means `forbidden`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskSupport {
    /// `"forbidden"`: the tool cannot be called as a task.
    Forbidden,
    /// `"optional"`: it may be.
    Optional,
    /// `"required"`: it must be.
    Required,
}

impl TaskSupport {
    /// The value as listed: `forbidden`, `optional` or `required`.
    pub fn as_str(self) -> &'static str {
        match self {
            TaskSupport::Forbidden => "forbidden",
            TaskSupport::Optional => "optional",
            TaskSupport::Required => "required",
        }
    }
}

/// Behaviour hints; each is `Some` only when an attribute assigns it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Annotations {
    /// `annotations.title`: `@title("…")` (which also sets the tool's own title) or
    /// `@title(annotations: "…")`.
    pub title: Option<String>,
    /// `@read_only`: the tool does not change its environment.
    pub read_only: Option<bool>,
    /// `@destructive`: the tool may change or delete what exists.
    pub destructive: Option<bool>,
    /// `@idempotent`: calling it again with the same arguments has no further effect.
    pub idempotent: Option<bool>,
    /// `@open_world`: the tool reaches outside entities (the web, other systems).
    pub open_world: Option<bool>,
}

/// `@ui("ui://…", visibility: [...])` or `@ui(visibility: [...])`: MCP Apps metadata.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ui {
    /// The `ui://` resource's URI: the view that renders the tool's results. `None` for a
    /// tool without a view of its own (`@ui(visibility: ["app"])`, one its app calls).
    pub resource_uri: Option<String>,
    /// `None` when not given (both, by default); else `model` and/or `app`.
    pub visibility: Option<Vec<String>>,
}
