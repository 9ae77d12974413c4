//! Resource subscriptions: `resources/subscribe` / `unsubscribe` and
//! `notifications/resources/updated` under the handshake revisions, `resourceSubscriptions`
//! of `subscriptions/listen` under 2026-07-28, over the in-process connection.

use crate::common;

use std::sync::Arc;

use common::{Client, Kitchen, kitchen_server, modern_meta, text_of};
use serde_json::{Value, json};
use toolidl_runtime::codegen::{
    Arguments, BoxFuture, ListingDef, RequestContext, RpcError, Service, ToolDef, ToolOutput,
    ToolResult,
};
use toolidl_runtime::{Server, content};

fn error_code(response: &Value) -> i64 {
    response["error"]["code"]
        .as_i64()
        .unwrap_or_else(|| panic!("not an error: {response}"))
}

fn updated(uri: &str) -> Value {
    json!({"jsonrpc": "2.0", "method": "notifications/resources/updated", "params": {"uri": uri}})
}

static WATCHED_RESOURCES: [ListingDef; 2] = [
    ListingDef::new(r#"{"uri":"watch://a","name":"a"}"#),
    ListingDef::new(r#"{"uri":"watch://b","name":"b"}"#),
];
static WATCHED_TOOLS: [ToolDef; 1] = [ToolDef::new(
    "touch",
    r#"{"name":"touch","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#,
)];

/// A service that declares its own resources subscribable, with a tool that announces an
/// update of `watch://a` from its handler.
struct Watched;

impl Service for Watched {
    fn tools(&self) -> &[ToolDef] {
        &WATCHED_TOOLS
    }

    fn call_tool(
        self: Arc<Self>,
        _name: &str,
        _args: Arguments<'_>,
        ctx: RequestContext,
    ) -> BoxFuture<ToolResult> {
        let sent = ctx.server().notify_resource_updated("watch://a");
        Box::pin(async move { Ok(ToolOutput::Text(format!("sent {sent}"))) })
    }

    fn resources(&self) -> &[ListingDef] {
        &WATCHED_RESOURCES
    }

    fn read_resource(
        self: Arc<Self>,
        uri: &str,
        _ctx: RequestContext,
    ) -> Option<BoxFuture<Result<Value, RpcError>>> {
        let uri = uri.strip_prefix("watch://")?.to_owned();
        Some(Box::pin(async move {
            Ok(
                json!({"contents": [content::resource_text(&format!("watch://{uri}"), "text/plain", "x")]}),
            )
        }))
    }

    fn has_subscriptions(&self) -> bool {
        true
    }

    fn subscribable(&self, uri: &str) -> bool {
        uri == "watch://a" || uri == "watch://b"
    }
}

/// Kitchen's `mem://readme` made subscribable by the builder.
fn readme_server() -> Server {
    Server::builder("k", "1")
        .subscribable("mem://readme")
        .service(Arc::new(Kitchen))
        .build()
}

#[tokio::test]
async fn subscribe_notify_unsubscribe_and_only_the_subscriber_is_told() {
    let server = readme_server();
    let mut a = Client::new(&server);
    let mut b = Client::new(&server);
    for c in [&mut a, &mut b] {
        let r = c.initialize("2025-11-25", json!({})).await;
        assert_eq!(
            r["result"]["capabilities"]["resources"],
            json!({"subscribe": true})
        );
    }
    let r = a
        .request(1, "resources/subscribe", json!({"uri": "mem://readme"}))
        .await;
    assert_eq!(r["result"], json!({}));
    // Subscribing twice is one subscription.
    let r = a
        .request(2, "resources/subscribe", json!({"uri": "mem://readme"}))
        .await;
    assert_eq!(r["result"], json!({}));

    assert_eq!(server.notify_resource_updated("mem://readme"), 1);
    assert_eq!(a.next().await, updated("mem://readme"));
    // Another URI reaches no one.
    assert_eq!(server.notify_resource_updated("mem://notes/1"), 0);
    // `b` did not subscribe: nothing before its ping's answer.
    let r = b.request(3, "ping", json!({})).await;
    assert_eq!(r["result"], json!({}));
    assert!(b.other.is_empty(), "{:?}", b.other);

    let r = a
        .request(4, "resources/unsubscribe", json!({"uri": "mem://readme"}))
        .await;
    assert_eq!(r["result"], json!({}));
    assert_eq!(server.notify_resource_updated("mem://readme"), 0);
    let r = a.request(5, "ping", json!({})).await;
    assert_eq!(r["result"], json!({}));
    assert!(a.other.is_empty(), "{:?}", a.other);
    // Unsubscribing what is not subscribed is fine too.
    let r = a
        .request(6, "resources/unsubscribe", json!({"uri": "mem://readme"}))
        .await;
    assert_eq!(r["result"], json!({}));

    // A closed connection is not notified (and not counted).
    a.request(7, "resources/subscribe", json!({"uri": "mem://readme"}))
        .await;
    a.close().await;
    drop(a);
    assert_eq!(server.notify_resource_updated("mem://readme"), 0);
}

#[tokio::test]
async fn subscribe_errors() {
    let mut c = Client::new(&readme_server());
    c.initialize("2025-06-18", json!({})).await;
    // No service owns it: -32002 with the URI.
    let r = c
        .request(1, "resources/subscribe", json!({"uri": "nope://x"}))
        .await;
    assert_eq!(error_code(&r), -32002);
    assert_eq!(r["error"]["data"], json!({"uri": "nope://x"}));
    // Owned (it matches the template mem://notes/{id}) but not subscribable: -32602.
    let r = c
        .request(2, "resources/subscribe", json!({"uri": "mem://notes/1"}))
        .await;
    assert_eq!(error_code(&r), -32602);
    assert_eq!(r["error"]["data"], json!({"uri": "mem://notes/1"}));
    for (id, method) in [(3, "resources/subscribe"), (4, "resources/unsubscribe")] {
        assert_eq!(error_code(&c.request(id, method, json!({})).await), -32602);
    }
}

#[tokio::test]
async fn capability_is_advertised_only_when_opted_in() {
    // No opt-in: no `subscribe`, and the methods do not exist.
    let mut c = Client::new(&kitchen_server());
    let r = c.initialize("2025-11-25", json!({})).await;
    assert_eq!(r["result"]["capabilities"]["resources"], json!({}));
    for (id, method) in [(1, "resources/subscribe"), (2, "resources/unsubscribe")] {
        let r = c.request(id, method, json!({"uri": "mem://readme"})).await;
        assert_eq!(error_code(&r), -32601, "{method}");
    }

    // With list changes too, both flags.
    let server = Server::builder("k", "1")
        .list_changed(true)
        .subscribable("mem://readme")
        .service(Arc::new(Kitchen))
        .build();
    let mut c = Client::new(&server);
    let r = c.initialize("2024-11-05", json!({})).await;
    assert_eq!(
        r["result"]["capabilities"]["resources"],
        json!({"subscribe": true, "listChanged": true})
    );

    // A service's own opt-in (`Service::has_subscriptions` / `subscribable`).
    let server = Server::builder("w", "1").service(Arc::new(Watched)).build();
    let mut c = Client::new(&server);
    let r = c.initialize("2025-11-25", json!({})).await;
    assert_eq!(
        r["result"]["capabilities"]["resources"],
        json!({"subscribe": true})
    );
    let r = c
        .request(1, "resources/subscribe", json!({"uri": "watch://a"}))
        .await;
    assert_eq!(r["result"], json!({}));
    // A handler announces the update through its context's server handle; the
    // notification is sent before the call's result.
    let r = c.call(2, "touch", json!({})).await;
    assert_eq!(text_of(&r), "sent 1");
    assert_eq!(c.other, vec![updated("watch://a")]);

    // 2026-07-28: advertised in server/discover; resources/subscribe is gone.
    let meta = modern_meta(json!({}));
    let mut c = Client::new(&server);
    let r = c
        .request(3, "server/discover", json!({"_meta": meta}))
        .await;
    assert_eq!(
        r["result"]["capabilities"]["resources"],
        json!({"subscribe": true})
    );
    let r = c
        .request(
            4,
            "resources/subscribe",
            json!({"_meta": meta, "uri": "watch://a"}),
        )
        .await;
    assert_eq!(error_code(&r), -32601);
}

#[tokio::test]
async fn subscriptions_listen_carries_resource_updates_under_2026_07_28() {
    let server = Server::builder("w", "1").service(Arc::new(Watched)).build();
    let mut c = Client::new(&server);
    let meta = modern_meta(json!({}));
    let params = json!({
        "_meta": meta,
        "notifications": {"resourceSubscriptions": ["watch://a", "nope://x", "watch://a", "watch://b"]}
    });
    c.send(
        json!({"jsonrpc": "2.0", "id": "l1", "method": "subscriptions/listen", "params": params}),
    );
    // Only the subscribable URIs are honored, each once.
    assert_eq!(
        c.next().await,
        json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged", "params": {
            "_meta": {"io.modelcontextprotocol/subscriptionId": "l1"},
            "notifications": {"resourceSubscriptions": ["watch://a", "watch://b"]}
        }})
    );
    // A second stream for `watch://b` only.
    let params = json!({"_meta": meta, "notifications": {"resourceSubscriptions": ["watch://b"]}});
    c.send(json!({"jsonrpc": "2.0", "id": 7, "method": "subscriptions/listen", "params": params}));
    assert_eq!(
        c.next().await["params"]["notifications"],
        json!({"resourceSubscriptions": ["watch://b"]})
    );

    assert_eq!(server.notify_resource_updated("watch://a"), 1);
    assert_eq!(
        c.next().await,
        json!({"jsonrpc": "2.0", "method": "notifications/resources/updated", "params": {
            "_meta": {"io.modelcontextprotocol/subscriptionId": "l1"},
            "uri": "watch://a"
        }})
    );
    assert_eq!(server.notify_resource_updated("watch://b"), 2);
    let ids: Vec<Value> = [c.next().await, c.next().await]
        .iter()
        .map(|m| m["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"].clone())
        .collect();
    assert_eq!(ids, [json!("l1"), json!(7)]);

    // Cancelling a stream ends its resource updates.
    c.send(json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "l1"}}));
    assert_eq!(server.notify_resource_updated("watch://a"), 0);
    assert_eq!(server.notify_resource_updated("watch://b"), 1);
    assert_eq!(
        c.next().await["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        7
    );

    // Nothing subscribable: the key is left out of the acknowledgment.
    let params = json!({"_meta": meta, "notifications": {"resourceSubscriptions": ["nope://x"]}});
    c.send(json!({"jsonrpc": "2.0", "id": 8, "method": "subscriptions/listen", "params": params}));
    assert_eq!(c.next().await["params"]["notifications"], json!({}));
    // Not a list of strings: -32602.
    let r = c
        .request(
            9,
            "subscriptions/listen",
            json!({"_meta": meta, "notifications": {"resourceSubscriptions": [1]}}),
        )
        .await;
    assert_eq!(error_code(&r), -32602);
}
