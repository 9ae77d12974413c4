//! `client::HttpTransport` against the runtime's own server on a loopback port: what comes
//! outside a call (the session's GET stream, `subscriptions/listen`), a stream the server
//! closes before its reply (resumed with `Last-Event-ID`), `Mcp-Param-*` headers for
//! `x-mcp-header` parameters, and a tool call answered with a task.
#![cfg(all(feature = "client", feature = "http"))]

use crate::common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::Kitchen;
use serde_json::{Value, json};
use toolidl_runtime::args::Arguments;
use toolidl_runtime::client::{
    ClientError, HttpTransport, NotificationHandler, RequestHandler, Transport, call_tool,
};
use toolidl_runtime::http::{HttpConfig, HttpServer};
use toolidl_runtime::protocol::Revision;
use toolidl_runtime::service::{BoxFuture, ToolDef, ToolOutput, ToolResult};
use toolidl_runtime::tasks::{
    MemoryTaskStore, StoreFuture, TaskEdit, TaskInput, TaskRecord, TaskStore, TaskSupport,
};
use toolidl_runtime::{RequestContext, Server, Service};

/// Serves `server` on a loopback port with `config`: the endpoint's URL.
async fn serve(server: Server, config: HttpConfig) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let http = HttpServer::from_listener(server, listener, config).unwrap();
    tokio::spawn(http.run_until(std::future::pending()));
    format!("http://{addr}/mcp")
}

/// Every notification a handler got, in order.
type Seen = Arc<Mutex<Vec<(String, Value)>>>;

fn recorder() -> (Seen, NotificationHandler) {
    let seen = Seen::default();
    let keep = Arc::clone(&seen);
    let handler: NotificationHandler = Arc::new(move |method: &str, params: &Value| {
        keep.lock()
            .unwrap()
            .push((method.to_owned(), params.clone()));
    });
    (seen, handler)
}

