//! A server in a child process, spoken to over its stdin and stdout: newline-delimited
//! JSON-RPC, as the MCP stdio transport has it.

use std::collections::HashMap;
use std::process::{ExitStatus, Stdio};
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use super::observe::{self, NotificationHandler, ProgressHandler};
use super::{ClientError, ReplyFuture, Transport, input, meta, tasks};
use crate::peer::lock;
use crate::protocol::{Revision, RpcError, reply_message, reply_result};

/// What answers the server's requests to the client (`elicitation/create`,
/// `sampling/createMessage`, `roots/list`): the method and its params in, a result or an
/// error out.
pub type RequestHandler = Arc<dyn Fn(&str, &Value) -> Result<Value, RpcError> + Send + Sync>;

/// Replies awaited, by request id.
type Waiting = Arc<Mutex<HashMap<i64, oneshot::Sender<Result<Value, RpcError>>>>>;

/// The progress handlers of the requests in flight, by progress token (the request's id).
type Progressing = Arc<Mutex<HashMap<i64, ProgressHandler>>>;

/// The child's stdin, shared by requests and the replies to the server's own requests;
/// `None` once closed (a pipe closes when dropped: its `shutdown` does nothing).
type Input = Arc<tokio::sync::Mutex<Option<ChildStdin>>>;

/// A connection to a server running as a child process.
///
/// [`spawn`](StdioTransport::spawn) starts it, runs the `initialize` handshake and sends
/// `notifications/initialized`. With [`StdioTransportBuilder::revision`] 2026-07-28 it
/// sends `server/discover` instead, and every request then carries the revision, the
/// client's capabilities and info in its `_meta`; a server's `input_required` is answered
/// by the request handler and the request retried, and a tool call answered with a task
/// is polled to its end (see [`HttpTransport`](super::HttpTransport), which does the
/// same). Dropping the transport kills the child; [`close`](StdioTransport::close) ends
/// its input and waits for it to exit.
pub struct StdioTransport {
    input: Input,
    waiting: Waiting,
    progressing: Progressing,
    next_id: Arc<AtomicI64>,
    child: Child,
    reader: JoinHandle<()>,
    revision: Revision,
    initialize: Value,
    handler: Option<RequestHandler>,
    /// What 2026-07-28 requests declare in their `_meta`.
    modern_capabilities: Value,
}

impl StdioTransport {
    /// Starts `command` as an MCP server with no handler for its requests to the client
    /// (they are answered "method not found").
    pub async fn spawn(command: Command) -> Result<StdioTransport, ClientError> {
        StdioTransport::spawn_with(command, None, json!({})).await
    }

    /// Starts `command` as an MCP server, declares `capabilities` and routes the server's
    /// requests to the client (elicitation, sampling, roots) to `handler`: the same as
    /// [`builder`](StdioTransport::builder) with those options.
    pub async fn spawn_with(
        command: Command,
        handler: Option<RequestHandler>,
        capabilities: Value,
    ) -> Result<StdioTransport, ClientError> {
        let mut builder = StdioTransport::builder(command).capabilities(capabilities);
        builder.requests = handler;
        builder.spawn().await
    }

    /// Options for starting `command`: handlers for the server's requests and
    /// notifications, and the capabilities declared.
    pub fn builder(command: Command) -> StdioTransportBuilder {
        StdioTransportBuilder {
            command,
            requests: None,
            notifications: None,
            capabilities: json!({}),
            revision: None,
            tasks: true,
        }
    }

