//! Listings the `import_listing` fuzz target (fuzz/) found the import writing a file that
//! does not resolve from (an "internal error"), or overflowing its stack on: each now imports,
//! with a gap where the file says less than the listing. And the sides of an open object
//! (`@open(input)`), whose mistakes would show only as a listing that means more or less.

use serde_json::{Value, json};

use super::{Imported, import};

fn imported(listing: Value) -> Imported {
    match import(&listing, "fuzzed", "Fuzzed") {
        Ok(imported) => imported,
        Err(error) => panic!("{error}"),
    }
}

fn gaps(imported: &Imported) -> Vec<String> {
    imported
        .gaps
        .iter()
        .map(|g| format!("{}: {}", g.at, g.what))
        .collect()
}

fn tool(name: &str) -> Value {
    json!({"name": name, "inputSchema": {"type": "object", "additionalProperties": false}})
}

#[test]
fn a_tool_listed_twice_is_declared_once() {
    // Pages that overlap: the same entry again, left out without a word.
    let same =
        imported(json!([{"tools": [tool("fetch")]}, {"tools": [tool("fetch"), tool("ping")]}]));
    assert_eq!(same.text.matches("tool fetch(").count(), 1, "{}", same.text);
    assert!(same.text.contains("tool ping("), "{}", same.text);
    assert_eq!(gaps(&same), Vec::<String>::new());
    // Another entry under the same name: the first counts, the later is reported.
    let mut other = tool("fetch");
    other["description"] = json!("Another fetch.");
    let differs = imported(json!({"tools": [tool("fetch"), other]}));
    assert_eq!(
        differs.text.matches("tool fetch(").count(),
        1,
        "{}",
        differs.text
    );
    assert_eq!(
        gaps(&differs),
        ["tool `fetch`: listed again, differently: the later entry is left out"]
    );
}

#[test]
fn a_tool_name_the_language_refuses_is_published_as_one_it_accepts() {
    let out = imported(
        json!({"tools": [tool("read_multiple]files"), tool(""), tool("a:b"), tool("a_b")]}),
    );
    assert!(
        out.text.contains("tool read_multiple_files("),
        "{}",
        out.text
    );
    assert!(out.text.contains("tool tool("), "{}", out.text);
    // `a:b` takes `a_b`; the tool really named `a_b` comes second and is renamed.
    assert!(out.text.contains("tool a_b("), "{}", out.text);
    assert!(out.text.contains("tool a_b_2("), "{}", out.text);
    assert_eq!(
        gaps(&out),
        [
            "tool `read_multiple]files`: a name with ']', which a tool name cannot have: published as `read_multiple_files`",
            "tool ``: an empty name, which a tool name cannot have: published as `tool`",
            "tool `a:b`: a name with ':', which a tool name cannot have: published as `a_b`",
            "tool `a_b`: `a_b` names an earlier entry too: published as `a_b_2`",
        ]
    );
}

#[test]
fn tools_whose_names_make_the_same_identifier_are_both_declared() {
    let out = imported(json!({"tools": [tool("foo-bar"), tool("foo_bar")]}));
    assert!(
        out.text.contains("@name(\"foo-bar\")\n    tool foo_bar("),
        "{}",
        out.text
    );
    assert!(
        out.text.contains("@name(\"foo_bar\")\n    tool foo_bar_2("),
        "{}",
        out.text
    );
    assert_eq!(gaps(&out), Vec::<String>::new());
}

#[test]
fn a_type_that_json_schema_does_not_have_is_json() {
    // Was an endless recursion: the one-kind union of `["nVull"]` was that union again.
    let schema = json!({"type": "object", "properties": {"tags": {"type": ["nVull"]}, "n": {"type": ["string", "nope", "null"]}}});
    let out = imported(json!({"tools": [{"name": "t", "inputSchema": schema}]}));
    assert!(out.text.contains("tags?: json"), "{}", out.text);
    assert!(out.text.contains("n?: json"), "{}", out.text);
    assert_eq!(
        gaps(&out),
        [
            "tool `t`, parameter `tags`: `type` `nVull` is no JSON Schema type; imported as `json`",
            "tool `t`, parameter `n`: `type` `nope` is no JSON Schema type; imported as `json`",
        ]
    );
}

#[test]
fn an_array_with_a_length_and_no_items_is_a_list_of_json() {
    let schema = json!({"type": "object", "properties": {
        "a": {"type": "array", "minItems": 1},
        "b": {"type": ["array", "null"], "maxItems": 3},
        "c": {"type": "array"},
    }});
    let out = imported(json!({"tools": [{"name": "t", "inputSchema": schema}]}));
    assert!(
        out.text.contains("@length(min: 1) a?: list<json>"),
        "{}",
        out.text
    );
    assert!(
        out.text.contains("@length(max: 3) b?: list<json>?"),
        "{}",
        out.text
    );
    assert!(out.text.contains("c?: array"), "{}", out.text);
}

