//! Cycles go to `$defs`; shared records stay inline unless hoisting is asked for.

use crate::common;

use common::*;
use toolidl::model::{DefKind, Primitive as P, Returns, Value as Lit};
use toolidl_codegen::{SchemaOptions, input_schema, output_schema};

const HOIST: SchemaOptions = SchemaOptions { hoist_shared: true };

fn input(model: &toolidl::model::Model, options: &SchemaOptions) -> String {
    let schema = input_schema(model, &model.services[0].members[0], options).unwrap();
    assert_valid_schema(&schema);
    schema.to_string()
}

fn tree() -> toolidl::model::TypeDef {
    let mut node = record(
        "Node",
        vec![
            field("label", prim(P::String)),
            with_default(field("children", list(record_ref("Node"))), Lit::Null),
        ],
    );
    if let toolidl::model::TypeDef::Record(r) = &mut node {
        r.description = Some("A tree node.".into());
    }
    node
}

#[test]
fn a_self_recursive_record_goes_to_defs_and_the_root_stays_inline() {
    let m = model(
        vec![tree()],
        vec![tool(
            "t",
            vec![described(field("root", record_ref("Node")), "The tree.")],
            Returns::Nothing,
        )],
    );
    assert_eq!(
        input(&m, &SchemaOptions::default()),
        concat!(
            r##"{"type":"object","properties":{"root":{"description":"The tree.","$ref":"#/$defs/Node"}},"##,
            r##""required":["root"],"additionalProperties":false,"$defs":{"Node":{"type":"object","description":"A tree node.","##,
            r##""properties":{"label":{"type":"string"},"children":{"type":"array","items":{"$ref":"#/$defs/Node"}}},"##,
            r##""required":["label"],"additionalProperties":false}}}"##
        )
    );
    let schema = input_schema(&m, &m.services[0].members[0], &SchemaOptions::default()).unwrap();
    let v = validator(&schema);
    let deep = serde_json::json!({"root": {"label": "a", "children": [{"label": "b", "children": [{"label": "c"}]}]}});
    assert!(v.is_valid(&deep));
    let bad = serde_json::json!({"root": {"label": "a", "children": [{"children": []}]}});
    assert!(
        !v.is_valid(&bad),
        "a nested node without its label is refused"
    );
}

#[test]
fn a_recursive_result_is_inline_at_the_root_and_in_defs() {
    let m = model(
        vec![tree()],
        vec![tool(
            "t",
            vec![],
            Returns::Value {
                ty: nullable(record_ref("Node")),
            },
        )],
    );
    let schema = output_schema(&m, &m.services[0].members[0], &SchemaOptions::default())
        .unwrap()
        .unwrap();
    assert_valid_schema(&schema);
    assert_eq!(
        schema["type"], "object",
        "a nullable record result keeps type object"
    );
    assert_eq!(
        schema["properties"]["children"]["items"]["$ref"],
        "#/$defs/Node"
    );
    assert_eq!(schema["$defs"]["Node"]["description"], "A tree node.");
    assert_eq!(
        schema.as_object().unwrap().keys().next_back().unwrap(),
        "$defs"
    );
}

#[test]
fn mutual_recursion_hoists_the_whole_cycle_sorted_and_a_nullable_ref_is_an_any_of() {
    let types = vec![
        record("Zeta", vec![field("alpha", nullable(record_ref("Alpha")))]),
        record(
            "Alpha",
            vec![
                field("zetas", map(record_ref("Zeta"))),
                field("leaf", record_ref("Leaf")),
            ],
        ),
        record("Leaf", vec![field("n", prim(P::Bool))]),
    ];
    let m = model(
        types,
        vec![tool(
            "t",
            vec![field("z", record_ref("Zeta"))],
            Returns::Nothing,
        )],
    );
    assert_eq!(
        input(&m, &SchemaOptions::default()),
        concat!(
            r##"{"type":"object","properties":{"z":{"$ref":"#/$defs/Zeta"}},"required":["z"],"additionalProperties":false,"##,
            r##""$defs":{"Alpha":{"type":"object","properties":{"zetas":{"type":"object","additionalProperties":{"$ref":"#/$defs/Zeta"}},"##,
            r##""leaf":{"type":"object","properties":{"n":{"type":"boolean"}},"required":["n"],"additionalProperties":false}},"##,
            r##""required":["zetas","leaf"],"additionalProperties":false},"##,
            r##""Zeta":{"type":"object","properties":{"alpha":{"anyOf":[{"$ref":"#/$defs/Alpha"},{"type":"null"}]}},"##,
            r##""required":["alpha"],"additionalProperties":false}}}"##
        )
    );
}

