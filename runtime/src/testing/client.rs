//! An in-process MCP client over a [`Connection`] of a real server.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::{Map, Value, json};
use tokio::sync::{Notify, oneshot};

use super::listing::Listing;
use crate::args::{ArgError, Decode, Path, Reader};
use crate::connection::{Connection, Outbox};
use crate::peer::lock;
use crate::protocol::{LogLevel, Revision, RpcError, code, reply_message, reply_result};
use crate::server::Server;
use crate::service::{PromptInput, ToolInput};

/// What answers the server's requests to the client (`elicitation/create`,
/// `sampling/createMessage`, `roots/list`): the method and its params in, a result or an
/// error out. The client module's handlers have this type too.
pub(crate) type Respond = dyn Fn(&str, &Value) -> Result<Value, RpcError> + Send + Sync;
type Responder = Box<Respond>;

/// An MCP client in the same process as the server, for tests.
///
/// Made with [`Client::connect`] (2025-11-25, no capabilities) or [`Client::builder`]. Its
/// requests go through the server's real dispatcher as JSON text; replies are matched to
/// requests by id, and everything else the server sends (notifications, its own requests,
/// replies to [`send_raw`](Client::send_raw) lines) is kept for
/// [`next_message`](Client::next_message) and [`take_messages`](Client::take_messages).
/// Requests may run concurrently: `&self` methods, any number in flight.
///
/// Errors: a JSON-RPC error reply is `Err(RpcError)` with the server's code, message and
/// data; a tool's own failure is an `Ok` [`CallResult`] whose
/// [`is_error`](CallResult::is_error) is true, as the protocol has it.
pub struct Client {
    inner: Arc<Inner>,
    revision: Revision,
    client_info: Value,
    capabilities: Value,
    /// 2026-07-28: the `logLevel` sent in every request's `_meta`.
    log_level: Mutex<Option<LogLevel>>,
    next_id: AtomicI64,
    initialize: Option<Value>,
    /// The server, for the names its profile lists tools by.
    server: Server,
}

/// State shared by the client and the task that reads the server's outbox.
struct Inner {
    /// `None` once the client has ended its input.
    conn: Mutex<Option<Connection>>,
    /// Requests awaiting their reply, by id (as JSON text).
    waiting: Mutex<HashMap<String, oneshot::Sender<Value>>>,
    /// Messages no request awaited, oldest first.
    received: Mutex<VecDeque<Value>>,
    arrived: Notify,
    /// The server's outbox has closed: nothing more will arrive.
    closed: AtomicBool,
    responder: Option<Responder>,
}

/// Settings of a [`Client`]; from [`Client::builder`].
#[must_use]
pub struct ClientBuilder {
    revision: Revision,
    client_info: Value,
    capabilities: Value,
    responder: Option<Responder>,
}

/// A request sent with [`Client::send_request`], whose reply has not been awaited yet.
#[derive(Debug)]
pub struct PendingRequest {
    id: i64,
    reply: oneshot::Receiver<Value>,
}

/// A `CallToolResult`, with accessors for what tests look at.
#[derive(Debug, Clone, PartialEq)]
pub struct CallResult(Value);

impl Client {
    /// Connects to `server` as a 2025-11-25 client with no capabilities: `initialize`, then
    /// `notifications/initialized`.
    ///
    /// # Panics
    ///
    /// Outside a Tokio runtime (`#[tokio::test]`).
    pub async fn connect(server: &Server) -> Result<Client, RpcError> {
        Client::builder().connect(server).await
    }

    /// A client with another revision, capabilities or a handler for the server's requests.
    pub fn builder() -> ClientBuilder {
        ClientBuilder {
            revision: Revision::NEWEST_HANDSHAKE,
            client_info: json!({"name": "toolidl-test-client", "version": "0"}),
            capabilities: json!({}),
            responder: None,
        }
    }

    /// The revision the client speaks.
    pub fn revision(&self) -> Revision {
        self.revision
    }

    /// What answers the server's requests to the client, if the builder was given one.
    #[cfg(feature = "client")]
    pub(crate) fn responder(&self) -> Option<&Respond> {
        self.inner.responder.as_deref()
    }

