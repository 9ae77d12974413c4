use super::*;
use serde_json::{Value, json};

#[test]
fn names() {
    assert_eq!(
        published_name("forecast.daily", Profile::Claude),
        "forecast_daily"
    );
    assert_eq!(
        published_name("forecast.daily", Profile::Standard),
        "forecast.daily"
    );
    assert_eq!(published_name("9lives", Profile::Gemini), "_9lives");
    assert_eq!(published_name(&"a".repeat(70), Profile::Claude).len(), 64);
    assert!(portable_name("get-weather_2"));
    assert!(!portable_name("a.b"));
}

#[test]
fn openai_makes_everything_required_and_moves_keywords() {
    let schema = json!({
        "type": "object",
        "properties": {
            "city": {"type": "string", "minLength": 1, "format": "uri"},
            "days": {"type": "integer", "default": 3}
        },
        "required": ["city"],
        "additionalProperties": false
    });
    let out = publish_schema(&schema, Profile::OpenAiStrict);
    assert_eq!(
        out,
        json!({
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "Format: uri. Length at least 1."},
                "days": {"type": "integer", "description": "Default: 3."}
            },
            "required": ["city", "days"],
            "additionalProperties": false
        })
    );
}

#[test]
fn openai_keeps_optional_parameters_omittable_and_maps_usable() {
    let schema = json!({
        "type": "object",
        "properties": {
            "since": {"type": "string", "format": "date"},
            "order": {"type": "string", "enum": ["asc", "desc"]},
            "window": {"$ref": "#/$defs/Window", "description": "W."},
            "tail": {"type": ["integer", "null"]},
            "labels": {"type": "object", "additionalProperties": {"type": "string", "maxLength": 9}, "maxProperties": 4},
            "meta": {"type": ["object", "null"], "additionalProperties": {"type": "string"}, "default": null}
        },
        "required": [],
        "additionalProperties": false,
        "$defs": {"Window": {"type": "object", "properties": {"head": {"type": "integer"}}, "additionalProperties": false}}
    });
    let out = publish_schema(&schema, Profile::OpenAiStrict);
    let entries = |value: Value| {
        json!({
            "type": "object",
            "properties": {"key": {"type": "string"}, "value": value},
            "required": ["key", "value"],
            "additionalProperties": false
        })
    };
    assert_eq!(
        out["properties"],
        json!({
            "since": {"type": ["string", "null"], "format": "date", "description": "Null leaves it out."},
            "order": {"type": ["string", "null"], "enum": ["asc", "desc", null], "description": "Null leaves it out."},
            "window": {"anyOf": [{"$ref": "#/$defs/Window"}, {"type": "null"}], "description": "W. Null leaves it out."},
            "tail": {"type": ["integer", "null"]},
            "labels": {
                "type": ["array", "null"],
                "items": entries(json!({"type": "string", "description": "Length at most 9."})),
                "maxItems": 4,
                "description": "A list of {key, value} entries, each key once. Null leaves it out."
            },
            "meta": {
                "type": ["array", "null"],
                "items": entries(json!({"type": "string"})),
                "description": "A list of {key, value} entries, each key once. Default: null."
            }
        })
    );
    assert_eq!(
        out["required"],
        json!(["since", "order", "window", "tail", "labels", "meta"])
    );
    assert_eq!(
        out["$defs"]["Window"]["properties"]["head"],
        json!({"type": ["integer", "null"], "description": "Null leaves it out."})
    );
}

/// `a?: string`, `m: map<string, string>`, `t?: i64?`, `o: object`, `e: Empty` (an empty
/// closed record), as the standard listing writes them.
fn narrowing_standard() -> Value {
    json!({
        "type": "object",
        "properties": {
            "a": {"type": "string"},
            "m": {"type": "object", "additionalProperties": {"type": "string"}},
            "t": {"type": ["integer", "null"]},
            "o": {"type": "object"},
            "e": {"$ref": "#/$defs/Empty"}
        },
        "required": ["m", "o", "e"],
        "additionalProperties": false,
        "$defs": {"Empty": {"type": "object", "properties": {}, "additionalProperties": false}}
    })
}

fn found(standard: &Value, published: &Value, profile: Profile) -> Vec<(&'static str, String)> {
    let entry = |schema: &Value| json!({"name": "t", "inputSchema": schema});
    narrowing(&entry(standard), &entry(published), profile)
        .into_iter()
        .inspect(|f| assert_eq!(f.severity, Severity::Error))
        .map(|f| (f.code, f.pointer))
        .collect()
}

#[test]
fn narrowing_flags_the_old_openai_shapes() {
    // What openai-strict published before optional parameters took `null` and maps
    // became entries.
    let old = json!({
        "type": "object",
        "properties": {
            "a": {"type": "string"},
            "m": {"type": "object", "additionalProperties": false},
            "t": {"type": ["integer", "null"]},
            "o": {"type": "object", "additionalProperties": false},
            "e": {"$ref": "#/$defs/Empty"}
        },
        "required": ["a", "m", "t", "o", "e"],
        "additionalProperties": false,
        "$defs": {"Empty": {"type": "object", "properties": {}, "additionalProperties": false}}
    });
    let standard = narrowing_standard();
    assert_eq!(
        found(&standard, &old, Profile::OpenAiStrict),
        [
            ("L0315", "/inputSchema/properties/a".to_owned()),
            ("L0314", "/inputSchema/properties/m".to_owned()),
            ("L0315", "/inputSchema/properties/t".to_owned()),
            ("L0314", "/inputSchema/properties/o".to_owned()),
        ]
    );
    // The standard listing is its own variant.
    assert!(found(&standard, &old, Profile::Standard).is_empty());
}