    async fn start(options: StdioTransportBuilder) -> Result<StdioTransport, ClientError> {
        let StdioTransportBuilder {
            mut command,
            requests: handler,
            notifications,
            capabilities,
            revision,
            tasks,
        } = options;
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .kill_on_drop(true);
        let mut child = command
            .spawn()
            .map_err(|e| ClientError::Transport(format!("cannot start the server: {e}")))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(ClientError::Transport(
                "the server's stdio is not piped".into(),
            ));
        };
        let input: Input = Arc::new(tokio::sync::Mutex::new(Some(stdin)));
        let waiting = Waiting::default();
        let progressing = Progressing::default();
        let reader = tokio::spawn(read_replies(
            stdout,
            Arc::clone(&waiting),
            Arc::clone(&input),
            Handlers {
                requests: handler.clone(),
                notifications,
                progress: Arc::clone(&progressing),
            },
        ));
        let mut transport = StdioTransport {
            input,
            waiting,
            progressing,
            next_id: Arc::new(AtomicI64::new(1)),
            child,
            reader,
            revision: Revision::NEWEST_HANDSHAKE,
            initialize: Value::Null,
            handler,
            modern_capabilities: match tasks {
                true => meta::with_tasks(capabilities.clone()),
                false => capabilities.clone(),
            },
        };
        match revision {
            Some(wanted) if wanted.is_stateless() => {
                transport.revision = wanted;
                let discovered = transport.request_once("server/discover", json!({})).await?;
                let speaks = discovered
                    .get("supportedVersions")
                    .and_then(Value::as_array)
                    .is_some_and(|v| v.iter().any(|v| v.as_str() == Some(wanted.as_str())));
                if !speaks {
                    return Err(ClientError::Transport(format!(
                        "the server does not speak {wanted}: `server/discover` lists {}",
                        discovered.get("supportedVersions").unwrap_or(&Value::Null)
                    )));
                }
                transport.initialize = discovered;
                return Ok(transport);
            }
            _ => {}
        }
        let offered = revision.unwrap_or(Revision::NEWEST_HANDSHAKE);
        let init = transport
            .request_once(
                "initialize",
                json!({
                    "protocolVersion": offered.as_str(),
                    "capabilities": capabilities,
                    "clientInfo": meta::client_info(),
                }),
            )
            .await?;
        let answered = init.get("protocolVersion").and_then(Value::as_str);
        transport.revision = answered
            .and_then(Revision::parse)
            .filter(|r| !r.is_stateless() && revision.is_none_or(|wanted| wanted == *r))
            .ok_or_else(|| {
                ClientError::Transport(format!(
                    "the server answered `initialize` offering {offered} with protocol version {answered:?}, which this client does not accept"
                ))
            })?;
        transport.initialize = init;
        transport.notify("notifications/initialized", json!({}))?;
        Ok(transport)
    }

    /// The revision in use: the one the server chose in `initialize`, or 2026-07-28.
    pub fn revision(&self) -> Revision {
        self.revision
    }

    /// The result that opened the connection: the server's `initialize` result (its name,
    /// capabilities, instructions), or under 2026-07-28 its `server/discover` result.
    pub fn initialize_result(&self) -> &Value {
        &self.initialize
    }

    /// The server's name and version: `serverInfo` of `initialize`, or
    /// `_meta["io.modelcontextprotocol/serverInfo"]` of `server/discover`.
    pub fn server_info(&self) -> Option<&Value> {
        let info = match self.revision.is_stateless() {
            true => self
                .initialize
                .get("_meta")
                .and_then(|m| m.get(meta::SERVER)),
            false => self.initialize.get("serverInfo"),
        };
        info.filter(|i| i.is_object())
    }

    /// One request and its reply (2026-07-28: with its `_meta`).
    async fn request_once(&self, method: &str, params: Value) -> Result<Value, ClientError> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (tx, reply) = oneshot::channel();
        lock(&self.waiting).insert(id, tx);
        let mut in_flight = InFlight {
            transport: self,
            id,
            // The handshake cannot be cancelled (the transport is dropped with it).
            cancel: method != "initialize",
        };
        let params = match observe::progress_handler() {
            Some(handler) => {
                lock(&self.progressing).insert(id, handler);
                observe::with_token(params, id)
            }
            None => params,
        };
        let params = match self.revision.is_stateless() {
            true => meta::with_meta(params, self.revision, &self.modern_capabilities),
            false => params,
        };
        let request = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        if let Err(error) = StdioTransport::send(&self.input, &request).await {
            in_flight.cancel = false;
            return Err(error);
        }
        let reply = reply.await;
        in_flight.cancel = false;
        match reply {
            Ok(reply) => Ok(reply?),
            Err(_) => Err(ClientError::Transport(
                "the server closed its output before replying".into(),
            )),
        }
    }

    /// What cancels a task the caller stopped waiting for: `tasks/cancel`, written from a
    /// task of its own (its reply is read and dropped).
    fn cancel_task(&self) -> tasks::Cancel {
        let input = Arc::clone(&self.input);
        let next_id = Arc::clone(&self.next_id);
        let (revision, capabilities) = (self.revision, self.modern_capabilities.clone());
        Box::new(move |task| {
            let Ok(runtime) = tokio::runtime::Handle::try_current() else {
                return;
            };
            let id = next_id.fetch_add(1, Ordering::Relaxed);
            let params = meta::with_meta(json!({"taskId": task}), revision, &capabilities);
            let request =
                json!({"jsonrpc": "2.0", "id": id, "method": "tasks/cancel", "params": params});
            runtime.spawn(async move { StdioTransport::send(&input, &request).await.ok() });
        })
    }

    /// Ends the server's input and waits for it to exit.
    pub async fn close(mut self) -> Result<ExitStatus, ClientError> {
        self.input.lock().await.take();
        let status = self.child.wait().await;
        self.reader.abort();
        status.map_err(|e| ClientError::Transport(format!("waiting for the server: {e}")))
    }

    async fn send(input: &Input, message: &Value) -> Result<(), ClientError> {
        let mut line = message.to_string();
        line.push('\n');
        let mut stdin = input.lock().await;
        let Some(stdin) = stdin.as_mut() else {
            return Err(ClientError::Transport("the connection is closed".into()));
        };
        let written = stdin.write_all(line.as_bytes()).await;
        written
            .and(stdin.flush().await)
            .map_err(|e| ClientError::Transport(format!("writing to the server: {e}")))
    }
}

