//! [`ServerBuilder`]: the server's identity, options and services, until it is built.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, RwLock};

use super::{Limits, Registry, Server, ServerShared, ToolLimits};
use crate::args::Profile;
use crate::cluster::{ChangeBus, SessionDirectory};
use crate::output::CachePolicy;
use crate::seal::{self, RequestStateKey, Sealer};
use crate::service::{IntoService, Service};
use crate::tasks::{MemoryTaskStore, TaskInput, TaskStore, TaskSupport, TaskTool, Tasks};

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
    limits: Limits,
    middleware: Vec<Arc<dyn super::middleware::Middleware>>,
    #[cfg(feature = "otel")]
    telemetry: crate::telemetry::Telemetry,
}

impl ServerBuilder {
    /// What each request's span and metrics record beyond the OpenTelemetry conventions'
    /// defaults: tool arguments and results (opt-in), resource URIs in span names, the
    /// meter. See [`Telemetry`](crate::telemetry::Telemetry) and `docs/telemetry.md`.
    #[cfg(feature = "otel")]
    pub fn telemetry(mut self, telemetry: crate::telemetry::Telemetry) -> Self {
        self.telemetry = telemetry;
        self
    }

    /// Limits for every tool's calls (a time limit, concurrent calls; [`ToolLimits`]):
    /// the default of each setting that a tool's service
    /// ([`Self::limited_service`]) or the tool itself ([`Self::tool_limit`]) does not set.
    /// Default: none.
    pub fn tool_limits(mut self, limits: ToolLimits) -> Self {
        self.limits.server = limits;
        self
    }

    /// Adds a service (as [`Self::service`]) whose tools have `limits`, unless a tool sets
    /// its own ([`Self::tool_limit`]). Each tool has its own slots: a concurrency limit of
    /// 4 lets 4 calls of each of the service's tools run at once.
    pub fn limited_service(mut self, service: impl IntoService, limits: ToolLimits) -> Self {
        let service = service.into_service();
        self.limits.services.push((service.clone(), limits));
        self.services.push(service);
        self
    }

    /// Adds code around every tool call ([`Middleware`](crate::middleware::Middleware)):
    /// logging, audit, error mapping, answering without the handler. The first added is
    /// the outermost. A server without middleware pays nothing for it.
    pub fn middleware(mut self, middleware: impl super::middleware::Middleware) -> Self {
        self.middleware.push(Arc::new(middleware));
        self
    }

    /// Limits for the tool `name` (the name it is listed by, or its `.tool` name): the
    /// settings it makes win over its service's and the server's.
    pub fn tool_limit(mut self, name: impl Into<String>, limits: ToolLimits) -> Self {
        self.limits.tools.insert(name.into(), limits);
        self
    }

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
                    &self.limits,
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
                limits: self.limits,
                middleware: self.middleware.into(),
                #[cfg(feature = "otel")]
                telemetry: self.telemetry,
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
            limits: Limits::default(),
            middleware: Vec::new(),
            #[cfg(feature = "otel")]
            telemetry: crate::telemetry::Telemetry::default(),
        }
    }
}
