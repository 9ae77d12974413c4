//! The server: identity, options and the registry of services.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, OnceLock, RwLock, Weak};

use serde_json::value::RawValue;

use crate::args::{Arguments, Profile};
use crate::cluster::{Change, ChangeBus, SessionDirectory};
use crate::context::RequestContext;
use crate::output::CachePolicy;
use crate::peer::{ConnShared, ListKind};
use crate::protocol::one_line;
use crate::protocol::{Revision, unknown_listing_keys, unknown_tool_keys};
use crate::seal::{self, RequestStateKey, Sealer};
use crate::service::{BoxFuture, IntoService, Service, ToolResult};
use crate::tasks::{MemoryTaskStore, TaskInput, TaskStore, TaskSupport, TaskTool, Tasks};

/// An MCP server: one or more services, served to any number of connections.
#[derive(Clone)]
pub struct Server {
    pub(crate) shared: Arc<ServerShared>,
}

pub(crate) struct ServerShared {
    /// `Implementation` JSON: `{"name":…,"title":…,"version":…}`.
    pub info_json: String,
    /// The same without `title`, for revisions before 2025-06-18.
    pub info_json_untitled: String,
    pub instructions: Option<String>,
    pub list_changed: bool,
    pub page_size: usize,
    pub cache: CachePolicy,
    pub max_pending_calls: usize,
    /// How deep a client's values may nest ([`ServerBuilder::max_depth`]).
    pub max_depth: u32,
    /// The profile every service is served with ([`ServerBuilder::profile`]); `None`: each
    /// its own default.
    profile: Option<Profile>,
    /// Resource URIs made subscribable by [`ServerBuilder::subscribable`].
    subscribable: HashSet<String>,
    registry: RwLock<Arc<Registry>>,
    connections: Mutex<Vec<Weak<ConnShared>>>,
    /// Tools declared with [`ServerBuilder::task_tool`].
    task_tools: HashMap<String, TaskTool>,
    pub tasks: Tasks,
    /// Services that may be added and removed at run time, by name
    /// ([`ServerBuilder::optional_service`]).
    optional: Vec<(String, Arc<dyn Service>)>,
    /// What carries changes to the other instances ([`ServerBuilder::redis`]).
    bus: Option<Arc<dyn ChangeBus>>,
    /// Where HTTP sessions are recorded for the other instances ([`ServerBuilder::redis`]).
    #[cfg_attr(not(all(feature = "http", feature = "redis")), allow(dead_code))]
    pub session_directory: Option<Arc<dyn SessionDirectory>>,
    /// What seals and opens the 2026-07-28 `requestState`.
    pub sealer: Sealer,
}

/// Builds a [`Server`].
pub struct ServerBuilder {
    name: String,
    version: String,
    title: Option<String>,
    instructions: Option<String>,
    services: Vec<Arc<dyn Service>>,
    list_changed: bool,
    page_size: usize,
    cache: CachePolicy,
    max_pending_calls: usize,
    max_depth: u32,
    profile: Option<Profile>,
    subscribable: HashSet<String>,
    task_tools: HashMap<String, TaskTool>,
    task_store: Option<Arc<dyn TaskStore>>,
    optional: Vec<(String, Arc<dyn Service>)>,
    bus: Option<Arc<dyn ChangeBus>>,
    session_directory: Option<Arc<dyn SessionDirectory>>,
    state_keys: Vec<RequestStateKey>,
    state_ttl: std::time::Duration,
    single_use_state: bool,
}

impl ServerBuilder {
    /// The keys that seal and open the `requestState` of 2026-07-28 `input_required`
    /// results: the first seals, every one opens (to rotate, put the new key first and keep
    /// the old one after it for as long as its states may live, [`Self::request_state_ttl`]).
    ///
    /// Default: 32 random bytes drawn when the server is built, so states open in this
    /// process only. **Instances behind a load balancer must share their keys**: a retry may
    /// reach another instance than the one that issued its state. See
    /// [`RequestStateKey`] for making one, and `docs/runtime.md` ("Sealed request state").
    pub fn request_state_keys(mut self, keys: impl IntoIterator<Item = RequestStateKey>) -> Self {
        self.state_keys = keys.into_iter().collect();
        self
    }

    /// How long a sealed `requestState` may be presented after it was issued (default 10
    /// minutes); a later retry is refused with -32602 (`requestState has expired`) and the
    /// client starts the request again without it.
    pub fn request_state_ttl(mut self, ttl: std::time::Duration) -> Self {
        self.state_ttl = ttl;
        self
    }

