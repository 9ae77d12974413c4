//! The registry: the services being served, the tool-name index, and the listings,
//! rendered once per revision.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, OnceLock};

use serde_json::value::RawValue;

use crate::args::{Arguments, Profile};
use crate::context::RequestContext;
use crate::protocol::{Revision, one_line, unknown_listing_keys, unknown_tool_keys};
use crate::service::{BoxFuture, Service, ToolResult};

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Resources = 0,
    Templates = 1,
    Prompts = 2,
}

/// A tool as the server lists it: under the profile its service is served with.
pub(crate) struct ListedTool {
    /// Its service, in [`Registry::services`].
    service: usize,
    /// The name it is listed and called by.
    pub name: Cow<'static, str>,
    /// The name its service knows it by (the `.tool` file's): what `call_tool` is given.
    pub own_name: Cow<'static, str>,
    /// The `Tool` object, as listed.
    pub json: Cow<'static, str>,
    pub scopes: &'static [&'static str],
    /// The profile whose forms its arguments are read in.
    pub profile: Profile,
    /// How deep its arguments may nest ([`ServerBuilder::max_depth`]).
    pub max_depth: u32,
    /// [`ToolDef::null_result`](field@crate::ToolDef::null_result).
    pub null_result: bool,
    /// Its limits ([`super::ToolLimits`]), when it has any.
    pub gate: Option<Arc<super::limits::ToolGate>>,
}

impl ListedTool {
    /// Starts the call of the tool: its arguments are read in its profile's forms, under the
    /// server's nesting limit.
    pub fn call(
        &self,
        service: &Arc<dyn Service>,
        args: &RawValue,
        ctx: RequestContext,
    ) -> BoxFuture<ToolResult> {
        let args = Arguments::new(args)
            .with_profile(self.profile)
            .with_max_depth(self.max_depth);
        service.clone().call_tool(&self.own_name, args, ctx)
    }
}