#[test]
fn a_shared_record_is_inline_unless_hoisting_is_asked_for() {
    let types = vec![record("Point", vec![field("x", prim(P::F64))])];
    let params = vec![
        field("from", record_ref("Point")),
        field("to", nullable(record_ref("Point"))),
    ];
    let m = model(types, vec![tool("t", params, Returns::Nothing)]);
    let point = r##"{"type":"object","properties":{"x":{"type":"number"}},"required":["x"],"additionalProperties":false}"##;
    let nullable_point = r##"{"type":["object","null"],"properties":{"x":{"type":"number"}},"required":["x"],"additionalProperties":false}"##;
    assert_eq!(
        input(&m, &SchemaOptions::default()),
        format!(
            r##"{{"type":"object","properties":{{"from":{point},"to":{nullable_point}}},"required":["from","to"],"additionalProperties":false}}"##
        )
    );
    assert_eq!(
        input(&m, &HOIST),
        format!(
            r##"{{"type":"object","properties":{{"from":{{"$ref":"#/$defs/Point"}},"to":{{"anyOf":[{{"$ref":"#/$defs/Point"}},{{"type":"null"}}]}}}},"required":["from","to"],"additionalProperties":false,"$defs":{{"Point":{point}}}}}"##
        )
    );
}

#[test]
fn a_record_used_once_stays_inline_even_with_hoisting() {
    let types = vec![
        record(
            "Outer",
            vec![
                field("a", record_ref("Inner")),
                field("b", record_ref("Inner2")),
            ],
        ),
        record("Inner", vec![field("x", prim(P::Bool))]),
        record("Inner2", vec![field("y", record_ref("Inner"))]),
    ];
    // Outer once, Inner2 once, Inner twice (from Outer and from Inner2).
    let m = model(
        types,
        vec![tool(
            "t",
            vec![field("o", record_ref("Outer"))],
            Returns::Nothing,
        )],
    );
    let schema = input(&m, &HOIST);
    assert!(schema.contains(r##""$defs":{"Inner":"##), "{schema}");
    assert!(
        !schema.contains(r##"$defs/Outer"##) && !schema.contains(r##"$defs/Inner2"##),
        "{schema}"
    );
}

#[test]
fn hoisted_records_sharing_a_simple_name_get_a_suffix_on_the_later_one() {
    let types = vec![
        record_in(
            PKG,
            "Page",
            vec![field(
                "next",
                nullable(named("other", "Page", DefKind::Record)),
            )],
        ),
        record_in(
            "other",
            "Page",
            vec![field("back", nullable(record_ref("Page")))],
        ),
    ];
    let m = model(
        types,
        vec![tool(
            "t",
            vec![field("p", record_ref("Page"))],
            Returns::Nothing,
        )],
    );
    let schema = input(&m, &SchemaOptions::default());
    assert!(
        schema.contains(r##""p":{"$ref":"#/$defs/Page"}"##),
        "{schema}"
    );
    assert!(
        schema.contains(r##""next":{"anyOf":[{"$ref":"#/$defs/Page2"}"##),
        "{schema}"
    );
    assert!(
        schema.contains(r##""back":{"anyOf":[{"$ref":"#/$defs/Page"}"##),
        "{schema}"
    );
}

#[test]
fn a_dangling_type_is_an_error_not_a_panic() {
    let m = model(
        vec![],
        vec![tool(
            "t",
            vec![field("p", record_ref("Missing"))],
            Returns::Nothing,
        )],
    );
    assert!(input_schema(&m, &m.services[0].members[0], &SchemaOptions::default()).is_err());
}
