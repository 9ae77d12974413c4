//! Options of the HTTP transport.

use std::fmt;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

/// A bearer-token check: gets the token of `Authorization: Bearer <token>`, says whether it
/// is accepted.
pub(crate) type BearerCheck = Arc<dyn Fn(&str) -> bool + Send + Sync>;

/// Options of the HTTP transport, built with chained calls from [`HttpConfig::new`].
///
/// ```
/// use toolidl_runtime::http::HttpConfig;
/// let config = HttpConfig::new()
///     .bind(([127, 0, 0, 1], 8931).into())
///     .stateless(true)
///     .allow_host("mcp.internal")
///     .bearer(|token| token == "s3cret");
/// ```
#[derive(Clone)]
pub struct HttpConfig {
    pub(crate) addr: SocketAddr,
    pub(crate) path: String,
    pub(crate) stateless: bool,
    /// Allowed `Host` values: a name (any port) or `name:port`; lower case.
    pub(crate) hosts: Vec<String>,
    pub(crate) any_host: bool,
    /// Allowed `Origin` values besides those whose host is an allowed `Host`; lower case.
    pub(crate) origins: Vec<String>,
    pub(crate) any_origin: bool,
    pub(crate) max_body_bytes: usize,
    pub(crate) max_in_flight: usize,
    pub(crate) max_in_flight_per_client: usize,
    pub(crate) max_in_flight_per_session: usize,
    pub(crate) max_body_reads: usize,
    pub(crate) max_body_reads_per_client: usize,
    pub(crate) body_timeout: Duration,
    pub(crate) max_streams: usize,
    pub(crate) max_streams_per_client: usize,
    pub(crate) stream_keepalive: Duration,
    pub(crate) stream_idle: Duration,
    pub(crate) stream_results: bool,
    pub(crate) max_sessions: usize,
    pub(crate) max_sessions_per_client: usize,
    pub(crate) max_half_open_sessions: usize,
    pub(crate) session_idle: Duration,
    pub(crate) session_grace: Duration,
    pub(crate) handshake_timeout: Duration,
    /// Proxies whose `X-Forwarded-For` names the client: networks as address and prefix.
    pub(crate) trusted_proxies: Vec<(IpAddr, u8)>,
    pub(crate) retry_after_secs: u32,
    pub(crate) bearer: Option<BearerCheck>,
    pub(crate) resource_metadata: Option<String>,
    pub(crate) replay_events: usize,
    pub(crate) replay_bytes: usize,
    pub(crate) sse_retry: Duration,
    pub(crate) poll_tools: Vec<String>,
    pub(crate) drain: Duration,
    /// The liveness and readiness paths ([`HttpConfig::health`]).
    pub(crate) health: Option<(String, String)>,
    /// Where the other instances reach this one, to forward its sessions' requests.
    pub(crate) advertise: Option<SocketAddr>,
    /// Origins whose browser scripts may call the endpoint (CORS); lower case.
    pub(crate) cors_origins: Vec<String>,
    /// The server card's JSON (`card.rs`, set by `HttpConfig::server_card`).
    pub(crate) server_card: Option<Arc<str>>,
    #[cfg(feature = "auth")]
    pub(crate) auth: Option<Arc<AuthConfig>>,
}

/// The endpoint as an OAuth 2.1 resource server (feature `auth`; the MCP specification's
/// `basic/authorization`): every request needs a valid access token, each tool, resource
/// and prompt the scopes its `.tool` file declares (`@scopes`), and the protected resource
/// metadata (RFC 9728) tells clients where to get tokens. Given to [`HttpConfig::auth`].
///
/// ```no_run
/// # fn f() -> Result<(), String> {
/// use toolidl_runtime::http::{AuthConfig, HttpConfig};
/// let auth = AuthConfig::jwt("https://auth.example.com", "https://mcp.example.com/mcp")?;
/// let config = HttpConfig::new().allow_host("mcp.example.com").auth(auth);
/// # Ok(()) }
/// ```
#[cfg(feature = "auth")]
#[derive(Clone)]
pub struct AuthConfig {
    pub(crate) verifier: Arc<dyn crate::auth::TokenVerifier>,
    pub(crate) resource: String,
    pub(crate) authorization_servers: Vec<String>,
    pub(crate) resource_name: Option<String>,
    pub(crate) resource_documentation: Option<String>,
    pub(crate) max_sessions_per_subject: usize,
    pub(crate) filter_listings: bool,
}

