//! Tool entries, resources, resource templates, prompts and the `toolidl schema` document.

use crate::common;

use common::*;
use toolidl::model::{
    Annotations, Member, MemberKind, Primitive as P, Resource, Returns, Ui, Value as Lit,
};
use toolidl_codegen::{SchemaOptions, listings};

fn resource(ident: &str, uri: &str, params: Vec<toolidl::model::Field>) -> Member {
    let part = Resource {
        uri: uri.into(),
        mime_type: None,
        ui: None,
    };
    Member {
        ident: ident.into(),
        name: ident.into(),
        title: None,
        doc: vec![],
        description: None,
        params,
        returns: Returns::Value {
            ty: prim(P::String),
        },
        scopes: vec![],
        kind: if uri.contains('{') {
            MemberKind::Template(part)
        } else {
            MemberKind::Resource(part)
        },
    }
}

fn mime(m: &mut Member, mime: &str) {
    if let MemberKind::Resource(r) | MemberKind::Template(r) = &mut m.kind {
        r.mime_type = Some(mime.into());
    }
}

#[test]
fn a_full_tool_entry_has_every_key_in_order() {
    let types = vec![record("Note", vec![field("text", prim(P::String))])];
    let mut t = tool(
        "get_note",
        vec![],
        Returns::Value {
            ty: nullable(record_ref("Note")),
        },
    );
    t.ident = "GetNoteAsync".into();
    t.title = Some("Get a note".into());
    t.description = Some("Reads a note.".into());
    tool_part(&mut t).annotations = Annotations {
        title: Some("Get a note".into()),
        read_only: Some(true),
        destructive: Some(false),
        idempotent: None,
        open_world: Some(false),
    };
    tool_part(&mut t).ui = Some(Ui {
        resource_uri: Some("ui://notes/view".into()),
        visibility: Some(vec!["model".into(), "app".into()]),
    });
    let m = model(types, vec![t]);
    let listings = listings(&m, &SchemaOptions::default()).unwrap();
    let tool = &listings.services[0].tools[0];
    assert_eq!(tool.ident, "GetNoteAsync");
    assert_eq!(
        tool.json(),
        concat!(
            r#"{"name":"get_note","title":"Get a note","description":"Reads a note.","#,
            r#""inputSchema":{"type":"object","properties":{},"additionalProperties":false},"#,
            r#""outputSchema":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false},"#,
            r#""annotations":{"title":"Get a note","readOnlyHint":true,"destructiveHint":false,"openWorldHint":false},"#,
            r#""_meta":{"ui":{"resourceUri":"ui://notes/view","visibility":["model","app"]}}}"#
        )
    );
}

#[test]
fn a_bare_tool_has_only_name_and_input_schema() {
    let m = model(vec![], vec![tool("ping", vec![], Returns::Nothing)]);
    let listings = listings(&m, &SchemaOptions::default()).unwrap();
    assert_eq!(
        listings.services[0].tools[0].json(),
        r#"{"name":"ping","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#
    );
}

#[test]
fn output_schema_only_for_records_and_maps() {
    let types = vec![record("Note", vec![])];
    let cases = [
        (Returns::Nothing, None),
        (Returns::Content, None),
        (Returns::CallResult, None),
        (
            Returns::Value {
                ty: prim(P::String),
            },
            None,
        ),
        (
            Returns::Value {
                ty: list(record_ref("Note")),
            },
            None,
        ),
        (
            Returns::Value {
                ty: prim(P::Object),
            },
            None,
        ),
        (
            Returns::Value {
                ty: map(prim(P::U8)),
            },
            Some(
                r#"{"type":"object","additionalProperties":{"type":"integer","minimum":0,"maximum":255}}"#,
            ),
        ),
        (
            Returns::Value {
                ty: nullable(map(prim(P::Bool))),
            },
            Some(r#"{"type":"object","additionalProperties":{"type":"boolean"}}"#),
        ),
        (
            Returns::Value {
                ty: record_ref("Note"),
            },
            Some(r#"{"type":"object","properties":{},"additionalProperties":false}"#),
        ),
    ];
    for (returns, expected) in cases {
        let m = model(types.clone(), vec![tool("t", vec![], returns.clone())]);
        let listings = listings(&m, &SchemaOptions::default()).unwrap();
        let entry = &listings.services[0].tools[0].entry;
        let actual = entry.get("outputSchema").map(|s| {
            assert_valid_schema(s);
            s.to_string()
        });
        assert_eq!(actual.as_deref(), expected, "{returns:?}");
    }
}

#[test]
fn resources_templates_prompts_and_the_document() {
    let mut m = model(vec![], vec![tool("ping", vec![], Returns::Nothing)]);
    let mut info = resource(
        "city_info",
        "weather://cities/{name}",
        vec![field("name", prim(P::String))],
    );
    mime(&mut info, "text/markdown");
    info.title = Some("City".into());
    info.description = Some("About a city.".into());
    let view = resource("view", "ui://weather/view", vec![]);
    let mut html = resource("page", "ui://weather/page", vec![]);
    mime(&mut html, "text/html");
    let plain = resource("readme", "docs://readme", vec![]);
    m.services[0].members.extend([info, view, html, plain]);
    m.services[0].members.push(Member {
        ident: "summarize".into(),
        name: "summarize".into(),
        title: Some("Summarize".into()),
        doc: vec![],
        description: Some("Summarizes the weather.".into()),
        params: vec![
            described(field("city", prim(P::String)), "The city."),
            with_default(
                field("days", prim(P::U8)),
                Lit::Number(toolidl::model::Number::UInt(3)),
            ),
            field("style", nullable(prim(P::String))),
        ],
        returns: Returns::Value {
            ty: prim(P::String),
        },
        scopes: vec![],
        kind: MemberKind::Prompt,
    });
    let listings = listings(&m, &SchemaOptions::default()).unwrap();
    assert_eq!(
        listings.to_pretty_json(),
        r#"{
  "tools": [
    {
      "name": "ping",
      "inputSchema": {
        "type": "object",
        "properties": {},
        "additionalProperties": false
      }
    }
  ],
  "resources": [
    {
      "uri": "ui://weather/view",
      "name": "view",
      "mimeType": "text/html;profile=mcp-app"
    },
    {
      "uri": "ui://weather/page",
      "name": "page",
      "mimeType": "text/html"
    },
    {
      "uri": "docs://readme",
      "name": "readme"
    }
  ],
  "resourceTemplates": [
    {
      "uriTemplate": "weather://cities/{name}",
      "name": "city_info",
      "title": "City",
      "description": "About a city.",
      "mimeType": "text/markdown"
    }
  ],
  "prompts": [
    {
      "name": "summarize",
      "title": "Summarize",
      "description": "Summarizes the weather.",
      "arguments": [
        {
          "name": "city",
          "description": "The city.",
          "required": true
        },
        {
          "name": "days",
          "required": false
        },
        {
          "name": "style",
          "required": false
        }
      ]
    }
  ]
}
"#
    );
}

#[test]
fn empty_listings_are_left_out_of_the_document_and_services_concatenate() {
    let mut m = model(vec![], vec![tool("a", vec![], Returns::Nothing)]);
    let mut second = m.services[0].clone();
    second.name = "Other".into();
    second.members = vec![tool("b", vec![], Returns::Nothing)];
    m.services.push(second);
    let document = listings(&m, &SchemaOptions::default()).unwrap().document();
    let keys: Vec<&String> = document.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["tools"]);
    let names: Vec<&str> = document["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["a", "b"]);
}
