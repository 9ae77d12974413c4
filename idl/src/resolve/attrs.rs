//! Attributes: which exist, where each applies, and what arguments each takes.

use crate::ast::{Attribute, Literal, LiteralKind, Span};
use crate::diagnostics::{Diagnostic, suggest};
use crate::model::{
    Bounds, Csp, Number, Permission, RenamePolicy, ResourceUi, TaskMode, TaskSupport, Ui,
};
use crate::source::FileId;

mod args;

use args::Arg;
pub(crate) use args::{compare, int_number};

/// Where an attribute is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Site {
    Package,
    Import,
    Record,
    Enum,
    Variant,
    Service,
    Field,
    Param,
    Tool,
    Resource,
    Prompt,
    /// Before `type` in `type Name = …;`.
    Alias,
    /// After `=` in `type Name = …;`: the constraints of the named type.
    AliasType,
    Union,
    UnionVariant,
}

impl Site {
    fn words(self) -> &'static str {
        match self {
            Site::Package => "a package declaration",
            Site::Import => "an import",
            Site::Record => "a record",
            Site::Enum => "an enum",
            Site::Variant => "an enum member",
            Site::Service => "a service",
            Site::Field => "a record field",
            Site::Param => "a parameter",
            Site::Tool => "a tool",
            Site::Resource => "a resource",
            Site::Prompt => "a prompt",
            Site::Alias => "a named type",
            Site::AliasType => "the type of a named type",
            Site::Union => "a union",
            Site::UnionVariant => "a union variant",
        }
    }
}

use Site::*;

const MEMBERS: &[Site] = &[Tool, Resource, Prompt];
const VALUES: &[Site] = &[Field, Param];

/// Every attribute: name, the sites it applies to, and its usage.
const SPECS: &[(&str, &[Site], &str)] = &[
    ("name", MEMBERS, "@name(\"wire_name\")"),
    ("title", MEMBERS, "@title(\"Human title\")"),
    (
        "description",
        &[Record, Enum, Field, Param, Tool, Resource, Prompt],
        "@description(\"text\")",
    ),
    (
        "read_only",
        &[Tool],
        "@read_only, @read_only(true) or @read_only(false)",
    ),
    (
        "destructive",
        &[Tool],
        "@destructive, @destructive(true) or @destructive(false)",
    ),
    (
        "idempotent",
        &[Tool],
        "@idempotent, @idempotent(true) or @idempotent(false)",
    ),
    (
        "open_world",
        &[Tool],
        "@open_world, @open_world(true) or @open_world(false)",
    ),
    (
        "ui",
        &[Tool],
        "@ui(\"ui://…\"), @ui(\"ui://…\", visibility: [\"model\", \"app\"]) or @ui(visibility: [\"app\"])",
    ),
    ("uri", &[Resource], "@uri(\"scheme://path/{param}\")"),
    ("mime", &[Resource], "@mime(\"text/plain\")"),
    ("rename_all", &[Record], "@rename_all(\"camelCase\")"),
    ("json_name", VALUES, "@json_name(\"wireName\")"),
    (
        "range",
        VALUES,
        "@range(min, max), @range(min: x) or @range(max: y)",
    ),
    (
        "length",
        VALUES,
        "@length(min, max), @length(min: n) or @length(max: n)",
    ),
    ("pattern", VALUES, "@pattern(\"regex\")"),
    ("email", VALUES, "@email"),
    ("url", VALUES, "@url"),
];

/// More sites for attributes of SPECS. Kept apart, as NEW_SPECS is, so that the help texts
/// of the sites that `lists_base_only` names list the base attributes of SPECS only, at the
/// sites SPECS gives: short lists of the attributes most files use.
const EXTENDED_SITES: &[(&str, &[Site])] = &[
    ("description", &[Alias, Union]),
    ("title", &[Field, Param]),
    ("rename_all", &[Service, Tool]),
    ("range", &[AliasType]),
    ("length", &[AliasType]),
    ("pattern", &[AliasType]),
    ("email", &[AliasType]),
    ("url", &[AliasType]),
];

/// The attributes beyond SPECS, in the same form; left out of the help texts of the sites
/// `lists_base_only` names, unless SPECS has none for the site.
const NEW_SPECS: &[(&str, &[Site], &str)] = &[
    ("value", &[Variant], "@value(\"wire-value\")"),
    ("document_members", &[Enum], "@document_members"),
    ("deprecated", VALUES, "@deprecated"),
    ("open", &[Record, Tool], "@open"),
    ("task", &[Tool], "@task, @task(optional) or @task(required)"),
    (
        "execution",
        &[Tool],
        "@execution(task_support: forbidden), or `optional` or `required`",
    ),
    (
        "schema_dialect",
        &[Package, Service, Tool],
        "@schema_dialect(\"http://json-schema.org/draft-07/schema#\")",
    ),
    ("text", &[Tool], TEXT_USAGE),
    ("tag", &[Union], "@tag(\"property\")"),
    (
        "scopes",
        &[Service, Tool, Resource, Prompt],
        "@scopes(\"notes:read\", …), or @scopes() for none",
    ),
    ("csp", &[Resource], CSP_USAGE),
    ("permissions", &[Resource], PERMISSIONS_USAGE),
    (
        "domain",
        &[Resource],
        "@domain(\"a904794854a047f6.claudemcpcontent.com\")",
    ),
    (
        "prefers_border",
        &[Resource],
        "@prefers_border, @prefers_border(true) or @prefers_border(false)",
    ),
];

/// The attributes of an MCP Apps view's `_meta.ui`: a `ui://` resource only (E0807).
pub(crate) const VIEW_ATTRIBUTES: &[&str] = &["csp", "permissions", "domain", "prefers_border"];

/// The usage of `@csp`.
const CSP_USAGE: &str = "@csp(connect_domains: [\"https://api.example.com\"], resource_domains: […], frame_domains: […], base_uri_domains: […]), any of them";