#[test]
fn a_resource_uri_the_language_refuses_is_left_out() {
    let out = imported(json!({
        "resources": [{"uri": "no-scheme", "name": "a"}, {"uri": "x://ok", "name": "b"}],
        "resourceTemplates": [{"uriTemplate": "x://}{a", "name": "c"}],
    }));
    assert!(!out.text.contains("resource a("), "{}", out.text);
    assert!(out.text.contains("resource b("), "{}", out.text);
    assert!(!out.text.contains("resource c("), "{}", out.text);
    let gaps = gaps(&out);
    assert_eq!(gaps.len(), 2, "{gaps:?}");
    assert!(
        gaps[0].starts_with("resource `a`: invalid resource URI"),
        "{gaps:?}"
    );
    assert!(
        gaps[1].starts_with("resource `c`: invalid URI template"),
        "{gaps:?}"
    );
}

#[test]
fn resources_of_one_name_are_published_under_distinct_ones() {
    let out = imported(json!({
        "resources": [{"uri": "x://1", "name": "readme"}, {"uri": "x://2", "name": "readme"}],
        "resourceTemplates": [{"uriTemplate": "x://u/{user.id}/{user_id}", "name": "user"}],
    }));
    assert!(out.text.contains("resource readme("), "{}", out.text);
    assert!(out.text.contains("resource readme_2("), "{}", out.text);
    // Template variables whose parameters would have one name.
    assert!(
        out.text.contains("@json_name(\"user.id\") user_id: string"),
        "{}",
        out.text
    );
    assert!(
        out.text
            .contains("@json_name(\"user_id\") user_id_2: string"),
        "{}",
        out.text
    );
    assert_eq!(
        gaps(&out),
        ["resource `readme`: `readme` names an earlier entry too: published as `readme_2`"]
    );
}

#[test]
fn a_prompt_argument_listed_twice_is_declared_once() {
    let out = imported(json!({"prompts": [{"name": "p", "arguments": [
        {"name": "a-b"}, {"name": "a_b"}, {"name": "a-b", "required": true},
    ]}]}));
    assert!(
        out.text.contains("@json_name(\"a-b\") a_b: string?"),
        "{}",
        out.text
    );
    assert!(out.text.contains("a_b_2: string?"), "{}", out.text);
    assert_eq!(
        gaps(&out),
        ["prompt `p`: the argument `a-b` is listed again; the later one is left out"]
    );
}

#[test]
fn a_default_the_language_refuses_is_left_out() {
    let schema = json!({"type": "object", "properties": {
        "start": {"type": "integer", "minimum": 5, "maximum": 9, "default": 0},
        "flag": {"type": "boolean", "default": 20},
        "items": {"type": "array", "default": []},
        "origin": {"type": "object", "default": {"x": 1}},
        "kept": {"type": "integer", "minimum": 5, "maximum": 9, "default": 7},
    }});
    let out = imported(json!({"tools": [{"name": "t", "inputSchema": schema}]}));
    for optional in [
        "start?: ",
        "flag?: bool",
        "items?: array",
        "origin?: object",
    ] {
        assert!(out.text.contains(optional), "{optional}: {}", out.text);
    }
    assert!(out.text.contains("kept: u8 = 7"), "{}", out.text);
    assert_eq!(
        gaps(&out),
        [
            "tool `t`, parameter `start`: the default 0 is not a value of `u8`; left out",
            "tool `t`, parameter `flag`: the default 20 is refused: expected `true` or `false` for `bool`, found an integer; left out",
            "tool `t`, parameter `items`: the default [] is refused: a value of type `array` cannot have a default; left out",
            "tool `t`, parameter `origin`: the default {\"x\":1} is refused: a value of type `object` cannot have a default; left out",
        ]
    );
}

#[test]
fn a_pattern_the_language_refuses_is_left_out() {
    let schema = json!({"type": "object", "properties": {
        "wait": {"type": "string", "pattern": "^(\\.\\d{1,7})?+$"},
        "code": {"type": "string", "pattern": "^[A-Z]{3}$"},
        // Valid only without the `u` flag (a lone brace): rewritten, not left out.
        "late": {"type": "string", "pattern": "^(\\.\\d{1,7!})?$"},
    }});
    let out = imported(json!({"tools": [{"name": "t", "inputSchema": schema}]}));
    assert!(out.text.contains("wait?: string"), "{}", out.text);
    assert!(
        out.text.contains("@pattern(\"^[A-Z]{3}$\") code?: string"),
        "{}",
        out.text
    );
    assert!(
        out.text
            .contains("@pattern(\"^(\\\\.\\\\d\\\\{1,7!\\\\})?$\") late?: string"),
        "{}",
        out.text
    );
    assert_eq!(
        gaps(&out),
        [
            "tool `t`, parameter `wait`: invalid regular expression: Invalid atom character, which the language does not accept; `pattern` left out"
        ]
    );
}

