//! What each attribute does, for hover and completion (docs/language.md's tables in short).

/// An attribute: its name, the declarations it applies to, its argument shapes, and what it
/// does.
pub struct AttributeDoc {
    pub name: &'static str,
    pub on: &'static str,
    pub usage: &'static str,
    pub does: &'static str,
}

pub const ATTRIBUTES: &[AttributeDoc] = &[
    AttributeDoc {
        name: "name",
        on: "tool, resource, prompt",
        usage: "@name(\"wire_name\")",
        does: "The name on the wire (default: the declared name).",
    },
    AttributeDoc {
        name: "title",
        on: "tool, resource, prompt, field, parameter",
        usage: "@title(\"Human title\")",
        does: "A human title, shown by clients instead of the name. On a tool `@title(\"…\")` is both its `title` and `annotations.title`; `@title(tool: \"…\")`, `@title(annotations: \"…\")` or both set each alone.",
    },
    AttributeDoc {
        name: "description",
        on: "record, enum, union, named type, field, parameter, tool, resource, prompt",
        usage: "@description(\"text\")",
        does: "The description in the schema, instead of the doc comment.",
    },
    AttributeDoc {
        name: "read_only",
        on: "tool",
        usage: "@read_only, @read_only(true) or @read_only(false)",
        does: "Hint for clients: the tool does not change its environment (`readOnlyHint`).",
    },
    AttributeDoc {
        name: "destructive",
        on: "tool",
        usage: "@destructive, @destructive(true) or @destructive(false)",
        does: "Hint for clients: the tool may destroy data (`destructiveHint`).",
    },
    AttributeDoc {
        name: "idempotent",
        on: "tool",
        usage: "@idempotent, @idempotent(true) or @idempotent(false)",
        does: "Hint for clients: calling it again with the same arguments has no further effect (`idempotentHint`).",
    },
    AttributeDoc {
        name: "open_world",
        on: "tool",
        usage: "@open_world, @open_world(true) or @open_world(false)",
        does: "Hint for clients: the tool reaches an open world, such as the web (`openWorldHint`).",
    },
    AttributeDoc {
        name: "ui",
        on: "tool",
        usage: "@ui(\"ui://…\"), @ui(\"ui://…\", visibility: [\"model\", \"app\"]) or @ui(visibility: [\"app\"])",
        does: "An MCP App view for the tool's results; with a visibility alone, a tool without a view that its app calls.",
    },
    AttributeDoc {
        name: "task",
        on: "tool",
        usage: "@task, @task(optional) or @task(required)",
        does: "The tool may (or must) run as a task (the MCP tasks extension).",
    },
    AttributeDoc {
        name: "text",
        on: "tool",
        usage: "@text(\"a sentence, or a template over the result's {field}s\"), @text(pretty), @text(pretty: field) or @text(handler)",
        does: "The text block beside a record or map result (default: its JSON, compact): a sentence, a template over the result's fields, the result or one field pretty-printed as `JSON.stringify(x, null, 2)`, or the handler's choice per call (`rt::WithText<T>`). `structuredContent` and `outputSchema` stay.",
    },
    AttributeDoc {
        name: "scopes",
        on: "service, tool, resource, prompt",
        usage: "@scopes(\"notes:read\", …), or @scopes() for none",
        does: "The OAuth scopes a token must hold to use it; a member's replace its service's.",
    },
    AttributeDoc {
        name: "uri",
        on: "resource",
        usage: "@uri(\"scheme://path/{param}\")",
        does: "The resource's URI, or URI template when it has `{variables}` (each a parameter).",
    },
    AttributeDoc {
        name: "mime",
        on: "resource",
        usage: "@mime(\"text/plain\")",
        does: "The resource's MIME type.",
    },
    AttributeDoc {
        name: "csp",
        on: "resource (a `ui://` view)",
        usage: "@csp(connect_domains: [\"https://api.example.com\"], resource_domains: […], frame_domains: […], base_uri_domains: […]), any of them",
        does: "The origins an MCP Apps view may reach (`_meta.ui.csp`: `connectDomains`, `resourceDomains`, `frameDomains`, `baseUriDomains`), each `scheme://host[:port]`, `*.` before a host for its subdomains; without it hosts allow none.",
    },
    AttributeDoc {
        name: "permissions",
        on: "resource (a `ui://` view)",
        usage: "@permissions(camera, microphone, geolocation, clipboard_write), any of them",
        does: "The browser capabilities an MCP Apps view asks for (`_meta.ui.permissions`); hosts may grant them.",
    },
    AttributeDoc {
        name: "domain",
        on: "resource (a `ui://` view)",
        usage: "@domain(\"a904794854a047f6.claudemcpcontent.com\")",
        does: "A dedicated sandbox origin for an MCP Apps view (`_meta.ui.domain`), in the format the host documents.",
    },
    AttributeDoc {
        name: "prefers_border",
        on: "resource (a `ui://` view)",
        usage: "@prefers_border, @prefers_border(true) or @prefers_border(false)",
        does: "Whether the host draws a border and background around an MCP Apps view (`_meta.ui.prefersBorder`); without it the host decides.",
    },
    AttributeDoc {
        name: "rename_all",
        on: "record; service or tool (their parameters)",
        usage: "@rename_all(\"camelCase\")",
        does: "Wire names in camelCase.",
    },
    AttributeDoc {
        name: "json_name",
        on: "field, parameter",
        usage: "@json_name(\"wireName\")",
        does: "This field's or parameter's name on the wire.",
    },
    AttributeDoc {
        name: "range",
        on: "numeric field, parameter, named type",
        usage: "@range(min, max), @range(min: x), @range(max: y), @range(exclusive_min: x), @range(exclusive_max: y)",
        does: "Bounds of a number, inclusive (`minimum`/`maximum`) or, for floats, exclusive; checked before the handler runs.",
    },
    AttributeDoc {
        name: "length",
        on: "string, list or set field, parameter, named type",
        usage: "@length(min, max), @length(min: n) or @length(max: n)",
        does: "The length of a string (in characters) or of a list or set (in items); checked before the handler runs.",
    },
    AttributeDoc {
        name: "pattern",
        on: "string field, parameter, named type",
        usage: "@pattern(\"regex\")",
        does: "An ECMA-262 regular expression the text must match; checked before the handler runs.",
    },
    AttributeDoc {
        name: "email",
        on: "string field, parameter, named type",
        usage: "@email",
        does: "The text must be an e-mail address (`format: email`).",
    },
    AttributeDoc {
        name: "url",
        on: "string field, parameter, named type",
        usage: "@url",
        does: "The text must be an absolute URL (`format: uri`).",
    },
    AttributeDoc {
        name: "open",
        on: "record, tool",
        usage: "@open",
        does: "Accept members it does not declare: a record keeps them (`extra`), a tool ignores them. `@open(input)`: a record ignores them where it is read and is closed where it is sent.",
    },
    AttributeDoc {
        name: "execution",
        on: "tool",
        usage: "@execution(task_support: forbidden), or `optional` or `required`",
        does: "Lists `execution.taskSupport` (MCP 2025-11-25); not listed means `forbidden`. `optional` and `required` need the matching `@task`.",
    },
    AttributeDoc {
        name: "schema_dialect",
        on: "package, service, tool",
        usage: "@schema_dialect(\"http://json-schema.org/draft-07/schema#\")",
        does: "Writes `$schema` first in the tool's `inputSchema` and `outputSchema` (a tool's wins over its service's, a service's over its package's).",
    },
    AttributeDoc {
        name: "value",
        on: "enum member",
        usage: "@value(\"wire-value\")",
        does: "The member's value on the wire.",
    },
    AttributeDoc {
        name: "tag",
        on: "union",
        usage: "@tag(\"property\")",
        does: "A tagged union: each variant a record, told apart by this property.",
    },
    AttributeDoc {
        name: "document_members",
        on: "enum",
        usage: "@document_members",
        does: "List the members' doc comments in the enum's schema description.",
    },
    AttributeDoc {
        name: "deprecated",
        on: "field, parameter",
        usage: "@deprecated",
        does: "`deprecated: true` in the schema; still accepted.",
    },
];

pub fn find(name: &str) -> Option<&'static AttributeDoc> {
    ATTRIBUTES.iter().find(|a| a.name == name)
}

impl AttributeDoc {
    /// Markdown for hover and completion.
    pub fn markdown(&self) -> String {
        format!(
            "```tool\n{}\n```\n{}\n\nOn: {}.",
            self.usage, self.does, self.on
        )
    }
}