#[test]
fn narrowing_flags_only_what_the_new_variants_narrow() {
    let standard = narrowing_standard();
    let openai = publish_schema(&standard, Profile::OpenAiStrict);
    assert_eq!(
        found(&standard, &openai, Profile::OpenAiStrict),
        [
            ("L0315", "/inputSchema/properties/t".to_owned()),
            ("L0314", "/inputSchema/properties/o".to_owned()),
        ]
    );
    for profile in [Profile::Claude, Profile::Gemini] {
        let published = publish_schema(&standard, profile);
        assert!(
            found(&standard, &published, profile).is_empty(),
            "{profile}"
        );
    }
}

#[test]
fn narrowing_follows_refs_maps_and_wrappers() {
    // A record in `$defs` (recursive) with an optional field, reached through a map's
    // values and a nullable wrapper; the variant keeps `b` required without `null`.
    let standard = json!({
        "type": "object",
        "properties": {
            "m": {"type": "object", "additionalProperties": {"$ref": "#/$defs/R"}},
            "r": {"anyOf": [{"$ref": "#/$defs/R"}, {"type": "null"}]}
        },
        "required": ["m", "r"],
        "additionalProperties": false,
        "$defs": {"R": {
            "type": "object",
            "properties": {"b": {"type": "string"}, "next": {"$ref": "#/$defs/R"}},
            "required": ["next"],
            "additionalProperties": false
        }}
    });
    let mut published = publish_schema(&standard, Profile::OpenAiStrict);
    published["$defs"]["R"]["properties"]["b"] = json!({"type": "string"});
    assert_eq!(
        found(&standard, &published, Profile::OpenAiStrict),
        [("L0315", "/inputSchema/$defs/R/properties/b".to_owned())]
    );
    // Gemini writes `$ref` out and says `nullable`.
    let mut gemini = publish_schema(&standard, Profile::Gemini);
    assert!(found(&standard, &gemini, Profile::Gemini).is_empty());
    gemini["properties"]["r"]["anyOf"][0]["required"] = json!(["b", "next"]);
    assert_eq!(
        found(&standard, &gemini, Profile::Gemini),
        [(
            "L0315",
            "/inputSchema/properties/r/anyOf/0/properties/b".to_owned()
        )]
    );
}

#[test]
fn narrowing_reads_json_as_taking_null() {
    // `j?: json`: `{}` already takes `null` (a JSON value), so the variant's `null`
    // cannot say "left out".
    let standard = json!({
        "type": "object",
        "properties": {"j": {}},
        "required": [],
        "additionalProperties": false
    });
    let openai = publish_schema(&standard, Profile::OpenAiStrict);
    assert_eq!(
        found(&standard, &openai, Profile::OpenAiStrict),
        [("L0315", "/inputSchema/properties/j".to_owned())]
    );
}

#[test]
fn gemini_writes_nullable_and_inlines_refs() {
    let schema = json!({
        "type": "object",
        "properties": {
            "n": {"type": ["integer", "null"], "description": "N."},
            "node": {"$ref": "#/$defs/Node"}
        },
        "required": ["n"],
        "additionalProperties": false,
        "$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}, "additionalProperties": false}}
    });
    let out = publish_schema(&schema, Profile::Gemini);
    assert_eq!(
        out["properties"]["n"],
        json!({"type": "integer", "nullable": true, "description": "N."})
    );
    assert!(out.get("$defs").is_none() && out.get("additionalProperties").is_none());
    let mut node = &out["properties"]["node"];
    for _ in 0..GEMINI_RECURSION_DEPTH - 1 {
        node = &node["properties"]["next"];
    }
    assert_eq!(
        node["properties"]["next"]["description"],
        "A Node (nested too deep to describe here)."
    );
    assert!(
        lint(
            &json!({"name": "t", "description": "d", "inputSchema": out}),
            Profile::Gemini
        )
        .iter()
        .all(|f| f.severity == Severity::Warning)
    );
}

#[test]
fn a_union_of_a_list_and_a_map_is_ambiguous_where_maps_are_entries() {
    let union = |first: Value, second: Value| {
        json!({
            "type": "object",
            "properties": {"u": {"anyOf": [first, second]}},
            "required": ["u"],
            "additionalProperties": false
        })
    };
    let list = json!({"type": "array", "items": {"type": "string"}});
    let map = json!({"type": "object", "additionalProperties": {"type": "integer"}});
    for (standard, at) in [
        (
            union(list.clone(), map.clone()),
            "/inputSchema/properties/u/anyOf/1",
        ),
        (
            union(map.clone(), list.clone()),
            "/inputSchema/properties/u/anyOf/1",
        ),
    ] {
        let openai = publish_schema(&standard, Profile::OpenAiStrict);
        assert_eq!(
            found(&standard, &openai, Profile::OpenAiStrict),
            [("L0316", at.to_owned())],
            "{openai}"
        );
        // Where the map stays an object, `[]` and `{}` still tell the variants apart.
        assert!(found(&standard, &standard, Profile::Claude).is_empty());
    }
    // Two lists, or a list and a record, were told apart (or not) by the standard listing
    // already: nothing the variant changes.
    let record = json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": false});
    for standard in [union(list.clone(), list.clone()), union(list, record)] {
        let openai = publish_schema(&standard, Profile::OpenAiStrict);
        assert!(
            found(&standard, &openai, Profile::OpenAiStrict).is_empty(),
            "{openai}"
        );
    }
}
