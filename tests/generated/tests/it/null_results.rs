//! A tool whose result is a nullable record (`tool mirror(left: Left) -> Left?`): its
//! `outputSchema` is an object, and a null result is sent per revision. Before 2026-07-28
//! (`structuredContent` an object) the listing says `"object"` and a null result is the
//! text `null` alone, as the seed maps it; from 2026-07-28 (`structuredContent` any JSON
//! value) the listing says `["object", "null"]` and a null result carries
//! `"structuredContent": null`, which the official Python and TypeScript clients accept
//! (docs/interop.md). A record result is the same in every revision.

use serde_json::{Value, json};
use toolidl_generated_tests::codegen::recursion::{
    CountArgs, Left, MirrorArgs, Trees, TreesServer,
};
use toolidl_runtime::protocol::Revision;
use toolidl_runtime::testing::Client;
use toolidl_runtime::{RequestContext, Server, ToolError};

/// Mirrors a tree of depth > 0; nothing for depth 0.
struct Mirror;

impl Trees for Mirror {
    async fn count(&self, _: RequestContext, _: CountArgs) -> Result<u64, ToolError> {
        Ok(0)
    }

    async fn mirror(
        &self,
        _: RequestContext,
        input: MirrorArgs,
    ) -> Result<Option<Left>, ToolError> {
        Ok((input.left.depth > 0).then_some(input.left))
    }
}

async fn client(revision: Revision) -> Client {
    let server = Server::builder("null-results", "0")
        .service(TreesServer::new(Mirror))
        .build();
    Client::builder()
        .revision(revision)
        .connect(&server)
        .await
        .expect("connects")
}

async fn output_type(client: &Client) -> Value {
    let tools = client.list_tools().await.expect("tools/list");
    let mirror = tools
        .iter()
        .find(|t| t["name"] == "mirror")
        .expect("mirror is listed");
    mirror["outputSchema"]["type"].clone()
}

/// Arguments whose mirror is nothing.
fn nothing() -> Value {
    json!({"left": {"right": null, "depth": 0}})
}

/// Arguments whose mirror is the tree `one()["left"]`.
fn one() -> Value {
    json!({"left": {"right": null, "depth": 1}})
}

#[tokio::test]
async fn before_2026_07_28_a_null_result_is_the_text_null_without_structured_content() {
    for revision in [Revision::V2025_06_18, Revision::V2025_11_25] {
        let client = client(revision).await;
        assert_eq!(output_type(&client).await, json!("object"), "{revision}");
        let result = client
            .call_tool("mirror", nothing())
            .await
            .expect("a result");
        assert!(!result.is_error(), "{revision}");
        assert_eq!(result.text(), "null", "{revision}");
        assert_eq!(result.json().get("structuredContent"), None, "{revision}");
        let result = client.call_tool("mirror", one()).await.expect("a result");
        assert_eq!(result.structured(), Some(&one()["left"]), "{revision}");
    }
}

#[tokio::test]
async fn from_2026_07_28_a_null_result_is_structured_content_null_and_the_schema_says_so() {
    let client = client(Revision::V2026_07_28).await;
    assert_eq!(output_type(&client).await, json!(["object", "null"]));
    let result = client
        .call_tool("mirror", nothing())
        .await
        .expect("a result");
    assert!(!result.is_error());
    assert_eq!(result.text(), "null");
    assert_eq!(result.json().get("structuredContent"), Some(&Value::Null));
    let result = client.call_tool("mirror", one()).await.expect("a result");
    assert_eq!(result.structured(), Some(&one()["left"]));
    assert_eq!(result.text(), one()["left"].to_string());
}

#[tokio::test]
async fn only_the_output_schemas_type_is_widened_and_only_for_the_nullable_result() {
    let client = client(Revision::V2026_07_28).await;
    let tools = client.list_tools().await.expect("tools/list");
    let old = self::client(Revision::V2025_11_25).await;
    let old_tools = old.list_tools().await.expect("tools/list");
    let count = |tools: &[Value]| tools.iter().find(|t| t["name"] == "count").cloned();
    assert_eq!(
        count(&tools),
        count(&old_tools),
        "count's result cannot be null"
    );
    let old_mirror = old_tools
        .iter()
        .find(|t| t["name"] == "mirror")
        .expect("mirror");
    let new_mirror = tools
        .iter()
        .find(|t| t["name"] == "mirror")
        .expect("mirror");
    let mut widened = old_mirror.clone();
    widened["outputSchema"]["type"] = json!(["object", "null"]);
    assert_eq!(&widened, new_mirror, "only the outputSchema's type differs");
}
