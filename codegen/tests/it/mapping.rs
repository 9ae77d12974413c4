//! Every row of the type mapping, constraints, nullability, defaults and descriptions, against
//! hand-built models.

use crate::common;

use common::*;
use serde_json::json;
use toolidl::model::{Bounds, Constraints, Number, Primitive as P, Value as Lit};

fn of(ty: toolidl::model::Type) -> String {
    fragment_of(vec![], field("p", ty))
}

#[test]
fn scalar_rows() {
    let rows = [
        (P::Bool, json!({"type": "boolean"})),
        (
            P::I8,
            json!({"type": "integer", "minimum": -128, "maximum": 127}),
        ),
        (
            P::I16,
            json!({"type": "integer", "minimum": -32768, "maximum": 32767}),
        ),
        (
            P::I32,
            json!({"type": "integer", "minimum": -2147483648i64, "maximum": 2147483647}),
        ),
        (
            P::I64,
            json!({"type": "integer", "minimum": i64::MIN, "maximum": i64::MAX}),
        ),
        (
            P::U8,
            json!({"type": "integer", "minimum": 0, "maximum": 255}),
        ),
        (
            P::U16,
            json!({"type": "integer", "minimum": 0, "maximum": 65535}),
        ),
        (
            P::U32,
            json!({"type": "integer", "minimum": 0, "maximum": 4294967295u64}),
        ),
        (
            P::U64,
            json!({"type": "integer", "minimum": 0, "maximum": u64::MAX}),
        ),
        (P::F32, json!({"type": "number"})),
        (P::F64, json!({"type": "number"})),
        (P::String, json!({"type": "string"})),
        (
            P::Char,
            json!({"type": "string", "minLength": 1, "maxLength": 1}),
        ),
        (P::Uuid, json!({"type": "string", "format": "uuid"})),
        (
            P::Datetime,
            json!({"type": "string", "format": "date-time"}),
        ),
        (P::Date, json!({"type": "string", "format": "date"})),
        (P::Time, json!({"type": "string", "format": "time"})),
        (P::Uri, json!({"type": "string", "format": "uri"})),
        (
            P::Bytes,
            json!({"type": "string", "contentEncoding": "base64"}),
        ),
        (P::Json, json!({})),
        (P::Object, json!({"type": "object"})),
        (P::Array, json!({"type": "array"})),
    ];
    for (primitive, expected) in rows {
        assert_eq!(of(prim(primitive)), expected.to_string(), "{primitive:?}");
    }
    assert_eq!(
        of(prim(P::I64)),
        r#"{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807}"#
    );
    assert_eq!(
        of(prim(P::U64)),
        r#"{"type":"integer","minimum":0,"maximum":18446744073709551615}"#
    );
}

#[test]
fn duration_pattern_accepts_the_c_format_and_nothing_else() {
    let schema = json!({"type": "string", "pattern": toolidl_codegen::schema::DURATION_PATTERN});
    assert_eq!(
        of(prim(P::Duration)),
        schema.to_string(),
        "duration fragment"
    );
    let validator = validator(&schema);
    for valid in [
        "00:00:00",
        "23:59:59",
        "-01:02:03",
        "1.00:00:00",
        "-10675199.02:48:05.4775808",
        "12:30:00.5",
        "12:30:00.1234567",
    ] {
        assert!(validator.is_valid(&json!(valid)), "{valid} should be valid");
    }
    for invalid in [
        "",
        "1:00:00",
        "24:00:00",
        "12:60:00",
        "12:00:60",
        "12:00",
        "12:00:00.",
        "12:00:00.12345678",
        "1.2:00:00",
        "+01:00:00",
        "P1D",
        "123456789.00:00:00",
        " 12:00:00",
        "12:00:00\n",
    ] {
        assert!(
            !validator.is_valid(&json!(invalid)),
            "{invalid:?} should be invalid"
        );
    }
}

#[test]
fn composites() {
    assert_eq!(
        of(list(prim(P::String))),
        r#"{"type":"array","items":{"type":"string"}}"#
    );
    assert_eq!(
        of(set(prim(P::Bool))),
        r#"{"type":"array","items":{"type":"boolean"},"uniqueItems":true}"#
    );
    assert_eq!(
        of(map(prim(P::F64))),
        r#"{"type":"object","additionalProperties":{"type":"number"}}"#
    );
}

