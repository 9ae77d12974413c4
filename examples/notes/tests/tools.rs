//! Every tool, resource, prompt and completion of the real server over stdio, with good
//! and bad arguments.

mod common;

use common::{Client, text, titles};
use serde_json::{Value, json};

fn tag_pattern_error(path: &str) -> String {
    format!(
        "Argument '{path}' is not valid. Expected a string matching the pattern '^[a-z0-9_-]+$'."
    )
}

#[test]
fn create_and_get() {
    let mut c = Client::start(&[]);
    let note = c.ok(
        "create_note",
        json!({"title": "Plan", "body": "Step 1", "tags": ["work", "q3"], "priority": "urgent", "due": "2026-09-30", "metadata": {"owner": "ada"}}),
    );
    assert_eq!(note["id"], 1);
    assert_eq!(note["tags"], json!(["q3", "work"]), "sorted");
    assert_eq!(note["priority"], "urgent");
    assert_eq!(note["due"], "2026-09-30");
    assert_eq!(note["metadata"], json!({"owner": "ada"}));
    assert_eq!(note["createdAt"], note["updatedAt"]);
    let created = note["createdAt"].as_str().expect("text");
    assert!(
        created.len() == 24 && created.ends_with('Z') && created.as_bytes()[10] == b'T',
        "{created}"
    );

    // Defaults: no body, no tags, normal priority, no due date, no metadata.
    let bare = c.ok("create_note", json!({"title": "Bare"}));
    assert_eq!(bare["id"], 2);
    assert_eq!(bare["body"], "");
    assert_eq!(bare["tags"], json!([]));
    assert_eq!(bare["priority"], "normal");
    assert_eq!(bare["due"], Value::Null);
    assert_eq!(bare["metadata"], json!({}));

    let got = c.call("get_note", json!({"id": 1}));
    assert_eq!(got["structuredContent"], note);
    // Structured content and the same JSON as text.
    assert_eq!(
        serde_json::from_str::<Value>(text(&got)).expect("JSON text"),
        note
    );

    for (args, error) in [
        (
            json!({}),
            "Argument 'title' is not valid. A value is required.",
        ),
        (
            json!({"title": ""}),
            "Argument 'title' is not valid. Expected at least 1 character.",
        ),
        (
            json!({"title": "x".repeat(201)}),
            "Argument 'title' is not valid. Expected at most 200 characters.",
        ),
        (
            json!({"title": "t", "priority": "meh"}),
            "Argument 'priority' is not valid. Expected one of: low, normal, high, urgent.",
        ),
        (
            json!({"title": "t", "due": "2026-02-30"}),
            "Argument 'due' is not valid. Expected a date (YYYY-MM-DD).",
        ),
        (
            json!({"title": "t", "tags": ["a", "a"]}),
            "Argument 'tags[1]' is not valid. Duplicate item.",
        ),
        (
            json!({"title": "t", "tags": ["ok", "Not OK"]}),
            &tag_pattern_error("tags[1]"),
        ),
        (
            json!({"title": "t", "tags": ["x".repeat(33)]}),
            "Argument 'tags[0]' is not valid. Expected at most 32 characters.",
        ),
        (
            json!({"title": "t", "tags": [""]}),
            "Argument 'tags[0]' is not valid. Expected at least 1 character.",
        ),
        (
            json!({"title": "t", "metadata": {"k": 1}}),
            "Argument 'metadata[\"k\"]' is not valid. Expected a string.",
        ),
        (
            json!({"title": "t", "colour": "red"}),
            "Argument 'colour' is not valid. Unknown property.",
        ),
    ] {
        assert_eq!(c.fails("create_note", args.clone()), error, "{args}");
    }
    for (args, error) in [
        (json!({"id": 3}), "No note with id 3."),
        (
            json!({"id": 0}),
            "Argument 'id' is not valid. Expected a value from 1 to 9007199254740991.",
        ),
        (
            json!({"id": "1"}),
            "Argument 'id' is not valid. Expected an integer.",
        ),
    ] {
        assert_eq!(c.fails("get_note", args.clone()), error, "{args}");
    }
    // Nothing the failed calls did was stored.
    assert_eq!(
        c.ok("search_notes", json!({}))["notes"]
            .as_array()
            .map(Vec::len),
        Some(2)
    );
    assert!(c.finish().success());
}