/// The usage of `@permissions`.
const PERMISSIONS_USAGE: &str =
    "@permissions(camera, microphone, geolocation, clipboard_write), any of them";

/// The usage of `@text`.
pub(crate) const TEXT_USAGE: &str = "@text(\"a sentence, or a template over the result's {field}s\"), @text(pretty), @text(pretty: field) or @text(handler)";

/// `@text(…)` as written, before the result's fields are known.
#[derive(Debug, Clone)]
pub(crate) enum TextSpec {
    /// `@text("…")`: the text as written and the span of its literal.
    Template(String, Span),
    /// `@text(pretty)` or `@text(pretty: field)` (the field and its span).
    Pretty(Option<(String, Span)>),
    /// `@text(handler)`.
    Handler,
}

/// The usage of `@range` with exclusive bounds.
const EXCLUSIVE_USAGE: &str = "@range(exclusive_min: x), @range(exclusive_max: y), @range(exclusive_min: x, exclusive_max: y), or one of them with `min`/`max`";

/// The sites where attribute `name` applies: those of SPECS and EXTENDED_SITES.
fn sites_of(name: &str) -> Vec<Site> {
    SPECS
        .iter()
        .chain(NEW_SPECS)
        .filter(|(n, _, _)| *n == name)
        .flat_map(|(_, s, _)| s.iter())
        .chain(
            EXTENDED_SITES
                .iter()
                .filter(|(n, _)| *n == name)
                .flat_map(|(_, s)| s.iter()),
        )
        .copied()
        .collect()
}

/// Whether the help texts at `site` list the base attributes (SPECS) only, when there are
/// any: every site but those of unions and named types.
fn lists_base_only(site: Site) -> bool {
    !matches!(site, Alias | AliasType | Union | UnionVariant)
}

/// The attributes of one node, checked and parsed. Spans point at what a later check
/// (a type's constraints, a name's validity) would blame.
#[derive(Debug, Default)]
pub(crate) struct Attrs {
    pub name: Option<(String, Span)>,
    pub title: Option<String>,
    pub description: Option<String>,
    pub read_only: Option<bool>,
    pub destructive: Option<bool>,
    pub idempotent: Option<bool>,
    pub open_world: Option<bool>,
    pub ui: Option<Ui>,
    pub task: Option<TaskMode>,
    /// `@value("…")` of an enum member, and the span of its text.
    pub value: Option<(String, Span)>,
    /// `@document_members` of an enum.
    pub document_members: bool,
    pub uri: Option<(String, Span)>,
    pub mime: Option<String>,
    pub rename_all: Option<RenamePolicy>,
    pub json_name: Option<(String, Span)>,
    /// Bounds, the attribute's span, and the span of a float bound if any.
    pub range: Option<(Bounds<Number>, Span, Option<Span>)>,
    /// The spans of `@range`'s minimum and maximum, where given.
    pub range_spans: (Option<Span>, Option<Span>),
    /// `@range(exclusive_min: x, exclusive_max: y)`, and the attribute's span.
    pub exclusive: Option<(Bounds<Number>, Span)>,
    /// `@deprecated` on a field or parameter.
    pub deprecated: Option<Span>,
    /// `@open` on a record or tool.
    pub open: bool,
    /// `@open(input)` on a record.
    pub open_input: bool,
    /// A tool's `@title(tool: "…")`: its `title` only.
    pub tool_title: Option<String>,
    /// A tool's `@title(annotations: "…")`: its `annotations.title` only.
    pub annotations_title: Option<String>,
    /// `@execution(task_support: …)`: the listed `execution.taskSupport`.
    pub task_support: Option<TaskSupport>,
    /// `@schema_dialect("…")`: the `$schema` of a tool's schemas.
    pub schema_dialect: Option<String>,
    /// `@tag("kind")` of a union, and the span of its text.
    pub tag: Option<(String, Span)>,
    pub length: Option<(Bounds<u64>, Span)>,
    pub pattern: Option<(String, Span)>,
    pub email: Option<Span>,
    pub url: Option<Span>,
    /// `@scopes(…)`: the OAuth scopes needed (empty for `@scopes()`).
    pub scopes: Option<Vec<String>>,
    /// `@text(…)` of a tool, and the attribute's span.
    pub text: Option<(TextSpec, Span)>,
    /// A view's `@csp`, `@permissions`, `@domain` and `@prefers_border`, as read.
    pub view: ResourceUi,
    /// The name and span of each of those attributes written, read or not (E0807 needs a
    /// `ui://` URI for them).
    pub view_attrs: Vec<(String, Span)>,
}

pub(crate) struct AttrChecker<'a> {
    pub file: FileId,
    pub diagnostics: &'a mut Vec<Diagnostic>,
}

