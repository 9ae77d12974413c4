//! The tasks extension (`io.modelcontextprotocol/tasks`, 2026-07-28) over the in-process
//! connection: task creation, `tasks/get`, `tasks/update` (input during a task), input
//! before a task, `tasks/cancel`, the -32021 gates and the removed v1 methods.

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use common::{Client, modern_meta};
use serde_json::{Map, Value, json};
use toolidl_runtime::codegen::{
    Arguments, BoxFuture, RequestContext, RpcError, Service, ToolDef, ToolError, ToolOutput,
    ToolResult,
};
use toolidl_runtime::{Server, tasks::TASKS_EXTENSION, tasks::TaskInput, tasks::TaskSupport};

macro_rules! tool {
    ($name:literal) => {
        ToolDef::new(
            $name,
            concat!(
                r#"{"name":""#,
                $name,
                r#"","inputSchema":{"type":"object"}}"#
            ),
        )
    };
}

static TOOLS: [ToolDef; 9] = [
    tool!("quick"),
    tool!("work"),
    tool!("wait"),
    tool!("fail"),
    tool!("rpc"),
    tool!("boom"),
    tool!("ask"),
    tool!("ask_first"),
    tool!("wait_counted"),
];

/// How many `wait_counted` handlers saw their cancellation.
static STOPPED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

struct Jobs;

fn answered(ctx: &RequestContext, key: &str) -> Option<String> {
    ctx.input_response(key)?
        .pointer("/content/value")?
        .as_str()
        .map(str::to_owned)
}

fn elicit(key: &str) -> (String, Value) {
    (
        key.to_owned(),
        json!({"method": "elicitation/create", "params": {"message": key, "requestedSchema": {"type": "object", "properties": {"value": {"type": "string"}}}}}),
    )
}

impl Service for Jobs {
    fn tools(&self) -> &[ToolDef] {
        &TOOLS
    }

    fn call_tool(
        self: Arc<Self>,
        name: &str,
        _args: Arguments<'_>,
        ctx: RequestContext,
    ) -> BoxFuture<ToolResult> {
        let name = name.to_owned();
        Box::pin(async move {
            match name.as_str() {
                "quick" => Ok(ToolOutput::Text("quick".into())),
                "work" => {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    Ok(ToolOutput::Text("worked".into()))
                }
                "wait" => {
                    ctx.cancelled().await;
                    Ok(ToolOutput::Text("stopped".into()))
                }
                "wait_counted" => {
                    // Dropped when its task is cancelled: counts then.
                    struct Count;
                    impl Drop for Count {
                        fn drop(&mut self) {
                            STOPPED.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        }
                    }
                    let _count = Count;
                    std::future::pending::<()>().await;
                    Ok(ToolOutput::Text("never".into()))
                }
                "fail" => Err(ToolError::message("it failed")),
                "rpc" => Err(ToolError::Rpc(RpcError::new(-32000, "broken"))),
                "boom" => {
                    tokio::task::yield_now().await;
                    panic!("boom")
                }
                "ask" => {
                    // Asks `a` and `b` at once; a later round asks `c` (requestState `r2`).
                    if ctx.request_state() == Some("r2") {
                        let Some(c) = answered(&ctx, "c") else {
                            return Ok(ToolOutput::InputRequired {
                                requests: Map::from_iter([elicit("c")]),
                                state: Some("r2".into()),
                            });
                        };
                        return Ok(ToolOutput::Text(format!("got {c}")));
                    }
                    match (answered(&ctx, "a"), answered(&ctx, "b")) {
                        (Some(a), Some(b)) if (a.as_str(), b.as_str()) == ("x", "y") => {
                            Ok(ToolOutput::InputRequired {
                                requests: Map::from_iter([elicit("c")]),
                                state: Some("r2".into()),
                            })
                        }
                        _ => Ok(ToolOutput::InputRequired {
                            requests: Map::from_iter([elicit("a"), elicit("b")]),
                            state: None,
                        }),
                    }
                }
                "ask_first" => match answered(&ctx, "name") {
                    Some(n) => Ok(ToolOutput::Text(format!("Hello, {n}!"))),
                    None => Ok(ToolOutput::InputRequired {
                        requests: Map::from_iter([elicit("name")]),
                        state: Some("s".into()),
                    }),
                },
                other => Err(ToolError::internal(format!("no tool {other}"))),
            }
        })
    }
}

