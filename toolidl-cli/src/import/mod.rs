//! `toolidl import FILE.json`, `toolidl import -- COMMAND ARGS…`, `toolidl import --url URL`:
//! a `.tool` file from an MCP server's listings, saved, or read from the running server over
//! stdio ([`live`]) or Streamable HTTP ([`url`]).
//!
//! The listings are a `tools/list` result, or the `tools`, `resources`, `resourceTemplates`
//! and `prompts` lists together (what `toolidl schema` prints), or a JSON-RPC response holding
//! one, or an array of those (several pages). The file written reproduces the tools (names,
//! titles, descriptions, annotations, `_meta.ui`, task support), the resources, resource
//! templates and prompts, with each schema translated into records, enums, unions, named types,
//! constraints, defaults and formats ([`types`]). What the language cannot say is widened and
//! reported on stderr, naming the place.

#[cfg(test)]
mod fuzzed;
mod live;
mod names;
pub mod openapi;
mod types;
mod url;

pub use url::Auth;

use std::io::Write as _;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};
use toolidl::source::{FileId, MemoryLoader, SourceId};

use types::{Gap, Side, Types, docs, required_set};

/// What `toolidl import` was asked.
pub struct Args {
    /// The saved listings; or
    pub file: Option<PathBuf>,
    /// the server to start and ask (a stdio server's command line); or
    pub command: Vec<String>,
    /// the running server to ask over Streamable HTTP,
    pub url: Option<String>,
    /// with this authorization.
    pub auth: url::Auth,
    /// Also write the listings read, as JSON.
    pub save_listing: Option<PathBuf>,
    /// The package of the file written (default: from the input file's or server's name).
    pub package: Option<String>,
    /// The service's name (default: from the package).
    pub service: Option<String>,
    /// Where to write the file (default: stdout).
    pub out: Option<PathBuf>,
}

/// Runs the command: 0 when the file was written (warnings name every gap), 1 when the input
/// cannot be read or is not a listing.
pub fn run(args: &Args) -> i32 {
    let (listing, source, stem) = match read_listing(args) {
        Ok(read) => read,
        Err(error) => {
            eprintln!("error: {error}");
            return 1;
        }
    };
    if let Some(path) = &args.save_listing {
        let text = serde_json::to_string_pretty(&listing).unwrap_or_default() + "\n";
        if let Err(error) = std::fs::write(path, text) {
            eprintln!("error: cannot write `{}`: {error}", path.display());
            return 1;
        }
    }
    let package = args.package.clone().unwrap_or_else(|| package_name(&stem));
    let service = args
        .service
        .clone()
        .unwrap_or_else(|| names::type_name(package.rsplit('.').next().unwrap_or(&package)));
    let imported = match import(&listing, &package, &service) {
        Ok(imported) => imported,
        Err(error) => {
            eprintln!("error: {source}: {error}");
            return 1;
        }
    };
    for gap in &imported.gaps {
        eprintln!("warning: {}: {}", gap.at, gap.what);
    }
    write_out(args.out.as_deref(), &imported.text)
}

/// Writes an imported file to `out`, else stdout: 0, or 1 with the error on stderr.
fn write_out(out: Option<&Path>, text: &str) -> i32 {
    let written = match out {
        Some(path) => std::fs::write(path, text).map_err(|e| (path.to_owned(), e)),
        None => {
            let mut stdout = std::io::stdout().lock();
            stdout
                .write_all(text.as_bytes())
                .and_then(|()| stdout.flush())
                .map_err(|e| (PathBuf::from("stdout"), e))
        }
    };
    match written {
        Ok(()) => 0,
        Err((path, error)) => {
            eprintln!("error: cannot write `{}`: {error}", path.display());
            1
        }
    }
}

/// The listings (from the file, or from the server started), what to call their source in
/// messages, and the name to derive the package from.
fn read_listing(args: &Args) -> Result<(Value, String, String), String> {
    match (&args.file, args.command.as_slice(), &args.url) {
        (Some(file), [], None) => {
            let text = std::fs::read_to_string(file)
                .map_err(|e| format!("cannot read `{}`: {e}", file.display()))?;
            let listing = serde_json::from_str(&text)
                .map_err(|e| format!("`{}` is not JSON: {e}", file.display()))?;
            Ok((listing, format!("`{}`", file.display()), stem(file)))
        }
        (None, [program, ..], None) => {
            let listed =
                live::list(&args.command).map_err(|e| format!("the server `{program}`: {e}"))?;
            let name = listed
                .server_name
                .clone()
                .unwrap_or_else(|| stem(Path::new(program)));
            Ok((listed.listing, format!("the server `{program}`"), name))
        }
        (None, [], Some(address)) => {
            let listed = url::list(address, &args.auth)
                .map_err(|e| format!("the server at {address}: {e}"))?;
            let name = listed
                .server_name
                .clone()
                .unwrap_or_else(|| url::host(address));
            Ok((listed.listing, format!("the server at {address}"), name))
        }
        _ => Err(
            "give one of a saved listing (FILE), a server to start (-- COMMAND ARGS…) or a running server's URL (--url URL)"
                .into(),
        ),
    }
}

/// An imported file: its text, in `toolidl fmt`'s layout, and every place it says less than
/// the original schemas.
#[derive(Debug)]
pub struct Imported {
    pub text: String,
    pub gaps: Vec<Gap>,
}