    /// Each sealed `requestState` may be presented once only (default: as often as the
    /// client retries until it expires): for flows that must not be replayed (a payment
    /// confirmed once). The state's nonce is recorded in the [task store](Self::task_store)
    /// until the state expires ([`TaskStore::use_once`]: in memory, in a
    /// [`DirTaskStore`](crate::tasks::DirTaskStore), in Redis), so every instance sharing
    /// that store refuses a second use with -32602 (`requestState was already used`). A
    /// retry that failed on its way back (a lost reply) cannot be sent again with the same
    /// state either: the client starts over.
    pub fn single_use_request_state(mut self, enabled: bool) -> Self {
        self.single_use_state = enabled;
        self
    }

    /// Declares the tool `name` task-capable (the `io.modelcontextprotocol/tasks`
    /// extension, 2026-07-28): a `tools/call` of it from a request that declares the
    /// extension answers a `CreateTaskResult` at once and runs in the background, observed
    /// with `tasks/get`. `input` says whether the handler's requests for input park the
    /// task or go back to the client before the task exists. Advertises the extension in
    /// `server/discover`. Generated services declare their `@task` tools themselves
    /// ([`Service::task_support`]); this is for any other tool.
    pub fn task_tool(
        mut self,
        name: impl Into<String>,
        support: TaskSupport,
        input: TaskInput,
    ) -> Self {
        self.task_tools
            .insert(name.into(), TaskTool { support, input });
        self
    }

    /// Where task records are kept (default: a [`MemoryTaskStore`] in this process). Give
    /// every instance behind a load balancer one shared store, a
    /// [`DirTaskStore`](crate::tasks::DirTaskStore) or your own, so that any of them answers
    /// for any task.
    pub fn task_store(mut self, store: Arc<dyn TaskStore>) -> Self {
        self.task_store = Some(store);
        self
    }

    /// Shares this server's state with the other instances that use the same Redis server
    /// (see [`crate::cluster`]): tasks in a [`RedisTaskStore`](crate::cluster::RedisTaskStore)
    /// (unless [`ServerBuilder::task_store`] names another store), resource updates and
    /// changes to the [optional services](ServerBuilder::optional_service) on its bus, and
    /// which instance holds each HTTP session, so that a session's requests reaching another
    /// instance are forwarded to it (`http::HttpConfig::advertise`).
    #[cfg(feature = "redis")]
    pub fn redis(mut self, redis: &crate::cluster::Redis) -> Self {
        if self.task_store.is_none() {
            self.task_store = Some(Arc::new(redis.task_store()));
        }
        self.bus = Some(Arc::new(redis.clone()));
        self.session_directory = Some(Arc::new(redis.clone()));
        self
    }

    /// Declares a service that is not served at first but may be added and removed at run
    /// time with [`Server::add_service`] and [`Server::remove_service`] (with this very
    /// `Arc`). Behind a load balancer ([`ServerBuilder::redis`]) every instance declares
    /// the same services under the same names, and adding or removing one on any instance
    /// does so on all of them. A service added without this declaration changes only the
    /// instance that adds it.
    pub fn optional_service(mut self, name: impl Into<String>, service: Arc<dyn Service>) -> Self {
        self.optional.push((name.into(), service));
        self
    }

    /// Adds a service; its items are listed after those of earlier services.
    ///
    /// ```ignore
    /// let server = Server::builder("weather", "1.0.0")
    ///     .service(WeatherToolsServer::new(Weather)) // a generated server, or any Service
    ///     .build();
    /// ```
    pub fn service(mut self, service: impl IntoService) -> Self {
        self.services.push(service.into_service());
        self
    }

    /// `title` in `serverInfo`.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// `instructions` in the `initialize` and `server/discover` results.
    pub fn instructions(mut self, text: impl Into<String>) -> Self {
        self.instructions = Some(text.into());
        self
    }

    /// Services may be added or removed at run time: advertises `listChanged` and sends
    /// `notifications/*/list_changed` to initialized connections when that happens.
    pub fn list_changed(mut self, enabled: bool) -> Self {
        self.list_changed = enabled;
        self
    }

    /// Lets clients subscribe to the resource `uri` (of any service), as if its service's
    /// [`Service::subscribable`] said so, and advertises `resources.subscribe`: the way to
    /// make a resource of a service that does not declare subscriptions itself (generated
    /// code, today) subscribable. Announce its changes with [`Server::notify_resource_updated`].
    pub fn subscribable(mut self, uri: impl Into<String>) -> Self {
        self.subscribable.insert(uri.into());
        self
    }