/// Options for [`StdioTransport::builder`].
pub struct StdioTransportBuilder {
    command: Command,
    requests: Option<RequestHandler>,
    notifications: Option<NotificationHandler>,
    capabilities: Value,
    revision: Option<Revision>,
    tasks: bool,
}

impl StdioTransportBuilder {
    /// Routes the server's requests to the client (elicitation, sampling, roots) to
    /// `handler`; without one they are answered "method not found".
    pub fn on_request(mut self, handler: RequestHandler) -> Self {
        self.requests = Some(handler);
        self
    }

    /// Routes the server's notifications (log messages, list changes, resource updates,
    /// and progress no [`with_progress`](super::with_progress) awaits) to `handler`; without
    /// one they are dropped. It runs on the task reading the server's output: keep it short.
    pub fn on_notification(mut self, handler: NotificationHandler) -> Self {
        self.notifications = Some(handler);
        self
    }

    /// The capabilities the client declares in `initialize`, or under 2026-07-28 in every
    /// request's `_meta` (`{}` by default; 2026-07-28 adds the tasks extension, see
    /// [`tasks`](Self::tasks)).
    pub fn capabilities(mut self, capabilities: Value) -> Self {
        self.capabilities = capabilities;
        self
    }

    /// The revision to speak: a handshake revision is offered in `initialize`, which must
    /// answer it; 2026-07-28 sends `server/discover`, which must list it, and no
    /// `initialize`. Without it, `initialize` offers the newest handshake revision and
    /// accepts the one the server answers. (The transport does not probe with
    /// `server/discover` by itself: a server of the handshake era may leave the probe
    /// unanswered, and the fallback would wait for a timeout on every start.)
    pub fn revision(mut self, revision: Revision) -> Self {
        self.revision = Some(revision);
        self
    }

    /// Whether 2026-07-28 requests declare the tasks extension, so a server may answer a
    /// tool call with a task, which the transport then waits for; `true` by default.
    pub fn tasks(mut self, declare: bool) -> Self {
        self.tasks = declare;
        self
    }

    /// Starts the server and runs the handshake: the client offers the newest handshake
    /// revision; the server may answer with an older one it prefers, which is accepted if
    /// this runtime knows it.
    pub async fn spawn(self) -> Result<StdioTransport, ClientError> {
        StdioTransport::start(self).await
    }
}