#[cfg(feature = "auth")]
impl AuthConfig {
    /// Tokens checked by `verifier`, for the resource `resource`: the endpoint's canonical
    /// URL (`https://mcp.example.com/mcp`), published as the metadata's `resource`. Name at
    /// least one authorization server with [`AuthConfig::authorization_server`].
    pub fn new(resource: impl Into<String>, verifier: impl crate::auth::TokenVerifier) -> Self {
        AuthConfig {
            verifier: Arc::new(verifier),
            resource: resource.into(),
            authorization_servers: Vec::new(),
            resource_name: None,
            resource_documentation: None,
            max_sessions_per_subject: 16,
            filter_listings: false,
        }
    }

    /// JWT access tokens of the authorization server `issuer` whose audience is `resource`
    /// ([`JwtVerifier`](crate::auth::JwtVerifier) with its defaults), and that server
    /// published. An error names an issuer that is neither https nor http on loopback.
    pub fn jwt(issuer: impl Into<String>, resource: impl Into<String>) -> Result<Self, String> {
        let (issuer, resource) = (issuer.into(), resource.into());
        let verifier =
            crate::auth::JwtVerifier::builder(issuer.clone(), resource.clone()).build()?;
        Ok(AuthConfig::new(resource, verifier).authorization_server(issuer))
    }

    /// An authorization server clients may get tokens from (its issuer identifier), listed
    /// in the metadata's `authorization_servers`.
    pub fn authorization_server(mut self, issuer: impl Into<String>) -> Self {
        self.authorization_servers.push(issuer.into());
        self
    }

    /// How many sessions one subject (`sub`) may have open (default 16): its next session
    /// ends its longest idle one, so one token cannot take the table from the others.
    pub fn max_sessions_per_subject(mut self, n: usize) -> Self {
        self.max_sessions_per_subject = n.max(1);
        self
    }

    /// Whether `tools/list`, `resources/list`, `resources/templates/list` and `prompts/list`
    /// show a token only the items its scopes allow (default: every item, as the listing
    /// is published). Either way a call to an item the token may not use is refused with
    /// 403 `insufficient_scope`; filtering only keeps a client from offering its model tools
    /// that would be refused. A client whose token gains scopes sees more items on its next
    /// list request. Cursors page through the filtered list of the same token.
    pub fn filter_listings(mut self, yes: bool) -> Self {
        self.filter_listings = yes;
        self
    }

    /// The metadata's `resource_name`: a human-readable name of the server.
    pub fn resource_name(mut self, name: impl Into<String>) -> Self {
        self.resource_name = Some(name.into());
        self
    }

    /// The metadata's `resource_documentation`: a URL of documentation for developers.
    pub fn resource_documentation(mut self, url: impl Into<String>) -> Self {
        self.resource_documentation = Some(url.into());
        self
    }
}

/// The loopback names every server accepts in `Host` and `Origin`, with any port.
const LOOPBACK: [&str; 3] = ["localhost", "127.0.0.1", "[::1]"];