/// The services, the tool-name index and the listings rendered per revision.
pub(crate) struct Registry {
    pub services: Vec<Arc<dyn Service>>,
    /// The tools in listing order, the first of each name (services listing one name twice
    /// are warned about).
    listed: Vec<ListedTool>,
    tools: HashMap<String, usize>,
    /// Resource, template and prompt JSON on one line each, in listing order, taken once
    /// when the services are registered.
    pub(super) listings: [Vec<Cow<'static, str>>; 3],
    /// The same per revision, without the keys it does not define; built on first use.
    revised_listings: [[OnceLock<Vec<Cow<'static, str>>>; Revision::ALL.len()]; 3],
    /// Tool JSON per revision (keys a revision does not know are removed), built on first use.
    tool_listings: [OnceLock<Vec<String>>; Revision::ALL.len()],
    /// The scopes of each item of `listings` and of `tool_listings`, in the same order.
    listing_scopes: [Vec<&'static [&'static str]>; 3],
    tool_scopes: Vec<&'static [&'static str]>,
    /// The listed resources' `uri`s and the templates' `uriTemplate`s, for [`Registry::owns_resource`].
    resource_uris: HashSet<String>,
    uri_templates: Vec<String>,
    /// A tool links a view (`_meta.ui`) or a resource is one (`ui://`): the server serves
    /// the MCP Apps extension.
    has_views: bool,
}

impl Registry {
    /// The registry of `services`, each served with `profile`, else its own default, their
    /// arguments read under `max_depth`.
    pub(super) fn new(
        services: Vec<Arc<dyn Service>>,
        profile: Option<Profile>,
        max_depth: u32,
        limits: &super::Limits,
    ) -> Self {
        let mut tools = HashMap::new();
        let mut listed = Vec::new();
        for (i, s) in services.iter().enumerate() {
            let profile = profile.unwrap_or_else(|| s.default_profile());
            for t in s.tools() {
                let (name, json) = t.published(profile);
                if tools.contains_key(name.as_ref()) {
                    tracing::warn!(tool = %name, "a tool name is listed twice; the first service wins");
                    continue;
                }
                tools.insert(name.to_string(), listed.len());
                let gate = limits.gate(s, &name, t);
                listed.push(ListedTool {
                    service: i,
                    name,
                    own_name: t.name.clone(),
                    json,
                    scopes: t.scopes,
                    profile,
                    max_depth,
                    null_result: t.null_result,
                    gate,
                });
            }
        }
        let defs = |kind: Kind| {
            services.iter().flat_map(move |s| match kind {
                Kind::Resources => s.resources(),
                Kind::Templates => s.resource_templates(),
                Kind::Prompts => s.prompts(),
            })
        };
        let kinds = [Kind::Resources, Kind::Templates, Kind::Prompts];
        let listings: [Vec<Cow<'static, str>>; 3] = kinds.map(|kind| {
            defs(kind)
                .map(|d| match one_line(&d.json) {
                    Cow::Borrowed(_) => d.json.clone(),
                    Cow::Owned(flat) => Cow::Owned(flat),
                })
                .collect()
        });
        let listing_scopes = kinds.map(|kind| defs(kind).map(|d| d.scopes).collect());
        let tool_scopes = listed.iter().map(|t| t.scopes).collect();
        let field = |json: &str, key: &str| {
            serde_json::from_str::<serde_json::Value>(json)
                .ok()
                .and_then(|v| v.get(key)?.as_str().map(str::to_owned))
        };
        let resource_uris: HashSet<String> = listings[Kind::Resources as usize]
            .iter()
            .filter_map(|j| field(j, "uri"))
            .collect();
        let uri_templates = listings[Kind::Templates as usize]
            .iter()
            .filter_map(|j| field(j, "uriTemplate"))
            .collect();
        let has_views = listed.iter().any(|t| links_view(&t.json))
            || resource_uris.iter().any(|uri| uri.starts_with("ui://"));
        Registry {
            services,
            listed,
            tools,
            has_views,
            resource_uris,
            uri_templates,
            listings,
            listing_scopes,
            tool_scopes,
            revised_listings: Default::default(),
            tool_listings: Default::default(),
        }
    }

    /// The tool listed as `name`, and its service.
    pub fn tool(&self, name: &str) -> Option<(&Arc<dyn Service>, &ListedTool)> {
        let tool = &self.listed[*self.tools.get(name)?];
        Some((&self.services[tool.service], tool))
    }

    /// The tools as listed, in listing order.
    pub fn listed_tools(&self) -> &[ListedTool] {
        &self.listed
    }

    pub(crate) fn tool_names(&self) -> Vec<String> {
        self.listed.iter().map(|t| t.name.to_string()).collect()
    }

    pub fn has_tools(&self) -> bool {
        !self.tools.is_empty()
    }

    pub fn has_resources(&self) -> bool {
        self.services
            .iter()
            .any(|s| !s.resources().is_empty() || !s.resource_templates().is_empty())
    }

    /// Whether the server serves MCP Apps views: a tool with `_meta.ui`, or a `ui://`
    /// resource.
    pub fn has_views(&self) -> bool {
        self.has_views
    }

    pub fn has_prompts(&self) -> bool {
        self.services.iter().any(|s| !s.prompts().is_empty())
    }

    /// Whether `uri` is a listed resource or matches a listed resource template.
    pub fn owns_resource(&self, uri: &str) -> bool {
        self.resource_uris.contains(uri)
            || self
                .uri_templates
                .iter()
                .any(|t| crate::uri_template::capture(t, uri).is_some())
    }

    pub(super) fn has_task_tools(&self) -> bool {
        self.listed
            .iter()
            .any(|t| self.services[t.service].task_support(&t.own_name).is_some())
    }

    pub fn has_completions(&self) -> bool {
        self.services.iter().any(|s| s.has_completions())
    }

