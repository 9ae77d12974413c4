//! A minimal rmcp Streamable HTTP server exposing one tool, `add(a, b)`.
//!
//! `rmcp-add ADDR [--stateless]`: without `--stateless` rmcp's session mode
//! (`legacy_session_mode`, the default: `Mcp-Session-Id` issued at
//! `initialize`, SSE-framed replies); with it, `legacy_session_mode = false`
//! and `json_response = true` (no session, `application/json` replies).
//! Requests negotiating 2026-07-28 are always served statelessly by rmcp.

use axum::serve::ListenerExt;
use rmcp::{
    ServerHandler,
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{ServerCapabilities, ServerConfig},
    schemars, tool, tool_handler, tool_router,
    transport::streamable_http_server::{
        StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
    },
};
use serde::Deserialize;
use std::sync::Arc;

#[derive(Deserialize, schemars::JsonSchema)]
struct AddArgs {
    a: i32,
    b: i32,
}

#[derive(Clone)]
struct Adder {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Adder {
    fn new() -> Self {
        Self {
            tool_router: Self::tool_router(),
        }
    }

    #[tool(description = "Add two integers")]
    fn add(&self, Parameters(AddArgs { a, b }): Parameters<AddArgs>) -> String {
        a.wrapping_add(b).to_string()
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Adder {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let addr = args.next().unwrap_or_else(|| "127.0.0.1:8950".into());
    let stateless = args.any(|a| a == "--stateless");
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(!stateless)
        .with_json_response(stateless)
        .with_sse_keep_alive(None);
    // One prebuilt handler, cloned per session (per request when stateless), so the tool
    // router is built once rather than by every factory call.
    let adder = Adder::new();
    let service = StreamableHttpService::new(
        move || Ok(adder.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let router = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    eprintln!(
        "rmcp-add listening on http://{}/mcp (stateless: {stateless})",
        listener.local_addr()?
    );
    // TCP_NODELAY, as toolidl's runtime sets it: without it, replies written in several
    // pieces (SSE) meet the client's delayed ACK and stall ~40 ms each.
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    axum::serve(listener, router).await
}