impl Default for HttpConfig {
    fn default() -> Self {
        HttpConfig {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            path: "/mcp".to_owned(),
            stateless: false,
            hosts: LOOPBACK.iter().map(|h| (*h).to_owned()).collect(),
            any_host: false,
            origins: Vec::new(),
            any_origin: false,
            max_body_bytes: 4 * 1024 * 1024,
            max_in_flight: 256,
            max_in_flight_per_client: 64,
            max_in_flight_per_session: 64,
            max_body_reads: 256,
            max_body_reads_per_client: 16,
            body_timeout: Duration::from_secs(30),
            max_streams: 1024,
            max_streams_per_client: 16,
            stream_keepalive: Duration::from_secs(15),
            stream_idle: Duration::from_secs(30 * 60),
            stream_results: false,
            max_sessions: 1024,
            max_sessions_per_client: 64,
            max_half_open_sessions: 256,
            session_idle: Duration::from_secs(30 * 60),
            session_grace: Duration::from_secs(60),
            handshake_timeout: Duration::from_secs(10),
            trusted_proxies: Vec::new(),
            retry_after_secs: 1,
            bearer: None,
            resource_metadata: None,
            replay_events: 256,
            replay_bytes: 1024 * 1024,
            sse_retry: Duration::from_secs(1),
            poll_tools: Vec::new(),
            drain: crate::signal::DEFAULT_DRAIN,
            health: None,
            advertise: None,
            cors_origins: Vec::new(),
            server_card: None,
            #[cfg(feature = "auth")]
            auth: None,
        }
    }
}

impl HttpConfig {
    /// The defaults: `127.0.0.1:8080`, endpoint `/mcp`, sessions on, loopback `Host` and
    /// `Origin` only, 4 MiB bodies, 256 requests in flight (64 per client), 1024 long-lived
    /// streams (16 per client), 1024 sessions (64 per client) idle for at most 30 minutes,
    /// no bearer check. `docs/deploy.md` lists every limit.
    pub fn new() -> Self {
        Self::default()
    }

    /// The address [`HttpServer::bind`](super::HttpServer::bind) and [`serve`](super::serve)
    /// listen on. Binding anything but a loopback address exposes the server: add the names
    /// clients use with [`HttpConfig::allow_host`], and a [`HttpConfig::bearer`] check.
    pub fn bind(mut self, addr: SocketAddr) -> Self {
        self.addr = addr;
        self
    }

    /// The endpoint's path (default `/mcp`); other paths answer 404.
    pub fn path(mut self, path: impl Into<String>) -> Self {
        self.path = path.into();
        self
    }

    /// Keeps no session (default off): `initialize` is answered without `Mcp-Session-Id`,
    /// and every request is served on its own, in the revision its `MCP-Protocol-Version`
    /// header names (2025-03-26 without one), as for a client that declared no capabilities.
    /// Any instance can answer any request, so several can sit behind a load balancer.
    /// Requests to the client (sampling, elicitation, roots) fail with `-32021` and
    /// `logging/setLevel` has no lasting effect; `GET` and `DELETE` answer 405.
    pub fn stateless(mut self, on: bool) -> Self {
        self.stateless = on;
        self
    }

    /// Also accepts this `Host` (and `Origin` host): a name, matched with any port
    /// (`mcp.example.com`), or `name:port` matched exactly. Case-insensitive.
    pub fn allow_host(mut self, host: impl Into<String>) -> Self {
        self.hosts.push(host.into().to_ascii_lowercase());
        self
    }

    /// Accepts any `Host` (behind a proxy that checks it, for instance).
    pub fn allow_any_host(mut self) -> Self {
        self.any_host = true;
        self
    }

    /// Also accepts this exact `Origin` (`https://app.example.com`). An origin whose host
    /// is an allowed `Host` is accepted anyway; a request without `Origin` always is.
    pub fn allow_origin(mut self, origin: impl Into<String>) -> Self {
        self.origins.push(origin.into().to_ascii_lowercase());
        self
    }

    /// Lets browser scripts of `origin` (`https://app.example.com`, exactly) call the
    /// endpoint (CORS; no origin by default): its preflight `OPTIONS` is answered (204, the
    /// methods and the MCP request headers), and responses to it carry
    /// `Access-Control-Allow-Origin` and expose `Mcp-Session-Id`, `MCP-Protocol-Version` and
    /// `WWW-Authenticate`. The origin is also accepted by the `Origin` check
    /// ([`HttpConfig::allow_origin`]); other origins are still refused there (403).
    pub fn cors_origin(mut self, origin: impl Into<String>) -> Self {
        let origin = origin.into().to_ascii_lowercase();
        self.origins.push(origin.clone());
        self.cors_origins.push(origin);
        self
    }

