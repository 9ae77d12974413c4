//! Extension negotiation (SEP-2133): the server declares MCP Apps when it has views, on every
//! revision, and tasks under 2026-07-28; a handler reads the client's extensions.

use crate::common::{self, modern_meta};

use std::sync::Arc;

use serde_json::{Value, json};
use toolidl_runtime::Server;
use toolidl_runtime::codegen::{
    Arguments, BoxFuture, RequestContext, Service, ToolDef, ToolOutput, ToolResult,
};
use toolidl_runtime::protocol::APPS_EXTENSION;
use toolidl_runtime::tasks::{TASKS_EXTENSION, TaskInput, TaskSupport};

static VIEW_TOOLS: [ToolDef; 1] = [ToolDef::new(
    "show",
    r#"{"name":"show","inputSchema":{"type":"object"},"_meta":{"ui":{"resourceUri":"ui://demo/view.html"}}}"#,
)];

static PLAIN_TOOLS: [ToolDef; 1] = [ToolDef::new(
    "plain",
    r#"{"name":"plain","inputSchema":{"type":"object"}}"#,
)];

/// `show` (with a view) answers whether the client renders views and what it declared.
struct Views(&'static [ToolDef]);

impl Service for Views {
    fn tools(&self) -> &[ToolDef] {
        self.0
    }

    fn call_tool(
        self: Arc<Self>,
        _: &str,
        _: Arguments<'_>,
        ctx: RequestContext,
    ) -> BoxFuture<ToolResult> {
        let text = format!(
            "renders views: {}; declared: {}",
            ctx.client_renders_views(),
            ctx.client_extension(APPS_EXTENSION)
                .cloned()
                .unwrap_or(Value::Null)
        );
        Box::pin(std::future::ready(Ok(ToolOutput::text(text))))
    }
}

fn apps_client() -> Value {
    json!({"extensions": {APPS_EXTENSION: {"mimeTypes": ["text/html;profile=mcp-app"]}}})
}

#[tokio::test]
async fn a_server_with_views_declares_the_apps_extension_and_handlers_see_the_client_s() {
    let server = Server::builder("views", "1")
        .service(Arc::new(Views(&VIEW_TOOLS)))
        .build();
    for revision in ["2024-11-05", "2025-06-18", "2025-11-25"] {
        let mut client = common::Client::new(&server);
        let init = client.initialize(revision, apps_client()).await;
        assert_eq!(
            init["result"]["capabilities"]["extensions"],
            json!({APPS_EXTENSION: {"mimeTypes": ["text/html;profile=mcp-app"]}}),
            "{revision}: {init}"
        );
        let reply = client.call(1, "show", json!({})).await;
        assert_eq!(
            common::text_of(&reply),
            r#"renders views: true; declared: {"mimeTypes":["text/html;profile=mcp-app"]}"#
        );
    }
    // A client that declares no view support, or other MIME types only.
    for capabilities in [
        json!({}),
        json!({"extensions": {APPS_EXTENSION: {"mimeTypes": ["text/plain"]}}}),
    ] {
        let mut client = common::Client::new(&server);
        client.initialize("2025-11-25", capabilities).await;
        let reply = client.call(1, "show", json!({})).await;
        assert!(
            common::text_of(&reply).starts_with("renders views: false"),
            "{reply}"
        );
    }
}

#[tokio::test]
async fn under_2026_07_28_both_extensions_are_declared_and_read_per_request() {
    let server = Server::builder("views", "1")
        .service(Arc::new(Views(&VIEW_TOOLS)))
        .task_tool("show", TaskSupport::Optional, TaskInput::InTask)
        .build();
    let mut client = common::Client::new(&server);
    let discover = client
        .request(
            1,
            "server/discover",
            json!({"_meta": modern_meta(json!({}))}),
        )
        .await;
    assert_eq!(
        discover["result"]["capabilities"]["extensions"],
        json!({APPS_EXTENSION: {"mimeTypes": ["text/html;profile=mcp-app"]}, TASKS_EXTENSION: {}}),
        "{discover}"
    );
    let call = json!({"name": "show", "arguments": {}, "_meta": modern_meta(apps_client())});
    let reply = client.request(2, "tools/call", call).await;
    assert!(
        common::text_of(&reply).starts_with("renders views: true"),
        "{reply}"
    );
}

#[tokio::test]
async fn a_server_without_views_declares_no_extension() {
    let server = Server::builder("plain", "1")
        .service(Arc::new(Views(&PLAIN_TOOLS)))
        .build();
    let mut client = common::Client::new(&server);
    let init = client.initialize("2025-11-25", apps_client()).await;
    assert!(
        init["result"]["capabilities"].get("extensions").is_none(),
        "{init}"
    );
}