fn server() -> Server {
    builder().build()
}

fn builder() -> toolidl_runtime::ServerBuilder {
    let mut b = Server::builder("jobs", "1").service(Arc::new(Jobs));
    for name in ["work", "wait", "fail", "rpc", "boom", "ask", "wait_counted"] {
        b = b.task_tool(name, TaskSupport::Optional, TaskInput::InTask);
    }
    b.task_tool("ask_first", TaskSupport::Required, TaskInput::BeforeTask)
}

fn with_tasks() -> Value {
    modern_meta(json!({"extensions": {TASKS_EXTENSION: {}}}))
}

fn without_tasks() -> Value {
    modern_meta(json!({}))
}

struct Tasks {
    c: Client,
    id: i64,
}

impl Tasks {
    fn new(server: &Server) -> Self {
        Tasks {
            c: Client::new(server),
            id: 1,
        }
    }

    async fn request(&mut self, method: &str, mut params: Value, meta: Value) -> Value {
        params["_meta"] = meta;
        self.id += 1;
        self.c.request(self.id, method, params).await
    }

    async fn call(&mut self, name: &str, extra: Value, meta: Value) -> Value {
        let mut params = json!({"name": name, "arguments": {}});
        if let Value::Object(extra) = extra {
            params.as_object_mut().unwrap().extend(extra);
        }
        self.request("tools/call", params, meta).await
    }

    async fn create(&mut self, name: &str) -> String {
        let r = self.call(name, json!({}), with_tasks()).await;
        assert_eq!(r["result"]["resultType"], "task", "{r}");
        r["result"]["taskId"].as_str().unwrap().to_owned()
    }

    async fn task(&mut self, method: &str, id: &str, extra: Value) -> Value {
        let mut params = json!({"taskId": id});
        if let Value::Object(extra) = extra {
            params.as_object_mut().unwrap().extend(extra);
        }
        self.request(method, params, with_tasks()).await
    }

    async fn get(&mut self, id: &str) -> Value {
        let r = self.task("tasks/get", id, json!({})).await;
        assert_eq!(r["result"]["resultType"], "complete", "{r}");
        r["result"].clone()
    }

