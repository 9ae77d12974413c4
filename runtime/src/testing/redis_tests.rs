//! Single use of a sealed `requestState` through Redis, end to end: the runtime's dispatcher
//! over a real `redis-server` (`crate::cluster::testing`), two instances sharing it.

use std::sync::Arc;

use crate::args::Arguments;
use serde_json::{Value, json};

use crate::cluster::Redis;
use crate::cluster::testing::RedisServer;
use crate::context::RequestContext;
use crate::protocol::Revision;
use crate::service::{BoxFuture, Service, ToolDef, ToolOutput, ToolResult};
use crate::testing::Client;
use crate::{RequestStateKey, Server};

/// `ask`: asks for `confirm` (state `plain`), then answers.
struct Ask;

static TOOLS: [ToolDef; 1] = [ToolDef::new(
    "ask",
    r#"{"name":"ask","inputSchema":{"type":"object"}}"#,
)];

impl Service for Ask {
    fn tools(&self) -> &[ToolDef] {
        &TOOLS
    }

    fn call_tool(
        self: Arc<Self>,
        _: &str,
        _: Arguments<'_>,
        ctx: RequestContext,
    ) -> BoxFuture<ToolResult> {
        let out = match ctx.input_response("confirm") {
            Some(_) => ToolOutput::text("done"),
            None => ToolOutput::InputRequired {
                requests: serde_json::from_value(json!({"confirm": {
                    "method": "elicitation/create", "params": {"message": "Sure?",
                    "requestedSchema": {"type": "object", "properties": {}}}}}))
                .unwrap_or_default(),
                state: Some("plain".into()),
            },
        };
        Box::pin(std::future::ready(Ok(out)))
    }
}

async fn call(server: &Server, extra: Value) -> Result<Value, crate::RpcError> {
    let c = Client::builder()
        .revision(Revision::V2026_07_28)
        .capabilities(json!({"elicitation": {}}))
        .connect(server)
        .await?;
    let mut params = json!({"name": "ask", "arguments": {}});
    if let (Some(p), Value::Object(extra)) = (params.as_object_mut(), extra) {
        p.extend(extra);
    }
    c.request("tools/call", params).await
}

/// Single use through Redis: a state used on one instance is refused on another that
/// shares the Redis server (and its key).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replay_through_another_instance_on_redis_is_refused() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let instance = || {
        Server::builder("ask", "1")
            .service(Ask)
            .request_state_keys([RequestStateKey::new([9; 32])])
            .single_use_request_state(true)
            .redis(&Redis::open(&redis.url()).unwrap())
            .build()
    };
    let (a, b) = (instance(), instance());
    let r1 = call(&a, json!({})).await.unwrap();
    let state = r1["requestState"].as_str().unwrap().to_owned();
    let retry = json!({"inputResponses": {"confirm": {"action": "accept"}}, "requestState": state});
    let done = call(&b, retry.clone()).await.unwrap();
    assert_eq!(done["content"][0]["text"], "done");
    for server in [&a, &b] {
        let e = call(server, retry.clone()).await.unwrap_err();
        assert_eq!(
            (e.code, e.message.as_str()),
            (-32602, "Invalid params: requestState was already used.")
        );
    }
}