/// Waits (up to 5 seconds) for a notification `method` to have been seen.
async fn seen_one(seen: &Seen, method: &str) -> Value {
    for _ in 0..500 {
        let found = seen
            .lock()
            .unwrap()
            .iter()
            .find(|(m, _)| m == method)
            .map(|(_, p)| p.clone());
        if let Some(params) = found {
            return params;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("no {method} came: {:?}", seen.lock().unwrap());
}

fn kitchen(list_changed: bool) -> Server {
    Server::builder("kitchen", "1.2.3")
        .list_changed(list_changed)
        .service(Arc::new(Kitchen))
        .build()
}

static EXTRA_TOOLS: [ToolDef; 1] = [ToolDef::new(
    "extra",
    r#"{"name":"extra","inputSchema":{"type":"object"}}"#,
)];

/// A service added while a client is connected: the server tells it the tools changed.
struct Extra;

impl Service for Extra {
    fn tools(&self) -> &[ToolDef] {
        &EXTRA_TOOLS
    }

    fn call_tool(
        self: Arc<Self>,
        _: &str,
        _: Arguments<'_>,
        _: RequestContext,
    ) -> BoxFuture<ToolResult> {
        Box::pin(std::future::ready(Ok(ToolOutput::text("extra"))))
    }
}

/// In a session, what belongs to no call (here, a change of the tools) comes on the GET
/// stream the transport opens, to the notification handler.
#[tokio::test]
async fn the_sessions_get_stream_brings_list_changes() {
    let server = kitchen(true);
    let url = serve(server.clone(), HttpConfig::new()).await;
    let (seen, handler) = recorder();
    let client = HttpTransport::builder(&url)
        .revision(Revision::V2025_11_25)
        .on_notification(handler)
        .connect()
        .await
        .unwrap();
    // The stream is open once a request after it is answered, or a little later.
    call_tool(&client, "text", json!({})).await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    server.add_service(Arc::new(Extra));
    seen_one(&seen, "notifications/tools/list_changed").await;
    client.close().await.unwrap();
}

/// Without the GET stream (opted out), nothing outside a call arrives.
#[tokio::test]
async fn without_the_get_stream_list_changes_do_not_arrive() {
    let server = kitchen(true);
    let url = serve(server.clone(), HttpConfig::new()).await;
    let (seen, handler) = recorder();
    let client = HttpTransport::builder(&url)
        .revision(Revision::V2025_11_25)
        .on_notification(handler)
        .session_stream(false)
        .connect()
        .await
        .unwrap();
    call_tool(&client, "text", json!({})).await.unwrap();
    server.add_service(Arc::new(Extra));
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(seen.lock().unwrap().is_empty());
}

/// The server answers `slow` polled (HttpConfig::poll_tool): its POST's stream holds only
/// the priming event and closes; the transport resumes it with GET and Last-Event-ID after
/// the `retry` delay and reads the reply there.
#[tokio::test]
async fn a_stream_closed_before_the_reply_is_resumed() {
    let config = HttpConfig::new()
        .poll_tool("slow")
        .sse_retry(Duration::from_millis(100));
    let url = serve(kitchen(false), config).await;
    let client = HttpTransport::builder(&url)
        .revision(Revision::V2025_11_25)
        .session_stream(false)
        .connect()
        .await
        .unwrap();
    let reply = call_tool(&client, "slow", json!({"ms": 300}))
        .await
        .unwrap();
    assert_eq!(reply.text(), "slept 300");
}

/// Under 2026-07-28, `subscriptions/listen` brings the change; dropping the subscription
/// closes its stream, and nothing more comes.
#[tokio::test]
async fn a_subscription_brings_the_changes_it_asked_for() {
    let server = kitchen(true);
    let url = serve(server.clone(), HttpConfig::new()).await;
    let (seen, handler) = recorder();
    let client = HttpTransport::builder(&url)
        .on_notification(handler)
        .connect()
        .await
        .unwrap();
    assert_eq!(client.revision(), Revision::V2026_07_28);
    let subscription = client
        .listen(json!({"toolsListChanged": true, "promptsListChanged": true}))
        .await
        .unwrap();
    assert_eq!(subscription.acknowledged()["toolsListChanged"], true);
    seen_one(&seen, "notifications/subscriptions/acknowledged").await;
    server.add_service(Arc::new(Extra));
    let change = seen_one(&seen, "notifications/tools/list_changed").await;
    assert!(
        change["_meta"]["io.modelcontextprotocol/subscriptionId"].is_number(),
        "{change}"
    );
    drop(subscription);
    tokio::time::sleep(Duration::from_millis(100)).await;
    seen.lock().unwrap().clear();
    server.add_service(Arc::new(Routed));
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        seen.lock().unwrap().is_empty(),
        "{:?}",
        seen.lock().unwrap()
    );
}

#[tokio::test]
async fn a_handshake_session_has_no_subscriptions_listen() {
    let url = serve(kitchen(true), HttpConfig::new()).await;
    let client = HttpTransport::builder(&url)
        .revision(Revision::V2025_11_25)
        .connect()
        .await
        .unwrap();
    let outcome = client.listen(json!({"toolsListChanged": true})).await;
    assert!(
        matches!(&outcome, Err(ClientError::Transport(t)) if t.contains("GET stream")),
        "{outcome:?}"
    );
}

static ROUTED: [ToolDef; 2] = [
    ToolDef::new(
        "route",
        r#"{"name":"route","inputSchema":{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"},"count":{"type":"integer","x-mcp-header":"Count"},"target":{"type":"object","properties":{"zone":{"type":"string","x-mcp-header":"Zone"}}},"query":{"type":"string"}},"required":["region"]}}"#,
    ),
    ToolDef::new(
        "broken",
        r#"{"name":"broken","inputSchema":{"type":"object","properties":{"n":{"type":"number","x-mcp-header":"N"}}}}"#,
    ),
];

/// Tools whose parameters are mirrored in headers; each answers its arguments.
struct Routed;

impl Service for Routed {
    fn tools(&self) -> &[ToolDef] {
        &ROUTED
    }

    fn call_tool(
        self: Arc<Self>,
        _: &str,
        args: Arguments<'_>,
        _: RequestContext,
    ) -> BoxFuture<ToolResult> {
        let raw = args.raw();
        let text = raw.get().to_owned();
        Box::pin(std::future::ready(Ok(ToolOutput::text(text))))
    }
}

/// The server checks each `x-mcp-header` parameter's `Mcp-Param-*` header against the
/// body (`-32020` when missing); the transport reads the tools' listing and sends them.
#[tokio::test]
async fn annotated_parameters_travel_in_mcp_param_headers() {
    let server = Server::builder("routed", "1")
        .service(Arc::new(Routed))
        .build();
    let url = serve(server, HttpConfig::new()).await;
    let client = HttpTransport::connect(&url).await.unwrap();
    assert_eq!(client.revision(), Revision::V2026_07_28);
    for arguments in [
        json!({"region": "us-west1", "count": 42, "target": {"zone": "b"}, "query": "q"}),
        json!({"region": "Hello, 世界", "count": null}),
        json!({"region": " padded "}),
    ] {
        let reply = call_tool(&client, "route", arguments.clone())
            .await
            .unwrap();
        let echoed: Value = serde_json::from_str(&reply.text()).unwrap();
        assert_eq!(echoed, arguments);
    }
    // The tool whose annotation breaks the rules is not listed to the caller.
    let listed = client.request("tools/list", json!({})).await.unwrap();
    let names: Vec<&str> = listed["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["route"]);
}

/// A task store that remembers the ids of the tasks it created.
#[derive(Default)]
struct Recording {
    inner: MemoryTaskStore,
    created: Mutex<Vec<String>>,
}

impl TaskStore for Recording {
    fn create<'a>(&'a self, record: &'a TaskRecord) -> StoreFuture<'a, ()> {
        self.created.lock().unwrap().push(record.id().to_owned());
        self.inner.create(record)
    }
    fn get<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<TaskRecord>> {
        self.inner.get(id)
    }
    fn update<'a>(
        &'a self,
        id: &'a str,
        edit: TaskEdit<'a>,
    ) -> StoreFuture<'a, Option<TaskRecord>> {
        self.inner.update(id, edit)
    }
    fn is_shared(&self) -> bool {
        false
    }
}

