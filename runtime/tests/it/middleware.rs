//! Middleware around tool calls (`ServerBuilder::middleware`): each sees the call (tool,
//! arguments, client, id) and its typed outcome, the first added outermost; one may answer
//! without the handler, or change the outcome.

use crate::common::{self, tool};

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::json;
use toolidl_runtime::codegen::{
    Arguments, BoxFuture, RequestContext, Service, ToolDef, ToolOutput, ToolResult,
};
use toolidl_runtime::middleware::{Next, ToolCall};
use toolidl_runtime::{Server, ToolError};

static TOOLS: [ToolDef; 2] = [tool!("ok"), tool!("fail")];

/// `ok` answers `fine`, `fail` fails with `broken`; counts the handlers that ran.
#[derive(Default)]
struct Plain(AtomicUsize);

impl Service for Plain {
    fn tools(&self) -> &[ToolDef] {
        &TOOLS
    }

    fn call_tool(
        self: Arc<Self>,
        name: &str,
        _: Arguments<'_>,
        _: RequestContext,
    ) -> BoxFuture<ToolResult> {
        self.0.fetch_add(1, Ordering::SeqCst);
        let result = match name {
            "ok" => Ok(ToolOutput::text("fine")),
            _ => Err(ToolError::message("broken")),
        };
        Box::pin(std::future::ready(result))
    }
}

type Log = Arc<Mutex<Vec<String>>>;

/// Logs `<label> in <call>` before the handler and `<label> out <ok|error>` after.
fn recorder(
    label: &'static str,
    log: &Log,
) -> impl Fn(ToolCall, Next) -> BoxFuture<ToolResult> + use<> {
    let log = log.clone();
    move |call: ToolCall, next: Next| {
        let log = log.clone();
        log.lock().unwrap().push(format!(
            "{label} in {} {} {} {}",
            call.tool, call.arguments, call.client, call.request_id
        ));
        Box::pin(async move {
            let outcome = next.await;
            let how = if outcome.is_ok() { "ok" } else { "error" };
            log.lock().unwrap().push(format!("{label} out {how}"));
            outcome
        })
    }
}

#[tokio::test]
async fn middleware_sees_each_call_and_its_outcome_the_first_added_outermost() {
    let log = Log::default();
    let server = Server::builder("mw", "1")
        .middleware(recorder("outer", &log))
        .middleware(recorder("inner", &log))
        .service(Arc::new(Plain::default()))
        .build();
    let mut client = common::Client::new(&server);
    client.initialize("2025-06-18", json!({})).await;
    let reply = client.call(7, "ok", json!({"q": 1})).await;
    assert_eq!(common::text_of(&reply), "fine");
    let reply = client.call(8, "fail", json!({})).await;
    assert_eq!(reply["result"]["isError"], true, "{reply}");
    assert_eq!(
        *log.lock().unwrap(),
        [
            r#"outer in ok {"q":1} local 7"#,
            r#"inner in ok {"q":1} local 7"#,
            "inner out ok",
            "outer out ok",
            "outer in fail {} local 8",
            "inner in fail {} local 8",
            "inner out error",
            "outer out error",
        ]
    );
}

#[tokio::test]
async fn middleware_may_answer_without_the_handler_and_map_outcomes() {
    let plain = Arc::new(Plain::default());
    let server = Server::builder("mw", "1")
        // Policy: `ok` is denied without running it.
        .middleware(|call: ToolCall, next: Next| -> BoxFuture<ToolResult> {
            if call.tool == "ok" {
                drop(next);
                return Box::pin(std::future::ready(Err(ToolError::message(
                    "denied by policy",
                ))));
            }
            Box::pin(next)
        })
        // Error mapping: a failure becomes a plain answer.
        .middleware(|_: ToolCall, next: Next| -> BoxFuture<ToolResult> {
            Box::pin(async move {
                match next.await {
                    Err(ToolError::Message(m)) => Ok(ToolOutput::text(format!("mapped: {m}"))),
                    other => other,
                }
            })
        })
        .service(plain.clone())
        .build();
    let mut client = common::Client::new(&server);
    client.initialize("2025-06-18", json!({})).await;
    let denied = client.call(1, "ok", json!({})).await;
    assert_eq!(denied["result"]["isError"], true, "{denied}");
    assert_eq!(common::text_of(&denied), "denied by policy");
    assert_eq!(plain.0.load(Ordering::SeqCst), 0, "the handler ran");
    let mapped = client.call(2, "fail", json!({})).await;
    assert_eq!(common::text_of(&mapped), "mapped: broken");
    assert!(mapped["result"].get("isError").is_none(), "{mapped}");
    assert_eq!(plain.0.load(Ordering::SeqCst), 1);
}