/// The `.tool` file of package `package`, one service `service`, that publishes `listing`.
///
/// The text is checked before it is returned: it parses, formats and resolves (an error here
/// is a bug of the import, reported with the text's diagnostics).
pub fn import(listing: &Value, package: &str, service: &str) -> Result<Imported, String> {
    let lists = Lists::read(listing)?;
    let mut types = Types::default();
    // A server ignores what its input objects do not declare; its results are closed.
    types.open_input = true;
    types.reserve(service);
    let mut members = Vec::new();
    let mut tools = Declared::default();
    for tool in &lists.tools {
        members.extend(tool_decl(&mut types, &mut tools, tool)?);
    }
    // Resources and templates are both `resource` declarations: one namespace.
    let mut resources = Declared::default();
    for resource in &lists.resources {
        members.extend(resource_decl(&mut types, &mut resources, resource, false)?);
    }
    for template in &lists.templates {
        members.extend(resource_decl(&mut types, &mut resources, template, true)?);
    }
    let mut prompts = Declared::default();
    for prompt in &lists.prompts {
        members.extend(prompt_decl(&mut types, &mut prompts, prompt)?);
    }
    // One `$schema` that every tool states is said once, on the service.
    let dialects: Vec<Option<&str>> = lists
        .tools
        .iter()
        .map(|t| {
            t.get("inputSchema")
                .and_then(|s| s.get("$schema"))
                .and_then(Value::as_str)
        })
        .collect();
    let mut service_attrs = Vec::new();
    if let Some(Some(shared)) = dialects.first()
        && dialects.iter().all(|d| d == &Some(*shared))
    {
        let attr = format!("@schema_dialect({})", names::string_literal(shared));
        for member in &mut members {
            *member = member
                .lines()
                .filter(|line| *line != attr)
                .map(|line| format!("{line}\n"))
                .collect();
        }
        service_attrs.push(attr);
    }
    assemble(package, service, &service_attrs, types, &members)
}

/// The file of package `package` with the declarations of `types` and service `service`
/// (after `service_attrs`) holding `members`, formatted, and checked to resolve.
pub(crate) fn assemble(
    package: &str,
    service: &str,
    service_attrs: &[String],
    types: Types,
    members: &[String],
) -> Result<Imported, String> {
    let mut text = format!("package {package};\n\n");
    for decl in &types.decls {
        text.push_str(decl);
        text.push_str("\n\n");
    }
    for attr in service_attrs {
        text.push_str(attr);
        text.push('\n');
    }
    text.push_str(&format!("service {service} {{\n"));
    for (i, member) in members.iter().enumerate() {
        if i > 0 {
            text.push('\n');
        }
        for line in member.lines() {
            text.push_str("    ");
            text.push_str(line);
            text.push('\n');
        }
    }
    text.push_str("}\n");
    let formatted = toolidl::fmt::format(FileId(0), &text).map_err(|diagnostics| {
        let messages: Vec<String> = diagnostics.iter().map(|d| d.message.clone()).collect();
        format!(
            "internal error: the imported text does not parse ({}):\n{text}",
            messages.join("; ")
        )
    })?;
    let output = toolidl::compile(
        &MemoryLoader::new(),
        SourceId::new("imported.tool"),
        formatted.clone(),
    );
    if output.has_errors() {
        return Err(format!(
            "internal error: the imported file does not resolve:\n{}\n{formatted}",
            output.render()
        ));
    }
    Ok(Imported {
        text: formatted,
        gaps: types.gaps,
    })
}

/// The entries of the listings.
#[derive(Default)]
struct Lists {
    tools: Vec<Map<String, Value>>,
    resources: Vec<Map<String, Value>>,
    templates: Vec<Map<String, Value>>,
    prompts: Vec<Map<String, Value>>,
}

impl Lists {
    fn read(value: &Value) -> Result<Lists, String> {
        let mut lists = Lists::default();
        lists.add(value)?;
        if lists.tools.is_empty()
            && lists.resources.is_empty()
            && lists.templates.is_empty()
            && lists.prompts.is_empty()
            && !is_listing(value)
        {
            return Err("not a listing: expected an object with `tools`, `resources`, `resourceTemplates` or `prompts` (a `tools/list` result), or an array of them".into());
        }
        Ok(lists)
    }

    fn add(&mut self, value: &Value) -> Result<(), String> {
        match value {
            Value::Array(pages) => pages.iter().try_for_each(|page| self.add(page)),
            Value::Object(object) if object.contains_key("result") => self.add(&object["result"]),
            Value::Object(object) => {
                for (key, list) in [
                    ("tools", &mut self.tools),
                    ("resources", &mut self.resources),
                    ("resourceTemplates", &mut self.templates),
                    ("prompts", &mut self.prompts),
                ] {
                    let Some(entries) = object.get(key) else {
                        continue;
                    };
                    let entries = entries
                        .as_array()
                        .ok_or_else(|| format!("`{key}` is not an array"))?;
                    for entry in entries {
                        let entry = entry
                            .as_object()
                            .ok_or_else(|| format!("an entry of `{key}` is not an object"))?;
                        list.push(entry.clone());
                    }
                }
                Ok(())
            }
            _ => Err("not a listing: expected a JSON object or array".into()),
        }
    }
}

fn is_listing(value: &Value) -> bool {
    match value {
        Value::Object(o) => ["tools", "resources", "resourceTemplates", "prompts"]
            .iter()
            .any(|k| o.contains_key(*k)),
        Value::Array(pages) => pages.iter().any(is_listing),
        _ => false,
    }
}

fn text<'a>(entry: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    entry.get(key).and_then(Value::as_str)
}