    /// Items per page of `tools/list`, `resources/list`, … (default 100).
    pub fn page_size(mut self, n: usize) -> Self {
        self.page_size = n.max(1);
        self
    }

    /// How many calls (`tools/call`, `resources/read`, `prompts/get`,
    /// `completion/complete`) one connection may have running at once (default 256, at
    /// least 1), so that a client flooding a connection cannot grow the server without
    /// bound. Over stdio, the server stops reading while the limit is reached (the client's
    /// writes block until a call ends; after 5 seconds without one, it reads on). Elsewhere
    /// (an HTTP session, [`Connection`](crate::transport::Connection)), one call more is refused at
    /// once with [`code::SERVER_BUSY`](crate::protocol::code::SERVER_BUSY) (-32000). Calls that finish
    /// at once never count toward the limit (while it is reached, they are refused too).
    pub fn max_pending_calls(mut self, n: usize) -> Self {
        self.max_pending_calls = n.max(1);
        self
    }

    /// How deep the values a client sends may nest, counted in arrays and objects from a
    /// call's `arguments` object (level 1); the same limit bounds the results a service
    /// returns. Default [`DEFAULT_MAX_DEPTH`](crate::args::depth::DEFAULT_MAX_DEPTH) (128),
    /// kept between 1 and [`MAX_DEPTH_CEILING`](crate::args::depth::MAX_DEPTH_CEILING)
    /// (1024).
    ///
    /// An argument nested deeper is refused before it is read, with the usual argument error
    /// at the path where the limit was hit (`Argument 'root.children[0]…' is not valid.
    /// Nested deeper than 128 levels.`), and the server goes on: decoders recurse once per
    /// level, and without a limit one deep request (3,000 levels are 78 KB) would overflow
    /// the stack and abort the process. A result nested deeper fails the call
    /// (`The tool failed.`, the cause in `tracing`). See [`crate::args::depth`].
    pub fn max_depth(mut self, n: u32) -> Self {
        self.max_depth = n.clamp(1, crate::args::depth::MAX_DEPTH_CEILING);
        self
    }

    /// 2026-07-28 caching hints on list and read results (default 0 ms, "public").
    pub fn cache(mut self, ttl_ms: u64, private: bool) -> Self {
        self.cache = CachePolicy {
            ttl_ms,
            scope: if private { "private" } else { "public" },
        };
        self
    }

    /// Serves every service with the client profile `profile` (default: each service's own,
    /// [`Service::default_profile`], which is `standard` unless its build chose another): its
    /// tools are listed as that profile publishes them (names and input schemas, generated by
    /// toolidl's profiles; `docs/lint.md`), and their arguments are also read in the forms
    /// that listing gives them (under `openai-strict`: `null` for an optional parameter left
    /// out, a map as `{key, value}` entries). The handlers receive the same values whatever
    /// the profile; the `.tool` file's checks all stay.
    pub fn profile(mut self, profile: Profile) -> Self {
        self.profile = Some(profile);
        self
    }

    /// The server, ready to serve.
    pub fn build(self) -> Server {
        let untitled = serde_json::json!({ "name": self.name, "version": self.version });
        let mut info = serde_json::Map::new();
        info.insert("name".into(), self.name.into());
        if let Some(t) = self.title {
            info.insert("title".into(), t.into());
        }
        info.insert("version".into(), self.version.into());
        let server = Server {
            shared: Arc::new(ServerShared {
                info_json: serde_json::Value::Object(info).to_string(),
                info_json_untitled: untitled.to_string(),
                instructions: self.instructions,
                list_changed: self.list_changed,
                page_size: self.page_size,
                cache: self.cache,
                max_pending_calls: self.max_pending_calls,
                max_depth: self.max_depth,
                profile: self.profile,
                subscribable: self.subscribable,
                registry: RwLock::new(Arc::new(Registry::new(
                    self.services,
                    self.profile,
                    self.max_depth,
                ))),
                connections: Mutex::new(Vec::new()),
                task_tools: self.task_tools,
                tasks: Tasks::new(
                    self.task_store
                        .unwrap_or_else(|| Arc::new(MemoryTaskStore::new())),
                ),
                optional: self.optional,
                bus: self.bus,
                session_directory: self.session_directory,
                sealer: Sealer::new(self.state_keys, self.state_ttl, self.single_use_state),
            }),
        };
        if let Some(bus) = &server.shared.bus {
            let weak = Arc::downgrade(&server.shared);
            bus.start(Box::new(move |change| match weak.upgrade() {
                Some(shared) => {
                    if let Some(change) = change {
                        Server { shared }.apply(change);
                    }
                    true
                }
                None => false,
            }));
        }
        server
    }
}

