//! The runtime API generated code calls, reached only through `codegen` as generated code
//! reaches it, with every error text pinned.

use std::borrow::Cow;
use std::collections::BTreeMap;

use toolidl_runtime::codegen::{self as rt, Decode as _};

/// Runs `f` on `json` as the argument `x`, rendering an error as the client reads it.
fn at_x<'de, T>(
    json: &'de str,
    f: impl FnOnce(&mut rt::Reader<'de>, &rt::Path<'_>) -> Result<T, rt::ArgError>,
) -> Result<T, String> {
    let root = rt::Path::Root;
    f(&mut rt::Reader::new(json), &root.field("x")).map_err(|e| e.to_string())
}

fn decode<T: rt::Decode>(json: &str) -> Result<T, String> {
    at_x(json, T::read)
}

fn text<T: rt::args::FromText>(s: &str) -> Result<T, String> {
    let root = rt::Path::Root;
    rt::args::text::<T>(s, &root.field("x")).map_err(|e| e.to_string())
}

const X: &str = "Argument 'x' is not valid.";

// --- Bytes ---

#[test]
fn bytes_decode_exactly_as_the_bytes_helper() {
    assert_eq!(
        decode::<rt::Bytes>(r#""aGk=""#),
        Ok(rt::Bytes(b"hi".to_vec()))
    );
    assert_eq!(
        decode::<rt::Bytes>(r#""aGk""#),
        Err(format!("{X} Expected base64 data."))
    );
    for json in [
        r#""aGk=""#,
        r#""aGk""#,
        r#""a b""#,
        "1",
        "null",
        "[]",
        r#""""#,
    ] {
        assert_eq!(
            decode::<rt::Bytes>(json).map(rt::Bytes::into_vec),
            at_x(json, rt::args::bytes),
            "{json}"
        );
    }
}

#[test]
fn bytes_round_trip_through_serde_as_base64() {
    let b = rt::Bytes::from(vec![0u8, 255, 7]);
    let json = rt::serde_json::to_string(&b).unwrap();
    assert_eq!(json, r#""AP8H""#);
    assert_eq!(decode::<rt::Bytes>(&json), Ok(b));
}

// --- list, map, nullable ---

fn small(r: &mut rt::Reader<'_>, p: &rt::Path<'_>) -> Result<i32, rt::ArgError> {
    let n = i32::read(r, p)?;
    rt::check::range(n, Some(1), Some(10), p)?;
    Ok(n)
}

#[test]
fn list_reads_each_item_at_its_index() {
    assert_eq!(
        at_x("[1,2,3]", |v, p| rt::args::list(v, p, small)),
        Ok(vec![1, 2, 3])
    );
    assert_eq!(
        at_x("[1,20]", |v, p| rt::args::list(v, p, small)),
        Err("Argument 'x[1]' is not valid. Expected a value from 1 to 10.".into())
    );
    for json in ["{}", "null", r#""a""#, "1"] {
        assert_eq!(
            at_x(json, |v, p| rt::args::list(v, p, small)),
            decode::<Vec<i32>>(json),
            "{json}"
        );
    }
    assert_eq!(
        at_x("{}", |v, p| rt::args::list(v, p, small)),
        Err(format!("{X} Expected an array."))
    );
}

#[test]
fn map_reads_each_value_at_its_key() {
    let want: BTreeMap<String, i32> = [("a b".to_owned(), 2)].into();
    assert_eq!(
        at_x(r#"{"a b":2}"#, |v, p| rt::args::map(v, p, small)),
        Ok(want)
    );
    assert_eq!(
        at_x(r#"{"a b":0}"#, |v, p| rt::args::map(v, p, small)),
        Err(r#"Argument 'x["a b"]' is not valid. Expected a value from 1 to 10."#.into())
    );
    for json in ["[]", "null", "1"] {
        assert_eq!(
            at_x(json, |v, p| rt::args::map(v, p, small)),
            decode::<BTreeMap<String, i32>>(json),
            "{json}"
        );
    }
    assert_eq!(
        at_x("null", |v, p| rt::args::map(v, p, small)),
        Err(format!("{X} Null is not allowed."))
    );
}

#[test]
fn nullable_reads_null_as_none() {
    assert_eq!(
        at_x("null", |v, p| rt::args::nullable(v, p, small)),
        Ok(None)
    );
    assert_eq!(
        at_x("3", |v, p| rt::args::nullable(v, p, small)),
        Ok(Some(3))
    );
    assert_eq!(
        at_x("11", |v, p| rt::args::nullable(v, p, small)),
        Err(format!("{X} Expected a value from 1 to 10."))
    );
    // Nested: a list of nullable constrained items.
    assert_eq!(
        at_x("[null,4]", |v, p| rt::args::list(v, p, |v, p| {
            rt::args::nullable(v, p, small)
        })),
        Ok(vec![None, Some(4)])
    );
}

// --- sets ---

#[test]
fn set_by_eq_refuses_repeats_of_floats() {
    assert_eq!(
        at_x("[1.5,2,3]", rt::args::set_by_eq::<f64>),
        Ok(vec![1.5, 2.0, 3.0])
    );
    assert_eq!(
        at_x("[1.5,2,1.5]", rt::args::set_by_eq::<f64>),
        Err("Argument 'x[2]' is not valid. Duplicate item.".into())
    );
    assert_eq!(
        at_x("[1,\"a\"]", rt::args::set_by_eq::<f64>),
        Err("Argument 'x[1]' is not valid. Expected a number.".into())
    );
}

#[test]
fn set_by_json_uses_json_schema_equality() {
    let unique = |r: &mut rt::Reader<'_>, p: &rt::Path<'_>| {
        rt::args::set_by_json(r, p, rt::serde_json::Value::read).map(drop)
    };
    assert_eq!(at_x("[1,2,[1]]", unique), Ok(()));
    for (json, index) in [
        ("[1,1.0]", 1),
        (r#"[{"a":1,"b":[2]},{"b":[2.0],"a":1},3]"#, 1),
        ("[0,1,2,3,4,5,6,7,8,9,10,11,-0.0]", 12),
        (r#"["a","b","a","b"]"#, 2),
    ] {
        assert_eq!(
            at_x(json, unique),
            Err(format!(
                "Argument 'x[{index}]' is not valid. Duplicate item."
            )),
            "{json}"
        );
    }
    assert_eq!(at_x("{}", unique), Err(format!("{X} Expected an array.")));
}

// --- text decoders ---

#[test]
fn text_scalars_decode() {
    assert_eq!(text::<i8>("-128"), Ok(i8::MIN));
    assert_eq!(text::<i16>("300"), Ok(300));
    assert_eq!(text::<u16>("65535"), Ok(u16::MAX));
    assert_eq!(text::<u32>("0"), Ok(0));
    assert_eq!(text::<i64>("-9223372036854775808"), Ok(i64::MIN));
    assert_eq!(text::<f64>("-1.5e3"), Ok(-1500.0));
    assert_eq!(text::<f32>("0.25"), Ok(0.25));
    assert_eq!(text::<bool>("false"), Ok(false));
    assert_eq!(text::<String>(""), Ok(String::new()));
    assert_eq!(text::<String>(" any text "), Ok(" any text ".into()));
    assert_eq!(text::<char>("é"), Ok('é'));
}

#[test]
fn text_errors_are_the_json_decoders_texts() {
    assert_eq!(text::<i32>("1.5"), Err(format!("{X} Expected an integer.")));
    assert_eq!(text::<i32>("abc"), Err(format!("{X} Expected an integer.")));
    assert_eq!(text::<i32>(""), Err(format!("{X} Expected an integer.")));
    assert_eq!(
        text::<i32>("2147483648"),
        Err(format!(
            "{X} Expected an integer from -2147483648 to 2147483647."
        ))
    );
    assert_eq!(
        text::<u64>("-1"),
        Err(format!(
            "{X} Expected an integer from 0 to 18446744073709551615."
        ))
    );
    for bad in ["x", "NaN", "inf", "-infinity", "1e400", ""] {
        assert_eq!(
            text::<f64>(bad),
            Err(format!("{X} Expected a number.")),
            "{bad}"
        );
    }
    // The schema of an f32 is any number: beyond its range, the largest f32 of that sign.
    assert_eq!(text::<f32>("1e39"), Ok(f32::MAX));
    assert_eq!(text::<f32>("-1e300"), Ok(-f32::MAX));
    for bad in ["True", "1", "yes", " true", ""] {
        assert_eq!(
            text::<bool>(bad),
            Err(format!("{X} Expected a boolean.")),
            "{bad}"
        );
    }
    for bad in ["", "ab"] {
        assert_eq!(
            text::<char>(bad),
            Err(format!("{X} Expected exactly one character.")),
            "{bad}"
        );
    }
    // The same words as the JSON decoders, value for value.
    assert_eq!(text::<i32>("1.5"), decode::<i32>("1.5"));
    assert_eq!(text::<u8>("300"), decode::<u8>("300"));
    assert_eq!(
        text::<i64>("-9223372036854775809"),
        decode::<i64>("-9223372036854775809")
    );
    assert_eq!(text::<f32>("1e39"), decode::<f32>("1e39"));
    assert_eq!(text::<bool>("yes"), decode::<bool>(r#""yes""#));
    assert_eq!(text::<char>("ab"), decode::<char>(r#""ab""#));
}

#[test]
fn text_formats_and_members() {
    let root = rt::Path::Root;
    let x = root.field("x");
    let uuid = "123e4567-e89b-12d3-a456-426614174000";
    assert_eq!(
        rt::args::text_formatted(uuid, &x, rt::Format::Uuid),
        Ok(uuid.into())
    );
    let bad = rt::args::text_formatted("nope", &x, rt::Format::Uuid).unwrap_err();
    assert_eq!(bad.to_string(), format!("{X} Expected a UUID."));
    assert_eq!(
        Err(bad),
        rt::args::formatted(&mut rt::Reader::new(r#""nope""#), &x, rt::Format::Uuid)
    );
    let members = ["celsius", "fahrenheit"];
    assert_eq!(rt::args::text_member("fahrenheit", &x, &members), Ok(1));
    let bad = rt::args::text_member("Celsius", &x, &members).unwrap_err();
    assert_eq!(
        bad.to_string(),
        format!("{X} Expected one of: celsius, fahrenheit.")
    );
    assert_eq!(
        Err(bad),
        rt::args::enum_member(&mut rt::Reader::new(r#""Celsius""#), &x, &members)
    );
}

#[test]
fn text_arguments_walks_strings_and_nulls() {
    let root = rt::Path::Root;
    let args = r#"{"city":"Paris","note":null,"quote":"a\"b\u00e9"}"#;
    let mut seen = Vec::new();
    rt::args::text_arguments(&mut rt::Reader::new(args), &root, |key, value| {
        seen.push((key.to_owned(), value));
        Ok(())
    })
    .unwrap();
    assert_eq!(
        seen,
        [
            ("city".to_owned(), Some(Cow::Borrowed("Paris"))),
            ("note".to_owned(), None),
            ("quote".to_owned(), Some(Cow::Owned("a\"bé".to_owned()))),
        ]
    );
    assert!(matches!(seen[0].1, Some(Cow::Borrowed(_))));

    let walk = |json: &str| {
        rt::args::text_arguments(&mut rt::Reader::new(json), &root, |key, value| {
            if key == "days" {
                let days: u8 = rt::args::text(&value.unwrap_or_default(), &root.field("days"))?;
                rt::check::range(days, Some(1), Some(7), &root.field("days"))?;
            }
            Ok(())
        })
        .map_err(|e| e.to_string())
    };
    assert_eq!(
        walk(r#"{"city":5}"#),
        Err("Argument 'city' is not valid. Expected a string.".into())
    );
    assert_eq!(
        walk(r#"{"city":["a"]}"#),
        Err("Argument 'city' is not valid. Expected a string.".into())
    );
    assert_eq!(
        walk(r#"{"days":"9"}"#),
        Err("Argument 'days' is not valid. Expected a value from 1 to 7.".into())
    );
    assert_eq!(
        walk(r#"{"days":"x"}"#),
        Err("Argument 'days' is not valid. Expected an integer.".into())
    );
    assert_eq!(
        walk("[]"),
        Err("Argument '' is not valid. Expected an object.".into())
    );
    assert_eq!(
        walk("null"),
        Err("Argument '' is not valid. Null is not allowed.".into())
    );
    assert_eq!(walk("{}"), Ok(()));
}

#[test]
fn argument_errors_become_invalid_params() {
    let root = rt::Path::Root;
    let e = rt::ArgError::missing(&root, "city");
    let rpc = rt::RpcError::from(e);
    assert_eq!(
        rpc,
        rt::RpcError::new(-32602, "Argument 'city' is not valid. A value is required.")
    );
    assert_eq!(rpc.data, None);
}

// --- completions ---

#[test]
fn completion_members_filters_by_prefix_in_order() {
    let names = ["celsius", "fahrenheit", "Celsius", "cel", "kelvin"];
    let c = rt::Completion::members(&names, "cel");
    assert_eq!(c.values, ["celsius", "cel"]);
    assert_eq!((c.total, c.has_more), (Some(2), false));
    let all = rt::Completion::members(&names, "");
    assert_eq!(all.values, names);
    assert_eq!(all.total, Some(5));
    let none = rt::Completion::members(&names, "x");
    assert_eq!(
        (none.values.len(), none.total, none.has_more),
        (0, Some(0), false)
    );

    let many: Vec<String> = (0..150).map(|i| format!("m{i:03}")).collect();
    let refs: Vec<&str> = many.iter().map(String::as_str).collect();
    let c = rt::Completion::members(&refs, "m");
    assert_eq!(c.values.len(), 100);
    assert_eq!(c.values[99], "m099");
    assert_eq!((c.total, c.has_more), (Some(150), true));
    let c = rt::Completion::members(&refs[..100], "m");
    assert_eq!(
        (c.values.len(), c.total, c.has_more),
        (100, Some(100), false)
    );
}

// --- checked structured output ---

/// A record as generated code would write it: `record Reading { @range(-100, 100) temp: f64,
/// @length(0, 5) label: string }`.
#[derive(rt::serde::Serialize)]
#[serde(crate = "toolidl_runtime::codegen::serde")]
struct Reading {
    temp: f64,
    label: String,
}

impl rt::Decode for Reading {
    fn read(r: &mut rt::Reader<'_>, path: &rt::Path<'_>) -> Result<Self, rt::ArgError> {
        let (mut temp, mut label) = (None, None);
        rt::args::object(r, path, |r, key| {
            match key {
                "temp" => {
                    let p = path.field("temp");
                    let v = f64::read(r, &p)?;
                    rt::check::range(v, Some(-100.0), Some(100.0), &p)?;
                    temp = Some(v);
                }
                "label" => {
                    let p = path.field("label");
                    let v = String::read(r, &p)?;
                    rt::check::length(&v, None, Some(5), &p)?;
                    label = Some(v);
                }
                _ => return Err(rt::ArgError::unknown(path, key)),
            }
            Ok(())
        })?;
        Ok(Reading {
            temp: rt::args::required(temp, path, "temp")?,
            label: rt::args::required(label, path, "label")?,
        })
    }
}

fn reading(temp: f64, label: &str) -> Reading {
    Reading {
        temp,
        label: label.into(),
    }
}

/// The internal error's text (what goes to `tracing`).
fn internal(r: Result<rt::ToolOutput, rt::ToolError>) -> String {
    match r {
        Err(rt::ToolError::Internal(e)) => e.to_string(),
        other => panic!("not an internal error: {other:?}"),
    }
}

#[test]
fn checked_structured_publishes_values_that_match_the_schema() {
    assert_eq!(
        rt::ToolOutput::checked_structured(&reading(21.5, "ok")).unwrap(),
        rt::ToolOutput::Structured(r#"{"temp":21.5,"label":"ok"}"#.into())
    );
    let map: BTreeMap<String, rt::Bytes> = [("a".to_owned(), rt::Bytes(b"hi".to_vec()))].into();
    assert_eq!(
        rt::ToolOutput::checked_structured(&map).unwrap(),
        rt::ToolOutput::Structured(r#"{"a":"aGk="}"#.into())
    );
}

#[test]
fn checked_structured_refuses_values_that_break_the_schema() {
    let prefix = "the result does not match the tool's outputSchema";
    assert_eq!(
        internal(rt::ToolOutput::checked_structured(&reading(f64::NAN, "ok"))),
        format!("{prefix} at 'temp': Null is not allowed.")
    );
    assert_eq!(
        internal(rt::ToolOutput::checked_structured(&reading(
            f64::INFINITY,
            "ok"
        ))),
        format!("{prefix} at 'temp': Null is not allowed.")
    );
    assert_eq!(
        internal(rt::ToolOutput::checked_structured(&reading(120.0, "ok"))),
        format!("{prefix} at 'temp': Expected a value from -100 to 100.")
    );
    assert_eq!(
        internal(rt::ToolOutput::checked_structured(&reading(
            1.0, "too long"
        ))),
        format!("{prefix} at 'label': Expected at most 5 characters.")
    );
    let map: BTreeMap<String, Reading> = [("k".to_owned(), reading(1e9, ""))].into();
    assert_eq!(
        internal(rt::ToolOutput::checked_structured(&map)),
        format!(r#"{prefix} at '["k"].temp': Expected a value from -100 to 100."#)
    );
    // A root that is not even an object.
    struct Odd;
    impl rt::serde::Serialize for Odd {
        fn serialize<S: rt::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_u8(1)
        }
    }
    impl rt::Decode for Odd {
        fn read(r: &mut rt::Reader<'_>, path: &rt::Path<'_>) -> Result<Self, rt::ArgError> {
            rt::args::object(r, path, |_, _| Ok(())).map(|()| Odd)
        }
    }
    assert_eq!(
        internal(rt::ToolOutput::checked_structured(&Odd)),
        format!("{prefix}: Expected an object.")
    );
}

#[test]
fn checked_nullable_structured_writes_null_as_structured_null() {
    // Sent as the text `null`, with `structuredContent: null` only from 2026-07-28.
    assert_eq!(
        rt::ToolOutput::checked_nullable_structured::<Reading>(None).unwrap(),
        rt::ToolOutput::Structured("null".into())
    );
    assert_eq!(
        rt::ToolOutput::checked_nullable_structured(Some(&reading(0.0, ""))).unwrap(),
        rt::ToolOutput::Structured(r#"{"temp":0.0,"label":""}"#.into())
    );
    assert!(matches!(
        rt::ToolOutput::checked_nullable_structured(Some(&reading(f64::NAN, ""))),
        Err(rt::ToolError::Internal(_))
    ));
}

// --- version, ready, URI templates ---

const _: () = assert!(
    rt::GENERATED_CODE_VERSION == 5,
    "generated by an incompatible toolidl-build"
);

#[tokio::test]
async fn ready_is_a_finished_boxed_future() {
    let fut: rt::BoxFuture<Result<u8, rt::ToolError>> = rt::ready(Ok(7));
    assert_eq!(fut.await.unwrap(), 7);
}

#[test]
fn uri_templates_are_reachable_from_codegen() {
    let values = rt::uri_template::capture("docs://{a}/{b}.md", "docs://x/y%20z.md").unwrap();
    assert_eq!(values, ["x", "y z"]);
    assert_eq!(rt::uri_template::variables("docs://{a}/{b}.md"), ["a", "b"]);
    // A captured variable is then read as text.
    let root = rt::Path::Root;
    let values = rt::uri_template::capture("items://{id}", "items://42").unwrap();
    assert_eq!(rt::args::text::<u32>(&values[0], &root.field("id")), Ok(42));
    let values = rt::uri_template::capture("items://{id}", "items://4x").unwrap();
    assert_eq!(
        rt::args::text::<u32>(&values[0], &root.field("id")).map_err(|e| e.to_string()),
        Err("Argument 'id' is not valid. Expected an integer.".into())
    );
}

// --- MCP Apps views ---

/// A view's `_meta.ui` goes on every content `resources/read` returns (the Apps extension
/// puts it there as well as on the listed resource); a content's own `_meta` keys stay.
#[test]
fn a_view_s_meta_goes_with_its_content() {
    let meta =
        r#"{"ui":{"csp":{"connectDomains":["https://api.example.com"]},"prefersBorder":true}}"#;
    let text = rt::content::with_meta(
        rt::content::resource_text("ui://app/view.html", "text/html;profile=mcp-app", "<p>"),
        meta,
    );
    assert_eq!(
        text,
        serde_json::json!({"contents": [{
            "uri": "ui://app/view.html",
            "mimeType": "text/html;profile=mcp-app",
            "text": "<p>",
            "_meta": {"ui": {"csp": {"connectDomains": ["https://api.example.com"]}, "prefersBorder": true}},
        }]})
    );
    let blob = rt::content::with_meta(
        rt::content::resource_blob("ui://app/view.html", "text/html;profile=mcp-app", b"<p>"),
        r#"{"ui":{"domain":"view.example.com"}}"#,
    );
    assert_eq!(
        blob["contents"][0]["_meta"],
        serde_json::json!({"ui": {"domain": "view.example.com"}})
    );
    let own = serde_json::json!({"contents": [{"uri": "ui://a", "text": "", "_meta": {"ui": 1, "x": 2}}]});
    assert_eq!(
        rt::content::with_meta(own, meta)["contents"][0]["_meta"],
        serde_json::json!({"ui": 1, "x": 2})
    );
    assert_eq!(
        rt::content::with_meta(rt::content::resource_empty(), meta),
        rt::content::resource_empty()
    );
    let plain = rt::content::resource_text("ui://a", "text/html", "");
    assert_eq!(rt::content::with_meta(plain.clone(), "not json"), plain);
}