/// `@name("wire")` when the name the declaration gets by default differs from the wire name.
fn name_attr(default: &str, wire: &str) -> Option<String> {
    (default != wire).then(|| format!("@name({})", names::string_literal(wire)))
}

/// What a tool returns: as its listing says (its `outputSchema`, else content), or as an
/// OpenAPI operation's success response says.
pub(crate) enum Returns<'a> {
    Listing,
    Nothing,
    Text,
    Bytes,
    Schema(&'a Value),
}

/// The entries of one kind (tools, resources or prompts) declared so far: their wire names and
/// their declared names must both be distinct.
#[derive(Default)]
struct Declared {
    /// The name each entry was listed under, and the entry.
    listed: Vec<(String, Map<String, Value>)>,
    wires: Vec<String>,
    idents: Vec<String>,
    /// Resources: the URIs and URI templates published, each once (E0202).
    uris: Vec<String>,
}

/// What to do with an entry listed under a name an earlier one has.
enum Again {
    /// Leave it out (tools and prompts: clients call them by name, so only the first counts).
    LeaveOut,
    /// Publish it under another name (resources: read by their URI).
    Rename,
}

impl Declared {
    /// `None` when the entry is left out: it is listed again, the same (pages that overlap,
    /// silently) or not (with a gap), and `again` says to leave it out. Else its wire name
    /// (`wanted`, or the first free `wanted_2`… with a gap) and declared name (from
    /// `ident_of` the wire name, made distinct).
    fn claim(
        &mut self,
        types: &mut Types,
        at: &str,
        entry: &Map<String, Value>,
        (listed, wanted): (&str, String),
        again: Again,
        ident_of: impl Fn(&str) -> String,
    ) -> Option<(String, String)> {
        if let Some((_, earlier)) = self.listed.iter().find(|(name, _)| name == listed) {
            if earlier == entry {
                return None;
            }
            if let Again::LeaveOut = again {
                types_gap(
                    types,
                    at,
                    "listed again, differently: the later entry is left out",
                );
                return None;
            }
        }
        self.listed.push((listed.to_owned(), entry.clone()));
        let wire = names::unique(&wanted, &self.wires);
        if wire != wanted {
            types_gap(
                types,
                at,
                format!("`{wanted}` names an earlier entry too: published as `{wire}`"),
            );
        }
        let ident = names::unique(&ident_of(&wire), &self.idents);
        self.wires.push(wire.clone());
        self.idents.push(ident.clone());
        Some((wire, ident))
    }
}

/// The tool's declaration, `None` when it is left out.
fn tool_decl(
    types: &mut Types,
    tools: &mut Declared,
    tool: &Map<String, Value>,
) -> Result<Option<String>, String> {
    let listed = text(tool, "name").ok_or("a tool has no `name`")?;
    let at = format!("tool `{listed}`");
    let wanted = match names::tool_name_problem(listed) {
        None => listed.to_owned(),
        Some(problem) => {
            let name = names::tool_name(listed);
            types_gap(
                types,
                &at,
                format!("{problem}, which a tool name cannot have: published as `{name}`"),
            );
            name
        }
    };
    let Some((wire, ident)) = tools.claim(
        types,
        &at,
        tool,
        (listed, wanted),
        Again::LeaveOut,
        names::tool_ident,
    ) else {
        return Ok(None);
    };
    left_out(
        types,
        &at,
        tool,
        &[
            "name",
            "title",
            "description",
            "inputSchema",
            "outputSchema",
            "annotations",
            "execution",
        ],
        &["ui"],
    );
    let mut tool = tool.clone();
    tool.insert("name".into(), Value::from(wire));
    tool_decl_at(
        types,
        &tool,
        Some(&ident),
        &at,
        &format!("{at}, parameter"),
        Returns::Listing,
    )
    .map(Some)
}