#[test]
fn enums_and_records() {
    let types = vec![
        enumeration(
            "Units",
            &["celsius", "fahrenheit"],
            Some("Temperature units."),
        ),
        record(
            "Point",
            vec![
                field("x", prim(P::F64)),
                with_default(field("y", prim(P::F64)), Lit::Null),
            ],
        ),
    ];
    assert_eq!(
        fragment_of(types.clone(), field("p", enum_ref("Units"))),
        r#"{"type":"string","description":"Temperature units.","enum":["celsius","fahrenheit"]}"#
    );
    assert_eq!(
        fragment_of(types.clone(), field("p", record_ref("Point"))),
        r#"{"type":"object","properties":{"x":{"type":"number"},"y":{"type":"number"}},"required":["x"],"additionalProperties":false}"#
    );
    // The field's own description wins over the type's.
    assert_eq!(
        fragment_of(
            types,
            described(field("p", enum_ref("Units")), "Units to use.")
        ),
        r#"{"type":"string","description":"Units to use.","enum":["celsius","fahrenheit"]}"#
    );
}

#[test]
fn nullability_of_each_kind() {
    let types = vec![
        enumeration("Units", &["c", "f"], None),
        record("Point", vec![field("x", prim(P::F64))]),
    ];
    assert_eq!(
        of(nullable(prim(P::Bool))),
        r#"{"type":["boolean","null"]}"#
    );
    assert_eq!(
        of(nullable(prim(P::U8))),
        r#"{"type":["integer","null"],"minimum":0,"maximum":255}"#
    );
    assert_eq!(of(nullable(prim(P::Json))), r#"{}"#);
    assert_eq!(
        of(nullable(list(prim(P::String)))),
        r#"{"type":["array","null"],"items":{"type":"string"}}"#
    );
    assert_eq!(
        of(list(nullable(prim(P::String)))),
        r#"{"type":"array","items":{"type":["string","null"]}}"#
    );
    assert_eq!(
        of(nullable(map(prim(P::String)))),
        r#"{"type":["object","null"],"additionalProperties":{"type":"string"}}"#
    );
    assert_eq!(
        fragment_of(types.clone(), field("p", nullable(enum_ref("Units")))),
        r#"{"type":["string","null"],"enum":["c","f",null]}"#
    );
    assert_eq!(
        fragment_of(types, field("p", nullable(record_ref("Point")))),
        r#"{"type":["object","null"],"properties":{"x":{"type":"number"}},"required":["x"],"additionalProperties":false}"#
    );
}

fn range(min: Option<Number>, max: Option<Number>) -> Constraints {
    Constraints {
        range: Some(Bounds { min, max }),
        ..Constraints::default()
    }
}

fn length(min: Option<u64>, max: Option<u64>) -> Constraints {
    Constraints {
        length: Some(Bounds { min, max }),
        ..Constraints::default()
    }
}

#[test]
fn range_is_intersected_with_an_integer_types_range() {
    let ranged = |ty, c| fragment_of(vec![], constrained(field("p", prim(ty)), c));
    assert_eq!(
        ranged(P::U8, range(Some(Number::UInt(1)), Some(Number::UInt(14)))),
        r#"{"type":"integer","minimum":1,"maximum":14}"#
    );
    assert_eq!(
        ranged(P::U8, range(Some(Number::Int(-5)), Some(Number::UInt(300)))),
        r#"{"type":"integer","minimum":0,"maximum":255}"#
    );
    assert_eq!(
        ranged(P::I32, range(None, Some(Number::Int(-1)))),
        r#"{"type":"integer","minimum":-2147483648,"maximum":-1}"#
    );
    assert_eq!(
        ranged(P::U64, range(None, Some(Number::UInt(u64::MAX - 1)))),
        r#"{"type":"integer","minimum":0,"maximum":18446744073709551614}"#
    );
    assert_eq!(
        ranged(
            P::F64,
            range(Some(Number::Float(-0.5)), Some(Number::UInt(100)))
        ),
        r#"{"type":"number","minimum":-0.5,"maximum":100}"#
    );
    assert_eq!(
        ranged(P::F32, range(Some(Number::Float(1e300)), None)),
        r#"{"type":"number","minimum":1e+300}"#
    );
    // On a nullable integer the bounds apply to the integer.
    assert_eq!(
        fragment_of(
            vec![],
            constrained(
                field("p", nullable(prim(P::I8))),
                range(Some(Number::Int(-3)), None)
            )
        ),
        r#"{"type":["integer","null"],"minimum":-3,"maximum":127}"#
    );
}

#[test]
fn length_pattern_email_url() {
    let with = |ty, c| fragment_of(vec![], constrained(field("p", ty), c));
    assert_eq!(
        with(prim(P::String), length(Some(1), Some(100))),
        r#"{"type":"string","minLength":1,"maxLength":100}"#
    );
    assert_eq!(
        with(list(prim(P::String)), length(Some(1), None)),
        r#"{"type":"array","items":{"type":"string"},"minItems":1}"#
    );
    assert_eq!(
        with(set(prim(P::U8)), length(None, Some(3))),
        r#"{"type":"array","items":{"type":"integer","minimum":0,"maximum":255},"maxItems":3,"uniqueItems":true}"#
    );
    let pattern = Constraints {
        pattern: Some("^[a-z]+$".into()),
        ..length(Some(2), None)
    };
    assert_eq!(
        with(prim(P::String), pattern),
        r#"{"type":"string","minLength":2,"pattern":"^[a-z]+$"}"#
    );
    let email = Constraints {
        email: true,
        ..Constraints::default()
    };
    assert_eq!(
        with(nullable(prim(P::String)), email),
        r#"{"type":["string","null"],"format":"email"}"#
    );
    let url = Constraints {
        url: true,
        ..Constraints::default()
    };
    assert_eq!(
        with(prim(P::String), url),
        r#"{"type":"string","format":"uri"}"#
    );
}

#[test]
fn defaults_of_each_kind_and_null() {
    let types = vec![enumeration("Units", &["celsius", "fahrenheit"], None)];
    let cases = [
        (
            field("p", prim(P::String)),
            Lit::String("x".into()),
            r#"{"type":"string","default":"x"}"#,
        ),
        (
            field("p", prim(P::U8)),
            Lit::Number(Number::UInt(3)),
            r#"{"type":"integer","minimum":0,"maximum":255,"default":3}"#,
        ),
        (
            field("p", prim(P::F64)),
            Lit::Number(Number::Float(2.5)),
            r#"{"type":"number","default":2.5}"#,
        ),
        (
            field("p", prim(P::Bool)),
            Lit::Bool(false),
            r#"{"type":"boolean","default":false}"#,
        ),
        (
            field("p", prim(P::Char)),
            Lit::Char('x'),
            r#"{"type":"string","minLength":1,"maxLength":1,"default":"x"}"#,
        ),
        (
            field("p", enum_ref("Units")),
            Lit::Enum("celsius".into()),
            r#"{"type":"string","enum":["celsius","fahrenheit"],"default":"celsius"}"#,
        ),
        (
            field("p", nullable(prim(P::String))),
            Lit::Null,
            r#"{"type":["string","null"]}"#,
        ),
    ];
    for (param, value, expected) in cases {
        let model = model(
            types.clone(),
            vec![tool(
                "t",
                vec![with_default(param, value)],
                returns_nothing(),
            )],
        );
        let schema = toolidl_codegen::input_schema(
            &model,
            &model.services[0].members[0],
            &Default::default(),
        )
        .unwrap();
        assert_eq!(schema["properties"]["p"].to_string(), expected);
        assert!(
            schema.get("required").is_none(),
            "a defaulted parameter is optional"
        );
    }
}

fn returns_nothing() -> toolidl::model::Returns {
    toolidl::model::Returns::Nothing
}

#[test]
fn parameterless_tool_and_required_order() {
    let empty = model(vec![], vec![tool("t", vec![], returns_nothing())]);
    let schema =
        toolidl_codegen::input_schema(&empty, &empty.services[0].members[0], &Default::default())
            .unwrap();
    assert_eq!(
        schema.to_string(),
        r#"{"type":"object","properties":{},"additionalProperties":false}"#
    );

    let mut renamed = field("day_of_week", prim(P::String));
    renamed.json_name = "dayOfWeek".into();
    let params = vec![
        field("b", prim(P::String)),
        with_default(field("a", prim(P::String)), Lit::String("x".into())),
        renamed,
        field("n", nullable(prim(P::String))),
    ];
    let m = model(vec![], vec![tool("t", params, returns_nothing())]);
    let schema =
        toolidl_codegen::input_schema(&m, &m.services[0].members[0], &Default::default()).unwrap();
    assert_eq!(
        schema.to_string(),
        r#"{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"string","default":"x"},"dayOfWeek":{"type":"string"},"n":{"type":["string","null"]}},"required":["b","dayOfWeek","n"],"additionalProperties":false}"#
    );
}