impl Server {
    /// Starts a server named `name` (its `serverInfo`).
    pub fn builder(name: impl Into<String>, version: impl Into<String>) -> ServerBuilder {
        ServerBuilder {
            name: name.into(),
            version: version.into(),
            title: None,
            instructions: None,
            services: Vec::new(),
            list_changed: false,
            page_size: 100,
            max_pending_calls: 256,
            max_depth: crate::args::depth::DEFAULT_MAX_DEPTH,
            profile: None,
            cache: CachePolicy {
                ttl_ms: 0,
                scope: "public",
            },
            subscribable: HashSet::new(),
            task_tools: HashMap::new(),
            task_store: None,
            optional: Vec::new(),
            bus: None,
            session_directory: None,
            state_keys: Vec::new(),
            state_ttl: seal::DEFAULT_TTL,
            single_use_state: false,
        }
    }

    /// How the tool `name` runs as a task: as the builder declared it, else as its service
    /// says ([`Service::task_support`]).
    pub(crate) fn task_tool(&self, registry: &Registry, name: &str) -> Option<TaskTool> {
        let (service, listed) = registry.tool(name)?;
        let declared = |n: &str| self.shared.task_tools.get(n).copied();
        if let Some(tool) = declared(name).or_else(|| declared(&listed.own_name)) {
            return Some(tool);
        }
        let support = service.task_support(&listed.own_name)?;
        Some(TaskTool {
            support,
            input: TaskInput::InTask,
        })
    }

    /// Whether any tool can run as a task (the extension is then advertised).
    pub(crate) fn has_task_tools(&self, registry: &Registry) -> bool {
        !self.shared.task_tools.is_empty() || registry.has_task_tools()
    }

    /// Tells the clients subscribed to the resource `uri` that it changed:
    /// `notifications/resources/updated` with `{"uri": uri}` to every handshake connection
    /// (stdio, HTTP session: its GET stream) that sent `resources/subscribe` for it, and on
    /// every open 2026-07-28 `subscriptions/listen` request whose `resourceSubscriptions`
    /// named it (tagged with its subscription id). Callable from any thread or handler
    /// (`ctx.server()`); returns how many notifications were sent.
    ///
    /// Behind a load balancer ([`ServerBuilder::redis`]) the other instances tell their
    /// subscribers too (not counted here).
    pub fn notify_resource_updated(&self, uri: &str) -> usize {
        if let Some(bus) = &self.shared.bus {
            bus.publish(&Change::ResourceUpdated(uri.to_owned()));
        }
        self.resource_updated_here(uri)
    }

    fn resource_updated_here(&self, uri: &str) -> usize {
        let mut conns = self
            .shared
            .connections
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        conns.retain(|w| w.strong_count() > 0);
        conns
            .iter()
            .filter_map(Weak::upgrade)
            .map(|conn| conn.resource_updated(uri))
            .sum()
    }

    /// Whether `resources.subscribe` is advertised: the services have resources and some
    /// service, or the builder, makes one subscribable.
    pub(crate) fn has_subscriptions(&self, registry: &Registry) -> bool {
        registry.has_resources()
            && (!self.shared.subscribable.is_empty()
                || registry.services.iter().any(|s| s.has_subscriptions()))
    }

    /// Whether clients may subscribe to `uri`.
    pub(crate) fn subscribable(&self, registry: &Registry, uri: &str) -> bool {
        self.shared.subscribable.contains(uri)
            || registry.services.iter().any(|s| s.subscribable(uri))
    }

    /// Adds a service at run time and tells initialized clients that the lists changed.
    /// An [optional service](ServerBuilder::optional_service) is added on every instance
    /// that shares this one's Redis, and only once.
    pub fn add_service(&self, service: Arc<dyn Service>) {
        if let Some(name) = self.optional_name(&service) {
            self.publish_service(name, true);
            self.set_enabled(&service, true);
            return;
        }
        let (old, new) = self.replace_services(|services| services.push(service));
        self.announce(&old, &new);
    }

    /// Removes a service (compared by pointer) and tells initialized clients; an
    /// [optional service](ServerBuilder::optional_service) on every instance.
    pub fn remove_service(&self, service: &Arc<dyn Service>) {
        if let Some(name) = self.optional_name(service) {
            self.publish_service(name, false);
        }
        self.set_enabled(service, false);
    }