#[test]
fn update_and_delete() {
    let mut c = Client::start(&[]);
    let note = c.ok(
        "create_note",
        json!({"title": "Draft", "body": "b", "tags": ["a"], "due": "2026-01-01", "metadata": {"k": "v"}}),
    );
    // Only the given fields change.
    let changed = c.ok(
        "update_note",
        json!({"id": 1, "title": "Final", "tags": ["b", "c"]}),
    );
    assert_eq!(changed["title"], "Final");
    assert_eq!(changed["body"], "b");
    assert_eq!(changed["tags"], json!(["b", "c"]));
    assert_eq!(changed["due"], "2026-01-01");
    assert_eq!(changed["metadata"], json!({"k": "v"}));
    assert_eq!(changed["createdAt"], note["createdAt"]);
    assert!(changed["updatedAt"].as_str() >= note["updatedAt"].as_str());

    let changed = c.ok(
        "update_note",
        json!({"id": 1, "clear_due": true, "priority": "low", "metadata": {}}),
    );
    assert_eq!(changed["due"], Value::Null);
    assert_eq!(changed["priority"], "low");
    assert_eq!(changed["metadata"], json!({}));
    let changed = c.ok(
        "update_note",
        json!({"id": 1, "due": "2027-03-04", "tags": []}),
    );
    assert_eq!(changed["due"], "2027-03-04");
    assert_eq!(changed["tags"], json!([]));

    for (args, error) in [
        (json!({"id": 9, "title": "x"}), "No note with id 9."),
        (
            json!({"id": 1, "title": ""}),
            "Argument 'title' is not valid. Expected at least 1 character.",
        ),
        (
            json!({"id": 1, "due": "2026-01-01", "clear_due": true}),
            "Argument 'clear_due' is not valid. Give either due or clear_due, not both.",
        ),
        (
            json!({"id": 1, "tags": ["UPPER"]}),
            &tag_pattern_error("tags[0]"),
        ),
        (
            json!({"title": "x"}),
            "Argument 'id' is not valid. A value is required.",
        ),
    ] {
        assert_eq!(c.fails("update_note", args.clone()), error, "{args}");
    }
    assert_eq!(c.ok("get_note", json!({"id": 1}))["title"], "Final");

    let deleted = c.ok("delete_note", json!({"id": 1}));
    assert_eq!(deleted["title"], "Final");
    assert_eq!(
        c.fails("delete_note", json!({"id": 1})),
        "No note with id 1."
    );
    assert_eq!(c.fails("get_note", json!({"id": 1})), "No note with id 1.");
    assert_eq!(
        c.fails("delete_note", json!({"id": -1})),
        "Argument 'id' is not valid. Expected a value from 1 to 9007199254740991."
    );
    // A deleted id is never given again.
    assert_eq!(c.ok("create_note", json!({"title": "next"}))["id"], 2);
    assert!(c.finish().success());
}