    /// Accepts any `Origin`. Only for servers that no browser page should be able to reach
    /// through DNS rebinding anyway (not on a developer's machine).
    pub fn allow_any_origin(mut self) -> Self {
        self.any_origin = true;
        self
    }

    /// The largest accepted request body (default 4 MiB, as stdio's line limit); a larger
    /// one is answered with 413 and a `-32600` error that carries the request's id when it
    /// can be read.
    pub fn max_body_bytes(mut self, n: usize) -> Self {
        self.max_body_bytes = n;
        self
    }

    /// How many requests may be served at once (default 256, at least 1); above that, 503
    /// with `Retry-After` and the request's id. A request counts from when its body has been
    /// read until its response has been sent in full (an event stream until its reply).
    /// Long-lived streams do not count here: they have their own budget
    /// ([`max_streams`](Self::max_streams)), so that no number of them can keep an ordinary
    /// request from being served.
    pub fn max_in_flight(mut self, n: usize) -> Self {
        self.max_in_flight = n.clamp(1, tokio::sync::Semaphore::MAX_PERMITS);
        self
    }

    /// How many requests of one client may be served at once (default 64, at least 1);
    /// above that, 429 with `Retry-After` and the request's id, while other clients are
    /// served. A client is the principal of its access token when the endpoint checks
    /// tokens ([`HttpConfig::auth`]), else its address (see [`trust_proxy`](Self::trust_proxy)
    /// behind a reverse proxy, whose address would otherwise be every client's).
    pub fn max_in_flight_per_client(mut self, n: usize) -> Self {
        self.max_in_flight_per_client = n.max(1);
        self
    }

    /// How many requests of one session may be served at once (default 64, at least 1):
    /// a POST beyond that, while the session's earlier calls still run, answers 503 with
    /// `Retry-After`, so that one client cannot take every slot of
    /// [`max_in_flight`](Self::max_in_flight). (Over stdio, the same bound is
    /// [`ServerBuilder::max_pending_calls`](crate::ServerBuilder::max_pending_calls).)
    pub fn max_in_flight_per_session(mut self, n: usize) -> Self {
        self.max_in_flight_per_session = n.max(1);
        self
    }

    /// How many request bodies may be being received at once, in all and per client
    /// (defaults 256 and 16, at least 1). A body is read whole, within
    /// [`body_timeout`](Self::body_timeout), before its request takes one of
    /// [`max_in_flight`](Self::max_in_flight); a client sending more bodies at once (slowly,
    /// say) is answered 429, past the total 503, both with `Retry-After`, and the connection
    /// closes without reading the body.
    pub fn max_body_reads(mut self, total: usize, per_client: usize) -> Self {
        self.max_body_reads = total.max(1);
        self.max_body_reads_per_client = per_client.max(1);
        self
    }

    /// How long a request body may take to arrive, in all (default 30 seconds); a body still
    /// incomplete then is answered 408 and its connection closed.
    pub fn body_timeout(mut self, timeout: Duration) -> Self {
        self.body_timeout = timeout;
        self
    }

    /// How many long-lived streams may be open at once, in all and per client (defaults
    /// 1024 and 16, at least 1): a session's `GET` stream (also when it resumes a call's
    /// stream with `Last-Event-ID`) and a 2026-07-28 `subscriptions/listen`. One more from a
    /// client that holds its share is answered 429, past the total 503, both with
    /// `Retry-After`. Streams draw on this budget only: requests are served whatever streams
    /// are open.
    pub fn max_streams(mut self, total: usize, per_client: usize) -> Self {
        self.max_streams = total.max(1);
        self.max_streams_per_client = per_client.max(1);
        self
    }