    /// Whether `service` (compared by pointer) is being served.
    pub fn has_service(&self, service: &Arc<dyn Service>) -> bool {
        self.registry()
            .services
            .iter()
            .any(|s| Arc::ptr_eq(s, service))
    }

    fn optional_name(&self, service: &Arc<dyn Service>) -> Option<&str> {
        self.shared
            .optional
            .iter()
            .find(|(_, s)| Arc::ptr_eq(s, service))
            .map(|(name, _)| name.as_str())
    }

    fn publish_service(&self, name: &str, enabled: bool) {
        if let Some(bus) = &self.shared.bus {
            bus.publish(&Change::Service {
                name: name.to_owned(),
                enabled,
            });
        }
    }

    /// Adds or removes `service` here, unless it is already so; announces the change.
    fn set_enabled(&self, service: &Arc<dyn Service>, enabled: bool) {
        let mut changed = false;
        let (old, new) = self.replace_services(|services| {
            let present = services.iter().any(|s| Arc::ptr_eq(s, service));
            if enabled && !present {
                services.push(service.clone());
                changed = true;
            } else if !enabled && present {
                services.retain(|s| !Arc::ptr_eq(s, service));
                changed = true;
            }
        });
        if changed {
            self.announce(&old, &new);
        }
    }

    /// Applies another instance's change.
    fn apply(&self, change: Change) {
        match change {
            Change::ResourceUpdated(uri) => {
                self.resource_updated_here(&uri);
            }
            Change::Service { name, enabled } => {
                let found = self.shared.optional.iter().find(|(n, _)| *n == name);
                match found {
                    Some((_, service)) => self.set_enabled(service, enabled),
                    None => {
                        tracing::warn!(service = %name, "another instance changed an optional service this one does not declare")
                    }
                }
            }
            Change::Services(names) => {
                for (name, service) in &self.shared.optional {
                    self.set_enabled(service, names.contains(name));
                }
            }
        }
    }

    fn replace_services(
        &self,
        edit: impl FnOnce(&mut Vec<Arc<dyn Service>>),
    ) -> (Arc<Registry>, Arc<Registry>) {
        let mut guard = self
            .shared
            .registry
            .write()
            .unwrap_or_else(|p| p.into_inner());
        let old = guard.clone();
        let mut services = old.services.clone();
        edit(&mut services);
        let new = Arc::new(Registry::new(
            services,
            self.shared.profile,
            self.shared.max_depth,
        ));
        *guard = new.clone();
        (old, new)
    }

    fn announce(&self, old: &Registry, new: &Registry) {
        if !self.shared.list_changed {
            return;
        }
        let mut kinds = Vec::new();
        if old.tool_names() != new.tool_names() {
            kinds.push(ListKind::Tools);
        }
        if old.listings[Kind::Resources as usize] != new.listings[Kind::Resources as usize]
            || old.listings[Kind::Templates as usize] != new.listings[Kind::Templates as usize]
        {
            kinds.push(ListKind::Resources);
        }
        if old.listings[Kind::Prompts as usize] != new.listings[Kind::Prompts as usize] {
            kinds.push(ListKind::Prompts);
        }
        let mut conns = self
            .shared
            .connections
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        conns.retain(|w| w.strong_count() > 0);
        for conn in conns.iter().filter_map(Weak::upgrade) {
            conn.list_changed(&kinds);
        }
    }

    pub(crate) fn registry(&self) -> Arc<Registry> {
        self.shared
            .registry
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    pub(crate) fn track(&self, conn: &Arc<ConnShared>) {
        let mut conns = self
            .shared
            .connections
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        conns.retain(|w| w.strong_count() > 0);
        conns.push(Arc::downgrade(conn));
    }
}

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
    listings: [Vec<Cow<'static, str>>; 3],
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
}

impl Registry {
    /// The registry of `services`, each served with `profile`, else its own default, their
    /// arguments read under `max_depth`.
    fn new(services: Vec<Arc<dyn Service>>, profile: Option<Profile>, max_depth: u32) -> Self {
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
                listed.push(ListedTool {
                    service: i,
                    name,
                    own_name: t.name.clone(),
                    json,
                    scopes: t.scopes,
                    profile,
                    max_depth,
                    null_result: t.null_result,
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
        let resource_uris = listings[Kind::Resources as usize]
            .iter()
            .filter_map(|j| field(j, "uri"))
            .collect();
        let uri_templates = listings[Kind::Templates as usize]
            .iter()
            .filter_map(|j| field(j, "uriTemplate"))
            .collect();
        Registry {
            services,
            listed,
            tools,
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

    fn has_task_tools(&self) -> bool {
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