#[test]
fn an_enum_value_listed_twice_is_one_member() {
    let schema =
        json!({"type": "object", "properties": {"priority": {"enum": ["high", "low", "high"]}}});
    let out = imported(json!({"tools": [{"name": "t", "inputSchema": schema}]}));
    assert!(
        out.text.contains("enum Priority { high, low }"),
        "{}",
        out.text
    );
    assert_eq!(gaps(&out), Vec::<String>::new());
}

#[test]
fn a_union_whose_variants_contain_it_again_is_json() {
    // `anyOf` of the record holding it and a type JSON Schema does not have: a union whose
    // variant holds the union again, which the language refuses (E0902).
    let member = json!({
        "type": "object",
        "properties": {
            "mentor": {"anyOf": [{"$ref": "#/$defs/Member"}, {"type": "nuidempotentll"}]},
        },
        "required": ["mentor"],
        "additionalProperties": false,
    });
    let listing = json!({"tools": [{
        "name": "find",
        "inputSchema": {
            "type": "object",
            "properties": {"member": {"$ref": "#/$defs/Member"}},
            "required": ["member"],
            "additionalProperties": false,
            "$defs": {"Member": member},
        },
    }]});
    let imported = imported(listing);
    assert!(
        imported.text.contains("    mentor: json,\n"),
        "{}",
        imported.text
    );
    assert!(!imported.text.contains("union "), "{}", imported.text);
    assert!(
        gaps(&imported)
            .iter()
            .any(|g| g.contains("no recursive unions")),
        "{:?}",
        gaps(&imported)
    );
}

#[test]
fn a_union_whose_variant_record_leads_back_to_it_is_json_and_others_stay_unions() {
    // `Doc.part` is a record holding a `Doc` or a string: the union's variant leads back to
    // the record holding the union. The sibling parameter's union of plain kinds is kept.
    let doc = json!({
        "type": "object",
        "properties": {
            "part": {"anyOf": [
                {
                    "type": "object",
                    "properties": {"doc": {"$ref": "#/$defs/Doc"}},
                    "required": ["doc"],
                    "additionalProperties": false,
                },
                {"type": "string"},
            ]},
        },
        "required": ["part"],
        "additionalProperties": false,
    });
    let listing = json!({"tools": [{
        "name": "walk",
        "inputSchema": {
            "type": "object",
            "properties": {
                "doc": {"$ref": "#/$defs/Doc"},
                "label": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
            },
            "required": ["doc", "label"],
            "additionalProperties": false,
            "$defs": {"Doc": doc},
        },
    }]});
    let imported = imported(listing);
    assert!(
        imported.text.contains("    part: json,\n"),
        "{}",
        imported.text
    );
    assert_eq!(
        imported.text.matches("union ").count(),
        1,
        "{}",
        imported.text
    );
    assert!(imported.text.contains("union Label {"), "{}", imported.text);
}

#[test]
fn bounds_no_value_fits_are_left_out() {
    // Each schema accepts no value at all; the language refuses such bounds (E0602), so the
    // import leaves them out (the file accepts more) and says so.
    let properties = json!({
        "text": {"type": "string", "minLength": 2, "maxLength": 1},
        "items": {"type": "array", "items": {"type": "string"}, "minItems": 3, "maxItems": 1},
        "count": {"type": "integer", "minimum": 5, "maximum": 3},
        "open_count": {"type": "integer", "exclusiveMinimum": 5, "exclusiveMaximum": 6},
        "ratio": {"type": "number", "minimum": 2, "maximum": 1.5},
        "point": {"type": "number", "exclusiveMinimum": 1, "maximum": 1},
    });
    let names: Vec<String> = properties
        .as_object()
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default();
    let listing = json!({"tools": [{
        "name": "bounded",
        "inputSchema": {
            "type": "object",
            "properties": properties,
            "required": names,
            "additionalProperties": false,
        },
    }]});
    let imported = imported(listing);
    for line in [
        "text: string,",
        "items: list<string>,",
        "count: integer,",
        "open_count: integer,",
        "ratio: f64,",
        "point: f64,",
    ] {
        assert!(imported.text.contains(line), "{line}\n{}", imported.text);
    }
    assert_eq!(gaps(&imported).len(), 6, "{:#?}", gaps(&imported));
}