    /// Tool JSON objects for `rev`, in listing order.
    pub fn tool_listings(&self, rev: Revision) -> &[String] {
        self.tool_listings[rev.index()].get_or_init(|| {
            let strip = unknown_tool_keys(rev);
            self.listed
                .iter()
                .map(|t| {
                    let json = match t.null_result && rev.has_any_structured_content() {
                        true => Cow::Owned(output_may_be_null(&t.json)),
                        false => Cow::Borrowed(t.json.as_ref()),
                    };
                    // A hand-written listing may be pretty-printed: one line per message.
                    let json = strip_keys(&json, strip);
                    match one_line(&json) {
                        Cow::Borrowed(_) => json,
                        Cow::Owned(flat) => flat,
                    }
                })
                .collect()
        })
    }

    /// The scopes of each tool of [`Registry::tool_listings`], in the same order.
    pub fn tool_scopes(&self) -> &[&'static [&'static str]] {
        &self.tool_scopes
    }

    /// The scopes of each item of [`Registry::listing_jsons`], in the same order.
    pub fn listing_scopes(&self, kind: Kind) -> &[&'static [&'static str]] {
        &self.listing_scopes[kind as usize]
    }

    /// Resource, template or prompt JSON objects for `rev`, in listing order.
    pub fn listing_jsons(&self, kind: Kind, rev: Revision) -> &[Cow<'static, str>] {
        let all = &self.listings[kind as usize];
        let keys = unknown_listing_keys(rev);
        if keys.is_empty() {
            return all;
        }
        self.revised_listings[kind as usize][rev.index()].get_or_init(|| {
            all.iter()
                .map(|json| match strip_listing_keys(json, keys, kind) {
                    Some(stripped) => Cow::Owned(stripped),
                    None => json.clone(),
                })
                .collect()
        })
    }
}

/// Removes `keys` from a listing object (and `title` from a prompt's arguments when `keys`
/// has it); `None` when there was nothing to remove.
fn strip_listing_keys(json: &str, keys: &[&str], kind: Kind) -> Option<String> {
    let mut obj: serde_json::Map<String, serde_json::Value> = serde_json::from_str(json).ok()?;
    let mut changed = false;
    for k in keys {
        changed |= obj.shift_remove(*k).is_some();
    }
    if kind == Kind::Prompts
        && keys.contains(&"title")
        && let Some(serde_json::Value::Array(arguments)) = obj.get_mut("arguments")
    {
        for argument in arguments.iter_mut().filter_map(|a| a.as_object_mut()) {
            changed |= argument.shift_remove("title").is_some();
        }
    }
    changed.then(|| serde_json::Value::Object(obj).to_string())
}

/// `json`, a `Tool` object, with its `outputSchema`'s `"type": "object"` widened to
/// `["object", "null"]` (unchanged when it has no such type or does not parse).
fn output_may_be_null(json: &str) -> String {
    let Ok(mut tool) = serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(json)
    else {
        return json.to_owned();
    };
    match tool.get_mut("outputSchema").and_then(|s| s.get_mut("type")) {
        Some(t) if t == "object" => *t = serde_json::json!(["object", "null"]),
        _ => return json.to_owned(),
    }
    serde_json::Value::Object(tool).to_string()
}

/// Removes top-level `keys` from a JSON object text; other text is kept as written.
fn strip_keys(json: &str, keys: &[&str]) -> String {
    if keys.is_empty() {
        return json.to_owned();
    }
    match serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(json) {
        Ok(mut obj) if keys.iter().any(|k| obj.contains_key(*k)) => {
            for k in keys {
                obj.shift_remove(*k);
            }
            serde_json::Value::Object(obj).to_string()
        }
        _ => json.to_owned(),
    }
}

/// Whether a tool's listing JSON links it to an MCP Apps view (`_meta.ui`).
fn links_view(json: &str) -> bool {
    json.contains(r#""ui""#)
        && serde_json::from_str::<serde_json::Value>(json).is_ok_and(|t| {
            t.pointer("/_meta/ui")
                .is_some_and(serde_json::Value::is_object)
        })
}
