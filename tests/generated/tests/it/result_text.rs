//! `@text` (`tests/golden/codegen/result_text.tool`): the text block beside a structured
//! result, pinned byte for byte on every revision. The structured content is the same as
//! without `@text` (checked against the `outputSchema`); from 2025-06-18 it is sent, and
//! 2024-11-05, which has no `structuredContent`, sends the text alone.

use serde_json::{Value, json};
use toolidl_generated_tests::codegen::result_text::{
    CountArgs, CreateEntitiesArgs, DeleteEntitiesArgs, Deleted, Entities, Entity, ReadGraphArgs,
    ResultTexts, ResultTextsServer, SummarizeArgs, Summary, TallyArgs, Units,
};
use toolidl_runtime::protocol::Revision;
use toolidl_runtime::testing::Client;
use toolidl_runtime::{RequestContext, Server, ToolError, WithText};

struct Memory;

fn alice() -> Entity {
    Entity {
        name: "alice".into(),
        entity_type: "person".into(),
        observations: vec!["likes tea".into()],
    }
}

fn summary(city: String) -> Summary {
    Summary {
        count: 3,
        city,
        units: Units::Celsius,
        mean: 2.0,
    }
}

impl ResultTexts for Memory {
    async fn create_entities(
        &self,
        _: RequestContext,
        CreateEntitiesArgs { entities, .. }: CreateEntitiesArgs,
    ) -> Result<Entities, ToolError> {
        Ok(Entities { entities })
    }

    async fn read_graph(&self, _: RequestContext, _: ReadGraphArgs) -> Result<Entities, ToolError> {
        Ok(Entities {
            entities: vec![
                alice(),
                Entity {
                    observations: Vec::new(),
                    ..alice()
                },
            ],
        })
    }

    async fn delete_entities(
        &self,
        _: RequestContext,
        _: DeleteEntitiesArgs,
    ) -> Result<Deleted, ToolError> {
        Ok(Deleted {
            success: true,
            message: "Entities deleted successfully".into(),
        })
    }

    async fn count(
        &self,
        _: RequestContext,
        CountArgs { city, .. }: CountArgs,
    ) -> Result<Summary, ToolError> {
        Ok(summary(city))
    }

    async fn summarize(
        &self,
        _: RequestContext,
        SummarizeArgs { city, .. }: SummarizeArgs,
    ) -> Result<WithText<Summary>, ToolError> {
        // The text is chosen per call: none for an empty city (the JSON, as without @text).
        Ok(if city.is_empty() {
            WithText::new(summary(city))
        } else {
            let text = format!("3 days in {city}");
            WithText::new(summary(city)).text(text)
        })
    }

    async fn tally(
        &self,
        _: RequestContext,
        _: TallyArgs,
    ) -> Result<std::collections::BTreeMap<String, u32>, ToolError> {
        Ok([("a".to_owned(), 1)].into_iter().collect())
    }
}

async fn client(revision: Revision) -> Client {
    let server = Server::builder("result-text", "0")
        .service(ResultTextsServer::new(Memory))
        .build();
    Client::builder()
        .revision(revision)
        .connect(&server)
        .await
        .expect("connects")
}

const REVISIONS: [Revision; 5] = [
    Revision::V2024_11_05,
    Revision::V2025_03_26,
    Revision::V2025_06_18,
    Revision::V2025_11_25,
    Revision::V2026_07_28,
];

/// `content[0].text` and `structuredContent` of one call, and that nothing else is in
/// `content`.
async fn call(client: &Client, tool: &str, args: Value) -> (String, Option<Value>) {
    let result = client.call_tool(tool, args).await.expect("a result");
    assert!(!result.is_error(), "{tool}: {:?}", result.json());
    let json = result.json();
    assert_eq!(json["content"].as_array().map(Vec::len), Some(1), "{tool}");
    assert_eq!(json["content"][0]["type"], "text", "{tool}");
    (
        result.text().to_owned(),
        json.get("structuredContent").cloned(),
    )
}

#[tokio::test]
async fn every_form_sends_its_text_and_the_same_structured_content() {
    let entities = json!({"entities": [{"name": "alice", "entity_type": "person", "observations": ["likes tea"]}]});
    let graph = json!({"entities": [
        {"name": "alice", "entity_type": "person", "observations": ["likes tea"]},
        {"name": "alice", "entity_type": "person", "observations": []},
    ]});
    let counted = json!({"count": 3, "city": "Ghent", "units": "celsius", "mean": 2.0});
    for revision in REVISIONS {
        let client = client(revision).await;
        let structured = |v: &Value| revision.has_structured_content().then(|| v.clone());

        // `@text(pretty: entities)`: the bare array, as the memory server sends it.
        let (text, sc) = call(&client, "create_entities", entities.clone()).await;
        assert_eq!(
            text,
            "[\n  {\n    \"name\": \"alice\",\n    \"entity_type\": \"person\",\n    \"observations\": [\n      \"likes tea\"\n    ]\n  }\n]",
            "{revision}"
        );
        assert_eq!(sc, structured(&entities), "{revision}");

        // `@text(pretty)`: the whole result; an empty list is `[]`.
        let (text, sc) = call(&client, "read_graph", json!({})).await;
        assert_eq!(
            text,
            "{\n  \"entities\": [\n    {\n      \"name\": \"alice\",\n      \"entity_type\": \"person\",\n      \"observations\": [\n        \"likes tea\"\n      ]\n    },\n    {\n      \"name\": \"alice\",\n      \"entity_type\": \"person\",\n      \"observations\": []\n    }\n  ]\n}",
            "{revision}"
        );
        assert_eq!(sc, structured(&graph), "{revision}");

        // A fixed sentence.
        let (text, sc) = call(&client, "delete_entities", json!({"names": ["alice"]})).await;
        assert_eq!(text, "Entities deleted successfully", "{revision}");
        assert_eq!(
            sc,
            structured(&json!({"success": true, "message": "Entities deleted successfully"})),
            "{revision}"
        );

        // A template: strings as they are, an enum member by its wire value, `{{` and `}}`.
        let (text, sc) = call(&client, "count", json!({"city": "Ghent"})).await;
        assert_eq!(
            text, "Counted 3 in Ghent (celsius, mean 2) {ok}",
            "{revision}"
        );
        assert_eq!(sc, structured(&counted), "{revision}");

        // `@text(handler)`: the handler's text, or the JSON when it gives none.
        let (text, sc) = call(&client, "summarize", json!({"city": "Ghent"})).await;
        assert_eq!(text, "3 days in Ghent", "{revision}");
        assert_eq!(sc, structured(&counted), "{revision}");
        let (text, sc) = call(&client, "summarize", json!({"city": ""})).await;
        assert_eq!(
            text, r#"{"count":3,"city":"","units":"celsius","mean":2.0}"#,
            "{revision}"
        );
        assert_eq!(
            sc,
            structured(&json!({"count": 3, "city": "", "units": "celsius", "mean": 2.0})),
            "{revision}"
        );

        // A map, pretty.
        let (text, sc) = call(&client, "tally", json!({})).await;
        assert_eq!(text, "{\n  \"a\": 1\n}", "{revision}");
        assert_eq!(sc, structured(&json!({"a": 1})), "{revision}");
    }
}

#[tokio::test]
async fn the_listing_keeps_its_output_schema() {
    let client = client(Revision::V2025_11_25).await;
    let tools = client.list_tools().await.expect("tools/list");
    for tool in &tools {
        assert_eq!(tool["outputSchema"]["type"], "object", "{}", tool["name"]);
    }
}