#[test]
fn search_pages_with_a_cursor_and_filters() {
    let mut c = Client::start(&[]);
    for i in 1..=25 {
        let tags = if i % 2 == 0 {
            json!(["even"])
        } else {
            json!(["odd"])
        };
        let priority = if i % 5 == 0 { "high" } else { "normal" };
        c.ok(
            "create_note",
            json!({"title": format!("note {i}"), "body": format!("body {i} 100%"), "tags": tags, "priority": priority}),
        );
    }
    // Every note once, newest first, in pages of 10.
    let mut ids = Vec::new();
    let mut cursor: Option<String> = None;
    let mut pages = 0;
    loop {
        let mut args = json!({"limit": 10});
        if let Some(c) = &cursor {
            args["cursor"] = json!(c);
        }
        let page = c.ok("search_notes", args);
        pages += 1;
        for n in page["notes"].as_array().expect("notes") {
            ids.push(n["id"].as_i64().expect("id"));
        }
        match page["nextCursor"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => break,
        }
    }
    assert_eq!(pages, 3);
    assert_eq!(ids, (1..=25).rev().collect::<Vec<i64>>());

    let page = c.ok("search_notes", json!({"query": "NOTE 1", "tag": "odd"}));
    assert_eq!(
        titles(&page),
        [
            "note 19", "note 17", "note 15", "note 13", "note 11", "note 1"
        ]
    );
    let page = c.ok("search_notes", json!({"priority": "high", "tag": "even"}));
    assert_eq!(titles(&page), ["note 20", "note 10"]);
    // LIKE wildcards are literal: `%` matches only a percent sign.
    let count = |c: &mut Client, query: &str| {
        c.ok("search_notes", json!({"query": query, "limit": 100}))["notes"]
            .as_array()
            .map(Vec::len)
    };
    assert_eq!(count(&mut c, "y 5 100%"), Some(1));
    assert_eq!(count(&mut c, "0%"), Some(25));
    assert_eq!(count(&mut c, "1%0"), Some(0), "a wildcard would match");
    assert_eq!(
        c.ok("search_notes", json!({"query": "_"}))["notes"],
        json!([])
    );
    assert_eq!(
        c.ok("search_notes", json!({"tag": "none"}))["notes"],
        json!([])
    );

    for (args, error) in [
        (
            json!({"limit": 0}),
            "Argument 'limit' is not valid. Expected a value from 1 to 100.",
        ),
        (
            json!({"limit": 101}),
            "Argument 'limit' is not valid. Expected a value from 1 to 100.",
        ),
        (
            json!({"cursor": "abc"}),
            "Argument 'cursor' is not valid. Expected the nextCursor of an earlier page.",
        ),
        (
            json!({"cursor": "before:-3"}),
            "Argument 'cursor' is not valid. Expected the nextCursor of an earlier page.",
        ),
        (json!({"tag": "Bad Tag"}), &tag_pattern_error("tag")),
        (
            json!({"priority": "none"}),
            "Argument 'priority' is not valid. Expected one of: low, normal, high, urgent.",
        ),
    ] {
        assert_eq!(c.fails("search_notes", args.clone()), error, "{args}");
    }
    assert!(c.finish().success());
}

#[test]
fn list_tags_counts_each_tag() {
    let mut c = Client::start(&[]);
    assert_eq!(c.ok("list_tags", json!({})), json!({}));
    c.ok("create_note", json!({"title": "a", "tags": ["x", "y"]}));
    c.ok("create_note", json!({"title": "b", "tags": ["y"]}));
    assert_eq!(c.ok("list_tags", json!({})), json!({"x": 1, "y": 2}));
    c.ok("delete_note", json!({"id": 2}));
    assert_eq!(c.ok("list_tags", json!({})), json!({"x": 1, "y": 1}));
    assert_eq!(
        c.fails("list_tags", json!({"all": true})),
        "Argument 'all' is not valid. Unknown property."
    );
    assert!(c.finish().success());
}