    /// Polls until the status is `until` or terminal.
    async fn wait_for(&mut self, id: &str, until: &str) -> Value {
        for _ in 0..500 {
            let t = self.get(id).await;
            let s = t["status"].as_str().unwrap();
            if s == until || ["completed", "failed", "cancelled"].contains(&s) {
                return t;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        panic!("task {id} never reached {until}");
    }
}

fn is_ack(r: &Value) {
    let result = r["result"].as_object().unwrap_or_else(|| panic!("{r}"));
    assert_eq!(result["resultType"], "complete", "{r}");
    for key in ["taskId", "status", "result", "error", "inputRequests"] {
        assert!(!result.contains_key(key), "{key} in an ack: {r}");
    }
}

#[tokio::test]
async fn the_extension_is_advertised_to_2026_clients_only() {
    let server = server();
    let mut t = Tasks::new(&server);
    let d = t
        .request("server/discover", json!({}), without_tasks())
        .await;
    assert_eq!(
        d["result"]["capabilities"]["extensions"][TASKS_EXTENSION],
        json!({})
    );
    assert!(d["result"]["capabilities"].get("tasks").is_none());
    let mut s = Client::new(&server);
    let init = s.initialize("2025-11-25", json!({})).await;
    assert!(
        init["result"]["capabilities"].get("extensions").is_none(),
        "{init}"
    );
    // Handshake revisions have no tasks: a task tool runs synchronously, `required` too.
    let r = s.call(5, "ask_first", json!({})).await;
    assert!(
        r.get("error").is_none() && r["result"].get("taskId").is_none(),
        "{r}"
    );
    let r = s.request(6, "tasks/get", json!({"taskId": "x"})).await;
    assert_eq!(r["error"]["code"], -32601, "{r}");
}

#[tokio::test]
async fn a_task_tool_runs_in_the_background_and_its_result_is_inlined() {
    let server = server();
    let mut t = Tasks::new(&server);
    let r = t.call("work", json!({}), with_tasks()).await;
    let created = r["result"].as_object().unwrap();
    assert_eq!(created["resultType"], "task");
    assert_eq!(created["status"], "working");
    let id = created["taskId"].as_str().unwrap().to_owned();
    for key in ["createdAt", "lastUpdatedAt"] {
        let at = created[key].as_str().unwrap();
        assert!(
            at.len() == 24 && at.ends_with('Z') && at.as_bytes()[10] == b'T',
            "{at}"
        );
    }
    assert!(created["ttlMs"].as_u64().unwrap() > 0);
    assert!(created["pollIntervalMs"].as_u64().unwrap() > 0);
    for key in [
        "result",
        "error",
        "inputRequests",
        "requestState",
        "ttl",
        "task",
    ] {
        assert!(!created.contains_key(key), "{key}: {r}");
    }
    // Durable: readable at once.
    let now = t.get(&id).await;
    assert_eq!(now["taskId"], id.as_str());
    assert!(now.get("result").is_none());
    let done = t.wait_for(&id, "completed").await;
    assert_eq!(done["status"], "completed");
    assert_eq!(done["result"]["content"][0]["text"], "worked");
    assert!(done.get("error").is_none());

    // Sync tools stay sync, with or without the extension; a legacy `task` param is ignored.
    let r = t
        .call("quick", json!({"task": {"ttl": 1000}}), with_tasks())
        .await;
    assert_eq!(r["result"]["resultType"], "complete", "{r}");
    assert_eq!(r["result"]["content"][0]["text"], "quick");
    // An optional task tool without the extension: synchronous.
    let r = t.call("work", json!({}), without_tasks()).await;
    assert_eq!(r["result"]["resultType"], "complete", "{r}");
    assert_eq!(r["result"]["content"][0]["text"], "worked");
}

#[tokio::test]
async fn tool_errors_complete_protocol_errors_and_panics_fail() {
    let server = server();
    let mut t = Tasks::new(&server);
    let id = t.create("fail").await;
    let done = t.wait_for(&id, "completed").await;
    assert_eq!(done["status"], "completed");
    assert_eq!(done["result"]["isError"], true);
    assert_eq!(done["result"]["content"][0]["text"], "it failed");

    let id = t.create("rpc").await;
    let done = t.wait_for(&id, "failed").await;
    assert_eq!(done["status"], "failed");
    assert_eq!(done["error"], json!({"code": -32000, "message": "broken"}));
    assert!(done.get("result").is_none());

    let id = t.create("boom").await;
    let done = t.wait_for(&id, "failed").await;
    assert_eq!(done["status"], "failed");
    assert_eq!(done["error"]["code"], -32603);
}

#[tokio::test]
async fn cancel_acks_and_settles_cancelled_and_is_idempotent() {
    let server = server();
    let mut t = Tasks::new(&server);
    let id = t.create("wait").await;
    is_ack(&t.task("tasks/cancel", &id, json!({})).await);
    let after = t.get(&id).await;
    assert_eq!(after["status"], "cancelled");
    is_ack(&t.task("tasks/cancel", &id, json!({})).await);
    tokio::time::sleep(Duration::from_millis(20)).await;
    assert_eq!(t.get(&id).await["status"], "cancelled");

    // A terminal task stays as it is.
    let id = t.create("work").await;
    t.wait_for(&id, "completed").await;
    is_ack(&t.task("tasks/cancel", &id, json!({})).await);
    assert_eq!(t.get(&id).await["status"], "completed");
}

#[tokio::test]
async fn gates_unknown_ids_and_removed_methods() {
    let server = server();
    let mut t = Tasks::new(&server);
    let id = t.create("wait").await;
    for (method, extra) in [
        ("tasks/get", json!({})),
        ("tasks/update", json!({"inputResponses": {}})),
        ("tasks/cancel", json!({})),
    ] {
        let mut params = json!({"taskId": id});
        params
            .as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        let r = t.request(method, params.clone(), without_tasks()).await;
        assert_eq!(r["error"]["code"], -32021, "{method}: {r}");
        params["taskId"] = json!("no-such-task");
        let r = t.request(method, params, with_tasks()).await;
        assert_eq!(r["error"]["code"], -32602, "{method}: {r}");
    }
    for method in ["tasks/result", "tasks/list"] {
        let r = t.request(method, json!({"taskId": id}), with_tasks()).await;
        assert_eq!(r["error"]["code"], -32601, "{method}: {r}");
    }
    // `required` without the extension: -32021 naming it.
    let r = t.call("ask_first", json!({}), without_tasks()).await;
    assert_eq!(r["error"]["code"], -32021, "{r}");
    assert_eq!(
        r["error"]["data"]["requiredCapabilities"]["extensions"][TASKS_EXTENSION],
        json!({})
    );
    t.task("tasks/cancel", &id, json!({})).await;
}

fn answer(value: &str) -> Value {
    json!({"action": "accept", "content": {"value": value}})
}

#[tokio::test]
async fn input_during_a_task_parks_it_until_every_request_is_answered() {
    let server = server();
    let mut t = Tasks::new(&server);
    let id = t.create("ask").await;
    let parked = t.wait_for(&id, "input_required").await;
    assert_eq!(parked["status"], "input_required");
    let keys: Vec<_> = parked["inputRequests"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    assert_eq!(keys, ["a", "b"]);
    assert_eq!(parked["inputRequests"]["a"]["method"], "elicitation/create");
    assert!(parked.get("requestState").is_none());

    // A partial answer (and an unknown key) is acked; only `b` stays open.
    let r = t
        .task(
            "tasks/update",
            &id,
            json!({"inputResponses": {"a": answer("x"), "zzz": answer("?")}}),
        )
        .await;
    is_ack(&r);
    let still = t.get(&id).await;
    assert_eq!(still["status"], "input_required");
    assert_eq!(
        still["inputRequests"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["b"]
    );

    // Both answered: the handler runs again with them and asks a second round.
    is_ack(
        &t.task(
            "tasks/update",
            &id,
            json!({"inputResponses": {"b": answer("y")}}),
        )
        .await,
    );
    let second = t.wait_for(&id, "input_required").await;
    assert_eq!(second["status"], "input_required", "{second}");
    assert!(second["inputRequests"]["c"].is_object(), "{second}");
    is_ack(
        &t.task(
            "tasks/update",
            &id,
            json!({"inputResponses": {"c": answer("z")}}),
        )
        .await,
    );
    let done = t.wait_for(&id, "completed").await;
    assert_eq!(done["result"]["content"][0]["text"], "got z", "{done}");

    // tasks/update needs an inputResponses object.
    let r = t.task("tasks/update", &id, json!({})).await;
    assert_eq!(r["error"]["code"], -32602, "{r}");
}

#[tokio::test]
async fn input_before_a_task_is_a_synchronous_round_then_the_task_is_created() {
    let server = server();
    let mut t = Tasks::new(&server);
    let r1 = t.call("ask_first", json!({}), with_tasks()).await;
    assert_eq!(r1["result"]["resultType"], "input_required", "{r1}");
    assert!(r1["result"].get("taskId").is_none());
    // Sealed like any synchronous round's (runtime/tests/it/request_state.rs).
    let state = r1["result"]["requestState"].as_str().unwrap().to_owned();
    assert_ne!(state, "s");
    let r2 = t
        .call(
            "ask_first",
            json!({"inputResponses": {"name": answer("Alice")}, "requestState": state}),
            with_tasks(),
        )
        .await;
    let created = r2["result"].as_object().unwrap();
    assert_eq!(created["resultType"], "task", "{r2}");
    assert!(!created.contains_key("requestState") && !created.contains_key("inputRequests"));
    let id = created["taskId"].as_str().unwrap().to_owned();
    let done = t.wait_for(&id, "completed").await;
    assert_eq!(done["result"]["content"][0]["text"], "Hello, Alice!");
}

#[tokio::test]
async fn tasks_outlive_the_connection_that_created_them() {
    let server = server();
    let mut a = Tasks::new(&server);
    let id = a.create("work").await;
    a.c.close().await;
    let mut b = Tasks::new(&server);
    let done = b.wait_for(&id, "completed").await;
    assert_eq!(done["result"]["content"][0]["text"], "worked");
}

/// Two servers over one task directory stand for two processes behind a load balancer:
/// each has its own handlers, the records are shared.
fn shared_pair(dir: &std::path::Path) -> (Server, Server) {
    let open = || {
        let store = toolidl_runtime::tasks::DirTaskStore::open(dir).unwrap();
        builder().task_store(Arc::new(store)).build()
    };
    (open(), open())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shared_store_serves_every_task_method_from_either_server() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = shared_pair(dir.path());
    let (mut on_a, mut on_b) = (Tasks::new(&a), Tasks::new(&b));

    // Created through one, polled through the other.
    let id = on_a.create("work").await;
    let done = on_b.wait_for(&id, "completed").await;
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(done["result"]["content"][0]["text"], "worked", "{done}");

    // Input: parked by a's handler, answered through b, whose handler runs the next rounds.
    let id = on_a.create("ask").await;
    let parked = on_b.wait_for(&id, "input_required").await;
    assert_eq!(parked["status"], "input_required", "{parked}");
    let r = on_b
        .task(
            "tasks/update",
            &id,
            json!({"inputResponses": {"a": answer("x")}}),
        )
        .await;
    is_ack(&r);
    let r = on_a
        .task(
            "tasks/update",
            &id,
            json!({"inputResponses": {"b": answer("y")}}),
        )
        .await;
    is_ack(&r);
    let next = on_b.wait_for(&id, "input_required").await;
    assert_eq!(
        next["inputRequests"].as_object().unwrap().len(),
        1,
        "{next}"
    );
    assert!(next["inputRequests"].get("c").is_some(), "{next}");
    let r = on_b
        .task(
            "tasks/update",
            &id,
            json!({"inputResponses": {"c": answer("z")}}),
        )
        .await;
    is_ack(&r);
    let done = on_a.wait_for(&id, "completed").await;
    assert_eq!(done["result"]["content"][0]["text"], "got z", "{done}");

    // Unknown ids are unknown to both.
    let r = on_b.task("tasks/get", "0123456789abcdef", json!({})).await;
    assert_eq!(r["error"]["code"], -32602, "{r}");
    let r = on_b.task("tasks/get", "../../etc/passwd", json!({})).await;
    assert_eq!(r["error"]["code"], -32602, "{r}");
}

#[cfg(feature = "http")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancel_through_another_server_stops_the_handler_where_it_runs() {
    use std::sync::atomic::Ordering;
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = shared_pair(dir.path());
    let (mut on_a, mut on_b) = (Tasks::new(&a), Tasks::new(&b));
    let before = STOPPED.load(Ordering::SeqCst);
    let id = on_a.create("wait_counted").await;
    is_ack(&on_b.task("tasks/cancel", &id, json!({})).await);
    assert_eq!(on_a.get(&id).await["status"], "cancelled");
    // a notices within its check interval and drops the handler.
    for _ in 0..200 {
        if STOPPED.load(Ordering::SeqCst) > before {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the handler on a was not stopped");
}

#[tokio::test]
async fn a_connection_refuses_calls_beyond_its_pending_limit() {
    let server = builder().max_pending_calls(2).build();
    let mut c = Client::new(&server);
    c.initialize("2025-11-25", json!({})).await;
    for id in [10, 11] {
        c.send(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "wait", "arguments": {}}}));
    }
    let r = c.call(12, "wait", json!({})).await;
    assert_eq!(r["id"], 12, "{r}");
    assert_eq!(r["error"]["code"], -32000, "{r}");
    assert_eq!(
        r["error"]["message"],
        "Server busy: too many calls in flight on this connection; retry later."
    );
    // While the limit is reached, every call is refused; a freed slot is usable again.
    let r = c.call(13, "quick", json!({})).await;
    assert_eq!(r["error"]["code"], -32000, "{r}");
    c.send(
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 10}}),
    );
    tokio::task::yield_now().await;
    let mut accepted = false;
    for id in 14..200 {
        let r = c.call(id, "work", json!({})).await;
        if r.get("result").is_some() {
            accepted = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert!(accepted, "the cancelled call's slot was never freed");
}