#[test]
fn a_ui_link_the_language_refuses_is_cut_to_what_it_accepts() {
    let with_ui = |name: &str, ui: Value| {
        let mut t = tool(name);
        t["_meta"] = json!({"ui": ui});
        t
    };
    let imported = imported(json!({"tools": [
        with_ui("odd", json!({"resourceUri": "ui://app/view.html", "visibility": ["monel", "app", "app", 3]})),
        with_ui("none", json!({"resourceUri": "ui://app/view.html", "visibility": ["modle"]})),
        with_ui("web", json!({"resourceUri": "https://example.com/view.html"})),
    ]}));
    assert!(
        imported
            .text
            .contains("@ui(\"ui://app/view.html\", visibility: [\"app\"])\n    tool odd("),
        "{}",
        imported.text
    );
    assert!(
        imported
            .text
            .contains("@ui(\"ui://app/view.html\")\n    tool none("),
        "{}",
        imported.text
    );
    assert_eq!(
        imported.text.matches("@ui(").count(),
        2,
        "{}",
        imported.text
    );
    assert_eq!(gaps(&imported).len(), 5, "{:#?}", gaps(&imported));
}

#[test]
fn a_resource_uri_listed_again_is_published_once() {
    let cover = |mime: &str| json!({"uri": "library://cover", "name": "cover", "mimeType": mime});
    let imported = imported(json!({
        "resources": [cover("image/png"), cover("image/png"), cover("image/jpeg"),
            {"uri": "library://cover", "name": "front", "mimeType": "image/png"}],
    }));
    assert_eq!(
        imported.text.matches("resource ").count(),
        1,
        "{}",
        imported.text
    );
    assert!(
        imported.text.contains("@mime(\"image/png\")"),
        "{}",
        imported.text
    );
    assert_eq!(gaps(&imported).len(), 2, "{:#?}", gaps(&imported));
}

#[test]
fn a_property_with_an_empty_name_is_left_out_and_the_object_opened() {
    let object = json!({
        "type": "object",
        "properties": {"": {"type": "string"}, "x": {"type": "string"}},
        "required": ["", "x"],
        "additionalProperties": false,
    });
    let imported = imported(json!({"tools": [{
        "name": "draw",
        "inputSchema": {
            "type": "object",
            "properties": {"origin": object, "": {"type": "string"}},
            "additionalProperties": false,
        },
    }]}));
    assert!(
        !imported.text.contains("@json_name(\"\")"),
        "{}",
        imported.text
    );
    assert!(
        imported.text.contains("@open\nrecord Origin {"),
        "{}",
        imported.text
    );
    assert!(
        imported.text.contains("@open\n    tool draw("),
        "{}",
        imported.text
    );
    assert_eq!(gaps(&imported).len(), 2, "{:#?}", gaps(&imported));
}

/// An object schema that takes unknown members in an input schema and the same object closed
/// in an output schema: one `@open(input)` record serves both.
#[test]
fn an_object_open_on_input_and_closed_on_output_is_one_open_input_record() {
    let entity = |closed: bool| {
        let mut schema = json!({
            "type": "object",
            "properties": {"name": {"type": "string"}, "tags": {"type": "array", "items": {"type": "string"}}},
            "required": ["name"],
        });
        if closed {
            schema["additionalProperties"] = json!(false);
        }
        schema
    };
    let imported = imported(json!({"tools": [{
        "name": "save",
        "inputSchema": {"type": "object", "properties": {"entity": entity(false)}, "required": ["entity"]},
        "outputSchema": {
            "type": "object",
            "properties": {"saved": entity(true)},
            "required": ["saved"],
            "additionalProperties": false,
        },
    }]}));
    let text = &imported.text;
    assert_eq!(text.matches("record Entity").count(), 1, "{text}");
    for used in ["@open(input)\nrecord Entity {", "    saved: Entity,"] {
        assert!(text.contains(used), "{used}\n{text}");
    }
    assert!(gaps(&imported).is_empty(), "{:#?}", gaps(&imported));
}

/// Open in both schemas: the output's record keeps what it does not declare (`@open`), so it
/// is not the input's `@open(input)` one; closed in the input: a closed record, never opened.
#[test]
fn an_object_open_on_output_or_closed_on_input_keeps_its_own_record() {
    let entity = json!({"type": "object", "properties": {"name": {"type": "string"}}});
    let imported = imported(json!({"tools": [{
        "name": "save",
        "inputSchema": {"type": "object", "properties": {"entity": entity}},
        "outputSchema": {"type": "object", "properties": {"saved": entity}},
    }, {
        "name": "load",
        "inputSchema": {"type": "object", "properties": {
            "entity": {"type": "object", "properties": {"name": {"type": "string"}}, "additionalProperties": false},
        }},
    }]}));
    for declaration in [
        "@open(input)\nrecord Entity {\n    name?: string,\n}",
        "@open\nrecord Saved {\n    name?: string,\n}",
        "\n\nrecord LoadEntity {\n    name?: string,\n}",
    ] {
        assert!(
            imported.text.contains(declaration),
            "{declaration}\n{}",
            imported.text
        );
    }
}