/// The declaration of `tool`; gaps name `at` (the tool), its parameters `params_at`.
///
/// Its declared name is `ident`, else made from its name.
pub(crate) fn tool_decl_at(
    types: &mut Types,
    tool: &Map<String, Value>,
    ident: Option<&str>,
    at: &str,
    params_at: &str,
    returns: Returns<'_>,
) -> Result<String, String> {
    let wire = text(tool, "name").ok_or("a tool has no `name`")?;
    let ident = ident.map_or_else(|| names::tool_ident(wire), str::to_owned);
    let mut attrs: Vec<String> = name_attr(&names::derived_tool_name(&ident), wire)
        .into_iter()
        .collect();
    let title = text(tool, "title");
    let annotations = tool.get("annotations").and_then(Value::as_object);
    let annotation_title = annotations.and_then(|a| text(a, "title"));
    // Each title where the listing has it: one text for both, or each place apart.
    let quoted = names::string_literal;
    match (title, annotation_title) {
        (Some(t), Some(a)) if t == a => attrs.push(format!("@title({})", quoted(t))),
        (Some(t), Some(a)) => attrs.push(format!(
            "@title(tool: {}, annotations: {})",
            quoted(t),
            quoted(a)
        )),
        (Some(t), None) => attrs.push(format!("@title(tool: {})", quoted(t))),
        (None, Some(a)) => attrs.push(format!("@title(annotations: {})", quoted(a))),
        (None, None) => {}
    }
    if let Some(annotations) = annotations {
        for (key, attr) in [
            ("readOnlyHint", "read_only"),
            ("destructiveHint", "destructive"),
            ("idempotentHint", "idempotent"),
            ("openWorldHint", "open_world"),
        ] {
            match annotations.get(key) {
                Some(Value::Bool(true)) => attrs.push(format!("@{attr}")),
                Some(Value::Bool(false)) => attrs.push(format!("@{attr}(false)")),
                _ => {}
            }
        }
        for key in annotations.keys() {
            if ![
                "title",
                "readOnlyHint",
                "destructiveHint",
                "idempotentHint",
                "openWorldHint",
            ]
            .contains(&key.as_str())
            {
                types_gap(
                    types,
                    at,
                    format!("the annotation `{key}` has no attribute; left out"),
                );
            }
        }
    }
    if let Some(attr) = ui_attr(types, at, tool.get("_meta").and_then(|m| m.get("ui"))) {
        attrs.push(attr);
    }
    match tool
        .get("execution")
        .and_then(|e| e.get("taskSupport"))
        .and_then(Value::as_str)
    {
        // The listing's `execution.taskSupport` kept as listed; `optional` and `required`
        // also make it a task tool (W0406 says what a 2025-11-25 client gets).
        Some("forbidden") => attrs.push("@execution(task_support: forbidden)".into()),
        Some("optional") => attrs.push("@task(optional) @execution(task_support: optional)".into()),
        Some("required") => attrs.push("@task(required) @execution(task_support: required)".into()),
        Some(other) => types_gap(
            types,
            at,
            format!(
                "`execution.taskSupport` {} is none of forbidden, optional, required; left out",
                names::string_literal(other)
            ),
        ),
        None => {}
    }
    // `$schema`: one per tool in the file, written in both of its schemas.
    let dialect = |key: &str| {
        tool.get(key)
            .and_then(|s| s.get("$schema"))
            .and_then(Value::as_str)
    };
    let has_output = matches!(returns, Returns::Listing) && tool.get("outputSchema").is_some();
    let (input_dialect, output_dialect) = (dialect("inputSchema"), dialect("outputSchema"));
    if let Some(chosen) = input_dialect.or(output_dialect) {
        attrs.push(format!(
            "@schema_dialect({})",
            names::string_literal(chosen)
        ));
        let apart = match (input_dialect, output_dialect) {
            (Some(i), Some(o)) if i != o => Some(
                "`outputSchema.$schema` differs from `inputSchema.$schema`; the file writes the input's in both",
            ),
            (Some(_), None) if has_output => {
                Some("the `outputSchema` has no `$schema`; the file writes the input's in both")
            }
            (None, Some(_)) => {
                Some("the `inputSchema` has no `$schema`; the file writes the output's in both")
            }
            _ => None,
        };
        if let Some(gap) = apart {
            types_gap(types, at, gap.to_string());
        }
    }
    let input = tool
        .get("inputSchema")
        .cloned()
        .unwrap_or_else(|| serde_json::json!({"type": "object"}));
    let (params, open, camel) = types.with_defs(&input, |types| {
        let object = input.as_object().cloned().unwrap_or_default();
        let empty = Map::new();
        let properties = object
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        types.context = params_at.to_owned();
        types.side = Side::Input;
        types.scope = names::type_name(wire);
        let fields = types.fields(properties, &required_set(&object), "");
        let open = fields.open || object.get("additionalProperties") != Some(&Value::Bool(false));
        (fields.lines, open, fields.camel)
    });
    if open {
        attrs.push("@open".into());
    }
    if camel {
        attrs.push("@rename_all(\"camelCase\")".into());
    }
    let output = match returns {
        Returns::Listing => tool.get("outputSchema"),
        Returns::Schema(schema) => Some(schema),
        Returns::Nothing | Returns::Text | Returns::Bytes => None,
    };
    let returns = match (output, returns) {
        (Some(schema), returns) => {
            let hint = format!("{}Result", names::type_name(wire));
            types.context = match returns {
                Returns::Listing => format!("{at}, result"),
                _ => params_at.to_owned(),
            };
            types.side = Side::Output;
            let ty = types.with_defs(schema, |types| types.value(schema, &hint, ""));
            format!(" -> {}", ty.expr)
        }
        (None, Returns::Nothing) => String::new(),
        (None, Returns::Text) => " -> string".into(),
        (None, Returns::Bytes) => " -> bytes".into(),
        (None, _) => " -> content".into(),
    };
    Ok(member(
        text(tool, "description"),
        &attrs,
        &format!("tool {ident}"),
        &params,
        &returns,
    ))
}