#[test]
fn import_reports_progress_and_logs_per_batch() {
    let mut c = Client::start(&[]);
    c.request("logging/setLevel", json!({"level": "info"}));
    let notes: Vec<Value> = (0..250)
        .map(|i| json!({"title": format!("imported {i}"), "tags": ["bulk"], "metadata": {"n": i.to_string()}}))
        .collect();
    let id = c.send(
        "tools/call",
        json!({"name": "import_notes", "arguments": {"notes": notes, "batch_size": 100}, "_meta": {"progressToken": "imp"}}),
    );
    let reply = c.reply(id);
    let result = &reply["result"];
    assert_eq!(
        result["structuredContent"],
        json!({"imported": 250, "batches": 3, "firstId": 1, "lastId": 250}),
        "{reply}"
    );
    let seen = c.take_seen();
    let progress: Vec<&Value> = seen
        .iter()
        .filter(|m| m["method"] == "notifications/progress")
        .map(|m| &m["params"])
        .collect();
    assert_eq!(
        progress,
        [
            &json!({"progressToken": "imp", "progress": 100.0, "total": 250.0, "message": "100 of 250 notes written"}),
            &json!({"progressToken": "imp", "progress": 200.0, "total": 250.0, "message": "200 of 250 notes written"}),
            &json!({"progressToken": "imp", "progress": 250.0, "total": 250.0, "message": "250 of 250 notes written"}),
        ]
    );
    let logs: Vec<&Value> = seen
        .iter()
        .filter(|m| m["method"] == "notifications/message")
        .map(|m| &m["params"])
        .collect();
    assert_eq!(logs.len(), 4, "{logs:?}");
    assert_eq!(
        logs[0],
        &json!({"level": "info", "logger": "notes.import", "data": {"batch": 1, "written": 100, "total": 250}})
    );
    assert_eq!(logs[3]["level"], "notice");

    assert_eq!(c.ok("list_tags", json!({})), json!({"bulk": 250}));
    assert_eq!(
        c.ok("get_note", json!({"id": 250}))["metadata"],
        json!({"n": "249"})
    );

    // A bad note anywhere refuses the whole import: nothing is written.
    let mut bad: Vec<Value> = (0..50).map(|i| json!({"title": format!("n{i}")})).collect();
    bad.push(json!({"title": "bad", "tags": ["ok", "NOPE"]}));
    assert_eq!(
        c.fails("import_notes", json!({"notes": bad})),
        tag_pattern_error("notes[50].tags[1]")
    );
    for (args, error) in [
        (
            json!({"notes": []}),
            "Argument 'notes' is not valid. Expected at least 1 item.",
        ),
        (
            json!({"notes": [{"title": "a"}], "batch_size": 0}),
            "Argument 'batch_size' is not valid. Expected a value from 1 to 10000.",
        ),
        (
            json!({"notes": [{"title": "a"}, {"body": "no title"}]}),
            "Argument 'notes[1].title' is not valid. A value is required.",
        ),
        (
            json!({"notes": [{"title": "a", "id": 5}]}),
            "Argument 'notes[0].id' is not valid. Unknown property.",
        ),
    ] {
        assert_eq!(c.fails("import_notes", args.clone()), error, "{args}");
    }
    assert_eq!(c.ok("list_tags", json!({})), json!({"bulk": 250}));
    assert_eq!(
        c.ok("search_notes", json!({"limit": 1}))["notes"][0]["id"],
        250
    );
    assert!(c.finish().success());
}