impl Drop for StdioTransport {
    fn drop(&mut self) {
        self.reader.abort();
    }
}

impl Transport for StdioTransport {
    fn request<'a>(&'a self, method: &'a str, params: Value) -> ReplyFuture<'a> {
        Box::pin(async move {
            if !self.revision.is_stateless() {
                return self.request_once(method, params).await;
            }
            let handler = self.handler.as_deref();
            let result = input::answering(method, params, handler, |params| {
                self.request_once(method, params)
            })
            .await?;
            if method == "tools/call" && tasks::is_task(&result) {
                let poll = |method, params| self.request_once(method, params);
                return tasks::awaiting(result, handler, poll, self.cancel_task()).await;
            }
            Ok(result)
        })
    }

    fn notify(&self, method: &str, params: Value) -> Result<(), ClientError> {
        let message = json!({"jsonrpc": "2.0", "method": method, "params": params});
        let input = Arc::clone(&self.input);
        let runtime = tokio::runtime::Handle::try_current().map_err(|_| {
            ClientError::Transport("no tokio runtime to send a notification".into())
        })?;
        // Notifications are not awaited: written in order behind the lock, off the caller.
        runtime.spawn(async move { StdioTransport::send(&input, &message).await.ok() });
        Ok(())
    }
}

/// A request awaiting its reply. Dropped with the reply, it forgets the request; dropped
/// before (the caller stopped waiting: a timeout, a `select!`), it also tells the server
/// with `notifications/cancelled`, so the server stops the work.
struct InFlight<'a> {
    transport: &'a StdioTransport,
    id: i64,
    cancel: bool,
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        lock(&self.transport.waiting).remove(&self.id);
        lock(&self.transport.progressing).remove(&self.id);
        if self.cancel {
            let params = observe::cancelled(self.id);
            self.transport
                .notify("notifications/cancelled", params)
                .ok();
        }
    }
}

/// Where the server's messages that are not replies go.
struct Handlers {
    requests: Option<RequestHandler>,
    notifications: Option<NotificationHandler>,
    progress: Progressing,
}

impl Handlers {
    /// A notification: the progress of a request in [`with_progress`](super::with_progress)
    /// to its handler, anything else to the notification handler.
    fn notified(&self, method: &str, params: &Value) {
        if method == "notifications/progress"
            && let Some((token, progress)) = observe::progress_of(params)
        {
            let handler = lock(&self.progress).get(&token).cloned();
            if let Some(handler) = handler {
                handler(progress);
                return;
            }
        }
        if let Some(handler) = &self.notifications {
            handler(method, params);
        }
    }
}

/// Reads the server's output until it ends: replies go to the requests awaiting them,
/// the server's requests and notifications to `handlers`; unreadable lines are skipped.
async fn read_replies(stdout: ChildStdout, waiting: Waiting, input: Input, handlers: Handlers) {
    let mut lines = BufReader::new(stdout).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        let Ok(message) = serde_json::from_str::<Value>(&line) else {
            tracing::debug!("skipping a line from the server that is not JSON");
            continue;
        };
        match (
            message.get("method").and_then(Value::as_str),
            message.get("id"),
        ) {
            (Some(method), Some(id)) => {
                let params = message.get("params").cloned().unwrap_or(Value::Null);
                let answer = input::ask(handlers.requests.as_deref(), method, &params);
                let reply = reply_message(id.clone(), answer);
                StdioTransport::send(&input, &reply).await.ok();
            }
            (None, Some(id)) => {
                let Some(sender) = id.as_i64().and_then(|id| lock(&waiting).remove(&id)) else {
                    continue;
                };
                sender.send(reply_result(message)).ok();
            }
            (Some(method), None) => {
                handlers.notified(method, message.get("params").unwrap_or(&Value::Null));
            }
            _ => {}
        }
    }
    // Dropping the senders wakes every request still waiting with a transport error.
    lock(&waiting).clear();
}
