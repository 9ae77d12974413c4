//! The constructs of the `.tool` language's second edition (issue 10), end to end through
//! the generated code: what the decoder fills in agrees with what the schema publishes.

use serde_json::{Value, json};
use toolidl_generated_tests::golden::composite_defaults::{DrawArgs, DrawingServer, Point};
use toolidl_runtime::codegen::{Arguments, Decode, RawValue, Service};

fn decode<T: Decode>(args: Value) -> T {
    let raw = RawValue::from_string(args.to_string()).unwrap();
    Arguments::new(&raw).decode::<T>().unwrap()
}

/// The published `inputSchema` of `tool` of a service.
fn input_schema(service: &dyn Service, tool: &str) -> Value {
    let def = service
        .tools()
        .iter()
        .find(|t| t.name == tool)
        .expect("the tool is listed");
    let listing: Value = serde_json::from_str(&def.json).unwrap();
    listing["inputSchema"].clone()
}

struct Never;

impl toolidl_generated_tests::golden::composite_defaults::Drawing for Never {
    async fn draw(
        &self,
        _: toolidl_runtime::RequestContext,
        _: DrawArgs,
    ) -> Result<(), toolidl_runtime::ToolError> {
        Ok(())
    }
}

#[test]
fn composite_defaults_decode_to_what_the_schema_publishes() {
    let args: DrawArgs = decode(json!({"shape": "s"}));
    let schema = input_schema(&DrawingServer::new(Never), "draw");
    let decoded = [
        ("tags", serde_json::to_value(&args.tags)),
        ("colors", serde_json::to_value(&args.colors)),
        ("sizes", serde_json::to_value(&args.sizes)),
        ("labels", serde_json::to_value(&args.labels)),
        ("weights", serde_json::to_value(&args.weights)),
        ("extra", serde_json::to_value(&args.extra)),
        ("grid", serde_json::to_value(&args.grid)),
    ];
    for (name, value) in decoded {
        assert_eq!(
            value.unwrap(),
            schema["properties"][name]["default"],
            "default of `{name}`"
        );
    }
    // A record's default is what the decoder makes of the published one.
    let origin: Point = decode(schema["properties"]["origin"]["default"].clone());
    assert_eq!(args.origin, origin);
    // A record default names only some fields: the others take their own defaults.
    let style = serde_json::to_value(&args.style).unwrap();
    assert_eq!(
        style,
        json!({"lineWidth": 2.0, "colors": ["red"], "origin": {"x": 0, "y": 0, "note": "n"}})
    );
    assert_eq!(args.styles.len(), 2);
    assert!(args.styles[1].colors.is_empty());
    // A default is used only when the argument is absent.
    let given: DrawArgs = decode(json!({"shape": "s", "origin": {"x": 7}}));
    assert_eq!(
        given.origin,
        Point {
            x: 7,
            y: 0,
            label: None,
            note: None
        }
    );
}

#[test]
fn an_open_record_keeps_the_members_it_does_not_declare() {
    use toolidl_generated_tests::golden::annotations2::Labels;
    let sent = json!({"main_label": "m", "colour": {"r": 1}, "old_label": null, "n": [1, 2]});
    let labels: Labels = decode(sent.clone());
    assert_eq!(labels.main_label, "m");
    assert_eq!(labels.extra.len(), 2);
    assert_eq!(labels.extra["colour"], json!({"r": 1}));
    assert_eq!(serde_json::to_value(&labels).unwrap(), sent);
}

#[test]
fn exclusive_bounds_are_checked_with_their_own_text() {
    use toolidl_generated_tests::golden::annotations2::Sample;
    let error = |args: Value| {
        let raw = RawValue::from_string(args.to_string()).unwrap();
        Arguments::new(&raw)
            .decode::<Sample>()
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        error(json!({"weight": 0, "percent": null})),
        "Argument 'weight' is not valid. Expected a value greater than 0."
    );
    assert_eq!(
        error(json!({"weight": 1, "ratio": 1, "percent": null})),
        "Argument 'ratio' is not valid. Expected a value greater than -1 and less than 1."
    );
    let ok: Sample = decode(json!({"weight": 1e-9, "percent": 99.5}));
    assert_eq!(ok.ratio, 0.5);
}