/// The resource's declaration, `None` when it is left out.
fn resource_decl(
    types: &mut Types,
    resources: &mut Declared,
    resource: &Map<String, Value>,
    template: bool,
) -> Result<Option<String>, String> {
    let key = if template { "uriTemplate" } else { "uri" };
    let uri = text(resource, key).ok_or_else(|| format!("a resource has no `{key}`"))?;
    let listed = text(resource, "name").unwrap_or(uri);
    let at = format!("resource `{listed}`");
    if let Some(problem) = uri_problem(uri) {
        types_gap(
            types,
            &at,
            format!("{problem}, which the language does not accept: left out"),
        );
        return Ok(None);
    }
    if resources.uris.iter().any(|u| u == uri) {
        // A client reads a resource by its URI: only the first entry can be read.
        if !resources
            .listed
            .iter()
            .any(|(_, earlier)| earlier == resource)
        {
            types_gap(
                types,
                &at,
                format!(
                    "{key} {} is listed already: the later entry is left out",
                    names::string_literal(uri)
                ),
            );
        }
        return Ok(None);
    }
    let Some((wire, ident)) = resources.claim(
        types,
        &at,
        resource,
        (listed, listed.to_owned()),
        Again::Rename,
        names::member_ident,
    ) else {
        return Ok(None);
    };
    resources.uris.push(uri.to_owned());
    left_out(
        types,
        &at,
        resource,
        &[
            "uri",
            "uriTemplate",
            "name",
            "title",
            "description",
            "mimeType",
        ],
        &["ui"],
    );
    let mut attrs = vec![format!("@uri({})", names::string_literal(uri))];
    attrs.extend(name_attr(&ident, &wire));
    if let Some(title) = text(resource, "title") {
        attrs.push(format!("@title({})", names::string_literal(title)));
    }
    let mime = text(resource, "mimeType");
    if let Some(mime) = mime {
        attrs.push(format!("@mime({})", names::string_literal(mime)));
    }
    if let Some(ui) = resource.get("_meta").and_then(|m| m.get("ui")) {
        if uri.starts_with("ui://") {
            attrs.extend(view_attrs(types, &at, ui));
        } else {
            types_gap(
                types,
                &at,
                "`_meta.ui` describes an MCP Apps view, and the URI is not `ui://` (E0807); left out",
            );
        }
    }
    let mut idents = Vec::new();
    let params: Vec<String> = template_variables(uri)
        .into_iter()
        .map(|v| {
            let ident = names::unique(&names::field_ident(&v), &idents);
            idents.push(ident.clone());
            match ident == v {
                true => format!("{ident}: string"),
                false => format!("@json_name({}) {ident}: string", names::string_literal(&v)),
            }
        })
        .collect();
    let returns = if mime.is_some_and(is_binary) {
        " -> bytes"
    } else {
        " -> string"
    };
    Ok(Some(member(
        text(resource, "description"),
        &attrs,
        &format!("resource {ident}"),
        &params,
        returns,
    )))
}

/// Why the language refuses `uri` as a resource's `@uri` (E0805: not absolute, or a bad
/// template), if it does: asked of the compiler, on a file of that one resource.
fn uri_problem(uri: &str) -> Option<String> {
    let probe = format!(
        "package probe;\n\nservice Probe {{\n    @uri({}) resource r() -> string;\n}}\n",
        names::string_literal(uri)
    );
    refusal(probe, &["E0805"])
}

/// The message of the first error among `codes` that the compiler reports on `text` (a
/// probe: the language's own answer to whether a piece of the file can be written so).
fn refusal(text: String, codes: &[&str]) -> Option<String> {
    let output = toolidl::compile(&MemoryLoader::new(), SourceId::new("probe.tool"), text);
    output
        .diagnostics
        .iter()
        .find(|d| d.severity == toolidl::Severity::Error && codes.contains(&d.code))
        .map(|d| d.message.clone())
}

/// The prompt's declaration, `None` when it is left out.
fn prompt_decl(
    types: &mut Types,
    prompts: &mut Declared,
    prompt: &Map<String, Value>,
) -> Result<Option<String>, String> {
    let listed = text(prompt, "name").ok_or("a prompt has no `name`")?;
    let at = format!("prompt `{listed}`");
    let Some((wire, ident)) = prompts.claim(
        types,
        &at,
        prompt,
        (listed, listed.to_owned()),
        Again::LeaveOut,
        names::member_ident,
    ) else {
        return Ok(None);
    };
    let wire = wire.as_str();
    left_out(
        types,
        &at,
        prompt,
        &["name", "title", "description", "arguments"],
        &[],
    );
    let mut attrs: Vec<String> = name_attr(&ident, wire).into_iter().collect();
    if let Some(title) = text(prompt, "title") {
        attrs.push(format!("@title({})", names::string_literal(title)));
    }
    let mut params = Vec::new();
    let mut arguments: Vec<&str> = Vec::new();
    let mut idents = Vec::new();
    for argument in prompt
        .get("arguments")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
    {
        let Some(name) = text(argument, "name") else {
            types_gap(
                types,
                &format!("prompt `{wire}`"),
                "an argument has no `name`; left out",
            );
            continue;
        };
        if arguments.contains(&name) {
            types_gap(
                types,
                &format!("prompt `{wire}`"),
                format!("the argument `{name}` is listed again; the later one is left out"),
            );
            continue;
        }
        arguments.push(name);
        let ident = names::unique(&names::field_ident(name), &idents);
        idents.push(ident.clone());
        let mut line = docs(text(argument, "description"), "");
        if ident != name {
            line.push_str(&format!("@json_name({}) ", names::string_literal(name)));
        }
        let required = argument.get("required") == Some(&Value::Bool(true));
        // A prompt argument that may be left out is nullable (prompt parameters cannot be
        // `?:`): `required: false` either way.
        line.push_str(&format!(
            "{ident}: string{}",
            if required { "" } else { "?" }
        ));
        params.push(line);
    }
    Ok(Some(member(
        text(prompt, "description"),
        &attrs,
        &format!("prompt {ident}"),
        &params,
        " -> string",
    )))
}