    /// How often an event stream with nothing to send carries an SSE comment (`: keep-alive`)
    /// instead (default 15 seconds), so that proxies and clients do not close it as idle and
    /// a client that went away is noticed.
    pub fn stream_keepalive(mut self, every: Duration) -> Self {
        self.stream_keepalive = every.max(Duration::from_millis(1));
        self
    }

    /// How long a long-lived stream (a session's `GET` stream, `subscriptions/listen`) stays
    /// open with no message to carry (default 30 minutes; keep-alive comments do not count).
    /// Then it ends: a `subscriptions/listen` with its completion result, as at shutdown;
    /// the client opens a new one when it wants.
    pub fn stream_idle_timeout(mut self, idle: Duration) -> Self {
        self.stream_idle = idle;
        self
    }

    /// Trusts the reverse proxies in the network `addr`/`prefix_len` (`127.0.0.1`, 32 for
    /// one address; `10.0.0.0`, 8 for a network) to say in `X-Forwarded-For` which address
    /// a request comes from. A request from such a proxy counts against the address that
    /// header names (read from the right, past every trusted proxy), not the proxy's own;
    /// from anywhere else the header is ignored. Without it, every client behind a proxy
    /// shares the proxy's per-client limits. Instances on Redis that forward sessions'
    /// requests to each other add the header too: trust their network as well.
    pub fn trust_proxy(mut self, addr: IpAddr, prefix_len: u8) -> Self {
        self.trusted_proxies.push((addr, prefix_len));
        self
    }

    /// Answers a request's result on an event stream even when the call sends nothing
    /// before it (default `false`: such a result is `application/json`, which is cheaper
    /// and which every client reads). `true` is what the official TypeScript and Python
    /// SDK servers do by default; errors stay `application/json`, with their HTTP status.
    /// Only for clients whose `Accept` lists `text/event-stream`.
    pub fn stream_results(mut self, on: bool) -> Self {
        self.stream_results = on;
        self
    }

    /// How many sessions may be open at once (default 1024). When the table is full, a new
    /// session first ends those that never finished the handshake within
    /// [`handshake_timeout`](Self::handshake_timeout) and those idle for
    /// [`session_idle_timeout`](Self::session_idle_timeout), then the oldest that has not
    /// finished its handshake, then the one idle longest, unless it was used within
    /// [`session_grace`](Self::session_grace) or is serving a request: then `initialize`
    /// answers 503 with `Retry-After`.
    pub fn max_sessions(mut self, n: usize) -> Self {
        self.max_sessions = n;
        self
    }

    /// How many sessions one client may hold (default 64, at least 1; with
    /// [`HttpConfig::auth`], [`AuthConfig::max_sessions_per_subject`] for a token's
    /// principal): its next `initialize` ends one of its own sessions (a stale one, else its
    /// settled one idle longest, else its oldest still in its handshake); 429 with
    /// `Retry-After` when each is serving a request.
    pub fn max_sessions_per_client(mut self, n: usize) -> Self {
        self.max_sessions_per_client = n.max(1);
        self
    }

    /// How many sessions may be waiting for `notifications/initialized` at once (default
    /// 256, at least 1): past that, a new session ends the oldest of them, whoever opened
    /// it. A flood of `initialize`s that never finish the handshake takes at most this much
    /// of the table, and never a settled session.
    pub fn max_half_open_sessions(mut self, n: usize) -> Self {
        self.max_half_open_sessions = n.max(1);
        self
    }

    /// A session unused for this long (default 30 minutes) may be ended to make room.
    pub fn session_idle_timeout(mut self, idle: Duration) -> Self {
        self.session_idle = idle;
        self
    }

    /// A settled session used within this long (default 60 seconds) is never ended to make
    /// room for another: a full table of recently used sessions refuses newcomers (503)
    /// instead.
    pub fn session_grace(mut self, grace: Duration) -> Self {
        self.session_grace = grace;
        self
    }