#[test]
fn a_tagged_union_reads_its_tag_first_and_reports_the_branch() {
    use toolidl_generated_tests::golden::unions::{Circle, Shape};
    let error = |args: Value| {
        let raw = RawValue::from_string(args.to_string()).unwrap();
        Arguments::new(&raw)
            .decode::<Shape>()
            .unwrap_err()
            .to_string()
    };
    // The tag may come after the other members.
    let shape: Shape = decode(json!({"radius": 2.5, "kind": "circle"}));
    assert_eq!(shape, Shape::Circle(Circle { radius: 2.5 }));
    assert_eq!(
        serde_json::to_value(&shape).unwrap(),
        json!({"kind": "circle", "radius": 2.5})
    );
    assert_eq!(
        error(json!({"radius": 1})),
        "Argument 'kind' is not valid. A value is required."
    );
    assert_eq!(
        error(json!({"kind": "triangle"})),
        "Argument 'kind' is not valid. Expected one of: circle, square, nothing."
    );
    assert_eq!(
        error(json!({"kind": "square", "sideLength": -1})),
        "Argument 'sideLength' is not valid. Expected an integer from 0 to 4294967295."
    );
}

#[test]
fn an_untagged_union_takes_the_first_variant_that_fits() {
    use toolidl_generated_tests::golden::unions::Id;
    assert_eq!(decode::<Id>(json!("x")), Id::Text("x".into()));
    assert_eq!(decode::<Id>(json!(7)), Id::Number(7));
    assert_eq!(decode::<Id>(json!([1, 2])), Id::Many(vec![1, 2]));
    assert_eq!(serde_json::to_value(Id::Number(7)).unwrap(), json!(7));
    let raw = RawValue::from_string("[300]".into()).unwrap();
    assert_eq!(
        Arguments::new(&raw).decode::<Id>().unwrap_err().to_string(),
        "Argument '' is not valid. It fits none of its variants (text: Expected a string. number: Expected an integer. many: '[0]' Expected an integer from 0 to 255.)."
    );
}

/// The run-time texts of constrained items and unknown arguments (issue 22): each item is
/// checked at its own path, and a typo of a declared argument is named.
#[test]
fn item_errors_name_the_item_and_unknown_arguments_their_closest_name() {
    use toolidl_generated_tests::golden::element_constraints::TagArgs;
    let error = |args: Value| {
        let raw = RawValue::from_string(args.to_string()).unwrap();
        Arguments::new(&raw)
            .decode::<TagArgs>()
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        error(json!({"tags": ["bug", "Not-OK"]})),
        "Argument 'tags[1]' is not valid. Expected a string matching the pattern '^[a-z0-9-]+$'."
    );
    assert_eq!(
        error(json!({"tags": [], "weights": {"a": 0.5, "b": 0}})),
        "Argument 'weights[\"b\"]' is not valid. Expected a value greater than 0."
    );
    assert_eq!(
        error(json!({"tags": [], "groups": [["ok"], [""]]})),
        "Argument 'groups[1][0]' is not valid. Expected at least 1 character."
    );
    assert_eq!(
        error(json!({"tags": [], "tgas": []})),
        "Argument 'tgas' is not valid. Unknown property. Did you mean 'tags'?"
    );
    assert_eq!(
        error(json!({"tags": [], "labels": [{"name": "bug", "alias": []}]})),
        "Argument 'labels[0].alias' is not valid. Unknown property. Did you mean 'aliases'?"
    );
    assert_eq!(
        error(json!({"tags": [], "colour": 1})),
        "Argument 'colour' is not valid. Unknown property."
    );
}