/// `@ui` for a tool's `_meta.ui`, what `@ui` accepts of it (E0702, E0703): a `ui://` view and
/// a visibility of "model" and "app", each once, or a visibility alone (a tool without a
/// view); anything else is left out and said.
fn ui_attr(types: &mut Types, at: &str, ui: Option<&Value>) -> Option<String> {
    let ui = match ui? {
        Value::Object(ui) => ui,
        other => {
            types_gap(
                types,
                at,
                format!("`_meta.ui` {other} is not an object; left out"),
            );
            return None;
        }
    };
    for key in ui.keys() {
        if !["resourceUri", "visibility"].contains(&key.as_str()) {
            types_gap(
                types,
                at,
                format!("`_meta.ui.{key}` has no attribute; left out"),
            );
        }
    }
    let uri = match ui.get("resourceUri") {
        None => None,
        Some(Value::String(uri)) if uri.len() > "ui://".len() && uri.starts_with("ui://") => {
            Some(uri.as_str())
        }
        Some(other) => {
            let shown = other
                .as_str()
                .map_or_else(|| other.to_string(), names::string_literal);
            types_gap(
                types,
                at,
                format!("`_meta.ui.resourceUri` {shown} is not a `ui://` URI; left out"),
            );
            return None;
        }
    };
    let mut items: Vec<&str> = Vec::new();
    match ui.get("visibility") {
        Some(Value::Array(visibility)) => {
            for item in visibility {
                match item.as_str() {
                    Some(v @ ("model" | "app")) if !items.contains(&v) => items.push(v),
                    Some("model" | "app") => {}
                    _ => types_gap(
                        types,
                        at,
                        format!("the visibility {item} is neither \"model\" nor \"app\"; left out"),
                    ),
                }
            }
            if items.is_empty() {
                types_gap(
                    types,
                    at,
                    "an empty `_meta.ui.visibility`; left out (the default, both)",
                );
            }
        }
        Some(other) => types_gap(
            types,
            at,
            format!("`_meta.ui.visibility` {other} is not a list; left out"),
        ),
        None => {}
    }
    let visibility = (!items.is_empty()).then(|| {
        let items: Vec<String> = items.into_iter().map(names::string_literal).collect();
        format!("visibility: [{}]", items.join(", "))
    });
    match (uri, visibility) {
        (Some(uri), None) => Some(format!("@ui({})", names::string_literal(uri))),
        (Some(uri), Some(v)) => Some(format!("@ui({}, {v})", names::string_literal(uri))),
        (None, Some(v)) => Some(format!("@ui({v})")),
        (None, None) => {
            types_gap(
                types,
                at,
                "`_meta.ui` with neither a view (`resourceUri`) nor a visibility; left out",
            );
            None
        }
    }
}

/// `@csp`, `@permissions`, `@domain` and `@prefers_border` for a view's `_meta.ui` (MCP Apps),
/// what the language accepts of it (E0715, E0716): origins, the four permissions, a domain, a
/// boolean; anything else is left out and said.
fn view_attrs(types: &mut Types, at: &str, ui: &Value) -> Vec<String> {
    let Value::Object(ui) = ui else {
        types_gap(
            types,
            at,
            format!("`_meta.ui` {ui} is not an object; left out"),
        );
        return Vec::new();
    };
    let mut attrs = Vec::new();
    for (key, value) in ui {
        let gap = |types: &mut Types, what: String| types_gap(types, at, what);
        match (key.as_str(), value) {
            ("csp", Value::Object(csp)) => {
                let mut lists = Vec::new();
                for (list, origins) in csp {
                    let Some(arg) = CSP_LISTS.iter().find(|(k, _)| k == list).map(|(_, a)| a)
                    else {
                        gap(
                            types,
                            format!("`_meta.ui.csp.{list}` has no attribute; left out"),
                        );
                        continue;
                    };
                    let Value::Array(origins) = origins else {
                        gap(
                            types,
                            format!("`_meta.ui.csp.{list}` {origins} is not a list; left out"),
                        );
                        continue;
                    };
                    let mut kept: Vec<&str> = Vec::new();
                    for origin in origins {
                        let problem = match origin.as_str() {
                            Some(o) if kept.contains(&o) => Some(format!(
                                "the origin {} is listed twice in `_meta.ui.csp.{list}`; the second is left out",
                                names::string_literal(o)
                            )),
                            Some(o) => origin_refusal(o)
                                .map(|why| format!("in `_meta.ui.csp.{list}`, {why}; left out")),
                            None => Some(format!(
                                "`_meta.ui.csp.{list}` holds {origin}, not an origin; left out"
                            )),
                        };
                        match (problem, origin.as_str()) {
                            (Some(problem), _) => gap(types, problem),
                            (None, Some(o)) => kept.push(o),
                            (None, None) => {}
                        }
                    }
                    let kept: Vec<String> = kept.into_iter().map(names::string_literal).collect();
                    lists.push(format!("{arg}: [{}]", kept.join(", ")));
                }
                attrs.push(format!("@csp({})", lists.join(", ")));
            }
            ("permissions", Value::Object(permissions)) => {
                let mut words = Vec::new();
                for (key, value) in permissions {
                    let Some(word) = PERMISSIONS.iter().find(|(k, _)| k == key).map(|(_, w)| w)
                    else {
                        gap(
                            types,
                            format!(
                                "the permission `_meta.ui.permissions.{key}` has no attribute; left out"
                            ),
                        );
                        continue;
                    };
                    if value != &Value::Object(Map::new()) {
                        gap(
                            types,
                            format!("`_meta.ui.permissions.{key}` is {value}, written `{{}}`"),
                        );
                    }
                    words.push(*word);
                }
                attrs.push(format!("@permissions({})", words.join(", ")));
            }
            ("domain", Value::String(domain)) if !domain.trim().is_empty() => {
                attrs.push(format!("@domain({})", names::string_literal(domain)));
            }
            ("prefersBorder", Value::Bool(true)) => attrs.push("@prefers_border".into()),
            ("prefersBorder", Value::Bool(false)) => attrs.push("@prefers_border(false)".into()),
            ("csp" | "permissions" | "domain" | "prefersBorder", other) => {
                let expected = match key.as_str() {
                    "csp" | "permissions" => "an object",
                    "domain" => "a text that is not blank",
                    _ => "a boolean",
                };
                gap(
                    types,
                    format!("`_meta.ui.{key}` {other} is not {expected}; left out"),
                );
            }
            _ => gap(
                types,
                format!("`_meta.ui.{key}` has no attribute; left out"),
            ),
        }
    }
    attrs
}