impl AttrChecker<'_> {
    pub fn check(&mut self, attrs: &[Attribute], site: Site) -> Attrs {
        let mut out = Attrs::default();
        let mut seen: Vec<&str> = Vec::new();
        for attr in attrs {
            let name = attr.name.name.as_str();
            let Some(&(_, first_sites, usage)) =
                SPECS.iter().chain(NEW_SPECS).find(|(n, _, _)| *n == name)
            else {
                let mut d = Diagnostic::error("E0301", format!("unknown attribute `@{name}`"))
                    .at(self.file, attr.name.span);
                // The base attributes of the site (SPECS), when `lists_base_only` says so and
                // there are any; else every attribute that applies there.
                let first: Vec<&str> = SPECS
                    .iter()
                    .filter(|(_, s, _)| lists_base_only(site) && s.contains(&site))
                    .map(|(n, _, _)| *n)
                    .collect();
                let here: Vec<&str> = if first.is_empty() {
                    SPECS
                        .iter()
                        .chain(NEW_SPECS)
                        .filter(|(n, _, _)| sites_of(n).contains(&site))
                        .map(|(n, _, _)| *n)
                        .collect()
                } else {
                    first
                };
                if let Some(close) = suggest(name, here.iter().copied()) {
                    d = d.help(format!("did you mean `@{close}`?"));
                } else if here.is_empty() {
                    d = d.help(format!("{} takes no attributes", site.words()));
                } else {
                    d = d.help(format!(
                        "attributes of {}: {}",
                        site.words(),
                        here.iter()
                            .map(|n| format!("@{n}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
                self.diagnostics.push(d);
                continue;
            };
            if !sites_of(name).contains(&site) {
                let allowed: Vec<&str> = first_sites.iter().map(|s| s.words()).collect();
                self.diagnostics.push(
                    Diagnostic::error(
                        "E0303",
                        format!("`@{name}` does not apply to {}", site.words()),
                    )
                    .at(self.file, attr.name.span)
                    .help(format!("`@{name}` applies to {}", allowed.join(", "))),
                );
                continue;
            }
            if seen.contains(&name) {
                self.diagnostics.push(
                    Diagnostic::error("E0304", format!("`@{name}` is given twice"))
                        .at(self.file, attr.span)
                        .help("remove one of them"),
                );
                continue;
            }
            seen.push(name);
            self.parse(attr, usage, site, &mut out);
        }
        self.check_execution(attrs, &out);
        out
    }

    fn parse(&mut self, attr: &Attribute, usage: &str, site: Site, out: &mut Attrs) {
        let name = attr.name.name.as_str();
        if VIEW_ATTRIBUTES.contains(&name) {
            out.view_attrs.push((name.to_owned(), attr.span));
        }
        match name {
            "title" if placed_title(attr) => self.placed_title(attr, site, out),
            "open" if open_input_arg(attr) => self.open_input(attr, site, out),
            "execution" => self.execution(attr, usage, out),
            "schema_dialect" => self.schema_dialect(attr, usage, out),
            "name" | "title" | "description" | "uri" | "mime" | "json_name" | "rename_all"
            | "pattern" | "value" | "tag" | "domain" => {
                let Some([Some(lit)]) = self.bind::<1>(attr, usage, &[("value", Arg::Required)])
                else {
                    return;
                };
                let Some(text) = self.string(attr, lit, usage) else {
                    return;
                };
                let span = lit.span;
                match name {
                    "name" => out.name = Some((text, span)),
                    "title" | "description" | "mime" | "domain" if text.trim().is_empty() => {
                        let message = format!("`@{name}` must not be empty");
                        self.wrong(attr, lit.span, &message, usage);
                    }
                    "title" => out.title = Some(text),
                    "description" => out.description = Some(text),
                    "uri" => out.uri = Some((text, span)),
                    "mime" => out.mime = Some(text),
                    "domain" => out.view.domain = Some(text),
                    "json_name" => {
                        if text.is_empty() {
                            self.wrong(attr, lit.span, "`@json_name` must not be empty", usage);
                        } else {
                            out.json_name = Some((text, span));
                        }
                    }
                    "pattern" => out.pattern = Some((text, span)),
                    "value" if text.is_empty() => {
                        self.wrong(attr, lit.span, "`@value` must not be empty", usage);
                    }
                    "value" => out.value = Some((text, span)),
                    "tag" if text.is_empty() => {
                        self.wrong(attr, lit.span, "`@tag` must not be empty", usage);
                    }
                    "tag" => out.tag = Some((text, span)),
                    _ => {
                        if text == "camelCase" {
                            out.rename_all = Some(RenamePolicy::CamelCase);
                        } else {
                            self.diagnostics.push(
                                Diagnostic::error(
                                    "E0701",
                                    format!("unsupported rename policy `{text}`"),
                                )
                                .at(self.file, lit.span)
                                .help("the only policy is \"camelCase\"; without @rename_all, names stay as written"),
                            );
                        }
                    }
                }
            }
            "read_only" | "destructive" | "idempotent" | "open_world" | "prefers_border" => {
                let Some([value]) = self.bind::<1>(attr, usage, &[("value", Arg::Optional)]) else {
                    return;
                };
                let value = match value {
                    None => true,
                    Some(lit) => match lit.kind {
                        LiteralKind::Bool(b) => b,
                        ref other => {
                            let message = format!(
                                "`@{name}` expects `true` or `false`, found {}",
                                other.describe()
                            );
                            self.wrong(attr, lit.span, &message, usage);
                            return;
                        }
                    },
                };
                match name {
                    "read_only" => out.read_only = Some(value),
                    "destructive" => out.destructive = Some(value),
                    "idempotent" => out.idempotent = Some(value),
                    "prefers_border" => out.view.prefers_border = Some(value),
                    _ => out.open_world = Some(value),
                }
            }
            "email" | "url" | "document_members" | "deprecated" | "open" => {
                if self.bind::<0>(attr, usage, &[]).is_some() {
                    match name {
                        "email" => out.email = Some(attr.span),
                        "url" => out.url = Some(attr.span),
                        "deprecated" => out.deprecated = Some(attr.span),
                        "open" => out.open = true,
                        _ => out.document_members = true,
                    }
                }
            }
            "range" => {
                let exclusive = attr.args.iter().flatten().any(|a| {
                    a.name
                        .as_ref()
                        .is_some_and(|n| n.name.starts_with("exclusive_"))
                });
                let (usage, [min, max, xmin, xmax]) = if exclusive {
                    let Some(bound) = self.bind::<4>(
                        attr,
                        EXCLUSIVE_USAGE,
                        &[
                            ("min", Arg::Optional),
                            ("max", Arg::Optional),
                            ("exclusive_min", Arg::Named),
                            ("exclusive_max", Arg::Named),
                        ],
                    ) else {
                        return;
                    };
                    if (bound[0].is_some() && bound[2].is_some())
                        || (bound[1].is_some() && bound[3].is_some())
                    {
                        let message = "`@range` takes a minimum and an exclusive minimum (or a maximum and an exclusive maximum) not both";
                        self.wrong(attr, attr.span, message, EXCLUSIVE_USAGE);
                        return;
                    }
                    (EXCLUSIVE_USAGE, bound)
                } else {
                    let Some([min, max]) = self.bounds(attr, usage) else {
                        return;
                    };
                    (usage, [min, max, None, None])
                };
                let mut float = None;
                let mut number =
                    |lit: Option<&Literal>, this: &mut Self| -> Result<Option<Number>, ()> {
                        let Some(lit) = lit else { return Ok(None) };
                        match lit.kind {
                            LiteralKind::Int(n) => Ok(Some(int_number(n))),
                            LiteralKind::Float(f) => {
                                float.get_or_insert(lit.span);
                                Ok(Some(Number::Float(f)))
                            }
                            ref other => {
                                let message =
                                    format!("`@range` expects numbers, found {}", other.describe());
                                this.wrong(attr, lit.span, &message, usage);
                                Err(())
                            }
                        }
                    };
                let (Ok(lo), Ok(hi), Ok(xlo), Ok(xhi)) = (
                    number(min, self),
                    number(max, self),
                    number(xmin, self),
                    number(xmax, self),
                ) else {
                    return;
                };
                if let (Some(lo), Some(hi)) = (lo.or(xlo), hi.or(xhi)) {
                    let order = compare(lo, hi);
                    let open = xlo.is_some() || xhi.is_some();
                    if order.is_gt() || (open && order.is_eq()) {
                        self.min_above_max(attr, usage);
                        return;
                    }
                }
                if lo.is_some() || hi.is_some() {
                    out.range = Some((Bounds { min: lo, max: hi }, attr.span, float));
                    out.range_spans = (min.map(|l| l.span), max.map(|l| l.span));
                }
                if xlo.is_some() || xhi.is_some() {
                    out.exclusive = Some((Bounds { min: xlo, max: xhi }, attr.span));
                }
            }
            "length" => {
                let Some([min, max]) = self.bounds(attr, usage) else {
                    return;
                };
                let count = |lit: Option<&Literal>, this: &mut Self| -> Result<Option<u64>, ()> {
                    let Some(lit) = lit else { return Ok(None) };
                    match lit.kind {
                        LiteralKind::Int(n) if (0..=u64::MAX as i128).contains(&n) => {
                            Ok(Some(n as u64))
                        }
                        ref other => {
                            let message = format!(
                                "`@length` expects non-negative integers, found {}",
                                match other {
                                    LiteralKind::Int(n) => n.to_string(),
                                    other => other.describe().to_string(),
                                }
                            );
                            this.wrong(attr, lit.span, &message, usage);
                            Err(())
                        }
                    }
                };
                let (Ok(lo), Ok(hi)) = (count(min, self), count(max, self)) else {
                    return;
                };
                if let (Some(lo), Some(hi)) = (lo, hi)
                    && lo > hi
                {
                    self.min_above_max(attr, usage);
                    return;
                }
                out.length = Some((Bounds { min: lo, max: hi }, attr.span));
            }
            "ui" => self.ui(attr, usage, out),
            "csp" => self.csp(attr, usage, out),
            "permissions" => self.permissions(attr, usage, out),
            "scopes" => self.scopes(attr, usage, out),
            "text" => self.text(attr, usage, out),
            "task" => {
                let Some([mode]) = self.bind::<1>(attr, usage, &[("mode", Arg::Optional)]) else {
                    return;
                };
                out.task = match mode.map(|lit| (lit, &lit.kind)) {
                    None => Some(TaskMode::Optional),
                    Some((_, LiteralKind::Ident(m))) if m == "optional" => Some(TaskMode::Optional),
                    Some((_, LiteralKind::Ident(m))) if m == "required" => Some(TaskMode::Required),
                    Some((lit, other)) => {
                        let found = match other {
                            LiteralKind::Ident(m) => format!("`{m}`"),
                            other => other.describe().to_string(),
                        };
                        let message =
                            format!("`@task` expects `optional` or `required`, found {found}");
                        self.wrong(attr, lit.span, &message, usage);
                        return;
                    }
                };
            }
            _ => unreachable!("every attribute in SPECS and NEW_SPECS is parsed"),
        }
    }

    /// `@title(tool: "…")`, `@title(annotations: "…")` or both: a tool's `title` and its
    /// `annotations.title` apart.
    fn placed_title(&mut self, attr: &Attribute, site: Site, out: &mut Attrs) {
        let Some([text, tool, annotations]) = self.bind::<3>(
            attr,
            TITLE_USAGE,
            &[
                ("value", Arg::Optional),
                ("tool", Arg::Named),
                ("annotations", Arg::Named),
            ],
        ) else {
            return;
        };
        if let Some(text) = text {
            self.diagnostics.push(
                Diagnostic::error(
                    "E0706",
                    "`@title` takes one text for both places, or `tool:` and `annotations:`, not both",
                )
                .at(self.file, text.span)
                .help(format!("usage: {TITLE_USAGE}")),
            );
            return;
        }
        if site != Tool {
            self.diagnostics.push(
                Diagnostic::error(
                    "E0705",
                    format!(
                        "`@title(tool: …)` and `@title(annotations: …)` apply to tools only: {} has one title",
                        site.words()
                    ),
                )
                .at(self.file, attr.span)
                .help("write `@title(\"…\")`"),
            );
            return;
        }
        let text = |lit: Option<&Literal>, this: &mut Self| -> Option<String> {
            let lit = lit?;
            let text = this.string(attr, lit, TITLE_USAGE)?;
            if text.trim().is_empty() {
                this.wrong(attr, lit.span, "`@title` must not be empty", TITLE_USAGE);
                return None;
            }
            Some(text)
        };
        out.tool_title = text(tool, self);
        out.annotations_title = text(annotations, self);
    }

    /// `@open(input)`: unknown members accepted and ignored on input, closed on output.
    fn open_input(&mut self, attr: &Attribute, site: Site, out: &mut Attrs) {
        if let Some([arg]) = attr.args.as_deref()
            && let LiteralKind::Ident(word) = &arg.value.kind
            && word != "input"
        {
            let message = format!("`@open` takes `input` or nothing, found `{word}`");
            self.wrong(
                attr,
                arg.span,
                &message,
                "@open, or on a record @open(input)",
            );
            return;
        }
        if site == Tool {
            self.diagnostics.push(
                Diagnostic::error(
                    "E0709",
                    "`@open(input)` applies to records: a tool has only input, and `@open` already accepts and ignores the arguments it does not declare",
                )
                .at(self.file, attr.span)
                .help("write `@open`"),
            );
            return;
        }
        out.open_input = true;
    }

    /// `@execution(task_support: forbidden | optional | required)`.
    fn execution(&mut self, attr: &Attribute, usage: &str, out: &mut Attrs) {
        let Some([Some(lit)]) = self.bind::<1>(attr, usage, &[("task_support", Arg::Named)]) else {
            if attr.args.as_deref().is_some_and(|a| !a.is_empty()) {
                return;
            }
            self.wrong(
                attr,
                attr.span,
                "`@execution` needs `task_support: …`",
                usage,
            );
            return;
        };
        out.task_support = match &lit.kind {
            LiteralKind::Ident(m) if m == "forbidden" => Some(TaskSupport::Forbidden),
            LiteralKind::Ident(m) if m == "optional" => Some(TaskSupport::Optional),
            LiteralKind::Ident(m) if m == "required" => Some(TaskSupport::Required),
            other => {
                let found = match other {
                    LiteralKind::Ident(m) => format!("`{m}`"),
                    other => other.describe().to_string(),
                };
                let message = format!(
                    "`task_support` is `forbidden`, `optional` or `required`, found {found}"
                );
                self.wrong(attr, lit.span, &message, usage);
                return;
            }
        };
    }

    /// After a node's attributes are read: `@execution` agrees with `@task`, and a listed
    /// `optional` or `required` is said to be served synchronously under 2025-11-25.
    fn check_execution(&mut self, attrs: &[Attribute], out: &Attrs) {
        let Some(support) = out.task_support else {
            return;
        };
        let Some(span) = attrs
            .iter()
            .find(|a| a.name.name == "execution")
            .map(|a| a.span)
        else {
            return;
        };
        let agrees = matches!(
            (support, out.task),
            (TaskSupport::Forbidden, None)
                | (TaskSupport::Optional, Some(TaskMode::Optional))
                | (TaskSupport::Required, Some(TaskMode::Required))
        );
        if !agrees {
            let listed = format!("`@execution(task_support: {})`", support.as_str());
            let message = match out.task {
                Some(TaskMode::Required) => format!("{listed} contradicts `@task(required)`"),
                Some(TaskMode::Optional) => format!("{listed} contradicts `@task`"),
                None => format!("{listed} lists a task the tool does not run: it has no `@task`"),
            };
            self.diagnostics.push(
                Diagnostic::error("E0708", message)
                .at(self.file, span)
                .help("list what the tool does: `task_support: optional` for `@task`, `required` for `@task(required)`, `forbidden` for a tool without `@task`"),
            );
            return;
        }
        if support != TaskSupport::Forbidden {
            self.diagnostics.push(
                Diagnostic::warning(
                    "W0406",
                    format!(
                        "`execution.taskSupport` is listed as \"{}\", but under 2025-11-25 every call runs synchronously: the runtime serves tasks through the 2026-07-28 tasks extension only",
                        support.as_str()
                    ),
                )
                .at(self.file, span)
                .help("a 2025-11-25 client that asks for a task gets a plain result; list `task_support: forbidden`, or nothing, to say what such a client gets"),
            );
        }
    }

    /// `@schema_dialect("…")`: an absolute URI; one no JSON Schema dialect has is a warning.
    fn schema_dialect(&mut self, attr: &Attribute, usage: &str, out: &mut Attrs) {
        let Some([Some(lit)]) = self.bind::<1>(attr, usage, &[("value", Arg::Required)]) else {
            return;
        };
        let Some(uri) = self.string(attr, lit, usage) else {
            return;
        };
        if !is_absolute_uri(&uri) {
            self.diagnostics.push(
                Diagnostic::error(
                    "E0707",
                    format!("`@schema_dialect` needs an absolute URI, found {uri:?}"),
                )
                .at(self.file, lit.span)
                .help("name the dialect by its meta-schema URI, e.g. \"http://json-schema.org/draft-07/schema#\""),
            );
            return;
        }
        if !KNOWN_DIALECTS
            .iter()
            .any(|d| *d == uri || d.strip_suffix('#') == Some(uri.as_str()))
        {
            self.diagnostics.push(
                Diagnostic::warning(
                    "W0405",
                    format!("{uri:?} is not the URI of a JSON Schema dialect toolidl knows"),
                )
                .at(self.file, lit.span)
                .help(format!(
                    "the known dialects: {}; the schemas are written as 2020-12 whatever `$schema` says",
                    KNOWN_DIALECTS.join(", ")
                )),
            );
        }
        out.schema_dialect = Some(uri);
    }

    /// `@ui("ui://…", visibility: ["model", "app"])`, or `@ui(visibility: [...])` for a tool
    /// without a view of its own.
    fn ui(&mut self, attr: &Attribute, usage: &str, out: &mut Attrs) {
        let Some([uri_lit, visibility]) = self.bind::<2>(
            attr,
            usage,
            &[("uri", Arg::Optional), ("visibility", Arg::Named)],
        ) else {
            return;
        };
        let mut ok = true;
        let resource_uri = match uri_lit {
            Some(lit) => {
                let Some(uri) = self.string(attr, lit, usage) else {
                    return;
                };
                if !uri.starts_with("ui://") || uri.len() == "ui://".len() {
                    ok = false;
                    self.diagnostics.push(
                        Diagnostic::error(
                            "E0702",
                            format!("`@ui` needs a `ui://` URI, found \"{uri}\""),
                        )
                        .at(self.file, lit.span)
                        .help("MCP Apps resources live under ui://, e.g. \"ui://weather/forecast.html\""),
                    );
                }
                Some(uri)
            }
            None if visibility.is_none() => {
                self.diagnostics.push(
                    Diagnostic::error(
                        "E0702",
                        "`@ui` needs the tool's view (a `ui://` URI) or its visibility",
                    )
                    .at(self.file, attr.span)
                    .help("`@ui(\"ui://weather/forecast.html\")` renders the tool's results in that view; `@ui(visibility: [\"app\"])` makes a tool without a view that only apps call"),
                );
                return;
            }
            None => None,
        };
        let mut list = None;
        if let Some(lit) = visibility {
            match &lit.kind {
                LiteralKind::List(items) => {
                    let mut values: Vec<String> = Vec::new();
                    for item in items {
                        match &item.kind {
                            LiteralKind::String(s) if s == "model" || s == "app" => {
                                if values.contains(s) {
                                    ok = false;
                                    self.visibility_error(
                                        item.span,
                                        format!("`\"{s}\"` is listed twice"),
                                    );
                                } else {
                                    values.push(s.clone());
                                }
                            }
                            LiteralKind::String(s) => {
                                ok = false;
                                self.visibility_error(
                                    item.span,
                                    format!("unknown visibility \"{s}\""),
                                );
                            }
                            other => {
                                ok = false;
                                self.visibility_error(
                                    item.span,
                                    format!("visibility holds strings, found {}", other.describe()),
                                );
                            }
                        }
                    }
                    if items.is_empty() {
                        ok = false;
                        self.visibility_error(lit.span, "visibility must not be empty".into());
                    }
                    list = Some(values);
                }
                other => {
                    ok = false;
                    let message = format!(
                        "`visibility` expects a list such as [\"model\", \"app\"], found {}",
                        other.describe()
                    );
                    self.wrong(attr, lit.span, &message, usage);
                }
            }
        }
        if ok {
            out.ui = Some(Ui {
                resource_uri,
                visibility: list,
            });
        }
    }

    /// `@text("…")`, `@text(pretty)`, `@text(pretty: field)` or `@text(handler)`; the
    /// template and the field are checked against the result where the tool is resolved.
    fn text(&mut self, attr: &Attribute, usage: &str, out: &mut Attrs) {
        let Some([form, pretty]) = self.bind::<2>(
            attr,
            usage,
            &[("form", Arg::Optional), ("pretty", Arg::Named)],
        ) else {
            return;
        };
        let fail = |this: &mut Self, span: Span, message: String| {
            this.diagnostics.push(
                Diagnostic::error("E0714", message)
                    .at(this.file, span)
                    .help(format!("usage: {usage}")),
            );
        };
        let spec = match (form.map(|l| (l, &l.kind)), pretty) {
            (None, None) => {
                fail(
                    self,
                    attr.span,
                    "`@text` needs a text: a sentence, `pretty`, `pretty: field` or `handler`"
                        .into(),
                );
                return;
            }
            (Some(_), Some(field)) => {
                fail(self, field.span, "`@text` takes one form: a sentence, `pretty`, `pretty: field` or `handler`, not two".into());
                return;
            }
            (None, Some(field)) => match &field.kind {
                LiteralKind::Ident(name) => TextSpec::Pretty(Some((name.clone(), field.span))),
                other => {
                    let found = match other {
                        LiteralKind::String(s) => format!("the string {s:?}"),
                        other => other.describe().to_string(),
                    };
                    fail(
                        self,
                        field.span,
                        format!("`@text(pretty: …)` names a field of the result, found {found}"),
                    );
                    return;
                }
            },
            (Some((lit, LiteralKind::String(text))), None) => {
                if text.trim().is_empty() {
                    fail(
                        self,
                        lit.span,
                        "the text of `@text` must not be empty".into(),
                    );
                    return;
                }
                TextSpec::Template(text.clone(), lit.span)
            }
            (Some((_, LiteralKind::Ident(word))), None) if word == "pretty" => {
                TextSpec::Pretty(None)
            }
            (Some((_, LiteralKind::Ident(word))), None) if word == "handler" => TextSpec::Handler,
            (Some((lit, other)), None) => {
                let found = match other {
                    LiteralKind::Ident(word) => format!("`{word}`"),
                    other => other.describe().to_string(),
                };
                let mut message = format!(
                    "`@text` expects a sentence in quotes, `pretty` or `handler`, found {found}"
                );
                if let LiteralKind::Ident(word) = other
                    && let Some(close) = suggest(word, ["pretty", "handler"])
                {
                    message.push_str(&format!(" (did you mean `{close}`?)"));
                }
                fail(self, lit.span, message);
                return;
            }
        };
        out.text = Some((spec, attr.span));
    }

    /// `@scopes("a", "b")`: each a `scope-token` of RFC 6749 §3.3, none twice.
    fn scopes(&mut self, attr: &Attribute, usage: &str, out: &mut Attrs) {
        let Some(args) = &attr.args else {
            let message = "`@scopes` needs parentheses: `@scopes()` for no scope";
            self.wrong(attr, attr.span, message, usage);
            return;
        };
        let mut scopes: Vec<String> = Vec::new();
        let mut ok = true;
        for arg in args {
            if let Some(name) = &arg.name {
                let message = format!("`@scopes` has no argument named `{}`", name.name);
                self.wrong(attr, name.span, &message, usage);
                ok = false;
                continue;
            }
            let Some(scope) = self.string(attr, &arg.value, usage) else {
                ok = false;
                continue;
            };
            let bad = scope
                .chars()
                .find(|&c| !matches!(c, '\x21' | '\x23'..='\x5B' | '\x5D'..='\x7E'));
            let token = "a scope is one or more of the printable ASCII characters except space, `\"` and `\\` (RFC 6749 §3.3)";
            let problem = match bad {
                _ if scope.is_empty() => Some(("a scope must not be empty".to_string(), token)),
                Some(' ') => Some((
                    format!("the scope {scope:?} holds a space"),
                    "write each scope as its own string: @scopes(\"a\", \"b\")",
                )),
                Some(c) => Some((
                    format!(
                        "the scope {scope:?} holds {}, which a scope cannot hold",
                        char_text(c)
                    ),
                    token,
                )),
                None if scopes.contains(&scope) => Some((
                    format!("the scope {scope:?} is listed twice"),
                    "remove one of them",
                )),
                None => None,
            };
            match problem {
                Some((message, help)) => {
                    ok = false;
                    self.diagnostics.push(
                        Diagnostic::error("E0704", message)
                            .at(self.file, arg.value.span)
                            .help(help),
                    );
                }
                None => scopes.push(scope),
            }
        }
        if ok {
            out.scopes = Some(scopes);
        }
    }

    /// `@csp(connect_domains: […], …)`: each list of origins (`scheme://host[:port]`, a host
    /// may start with `*.`), none twice; `@csp()` lists an empty `csp`.
    fn csp(&mut self, attr: &Attribute, usage: &str, out: &mut Attrs) {
        if attr.args.is_none() {
            let message = "`@csp` needs parentheses: `@csp()` for no origins";
            self.wrong(attr, attr.span, message, usage);
            return;
        }
        let Some(lists) = self.bind::<4>(
            attr,
            usage,
            &[
                ("connect_domains", Arg::Named),
                ("resource_domains", Arg::Named),
                ("frame_domains", Arg::Named),
                ("base_uri_domains", Arg::Named),
            ],
        ) else {
            return;
        };
        let mut ok = true;
        let mut read = |lit: Option<&Literal>, this: &mut Self| -> Option<Vec<String>> {
            let lit = lit?;
            let LiteralKind::List(items) = &lit.kind else {
                let message = format!(
                    "`@csp` expects lists of origins such as [\"https://api.example.com\"], found {}",
                    lit.kind.describe()
                );
                this.wrong(attr, lit.span, &message, usage);
                ok = false;
                return None;
            };
            let mut origins: Vec<String> = Vec::new();
            for item in items {
                let problem = match &item.kind {
                    LiteralKind::String(s) if origins.contains(s) => {
                        Some(format!("the origin {s:?} is listed twice"))
                    }
                    LiteralKind::String(s) => {
                        origin_problem(s).map(|why| format!("{s:?} is not an origin: {why}"))
                    }
                    other => Some(format!("an origin is a string, found {}", other.describe())),
                };
                match (problem, &item.kind) {
                    (Some(message), _) => {
                        ok = false;
                        this.diagnostics.push(
                            Diagnostic::error("E0715", message)
                                .at(this.file, item.span)
                                .help("an origin is `scheme://host` or `scheme://host:port`, without a path; a host may start with `*.` for its subdomains: \"https://*.example.com\""),
                        );
                    }
                    (None, LiteralKind::String(s)) => origins.push(s.clone()),
                    (None, _) => {}
                }
            }
            Some(origins)
        };
        let [connect, resource, frame, base] = lists;
        let csp = Csp {
            connect_domains: read(connect, self),
            resource_domains: read(resource, self),
            frame_domains: read(frame, self),
            base_uri_domains: read(base, self),
        };
        if ok {
            out.view.csp = Some(csp);
        }
    }

    /// `@permissions(camera, microphone, geolocation, clipboard_write)`: any of them, each
    /// once; `@permissions()` lists an empty `permissions`.
    fn permissions(&mut self, attr: &Attribute, usage: &str, out: &mut Attrs) {
        let Some(args) = &attr.args else {
            let message = "`@permissions` needs parentheses: `@permissions()` for none";
            self.wrong(attr, attr.span, message, usage);
            return;
        };
        let mut ok = true;
        let mut permissions: Vec<Permission> = Vec::new();
        for arg in args {
            if let Some(name) = &arg.name {
                let message = format!("`@permissions` has no argument named `{}`", name.name);
                self.wrong(attr, name.span, &message, usage);
                ok = false;
                continue;
            }
            let known = match &arg.value.kind {
                LiteralKind::Ident(word) => Permission::ALL.into_iter().find(|p| p.word() == word),
                _ => None,
            };
            let problem = match (&arg.value.kind, known) {
                (_, Some(p)) if permissions.contains(&p) => {
                    Some(format!("the permission `{}` is listed twice", p.word()))
                }
                (_, Some(p)) => {
                    permissions.push(p);
                    None
                }
                (LiteralKind::Ident(word), None) => {
                    let mut message = format!("unknown permission `{word}`");
                    if let Some(close) = suggest(word, Permission::ALL.map(Permission::word)) {
                        message.push_str(&format!(" (did you mean `{close}`?)"));
                    }
                    Some(message)
                }
                (LiteralKind::String(s), None) => {
                    Some(format!("a permission is a word, found the string {s:?}"))
                }
                (other, None) => Some(format!(
                    "a permission is a word, found {}",
                    other.describe()
                )),
            };
            if let Some(message) = problem {
                ok = false;
                self.diagnostics.push(
                    Diagnostic::error("E0716", message)
                        .at(self.file, arg.value.span)
                        .help("the permissions a view may ask for: camera, microphone, geolocation, clipboard_write"),
                );
            }
        }
        if ok {
            out.view.permissions = Some(permissions);
        }
    }

    fn visibility_error(&mut self, span: Span, message: String) {
        self.diagnostics.push(
            Diagnostic::error("E0703", message)
                .at(self.file, span)
                .help("visibility lists \"model\" and/or \"app\""),
        );
    }

    fn min_above_max(&mut self, attr: &Attribute, usage: &str) {
        self.diagnostics.push(
            Diagnostic::error(
                "E0602",
                format!("`@{}` has its minimum above its maximum", attr.name.name),
            )
            .at(self.file, attr.span)
            .help(format!("usage: {usage}")),
        );
    }
}

/// The usage of `@title` with its placement arguments.
const TITLE_USAGE: &str = "@title(\"…\") for both the tool's title and annotations.title, or @title(tool: \"…\"), @title(annotations: \"…\"), or both";

/// The meta-schema URIs of the JSON Schema dialects (each also without its final `#`).
const KNOWN_DIALECTS: &[&str] = &[
    "https://json-schema.org/draft/2020-12/schema",
    "https://json-schema.org/draft/2019-09/schema",
    "http://json-schema.org/draft-07/schema#",
    "http://json-schema.org/draft-06/schema#",
    "http://json-schema.org/draft-04/schema#",
];

/// `@title` written with `tool:` or `annotations:`.
fn placed_title(attr: &Attribute) -> bool {
    attr.args.iter().flatten().any(|a| {
        a.name
            .as_ref()
            .is_some_and(|n| n.name == "tool" || n.name == "annotations")
    })
}

/// `@open(word)`: one unnamed identifier (`input`, the only one it takes).
fn open_input_arg(attr: &Attribute) -> bool {
    matches!(
        attr.args.as_deref(),
        Some([arg]) if arg.name.is_none() && matches!(&arg.value.kind, LiteralKind::Ident(_))
    )
}

/// `scheme:rest`, RFC 3986's scheme, nothing blank.
fn is_absolute_uri(text: &str) -> bool {
    let Some((scheme, rest)) = text.split_once(':') else {
        return false;
    };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        && !rest.is_empty()
        && !text.chars().any(|c| c.is_whitespace() || c.is_control())
}

/// Why `text` is not an origin for `ui.csp` (`scheme://host[:port]`, a host of DNS labels, an
/// IPv4 or a bracketed IPv6 address; `*.` before a host for its subdomains), if it is not.
pub(crate) fn origin_problem(text: &str) -> Option<String> {
    if text.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Some("it holds a space or a control character".into());
    }
    let Some((scheme, rest)) = text.split_once("://") else {
        return Some("it has no `scheme://` (write \"https://host\")".into());
    };
    let mut chars = scheme.chars();
    if !(chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')))
    {
        return Some(format!("`{scheme}` is not a URI scheme"));
    }
    if let Some(c) = rest.chars().find(|c| matches!(c, '/' | '?' | '#')) {
        return Some(match c {
            '/' => "it has a path (an origin ends after the host or the port)".into(),
            _ => format!("it has a `{c}` (an origin ends after the host or the port)"),
        });
    }
    if rest.contains('@') {
        return Some("it has a user name (an origin is scheme, host and port)".into());
    }
    let (host, port) = match rest.strip_prefix('[') {
        Some(v6) => match v6.split_once(']') {
            Some((address, after)) => {
                if address.is_empty()
                    || !address
                        .chars()
                        .all(|c| c.is_ascii_hexdigit() || matches!(c, ':' | '.'))
                {
                    return Some(format!("`[{address}]` is not an IPv6 address"));
                }
                match after {
                    "" => ("", None),
                    _ => match after.strip_prefix(':') {
                        Some(port) => ("", Some(port)),
                        None => return Some(format!("`{after}` follows the IPv6 address")),
                    },
                }
            }
            None => return Some("its IPv6 address has no `]`".into()),
        },
        None => match rest.rsplit_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (rest, None),
        },
    };
    if let Some(port) = port
        && !(!port.is_empty()
            && port.len() <= 5
            && port.chars().all(|c| c.is_ascii_digit())
            && port.parse::<u32>().is_ok_and(|p| (1..=65535).contains(&p)))
    {
        return Some(format!("`{port}` is not a port (1 to 65535)"));
    }
    if rest.starts_with('[') {
        return None;
    }
    let labels = host.strip_prefix("*.").unwrap_or(host);
    if labels.is_empty() {
        return Some("it has no host".into());
    }
    for label in labels.split('.') {
        if label.contains('*') {
            return Some("`*` stands only at the start of the host, as `*.example.com`".into());
        }
        if label.is_empty()
            || label.starts_with('-')
            || label.ends_with('-')
            || !label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        {
            return Some(format!("`{host}` is not a host name"));
        }
    }
    None
}

/// A character as a diagnostic names it: printable ones quoted, others by code point.
fn char_text(c: char) -> String {
    if c.is_control() || c.is_whitespace() {
        format!("U+{:04X}", c as u32)
    } else {
        format!("`{c}`")
    }
}

#[cfg(test)]
mod tests {
    use super::origin_problem;

    #[test]
    fn origins_are_scheme_host_and_port() {
        for ok in [
            "https://api.example.com",
            "wss://live.example.com:8443",
            "https://*.cloudflare.com",
            "http://localhost:3000",
            "http://127.0.0.1",
            "http://[::1]:8080",
            "https://xn--bcher-kva.example",
        ] {
            assert_eq!(origin_problem(ok), None, "{ok}");
        }
        for bad in [
            "api.example.com",
            "https://api.example.com/",
            "https://api.example.com?x",
            "https://u@example.com",
            "https://",
            "https://*",
            "https://a.*.example.com",
            "https://example.com:0",
            "https://example.com:",
            "https://-a.example.com",
            "https://[zz]",
            "1https://example.com",
            "https://exa mple.com",
        ] {
            assert!(origin_problem(bad).is_some(), "{bad}");
        }
    }
}