#[test]
fn resources_prompt_and_completion() {
    let mut c = Client::start(&[]);
    let empty = c.request("resources/read", json!({"uri": "notes://index"}));
    assert_eq!(
        empty["result"]["contents"][0]["text"],
        "# Notes\n\nNo notes yet.\n"
    );
    c.ok(
        "create_note",
        json!({"title": "Milk [2L]", "body": "Oat.", "tags": ["groceries"], "due": "2026-08-01", "metadata": {"shop": "corner"}}),
    );
    c.ok(
        "create_note",
        json!({"title": "Gratin", "tags": ["recipes", "groceries"], "priority": "high"}),
    );
    c.ok("create_note", json!({"title": "Gym", "tags": ["grind"]}));

    let listed = c.request("resources/list", json!({}));
    assert_eq!(
        listed["result"]["resources"],
        json!([{"uri": "notes://index", "name": "index", "title": "Newest notes", "description": "The 50 newest notes, as a Markdown list of links.", "mimeType": "text/markdown"}])
    );
    let templates = c.request("resources/templates/list", json!({}));
    assert_eq!(
        templates["result"]["resourceTemplates"][0]["uriTemplate"],
        "notes://{id}"
    );

    let index = c.request("resources/read", json!({"uri": "notes://index"}));
    assert_eq!(
        index["result"]["contents"][0],
        json!({"uri": "notes://index", "mimeType": "text/markdown", "text": "# Notes\n\n- [Gym](notes://3) (normal, #grind)\n- [Gratin](notes://2) (high, #groceries, #recipes)\n- [Milk \\[2L\\]](notes://1) (normal, #groceries)\n"})
    );
    let one = c.request("resources/read", json!({"uri": "notes://1"}));
    let text = one["result"]["contents"][0]["text"].as_str().expect("text");
    assert!(
        text.starts_with("# Milk [2L]\n\n- id: 1\n- priority: normal\n- tags: groceries\n- due: 2026-08-01\n- shop: corner\n- created: "),
        "{text}"
    );
    assert!(text.ends_with("\n\nOat.\n"), "{text}");
    let missing = c.request("resources/read", json!({"uri": "notes://42"}));
    assert_eq!(missing["error"]["code"], -32002);
    assert_eq!(missing["error"]["message"], "No note with id 42.");
    let bad = c.request("resources/read", json!({"uri": "notes://abc"}));
    assert_eq!(bad["error"]["code"], -32602, "{bad}");
    assert_eq!(
        bad["error"]["message"],
        "Argument 'id' is not valid. Expected an integer."
    );

    let prompt = c.request(
        "prompts/get",
        json!({"name": "summarize_tag", "arguments": {"tag": "groceries", "max_notes": "1"}}),
    );
    let message = &prompt["result"]["messages"][0];
    assert_eq!(message["role"], "user");
    let text = message["content"]["text"].as_str().expect("text");
    assert!(
        text.starts_with("Summarize these 1 notes tagged 'groceries'"),
        "{text}"
    );
    assert!(
        text.contains("# Gratin") && !text.contains("# Milk"),
        "newest first, at most 1: {text}"
    );
    for (args, error) in [
        (json!({"tag": "nothing"}), "No note has the tag 'nothing'."),
        (json!({"tag": "Nope!"}), &tag_pattern_error("tag")),
        (
            json!({"tag": "groceries", "max_notes": "51"}),
            "Argument 'max_notes' is not valid. Expected a value from 1 to 50.",
        ),
        (
            json!({}),
            "Argument 'tag' is not valid. A value is required.",
        ),
    ] {
        let reply = c.request(
            "prompts/get",
            json!({"name": "summarize_tag", "arguments": args}),
        );
        assert_eq!(reply["error"]["code"], -32602, "{args}: {reply}");
        assert_eq!(reply["error"]["message"], error, "{args}");
    }

    let complete = |c: &mut Client, reference: Value, name: &str, value: &str| {
        let reply = c.request(
            "completion/complete",
            json!({"ref": reference, "argument": {"name": name, "value": value}}),
        );
        reply["result"]["completion"].clone()
    };
    let prompt_ref = json!({"type": "ref/prompt", "name": "summarize_tag"});
    assert_eq!(
        complete(&mut c, prompt_ref.clone(), "tag", "gr"),
        json!({"values": ["grind", "groceries"], "total": 2})
    );
    assert_eq!(
        complete(&mut c, prompt_ref.clone(), "tag", ""),
        json!({"values": ["grind", "groceries", "recipes"], "total": 3})
    );
    assert_eq!(
        complete(&mut c, prompt_ref.clone(), "tag", "zz")["values"],
        json!([])
    );
    assert_eq!(
        complete(&mut c, prompt_ref, "max_notes", "1")["values"],
        json!([])
    );
    let note_ref = json!({"type": "ref/resource", "uri": "notes://{id}"});
    assert_eq!(
        complete(&mut c, note_ref.clone(), "id", "")["values"],
        json!(["3", "2", "1"])
    );
    assert_eq!(
        complete(&mut c, note_ref.clone(), "id", "2")["values"],
        json!(["2"])
    );
    assert_eq!(complete(&mut c, note_ref, "id", "x")["values"], json!([]));
    assert!(c.finish().success());
}