/// The lists of `_meta.ui.csp` and the arguments of `@csp` that write them.
const CSP_LISTS: [(&str, &str); 4] = [
    ("connectDomains", "connect_domains"),
    ("resourceDomains", "resource_domains"),
    ("frameDomains", "frame_domains"),
    ("baseUriDomains", "base_uri_domains"),
];

/// The keys of `_meta.ui.permissions` and the words of `@permissions` that write them.
const PERMISSIONS: [(&str, &str); 4] = [
    ("camera", "camera"),
    ("microphone", "microphone"),
    ("geolocation", "geolocation"),
    ("clipboardWrite", "clipboard_write"),
];

/// Why the language refuses `origin` in `@csp` (E0715), if it does: asked of the compiler.
fn origin_refusal(origin: &str) -> Option<String> {
    let probe = format!(
        "package probe;\n\nservice Probe {{\n    @uri(\"ui://probe\") @csp(connect_domains: [{}]) resource r() -> string;\n}}\n",
        names::string_literal(origin)
    );
    refusal(probe, &["E0715"])
}

/// Says what of a listing's entry the file leaves out: each member but `kept`, and each
/// `_meta` key but `kept_meta` (read where the entry is written).
fn left_out(
    types: &mut Types,
    at: &str,
    entry: &Map<String, Value>,
    kept: &[&str],
    kept_meta: &[&str],
) {
    for key in entry.keys() {
        if key != "_meta" && !kept.contains(&key.as_str()) {
            types_gap(types, at, format!("`{key}` has no attribute; left out"));
        }
    }
    for key in entry
        .get("_meta")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|meta| meta.keys())
    {
        if !kept_meta.contains(&key.as_str()) {
            types_gap(
                types,
                at,
                format!("`_meta.{key}` has no attribute; left out"),
            );
        }
    }
}

fn types_gap(types: &mut Types, at: &str, what: impl Into<String>) {
    types.gaps.push(Gap {
        at: at.to_owned(),
        what: what.into(),
    });
}

/// A member's text: docs, attributes, `keyword name(params) -> T;`.
fn member(
    description: Option<&str>,
    attrs: &[String],
    head: &str,
    params: &[String],
    returns: &str,
) -> String {
    let mut out = docs(description, "");
    for attr in attrs {
        out.push_str(attr);
        out.push('\n');
    }
    out.push_str(head);
    out.push('(');
    if !params.is_empty() {
        out.push('\n');
        for param in params {
            for line in param.lines() {
                out.push_str("    ");
                out.push_str(line);
                out.push('\n');
            }
            // The comma after the parameter's last line.
            out.pop();
            out.push_str(",\n");
        }
    }
    out.push(')');
    out.push_str(returns);
    out.push(';');
    out
}

/// The variables of an RFC 6570 template, in order: `{id}`, `{+path}`, `{?q,page}`.
fn template_variables(template: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = template;
    while let Some(start) = rest.find('{') {
        let Some(end) = rest[start..].find('}') else {
            break;
        };
        let expression = &rest[start + 1..start + end];
        let expression = expression.trim_start_matches(['+', '#', '.', '/', ';', '?', '&']);
        for variable in expression.split(',') {
            let name = variable
                .split(':')
                .next()
                .unwrap_or(variable)
                .trim_end_matches('*');
            if !name.is_empty() && !out.iter().any(|v| v == name) {
                out.push(name.to_owned());
            }
        }
        rest = &rest[start + end + 1..];
    }
    out
}

/// A MIME type whose contents are not text: read as `bytes`.
fn is_binary(mime: &str) -> bool {
    let mime = mime.split(';').next().unwrap_or(mime).trim();
    ["image/", "audio/", "video/", "font/"]
        .iter()
        .any(|p| mime.starts_with(p))
        || [
            "application/octet-stream",
            "application/pdf",
            "application/zip",
        ]
        .contains(&mime)
}

fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "imported".into())
}

/// A package name from a file or server name: `server-everything` → `server_everything`.
fn package_name(text: &str) -> String {
    let parts: Vec<String> = text
        .split('.')
        .map(|p| {
            let ident = names::member_ident(p);
            if ident == "value" {
                "imported".into()
            } else {
                ident
            }
        })
        .collect();
    parts.join(".")
}

#[cfg(test)]
mod tests {
    use super::import;

    fn imported(listing: serde_json::Value) -> super::Imported {
        match import(&listing, "probe", "Probe") {
            Ok(imported) => imported,
            Err(error) => panic!("{error}"),
        }
    }

