//! MCP Apps views (`tests/golden/codegen/views.tool`): a `ui://` resource's `_meta.ui` is on
//! its `resources/list` (or `resources/templates/list`) entry and on the content
//! `resources/read` returns, text or blob, from 2025-06-18 on; the revisions without `_meta`
//! there get neither.

use serde_json::{Value, json};
use toolidl_generated_tests::codegen::views::{ChartArgs, ShowMapArgs, Views, ViewsServer};
use toolidl_runtime::codegen::Bytes;
use toolidl_runtime::protocol::Revision;
use toolidl_runtime::testing::Client;
use toolidl_runtime::{RequestContext, RpcError, Server, ToolError};

struct Maps;

impl Views for Maps {
    async fn show_map(&self, _: RequestContext, _: ShowMapArgs) -> Result<String, ToolError> {
        Ok("a map".into())
    }

    async fn map(&self, _: RequestContext) -> Result<String, RpcError> {
        Ok("<p>map</p>".into())
    }

    async fn chart(&self, _: RequestContext, _: ChartArgs) -> Result<Bytes, RpcError> {
        Ok(Bytes(b"<p>".to_vec()))
    }

    async fn plain(&self, _: RequestContext) -> Result<String, RpcError> {
        Ok("<p>plain</p>".into())
    }
}

async fn client(revision: Revision) -> Client {
    let server = Server::builder("views", "0")
        .service(ViewsServer::new(Maps))
        .build();
    Client::builder()
        .revision(revision)
        .connect(&server)
        .await
        .expect("connects")
}

fn map_meta() -> Value {
    json!({"ui": {
        "csp": {"connectDomains": ["https://tiles.example.com"]},
        "permissions": {"geolocation": {}},
        "prefersBorder": true,
    }})
}

#[tokio::test]
async fn a_view_s_meta_is_listed_and_sent_with_its_content() {
    for revision in [
        Revision::V2025_06_18,
        Revision::V2025_11_25,
        Revision::V2026_07_28,
    ] {
        let c = client(revision).await;
        let listed = c.request("resources/list", json!({})).await.expect("list");
        assert_eq!(listed["resources"][0]["_meta"], map_meta(), "{revision}");
        assert_eq!(listed["resources"][1].get("_meta"), None, "{revision}");
        let templates = c
            .request("resources/templates/list", json!({}))
            .await
            .expect("templates");
        assert_eq!(
            templates["resourceTemplates"][0]["_meta"],
            json!({"ui": {"prefersBorder": false}}),
            "{revision}"
        );

        let read = |uri: &'static str| {
            let c = &c;
            async move {
                c.request("resources/read", json!({"uri": uri}))
                    .await
                    .expect("read")
            }
        };
        let map = read("ui://views/map.html").await;
        assert_eq!(
            map["contents"],
            json!([{
                "uri": "ui://views/map.html",
                "mimeType": "text/html;profile=mcp-app",
                "text": "<p>map</p>",
                "_meta": map_meta(),
            }]),
            "{revision}"
        );
        let chart = read("ui://views/oslo/chart.html").await;
        assert_eq!(chart["contents"][0]["blob"], "PHA+", "{revision}");
        assert_eq!(
            chart["contents"][0]["_meta"],
            json!({"ui": {"prefersBorder": false}}),
            "{revision}"
        );
        let plain = read("ui://views/plain.html").await;
        assert_eq!(plain["contents"][0].get("_meta"), None, "{revision}");
    }
}

#[tokio::test]
async fn revisions_without_meta_on_resources_get_none() {
    for revision in [Revision::V2024_11_05, Revision::V2025_03_26] {
        let c = client(revision).await;
        let listed = c.request("resources/list", json!({})).await.expect("list");
        assert_eq!(listed["resources"][0].get("_meta"), None, "{revision}");
        let map = c
            .request("resources/read", json!({"uri": "ui://views/map.html"}))
            .await
            .expect("read");
        assert_eq!(map["contents"][0]["text"], "<p>map</p>", "{revision}");
        assert_eq!(map["contents"][0].get("_meta"), None, "{revision}");
    }
}