fn task_kitchen(store: Arc<Recording>) -> Server {
    Server::builder("kitchen", "1.2.3")
        .service(Arc::new(Kitchen))
        .task_tool("slow", TaskSupport::Required, TaskInput::InTask)
        .task_tool("input_required", TaskSupport::Required, TaskInput::InTask)
        .task_store(store)
        .build()
}

/// `slow` runs only as a task: the transport declares the extension, polls the task to its
/// end and returns its result as the call's.
#[tokio::test]
async fn a_task_only_tool_is_waited_for() {
    let store = Arc::new(Recording::default());
    let url = serve(task_kitchen(Arc::clone(&store)), HttpConfig::new()).await;
    let client = HttpTransport::connect(&url).await.unwrap();
    let reply = call_tool(&client, "slow", json!({"ms": 200}))
        .await
        .unwrap();
    assert_eq!(reply.text(), "slept 200");
    assert_eq!(store.created.lock().unwrap().len(), 1);
    // Without the extension declared, the server refuses the call.
    let plain = HttpTransport::builder(&url)
        .tasks(false)
        .connect()
        .await
        .unwrap();
    match call_tool(&plain, "slow", json!({"ms": 1})).await {
        Err(ClientError::Protocol(e)) => assert_eq!(e.code, -32021),
        other => panic!("expected -32021, got {other:?}"),
    }
}

/// The task asks for input (an elicitation, `input_required`) while it runs: the request
/// handler answers it through `tasks/update`, and the handler runs again with the answer
/// and its state.
#[tokio::test]
async fn input_asked_during_a_task_is_answered_by_the_handler() {
    let store = Arc::new(Recording::default());
    let url = serve(task_kitchen(Arc::clone(&store)), HttpConfig::new()).await;
    let handler: RequestHandler = Arc::new(|method, _| {
        assert_eq!(method, "elicitation/create");
        Ok(json!({"action": "accept", "content": {"name": "Ada"}}))
    });
    let client = HttpTransport::builder(&url)
        .on_request(handler)
        .capabilities(json!({"elicitation": {}}))
        .connect()
        .await
        .unwrap();
    let reply = call_tool(&client, "input_required", json!({}))
        .await
        .unwrap();
    assert_eq!(reply.text(), "hello Ada, state s1");
    assert_eq!(store.created.lock().unwrap().len(), 1);
}

/// A caller that stops waiting for a task (a timeout here) cancels it at the server.
#[tokio::test]
async fn a_task_given_up_on_is_cancelled() {
    let store = Arc::new(Recording::default());
    let url = serve(task_kitchen(Arc::clone(&store)), HttpConfig::new()).await;
    let client = HttpTransport::connect(&url).await.unwrap();
    let call = call_tool(&client, "slow", json!({"ms": 3_600_000}));
    assert!(
        tokio::time::timeout(Duration::from_millis(700), call)
            .await
            .is_err()
    );
    let id = store.created.lock().unwrap()[0].clone();
    for _ in 0..100 {
        let task = store.get(&id).await.unwrap().unwrap();
        if task.is_terminal() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the task is still running");
}
