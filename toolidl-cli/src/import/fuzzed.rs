//! Listings the `import_listing` fuzz target (fuzz/) found the import writing a file that
//! does not resolve from (an "internal error"), or overflowing its stack on: each now imports,
//! with a gap where the file says less than the listing.

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
        "wait": {"type": "string", "pattern": "^(\\.\\d{1,7!})?$"},
        "code": {"type": "string", "pattern": "^[A-Z]{3}$"},
    }});
    let out = imported(json!({"tools": [{"name": "t", "inputSchema": schema}]}));
    assert!(out.text.contains("wait?: string"), "{}", out.text);
    assert!(
        out.text.contains("@pattern(\"^[A-Z]{3}$\") code?: string"),
        "{}",
        out.text
    );
    assert_eq!(
        gaps(&out),
        [
            "tool `t`, parameter `wait`: invalid regular expression: Invalid quantifier, which the language does not accept; `pattern` left out"
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
