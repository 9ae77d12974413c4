//! Every combination of type, wrapper and constraint gives a valid 2020-12 schema whose
//! objects list their keywords in the contract's order.

use crate::common;

use common::*;
use serde_json::Value;
use toolidl::model::{Bounds, Constraints, Number, Primitive as P, Returns, Type, Value as Lit};
use toolidl_codegen::{SchemaOptions, input_schema, output_schema};

const ORDER: &[&str] = &[
    "type",
    "format",
    "description",
    "enum",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "pattern",
    "contentEncoding",
    "items",
    "minItems",
    "maxItems",
    "uniqueItems",
    "properties",
    "required",
    "additionalProperties",
    "default",
    "anyOf",
    "$ref",
    "$defs",
];

/// Fails unless every schema object under `schema` writes known keywords in `ORDER`.
fn assert_keyword_order(schema: &Value, path: &str) {
    let Some(object) = schema.as_object() else {
        return;
    };
    let mut last = 0;
    for (key, value) in object {
        let Some(position) = ORDER.iter().position(|k| k == key) else {
            panic!("{path}: unexpected keyword {key} in {schema}");
        };
        assert!(position >= last, "{path}: {key} out of order in {schema}");
        last = position;
        match key.as_str() {
            "items" | "additionalProperties" => {
                assert_keyword_order(value, &format!("{path}/{key}"))
            }
            "properties" | "$defs" => {
                for (name, sub) in value.as_object().unwrap() {
                    assert_keyword_order(sub, &format!("{path}/{key}/{name}"));
                }
            }
            "anyOf" => {
                for (i, sub) in value.as_array().unwrap().iter().enumerate() {
                    assert_keyword_order(sub, &format!("{path}/anyOf/{i}"));
                }
            }
            _ => {}
        }
    }
    if path.contains('/') {
        assert!(
            !object.contains_key("$defs"),
            "{path}: $defs below the root"
        );
    }
}

const PRIMITIVES: [P; 23] = [
    P::Bool,
    P::I8,
    P::I16,
    P::I32,
    P::I64,
    P::U8,
    P::U16,
    P::U32,
    P::U64,
    P::F32,
    P::F64,
    P::String,
    P::Char,
    P::Uuid,
    P::Datetime,
    P::Date,
    P::Time,
    P::Duration,
    P::Uri,
    P::Bytes,
    P::Json,
    P::Object,
    P::Array,
];

fn wrappers(base: Type) -> Vec<Type> {
    vec![
        base.clone(),
        nullable(base.clone()),
        list(base.clone()),
        set(base.clone()),
        map(base.clone()),
        list(nullable(base.clone())),
        nullable(list(base.clone())),
        nullable(set(base.clone())),
        nullable(map(nullable(base.clone()))),
        map(list(base)),
    ]
}

/// The constraints that apply to `ty` (after `?`), all at once.
fn constraints_for(ty: &Type) -> Constraints {
    let base = match ty {
        Type::Nullable { inner } => inner.as_ref(),
        other => other,
    };
    match base {
        Type::Primitive {
            name: P::I8 | P::I16 | P::I32 | P::I64 | P::U8 | P::U16 | P::U32 | P::U64,
        } => Constraints {
            range: Some(Bounds {
                min: Some(Number::UInt(1)),
                max: Some(Number::UInt(100)),
            }),
            ..Constraints::default()
        },
        Type::Primitive {
            name: P::F32 | P::F64,
        } => Constraints {
            range: Some(Bounds {
                min: Some(Number::Float(-1.5)),
                max: None,
            }),
            ..Constraints::default()
        },
        Type::Primitive { name: P::String } => Constraints {
            length: Some(Bounds {
                min: Some(1),
                max: Some(9),
            }),
            pattern: Some("^a".into()),
            email: true,
            ..Constraints::default()
        },
        Type::List { .. } | Type::Set { .. } => Constraints {
            length: Some(Bounds {
                min: Some(0),
                max: Some(4),
            }),
            ..Constraints::default()
        },
        _ => Constraints::default(),
    }
}

fn types() -> Vec<toolidl::model::TypeDef> {
    let mut node = record(
        "Node",
        vec![
            field("next", nullable(record_ref("Node"))),
            field("kids", map(list(record_ref("Node")))),
        ],
    );
    if let toolidl::model::TypeDef::Record(r) = &mut node {
        r.description = Some("A node.".into());
    }
    vec![
        enumeration("Colour", &["red", "green"], Some("A colour.")),
        record("Point", vec![field("x", prim(P::F64))]),
        node,
    ]
}

#[test]
fn every_combination_is_a_valid_schema_in_keyword_order() {
    let mut bases: Vec<Type> = PRIMITIVES.iter().map(|p| prim(*p)).collect();
    bases.extend([enum_ref("Colour"), record_ref("Point"), record_ref("Node")]);
    let mut checked = 0;
    for base in bases {
        for ty in wrappers(base) {
            let constraints = constraints_for(&ty);
            let param = described(
                constrained(field("p", ty.clone()), constraints),
                "A parameter.",
            );
            let optional = with_default(field("q", ty.clone()), Lit::Null);
            let m = model(
                types(),
                vec![tool(
                    "t",
                    vec![param, optional],
                    Returns::Value { ty: ty.clone() },
                )],
            );
            let t = &m.services[0].members[0];
            for options in [
                SchemaOptions::default(),
                SchemaOptions { hoist_shared: true },
            ] {
                let input = input_schema(&m, t, &options).unwrap();
                assert_valid_schema(&input);
                assert_keyword_order(&input, "");
                if let Some(output) = output_schema(&m, t, &options).unwrap() {
                    assert_valid_schema(&output);
                    assert_keyword_order(&output, "");
                    assert_eq!(output["type"], "object", "{ty:?}");
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 26 * 10 * 2);
}