    /// What an entry says that the file cannot is warned about, never dropped in silence:
    /// the official App servers' deprecated `_meta["ui/resourceUri"]` beside `_meta.ui`,
    /// members with no attribute. An app-only tool's `_meta.ui` without a view is kept.
    #[test]
    fn what_a_listing_entry_says_and_the_file_cannot_is_warned_about() {
        let out = imported(serde_json::json!({
            "tools": [
                {"name": "show", "inputSchema": {"type": "object"}, "icons": [],
                 "_meta": {"ui": {"resourceUri": "ui://app/view.html", "csp": {}},
                           "ui/resourceUri": "ui://app/view.html"}},
                {"name": "poll", "inputSchema": {"type": "object"},
                 "_meta": {"ui": {"visibility": ["app"]}}},
            ],
            "resources": [{"uri": "ui://app/view.html", "name": "view", "size": 10,
                           "_meta": {"ui": {"prefersBorder": true, "x": 1}}},
                          {"uri": "docs://readme", "name": "readme",
                           "_meta": {"ui": {"prefersBorder": true}}}],
            "prompts": [{"name": "p", "icons": [], "_meta": {"x": 1}}],
        }));
        let gaps: Vec<String> = out
            .gaps
            .iter()
            .map(|g| format!("{}: {}", g.at, g.what))
            .collect();
        assert_eq!(
            gaps,
            [
                "tool `show`: `icons` has no attribute; left out",
                "tool `show`: `_meta.ui/resourceUri` has no attribute; left out",
                "tool `show`: `_meta.ui.csp` has no attribute; left out",
                "resource `view`: `size` has no attribute; left out",
                "resource `view`: `_meta.ui.x` has no attribute; left out",
                "resource `readme`: `_meta.ui` describes an MCP Apps view, and the URI is not `ui://` (E0807); left out",
                "prompt `p`: `icons` has no attribute; left out",
                "prompt `p`: `_meta.x` has no attribute; left out",
            ]
        );
        for kept in [
            "@ui(\"ui://app/view.html\") @open\n    tool show(",
            "@ui(visibility: [\"app\"]) @open\n    tool poll(",
            "@uri(\"ui://app/view.html\") @prefers_border\n    resource view(",
        ] {
            assert!(out.text.contains(kept), "{kept}\n{}", out.text);
        }
    }

    /// A view's `_meta.ui` becomes `@csp`, `@permissions`, `@domain` and `@prefers_border`;
    /// what the language refuses of it (an origin with a path, an unknown permission, a
    /// border that is not a boolean) is left out and said.
    #[test]
    fn a_view_s_metadata_is_kept_and_what_the_language_refuses_is_warned_about() {
        let out = imported(serde_json::json!({
            "resources": [{"uri": "ui://app/view.html", "name": "view", "_meta": {"ui": {
                "csp": {"connectDomains": ["https://api.example.com", "https://x.example.com/v1"],
                        "resourceDomains": [], "scriptDomains": ["https://a.example.com"]},
                "permissions": {"clipboardWrite": {}, "usb": {}},
                "domain": "view.example.com",
                "prefersBorder": "yes"}}}],
        }));
        let gaps: Vec<String> = out
            .gaps
            .iter()
            .map(|g| format!("{}: {}", g.at, g.what))
            .collect();
        assert_eq!(
            gaps,
            [
                "resource `view`: in `_meta.ui.csp.connectDomains`, \"https://x.example.com/v1\" is not an origin: it has a path (an origin ends after the host or the port); left out",
                "resource `view`: `_meta.ui.csp.scriptDomains` has no attribute; left out",
                "resource `view`: the permission `_meta.ui.permissions.usb` has no attribute; left out",
                "resource `view`: `_meta.ui.prefersBorder` \"yes\" is not a boolean; left out",
            ]
        );
        let kept = "    @csp(connect_domains: [\"https://api.example.com\"], resource_domains: [])\n    @permissions(clipboard_write)\n    @domain(\"view.example.com\")\n    resource view(";
        assert!(out.text.contains(kept), "{}", out.text);
    }

    /// JavaScript's non-Unicode dialect (`^agent\_run\_`) ended in an internal error: it is
    /// rewritten for Unicode mode, without a warning.
    #[test]
    fn a_pattern_of_the_non_unicode_dialect_is_rewritten() {
        let out = imported(serde_json::json!({"tools": [{"name": "t", "inputSchema": {
            "type": "object",
            "properties": {"id": {"type": "string", "pattern": "^agent\\_run\\_\\-{x}"}},
        }}]}));
        assert!(
            out.text.contains(r#"@pattern("^agent_run_-\\{x\\}") id"#),
            "{}",
            out.text
        );
        assert!(out.gaps.is_empty(), "{:?}", out.gaps);
        let out = imported(serde_json::json!({"tools": [{"name": "t", "inputSchema": {
            "type": "object",
            "properties": {"id": {"type": "string", "pattern": "(?P<x>a)"}},
        }}]}));
        assert_eq!(out.gaps.len(), 1, "{:?}", out.gaps);
        assert!(out.gaps[0].what.contains("`pattern` left out"));
    }

    /// zod writes `$ref: #/properties/a` for a schema used twice: followed, not `json`.
    #[test]
    fn a_ref_into_the_schema_outside_defs_is_followed() {
        let out = imported(serde_json::json!({"tools": [{"name": "t", "inputSchema": {
            "type": "object",
            "properties": {
                "a": {"type": "boolean"},
                "b": {"$ref": "#/properties/a", "description": "B"},
                "c": {"$ref": "#/properties/c"},
            },
        }}]}));
        assert!(out.text.contains("b?: bool"), "{}", out.text);
        assert!(out.text.contains("c?: json"), "{}", out.text);
        assert_eq!(out.gaps.len(), 1, "{:?}", out.gaps);
        assert!(out.gaps[0].what.contains("leads back into itself"));
    }
}