    /// How long a session opened by `initialize` may wait for `notifications/initialized`
    /// (default 10 s) before a full table ends it for a newcomer: a flood of `initialize`
    /// requests that never finish the handshake cannot keep the table full.
    pub fn handshake_timeout(mut self, timeout: Duration) -> Self {
        self.handshake_timeout = timeout;
        self
    }

    /// The address at which the other instances of a server on Redis
    /// ([`ServerBuilder::redis`](crate::ServerBuilder::redis)) reach this one: the sessions
    /// it opens are recorded in Redis with it, and a session's request that reaches another
    /// instance is forwarded there. Default: the bound address, unless that is unspecified
    /// (`0.0.0.0`, `[::]`: then give the machine's own address); an endpoint mounted in
    /// another router ([`McpService`](crate::http::McpService)) has no default, and its
    /// sessions stay on it. Without Redis, unused.
    pub fn advertise(mut self, addr: SocketAddr) -> Self {
        self.advertise = Some(addr);
        self
    }

    /// How long a shutdown lets the calls in flight finish (default 25 s, within the 30 s a
    /// supervisor such as Kubernetes or systemd waits after SIGTERM): when
    /// [`HttpServer::run_until`](crate::http::HttpServer::run_until)'s signal completes, the
    /// server stops accepting connections, answers requests that still arrive with 503 and
    /// `Retry-After`, ends long-lived streams and waits for the calls in flight; those still
    /// running after `drain` are cancelled (their handlers' futures dropped) and answered
    /// with -32000 (`Server shutting down: the call was cancelled before it finished.`), so
    /// that every request the server took is answered; tasks still running then are failed
    /// in their store.
    pub fn drain_timeout(mut self, drain: Duration) -> Self {
        self.drain = drain;
        self
    }

    /// Serves health checks for a supervisor or a load balancer on two more paths, off
    /// the MCP endpoint (for example `"/healthz"` and `"/readyz"`): `GET` or `HEAD` on
    /// `liveness` answers 200 while the process serves; on `readiness`, 200 when it takes
    /// requests, and 503 while it shuts down or when Redis
    /// ([`ServerBuilder::redis`](crate::ServerBuilder::redis)) does not answer within a
    /// second. Both answer `application/json` (`{"status":"ok"}`, or `"draining"`,
    /// `"redis unreachable"`) and skip the `Host`, `Origin` and bearer checks (a probe
    /// names the pod's address, and they tell nothing of the server's data). Off by
    /// default. A mounted endpoint has them as services of their own to mount
    /// ([`McpService::liveness`](crate::http::McpService::liveness),
    /// [`McpService::readiness`](crate::http::McpService::readiness)).
    pub fn health(mut self, liveness: impl Into<String>, readiness: impl Into<String>) -> Self {
        self.health = Some((liveness.into(), readiness.into()));
        self
    }

    /// The `Retry-After` seconds of a 503 or 429 (default 1).
    pub fn retry_after_secs(mut self, secs: u32) -> Self {
        self.retry_after_secs = secs;
        self
    }

    /// Requires `Authorization: Bearer <token>` on every request, and `check(token)` to
    /// accept it; otherwise 401 with `WWW-Authenticate: Bearer` (and `error="invalid_token"`
    /// when a token was refused). This is the protocol's resource-server role: validate
    /// tokens here (a JWT's signature and audience, an introspection cache); issuing them is
    /// the authorization server's job.
    pub fn bearer(mut self, check: impl Fn(&str) -> bool + Send + Sync + 'static) -> Self {
        self.bearer = Some(Arc::new(check));
        self
    }

    /// The URL of this server's OAuth protected-resource metadata (RFC 9728), sent as
    /// `resource_metadata="…"` in the 401 challenge so clients can find the authorization
    /// server.
    pub fn resource_metadata(mut self, url: impl Into<String>) -> Self {
        self.resource_metadata = Some(url.into());
        self
    }

