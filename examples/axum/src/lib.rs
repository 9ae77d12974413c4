//! An existing axum application, a shop with a health route and a JSON API, that mounts the
//! MCP endpoint of a generated service at `/mcp` beside its own routes
//! ([`toolidl_runtime::http::McpService`]). Both faces read the same stock.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, Path, Request, State};
use axum::http::StatusCode;
use axum::routing::get;
use axum::{Json, Router};
use toolidl_runtime::http::{ClientAddr, HttpConfig, McpService};
use toolidl_runtime::{Profile, RequestContext, Server, ToolError};

toolidl_runtime::include_tools!("shop");

/// The shop's stock: SKU, name, units.
const STOCK: &[(&str, &str, u32)] = &[
    ("bolt-m6", "M6 bolt", 1200),
    ("nut-m6", "M6 nut", 800),
    ("washer-m6", "M6 washer", 0),
];

/// The application's own state, shared by its JSON API and its MCP tools.
#[derive(Default)]
pub struct Shop;

impl Shop {
    fn item(&self, sku: &str) -> Option<Item> {
        STOCK.iter().find(|i| i.0 == sku).map(item)
    }

    fn items(&self) -> Vec<Item> {
        STOCK.iter().map(item).collect()
    }
}

fn item(&(sku, name, count): &(&str, &str, u32)) -> Item {
    Item {
        sku: sku.to_owned(),
        name: name.to_owned(),
        count,
    }
}

/// The MCP tools, over the same shop.
struct Tools(Arc<Shop>);

impl Stock for Tools {
    async fn get_item(
        &self,
        _ctx: RequestContext,
        GetItemArgs { sku, .. }: GetItemArgs,
    ) -> Result<Item, ToolError> {
        self.0
            .item(&sku)
            .ok_or_else(|| ToolError::message(format!("No item with SKU {sku}.")))
    }

    async fn list_items(
        &self,
        _ctx: RequestContext,
        _: ListItemsArgs,
    ) -> Result<Vec<Item>, ToolError> {
        Ok(self.0.items())
    }
}

/// The MCP server of the shop's tools.
pub fn mcp_server(shop: Arc<Shop>) -> Server {
    mcp_server_for(shop, Profile::Standard)
}

/// The same, its tools listed as the client profile `profile` publishes them.
pub fn mcp_server_for(shop: Arc<Shop>, profile: Profile) -> Server {
    Server::builder("axum-example", env!("CARGO_PKG_VERSION"))
        .service(StockServer::new(Tools(shop)))
        .profile(profile)
        .build()
}

/// The application: `GET /health`, `GET /api/items` and `GET /api/items/{sku}` (JSON), and
/// the MCP endpoint at `/mcp`, with its OAuth protected resource metadata at
/// `/.well-known/oauth-protected-resource/mcp` (answered when `config` has
/// [`HttpConfig::auth`], else 404). Returns the endpoint too, to shut it down with the app.
pub fn app(shop: Arc<Shop>, config: HttpConfig) -> (Router, McpService) {
    app_for(shop, config, Profile::Standard)
}

/// [`app`] with the MCP tools listed as the client profile `profile` publishes them.
pub fn app_for(shop: Arc<Shop>, config: HttpConfig, profile: Profile) -> (Router, McpService) {
    let mcp = McpService::new(mcp_server_for(shop.clone(), profile), config);
    let router = Router::new()
        .route("/health", get(|| async { "ok" }))
        .route("/api/items", get(list))
        .route("/api/items/{sku}", get(one))
        .with_state(shop)
        .route_service("/mcp", mcp.clone())
        .route_service("/.well-known/oauth-protected-resource/mcp", mcp.clone())
        .layer(axum::middleware::from_fn(client_addr));
    (router, mcp)
}

/// Tells the MCP endpoint which address a request comes from (axum's `ConnectInfo`, when
/// the app is served with `into_make_service_with_connect_info`), so that its per-client
/// limits count each client on its own: without it, only the endpoint's totals apply.
async fn client_addr(mut req: Request, next: axum::middleware::Next) -> axum::response::Response {
    if let Some(&ConnectInfo(peer)) = req.extensions().get::<ConnectInfo<SocketAddr>>() {
        req.extensions_mut().insert(ClientAddr(peer));
    }
    next.run(req).await
}

async fn list(State(shop): State<Arc<Shop>>) -> Json<serde_json::Value> {
    Json(serde_json::Value::Array(
        shop.items().iter().map(item_json).collect(),
    ))
}

async fn one(
    State(shop): State<Arc<Shop>>,
    Path(sku): Path<String>,
) -> Result<Json<serde_json::Value>, StatusCode> {
    shop.item(&sku)
        .map(|i| Json(item_json(&i)))
        .ok_or(StatusCode::NOT_FOUND)
}

fn item_json(i: &Item) -> serde_json::Value {
    serde_json::json!({ "sku": i.sku, "name": i.name, "count": i.count })
}