    /// The server's `initialize` result (handshake revisions; `None` under 2026-07-28).
    pub fn initialize_result(&self) -> Option<&Value> {
        self.initialize.as_ref()
    }

    /// Sends a request and waits for its reply: the `result` member, or the error.
    ///
    /// Under 2026-07-28 the client's `_meta` (protocol version, client info, capabilities,
    /// log level) is merged into `params`; anything the caller put in `params._meta`
    /// (a `progressToken`, say) is kept.
    pub async fn request(&self, method: &str, params: Value) -> Result<Value, RpcError> {
        self.send_request(method, params).reply().await
    }

    /// Sends a request without waiting: to cancel it, or to have several in flight.
    pub fn send_request(&self, method: &str, params: Value) -> PendingRequest {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (tx, reply) = oneshot::channel();
        lock(&self.inner.waiting).insert(id.to_string(), tx);
        let params = self.with_meta(params);
        self.inner
            .send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        PendingRequest { id, reply }
    }

    /// Sends a notification.
    pub fn notify(&self, method: &str, params: Value) {
        self.inner
            .send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends one line as it is (a malformed message, say); whatever the server answers
    /// arrives as a [message](Client::next_message).
    pub fn send_raw(&self, line: &str) {
        self.inner.send_line(line);
    }

    /// Cancels a request (`notifications/cancelled`). The server sends no reply to a
    /// cancelled request, so [`PendingRequest::reply`] then waits until the client closes.
    pub fn cancel(&self, request: &PendingRequest) {
        self.notify(
            "notifications/cancelled",
            json!({"requestId": request.id, "reason": "cancelled by the test"}),
        );
    }

    /// The lowest level of log messages the server sends: `logging/setLevel` under the
    /// handshake revisions, the `_meta` `logLevel` of every later request under 2026-07-28.
    pub async fn set_log_level(&self, level: LogLevel) -> Result<(), RpcError> {
        if self.revision.is_stateless() {
            *lock(&self.log_level) = Some(level);
            return Ok(());
        }
        self.request("logging/setLevel", json!({"level": level.as_str()}))
            .await
            .map(drop)
    }

    /// Calls a tool with JSON arguments.
    pub async fn call_tool(&self, name: &str, arguments: Value) -> Result<CallResult, RpcError> {
        self.request("tools/call", json!({"name": name, "arguments": arguments}))
            .await
            .map(CallResult)
    }

    /// Calls the tool whose generated input `input` is (`GetWeatherArgs { … }`): the tool's
    /// name comes from the type (as the server's profile lists it: `forecast_daily` for
    /// `forecast.daily` under `claude`), the arguments from its fields.
    pub async fn call<I: ToolInput>(&self, input: &I) -> Result<CallResult, RpcError> {
        let arguments = serde_json::to_value(input)
            .map_err(|e| RpcError::internal(format!("The arguments did not serialize: {e}")))?;
        let registry = self.server.registry();
        let listed = registry
            .listed_tools()
            .iter()
            .find(|t| t.own_name == I::TOOL)
            .map_or(I::TOOL, |t| &t.name);
        self.call_tool(listed, arguments).await
    }

    /// Reads a resource: the `ReadResourceResult` (`{"contents": […]}`).
    pub async fn read_resource(&self, uri: &str) -> Result<Value, RpcError> {
        self.request("resources/read", json!({"uri": uri})).await
    }

    /// Gets a prompt with JSON arguments (string values, as the protocol has them): the
    /// `GetPromptResult`.
    pub async fn get_prompt(&self, name: &str, arguments: Value) -> Result<Value, RpcError> {
        self.request("prompts/get", json!({"name": name, "arguments": arguments}))
            .await
    }

    /// Gets the prompt whose generated input `input` is; each argument is sent as a string,
    /// as `prompts/get` requires (a number `3` as `"3"`).
    pub async fn prompt<I: PromptInput>(&self, input: &I) -> Result<Value, RpcError> {
        let arguments = match serde_json::to_value(input) {
            Ok(Value::Object(fields)) => fields
                .into_iter()
                .map(|(k, v)| match v {
                    Value::String(s) => (k, Value::String(s)),
                    other => (k, Value::String(other.to_string())),
                })
                .collect::<Map<_, _>>(),
            Ok(_) => Map::new(),
            Err(e) => {
                return Err(RpcError::internal(format!(
                    "The arguments did not serialize: {e}"
                )));
            }
        };
        self.get_prompt(I::PROMPT, Value::Object(arguments)).await
    }

    /// The values `completion/complete` suggests for a prompt's argument.
    pub async fn complete_prompt(
        &self,
        prompt: &str,
        argument: &str,
        value: &str,
    ) -> Result<Vec<String>, RpcError> {
        self.complete(
            json!({"type": "ref/prompt", "name": prompt}),
            argument,
            value,
        )
        .await
    }

    /// The values `completion/complete` suggests for a resource template's variable.
    pub async fn complete_resource(
        &self,
        uri_template: &str,
        variable: &str,
        value: &str,
    ) -> Result<Vec<String>, RpcError> {
        self.complete(
            json!({"type": "ref/resource", "uri": uri_template}),
            variable,
            value,
        )
        .await
    }

    async fn complete(
        &self,
        reference: Value,
        argument: &str,
        value: &str,
    ) -> Result<Vec<String>, RpcError> {
        let params = json!({"ref": reference, "argument": {"name": argument, "value": value}});
        let result = self.request("completion/complete", params).await?;
        Ok(result["completion"]["values"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect())
    }

    /// Every item of a list method (`tools/list`, `resources/list`,
    /// `resources/templates/list`, `prompts/list`) under `key`, following `nextCursor`.
    pub async fn list_all(&self, method: &str, key: &str) -> Result<Vec<Value>, RpcError> {
        let mut items = Vec::new();
        let mut cursor: Option<Value> = None;
        loop {
            let params = match cursor.take() {
                Some(c) => json!({"cursor": c}),
                None => json!({}),
            };
            let mut page = self.request(method, params).await?;
            if let Some(Value::Array(page_items)) = page.get_mut(key).map(Value::take) {
                items.extend(page_items);
            }
            match page.get("nextCursor") {
                Some(c) if !c.is_null() => cursor = Some(c.clone()),
                _ => return Ok(items),
            }
        }
    }

    /// The tools the server lists, every page.
    pub async fn list_tools(&self) -> Result<Vec<Value>, RpcError> {
        self.list_all("tools/list", "tools").await
    }

    /// The server's whole listing, for a snapshot test. A list the server does not offer
    /// (-32601) is empty.
    pub async fn listing(&self) -> Result<Listing, RpcError> {
        Ok(Listing {
            tools: self.list_offered("tools/list", "tools").await?,
            resources: self.list_offered("resources/list", "resources").await?,
            resource_templates: self
                .list_offered("resources/templates/list", "resourceTemplates")
                .await?,
            prompts: self.list_offered("prompts/list", "prompts").await?,
        })
    }

    /// [`list_all`](Client::list_all), empty where the server does not offer the list.
    async fn list_offered(&self, method: &str, key: &str) -> Result<Vec<Value>, RpcError> {
        match self.list_all(method, key).await {
            Err(e) if e.code == code::METHOD_NOT_FOUND => Ok(Vec::new()),
            other => other,
        }
    }

    /// The next message no request awaited (a notification, a request from the server —
    /// already answered —, the reply to a raw line), waiting for one; `None` once the
    /// server can send nothing more.
    pub async fn next_message(&self) -> Option<Value> {
        loop {
            let arrived = self.inner.arrived.notified();
            if let Some(m) = lock(&self.inner.received).pop_front() {
                return Some(m);
            }
            if self.inner.closed.load(Ordering::Acquire) {
                return None;
            }
            arrived.await;
        }
    }

    /// The messages no request awaited that have arrived so far, oldest first.
    pub fn take_messages(&self) -> Vec<Value> {
        lock(&self.inner.received).drain(..).collect()
    }

    /// The `params` of the notifications with `method` that have arrived so far, removed
    /// from the messages (others stay).
    pub fn take_notifications(&self, method: &str) -> Vec<Value> {
        let mut received = lock(&self.inner.received);
        let (taken, kept): (VecDeque<Value>, VecDeque<Value>) = received
            .drain(..)
            .partition(|m| m["method"] == method && m.get("id").is_none());
        *received = kept;
        taken.into_iter().map(|mut m| m["params"].take()).collect()
    }

    /// The `params` of the `notifications/progress` for `token` that have arrived so far,
    /// removed from the messages (others stay).
    #[cfg(feature = "client")]
    pub(crate) fn take_progress(&self, token: i64) -> Vec<Value> {
        let mut received = lock(&self.inner.received);
        let (taken, kept): (VecDeque<Value>, VecDeque<Value>) = received.drain(..).partition(|m| {
            m["method"] == "notifications/progress"
                && m.get("id").is_none()
                && m["params"]["progressToken"] == token
        });
        *received = kept;
        taken.into_iter().map(|mut m| m["params"].take()).collect()
    }

    /// Ends the client's input, waits until every call in flight has answered and the server
    /// can send nothing more, and returns the messages no request awaited.
    pub async fn close(self) -> Vec<Value> {
        self.inner.end_input();
        let mut rest = Vec::new();
        while let Some(m) = self.next_message().await {
            rest.push(m);
        }
        rest
    }

    fn with_meta(&self, params: Value) -> Value {
        if !self.revision.is_stateless() {
            return params;
        }
        let mut params = match params {
            Value::Object(fields) => fields,
            _ => Map::new(),
        };
        let meta = params
            .entry("_meta")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(meta) = meta {
            let mut put = |key: &str, value: Value| {
                meta.entry(format!("io.modelcontextprotocol/{key}"))
                    .or_insert(value);
            };
            put("protocolVersion", json!(self.revision.as_str()));
            put("clientInfo", self.client_info.clone());
            put("clientCapabilities", self.capabilities.clone());
            if let Some(level) = *lock(&self.log_level) {
                put("logLevel", json!(level.as_str()));
            }
        }
        Value::Object(params)
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        // Closing the connection closes its outbox once calls in flight end, which ends the
        // reading task.
        self.inner.end_input();
    }
}

impl ClientBuilder {
    /// The revision to speak (default 2025-11-25). Handshake revisions start with
    /// `initialize`; 2026-07-28 sends its `_meta` on every request instead.
    pub fn revision(mut self, revision: Revision) -> Self {
        self.revision = revision;
        self
    }

    /// The client's `Implementation` (default `toolidl-test-client` `0`).
    pub fn client_info(mut self, info: Value) -> Self {
        self.client_info = info;
        self
    }

    /// The client's capabilities (default `{}`), e.g. `{"elicitation": {}}`.
    pub fn capabilities(mut self, capabilities: Value) -> Self {
        self.capabilities = capabilities;
        self
    }

    /// Answers the server's requests to the client (elicitation, sampling, roots): `f`
    /// gets the method and params and returns the result or an error. Without it, every
    /// such request is answered -32601.
    pub fn on_request(
        mut self,
        f: impl Fn(&str, &Value) -> Result<Value, RpcError> + Send + Sync + 'static,
    ) -> Self {
        self.responder = Some(Box::new(f));
        self
    }

    /// Connects to `server`: a connection of its own, and the handshake under the
    /// handshake revisions (`Err` when `initialize` fails).
    ///
    /// # Panics
    ///
    /// Outside a Tokio runtime.
    pub async fn connect(self, server: &Server) -> Result<Client, RpcError> {
        let (conn, outbox) = Connection::new(server, tokio::runtime::Handle::current());
        let inner = Arc::new(Inner {
            conn: Mutex::new(Some(conn)),
            waiting: Mutex::new(HashMap::new()),
            received: Mutex::new(VecDeque::new()),
            arrived: Notify::new(),
            closed: AtomicBool::new(false),
            responder: self.responder,
        });
        tokio::spawn(read_outbox(Arc::clone(&inner), outbox));
        let mut client = Client {
            inner,
            revision: self.revision,
            client_info: self.client_info,
            capabilities: self.capabilities,
            log_level: Mutex::new(None),
            next_id: AtomicI64::new(1),
            initialize: None,
            server: server.clone(),
        };
        if !client.revision.is_stateless() {
            let params = json!({
                "protocolVersion": client.revision.as_str(),
                "capabilities": client.capabilities,
                "clientInfo": client.client_info,
            });
            let result = client.request("initialize", params).await?;
            client.notify("notifications/initialized", json!({}));
            client.initialize = Some(result);
        }
        Ok(client)
    }
}

impl PendingRequest {
    /// The request's id.
    pub fn id(&self) -> i64 {
        self.id
    }

    /// Waits for the reply: the `result` member, or the error. A request the server can no
    /// longer answer (the client closed) is an internal error.
    pub async fn reply(self) -> Result<Value, RpcError> {
        let Ok(message) = self.reply.await else {
            return Err(RpcError::internal(
                "The connection closed before the server replied.",
            ));
        };
        reply_result(message)
    }
}

impl CallResult {
    /// Whether the tool reported a failure (`isError: true`).
    pub fn is_error(&self) -> bool {
        self.0["isError"] == true
    }

    /// The text of the first text block, or `""`.
    pub fn text(&self) -> &str {
        self.content()
            .iter()
            .find(|c| c["type"] == "text")
            .and_then(|c| c["text"].as_str())
            .unwrap_or("")
    }

    /// The content blocks.
    pub fn content(&self) -> &[Value] {
        self.0["content"].as_array().map_or(&[], Vec::as_slice)
    }

    /// `structuredContent`, when the result has it.
    pub fn structured(&self) -> Option<&Value> {
        self.0.get("structuredContent")
    }

    /// `structuredContent` read by `T`'s decoder (a generated record, say), every constraint
    /// checked, as a server reads arguments; a missing one reads as `null`.
    pub fn structured_as<T: Decode>(&self) -> Result<T, ArgError> {
        let json = self.structured().unwrap_or(&Value::Null).to_string();
        T::read(&mut Reader::new(&json), &Path::Root)
    }

    /// The whole result.
    pub fn json(&self) -> &Value {
        &self.0
    }

    /// The whole result, owned.
    pub fn into_json(self) -> Value {
        self.0
    }
}

impl Inner {
    fn send(&self, message: &Value) {
        self.send_line(&message.to_string());
    }

    fn send_line(&self, line: &str) {
        // The handler of a call that completes at once runs inside `handle_line`; it never
        // reaches back into the client, so holding the lock is safe.
        if let Some(conn) = &*lock(&self.conn) {
            conn.handle_line(line);
        }
    }

    fn end_input(&self) {
        if let Some(conn) = lock(&self.conn).take() {
            conn.close();
        }
    }

    fn receive(&self, message: Value) {
        let has_method = message.get("method").is_some();
        match message.get("id") {
            Some(id) if has_method => {
                let id = id.clone();
                self.answer(id, &message);
            }
            Some(id) => {
                let waiter = lock(&self.waiting).remove(&id.to_string());
                if let Some(waiter) = waiter {
                    // A waiter that gave up (its future dropped) just loses the reply.
                    let _ = waiter.send(message);
                    return;
                }
            }
            None => {}
        }
        lock(&self.received).push_back(message);
        self.arrived.notify_waiters();
    }

    /// Answers a request from the server.
    fn answer(&self, id: Value, request: &Value) {
        let method = request["method"].as_str().unwrap_or_default();
        let outcome = match &self.responder {
            Some(f) => f(method, &request["params"]),
            None => Err(RpcError::new(
                code::METHOD_NOT_FOUND,
                format!("The test client does not answer {method}."),
            )),
        };
        self.send(&reply_message(id, outcome));
    }
}

/// Reads the server's outbox until it closes.
async fn read_outbox(inner: Arc<Inner>, mut outbox: Outbox) {
    while let Some(text) = outbox.recv().await {
        for line in text.lines() {
            match serde_json::from_str(line) {
                Ok(message) => inner.receive(message),
                // The server must never write this: keep it visible to the test as a string.
                Err(_) => inner.receive(Value::String(line.to_owned())),
            }
        }
    }
    inner.closed.store(true, Ordering::Release);
    lock(&inner.waiting).clear();
    inner.arrived.notify_waiters();
}