    /// The replay buffer of each session (default the last 256 events, at most 1 MiB of
    /// messages): the events sent on its streams, which a `GET` with `Last-Event-ID` replays
    /// after a dropped stream. `events` 0 keeps none (ids are still sent).
    pub fn replay_buffer(mut self, events: usize, bytes: usize) -> Self {
        self.replay_events = events;
        self.replay_bytes = bytes;
        self
    }

    /// The reconnection delay sent in the `retry` field of the priming event that starts a
    /// 2025-11-25 session's POST event stream (default 1 second).
    pub fn sse_retry(mut self, delay: Duration) -> Self {
        self.sse_retry = delay;
        self
    }

    /// Server-side polling for the calls of this tool (2025-11-25 sessions, clients that
    /// accept event streams): the call's POST is answered at once with an event stream that
    /// holds only the priming event and then closes; the client reconnects with `GET` and
    /// `Last-Event-ID` after the `retry` delay and receives the call's messages and result
    /// there. Frees the connection during long calls. Other revisions answer as usual.
    pub fn poll_tool(mut self, name: impl Into<String>) -> Self {
        self.poll_tools.push(name.into());
        self
    }

    /// Makes the endpoint an OAuth 2.1 resource server (feature `auth`): see [`AuthConfig`].
    /// The protected resource metadata is served at `/.well-known/oauth-protected-resource`
    /// and at the same path suffixed with the endpoint's (`…/mcp`); challenges name the
    /// latter unless [`HttpConfig::resource_metadata`] names another URL.
    #[cfg(feature = "auth")]
    pub fn auth(mut self, auth: AuthConfig) -> Self {
        self.auth = Some(Arc::new(auth));
        self
    }

    pub(crate) fn add_bound_address(&mut self, addr: SocketAddr) {
        if self.advertise.is_none() && !addr.ip().is_unspecified() {
            self.advertise = Some(addr);
        }
        let bound = addr.to_string().to_ascii_lowercase();
        if !self.hosts.contains(&bound) {
            self.hosts.push(bound);
        }
    }
}

impl fmt::Debug for HttpConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpConfig")
            .field("addr", &self.addr)
            .field("path", &self.path)
            .field("stateless", &self.stateless)
            .field("hosts", &self.hosts)
            .field("any_host", &self.any_host)
            .field("origins", &self.origins)
            .field("any_origin", &self.any_origin)
            .field("max_body_bytes", &self.max_body_bytes)
            .field("drain", &self.drain)
            .field("health", &self.health)
            .field("max_in_flight", &self.max_in_flight)
            .field("max_in_flight_per_client", &self.max_in_flight_per_client)
            .field("max_in_flight_per_session", &self.max_in_flight_per_session)
            .field("max_body_reads", &self.max_body_reads)
            .field("max_body_reads_per_client", &self.max_body_reads_per_client)
            .field("body_timeout", &self.body_timeout)
            .field("max_streams", &self.max_streams)
            .field("max_streams_per_client", &self.max_streams_per_client)
            .field("stream_keepalive", &self.stream_keepalive)
            .field("stream_idle", &self.stream_idle)
            .field("stream_results", &self.stream_results)
            .field("max_sessions", &self.max_sessions)
            .field("max_sessions_per_client", &self.max_sessions_per_client)
            .field("max_half_open_sessions", &self.max_half_open_sessions)
            .field("session_idle", &self.session_idle)
            .field("session_grace", &self.session_grace)
            .field("handshake_timeout", &self.handshake_timeout)
            .field("trusted_proxies", &self.trusted_proxies)
            .field("advertise", &self.advertise)
            .field("retry_after_secs", &self.retry_after_secs)
            .field("bearer", &self.bearer.as_ref().map(|_| "<check>"))
            .field("resource_metadata", &self.resource_metadata)
            .field("replay_events", &self.replay_events)
            .field("replay_bytes", &self.replay_bytes)
            .field("sse_retry", &self.sse_retry)
            .field("poll_tools", &self.poll_tools)
            .field("cors_origins", &self.cors_origins)
            .finish()
    }
}
