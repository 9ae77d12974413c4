//! Every tool, resource, prompt and completion of the server, with good and bad arguments,
//! through `toolidl_runtime::testing::Client`: the real dispatcher, in process.
//! (`stdio.rs` runs the binary itself.)

use crate::common;

use common::inproc::{client, fails, ok};
use common::titles;
use notes_example::notes::{CreateNoteArgs, GetNoteArgs, Priority, SummarizeTagArgs};
use serde_json::{Value, json};
use toolidl_runtime::LogLevel;
use toolidl_runtime::testing::Client;

fn tag_pattern_error(path: &str) -> String {
    format!(
        "Argument '{path}' is not valid. Expected a string matching the pattern '^[a-z0-9_-]+$'."
    )
}

#[tokio::test]
async fn create_and_get() {
    let c = client().await;
    let note = ok(
        &c,
        "create_note",
        json!({"title": "Plan", "body": "Step 1", "tags": ["work", "q3"], "priority": "urgent", "due": "2026-09-30", "metadata": {"owner": "ada"}}),
    ).await;
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
    let bare = ok(&c, "create_note", json!({"title": "Bare"})).await;
    assert_eq!(bare["id"], 2);
    assert_eq!(bare["body"], "");
    assert_eq!(bare["tags"], json!([]));
    assert_eq!(bare["priority"], "normal");
    assert_eq!(bare["due"], Value::Null);
    assert_eq!(bare["metadata"], json!({}));

    // The generated input, as a client would send it: the same call, typed.
    let got = c.call(&GetNoteArgs { id: 1 }).await.expect("get_note");
    assert_eq!(got.structured(), Some(&note));
    // Structured content and the same JSON as text.
    assert_eq!(
        serde_json::from_str::<Value>(got.text()).expect("JSON text"),
        note
    );
    // Every field of a typed input reaches the tool as the schema names it; a nullable
    // field left `None` is sent as `null`, which the tool reads as its default.
    let typed = c
        .call(&CreateNoteArgs {
            title: "Typed".into(),
            body: "b".into(),
            tags: Some(["x".to_owned()].into()),
            priority: Priority::High,
            due: None,
            metadata: None,
        })
        .await
        .expect("create_note");
    let typed = typed.structured().expect("structured");
    assert_eq!(
        (
            &typed["title"],
            &typed["tags"],
            &typed["priority"],
            &typed["due"]
        ),
        (&json!("Typed"), &json!(["x"]), &json!("high"), &Value::Null)
    );
    ok(&c, "delete_note", json!({"id": 3})).await;

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
        assert_eq!(
            fails(&c, "create_note", args.clone()).await,
            error,
            "{args}"
        );
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
        assert_eq!(fails(&c, "get_note", args.clone()).await, error, "{args}");
    }
    // Nothing the failed calls did was stored.
    assert_eq!(
        ok(&c, "search_notes", json!({})).await["notes"]
            .as_array()
            .map(Vec::len),
        Some(2)
    );
    c.close().await;
}

#[tokio::test]
async fn update_and_delete() {
    let c = client().await;
    let note = ok(
        &c,
        "create_note",
        json!({"title": "Draft", "body": "b", "tags": ["a"], "due": "2026-01-01", "metadata": {"k": "v"}}),
    ).await;
    // Only the given fields change.
    let changed = ok(
        &c,
        "update_note",
        json!({"id": 1, "title": "Final", "tags": ["b", "c"]}),
    )
    .await;
    assert_eq!(changed["title"], "Final");
    assert_eq!(changed["body"], "b");
    assert_eq!(changed["tags"], json!(["b", "c"]));
    assert_eq!(changed["due"], "2026-01-01");
    assert_eq!(changed["metadata"], json!({"k": "v"}));
    assert_eq!(changed["createdAt"], note["createdAt"]);
    assert!(changed["updatedAt"].as_str() >= note["updatedAt"].as_str());

    let changed = ok(
        &c,
        "update_note",
        json!({"id": 1, "clear_due": true, "priority": "low", "metadata": {}}),
    )
    .await;
    assert_eq!(changed["due"], Value::Null);
    assert_eq!(changed["priority"], "low");
    assert_eq!(changed["metadata"], json!({}));
    let changed = ok(
        &c,
        "update_note",
        json!({"id": 1, "due": "2027-03-04", "tags": []}),
    )
    .await;
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
        assert_eq!(
            fails(&c, "update_note", args.clone()).await,
            error,
            "{args}"
        );
    }
    assert_eq!(ok(&c, "get_note", json!({"id": 1})).await["title"], "Final");

    let deleted = ok(&c, "delete_note", json!({"id": 1})).await;
    assert_eq!(deleted["title"], "Final");
    assert_eq!(
        fails(&c, "delete_note", json!({"id": 1})).await,
        "No note with id 1."
    );
    assert_eq!(
        fails(&c, "get_note", json!({"id": 1})).await,
        "No note with id 1."
    );
    assert_eq!(
        fails(&c, "delete_note", json!({"id": -1})).await,
        "Argument 'id' is not valid. Expected a value from 1 to 9007199254740991."
    );
    // A deleted id is never given again.
    assert_eq!(
        ok(&c, "create_note", json!({"title": "next"})).await["id"],
        2
    );
    c.close().await;
}

#[tokio::test]
async fn search_pages_with_a_cursor_and_filters() {
    let c = client().await;
    for i in 1..=25 {
        let tags = if i % 2 == 0 {
            json!(["even"])
        } else {
            json!(["odd"])
        };
        let priority = if i % 5 == 0 { "high" } else { "normal" };
        ok(
        &c,
            "create_note",
            json!({"title": format!("note {i}"), "body": format!("body {i} 100%"), "tags": tags, "priority": priority}),
        ).await;
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
        let page = ok(&c, "search_notes", args).await;
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

    let page = ok(&c, "search_notes", json!({"query": "NOTE 1", "tag": "odd"})).await;
    assert_eq!(
        titles(&page),
        [
            "note 19", "note 17", "note 15", "note 13", "note 11", "note 1"
        ]
    );
    let page = ok(
        &c,
        "search_notes",
        json!({"priority": "high", "tag": "even"}),
    )
    .await;
    assert_eq!(titles(&page), ["note 20", "note 10"]);
    // LIKE wildcards are literal: `%` matches only a percent sign.
    async fn count(c: &Client, query: &str) -> Option<usize> {
        ok(c, "search_notes", json!({"query": query, "limit": 100})).await["notes"]
            .as_array()
            .map(Vec::len)
    }
    assert_eq!(count(&c, "y 5 100%").await, Some(1));
    assert_eq!(count(&c, "0%").await, Some(25));
    assert_eq!(count(&c, "1%0").await, Some(0), "a wildcard would match");
    assert_eq!(
        ok(&c, "search_notes", json!({"query": "_"})).await["notes"],
        json!([])
    );
    assert_eq!(
        ok(&c, "search_notes", json!({"tag": "none"})).await["notes"],
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
        assert_eq!(
            fails(&c, "search_notes", args.clone()).await,
            error,
            "{args}"
        );
    }
    c.close().await;
}

#[tokio::test]
async fn list_tags_counts_each_tag() {
    let c = client().await;
    assert_eq!(ok(&c, "list_tags", json!({})).await, json!({}));
    ok(&c, "create_note", json!({"title": "a", "tags": ["x", "y"]})).await;
    ok(&c, "create_note", json!({"title": "b", "tags": ["y"]})).await;
    assert_eq!(
        ok(&c, "list_tags", json!({})).await,
        json!({"x": 1, "y": 2})
    );
    ok(&c, "delete_note", json!({"id": 2})).await;
    assert_eq!(
        ok(&c, "list_tags", json!({})).await,
        json!({"x": 1, "y": 1})
    );
    assert_eq!(
        fails(&c, "list_tags", json!({"all": true})).await,
        "Argument 'all' is not valid. Unknown property."
    );
    c.close().await;
}

#[tokio::test]
async fn import_reports_progress_and_logs_per_batch() {
    let c = client().await;
    c.set_log_level(LogLevel::Info)
        .await
        .expect("logging/setLevel");
    let notes: Vec<Value> = (0..250)
        .map(|i| json!({"title": format!("imported {i}"), "tags": ["bulk"], "metadata": {"n": i.to_string()}}))
        .collect();
    let result = c
        .request(
            "tools/call",
            json!({"name": "import_notes", "arguments": {"notes": notes, "batch_size": 100}, "_meta": {"progressToken": "imp"}}),
        )
        .await
        .expect("tools/call");
    assert_eq!(
        result["structuredContent"],
        json!({"imported": 250, "batches": 3, "firstId": 1, "lastId": 250}),
        "{result}"
    );
    let progress = c.take_notifications("notifications/progress");
    assert_eq!(
        progress,
        [
            json!({"progressToken": "imp", "progress": 100.0, "total": 250.0, "message": "100 of 250 notes written"}),
            json!({"progressToken": "imp", "progress": 200.0, "total": 250.0, "message": "200 of 250 notes written"}),
            json!({"progressToken": "imp", "progress": 250.0, "total": 250.0, "message": "250 of 250 notes written"}),
        ]
    );
    let logs = c.take_notifications("notifications/message");
    assert_eq!(logs.len(), 4, "{logs:?}");
    assert_eq!(
        logs[0],
        json!({"level": "info", "logger": "notes.import", "data": {"batch": 1, "written": 100, "total": 250}})
    );
    assert_eq!(logs[3]["level"], "notice");

    assert_eq!(ok(&c, "list_tags", json!({})).await, json!({"bulk": 250}));
    assert_eq!(
        ok(&c, "get_note", json!({"id": 250})).await["metadata"],
        json!({"n": "249"})
    );

    // A bad note anywhere refuses the whole import: nothing is written.
    let mut bad: Vec<Value> = (0..50).map(|i| json!({"title": format!("n{i}")})).collect();
    bad.push(json!({"title": "bad", "tags": ["ok", "NOPE"]}));
    assert_eq!(
        fails(&c, "import_notes", json!({"notes": bad})).await,
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
        assert_eq!(
            fails(&c, "import_notes", args.clone()).await,
            error,
            "{args}"
        );
    }
    assert_eq!(ok(&c, "list_tags", json!({})).await, json!({"bulk": 250}));
    assert_eq!(
        ok(&c, "search_notes", json!({"limit": 1})).await["notes"][0]["id"],
        250
    );
    c.close().await;
}

#[tokio::test]
async fn resources_prompt_and_completion() {
    let c = client().await;
    let empty = c.read_resource("notes://index").await.expect("read");
    assert_eq!(empty["contents"][0]["text"], "# Notes\n\nNo notes yet.\n");
    ok(
        &c,
        "create_note",
        json!({"title": "Milk [2L]", "body": "Oat.", "tags": ["groceries"], "due": "2026-08-01", "metadata": {"shop": "corner"}}),
    )
    .await;
    ok(
        &c,
        "create_note",
        json!({"title": "Gratin", "tags": ["recipes", "groceries"], "priority": "high"}),
    )
    .await;
    ok(
        &c,
        "create_note",
        json!({"title": "Gym", "tags": ["grind"]}),
    )
    .await;

    let listing = c.listing().await.expect("listing");
    assert_eq!(
        listing.resources,
        [
            json!({"uri": "notes://index", "name": "index", "title": "Newest notes", "description": "The 50 newest notes, as a Markdown list of links.", "mimeType": "text/markdown"})
        ]
    );
    assert_eq!(listing.resource_templates[0]["uriTemplate"], "notes://{id}");

    let index = c.read_resource("notes://index").await.expect("read");
    assert_eq!(
        index["contents"][0],
        json!({"uri": "notes://index", "mimeType": "text/markdown", "text": "# Notes\n\n- [Gym](notes://3) (normal, #grind)\n- [Gratin](notes://2) (high, #groceries, #recipes)\n- [Milk \\[2L\\]](notes://1) (normal, #groceries)\n"})
    );
    let one = c.read_resource("notes://1").await.expect("read");
    let text = one["contents"][0]["text"].as_str().expect("text");
    assert!(
        text.starts_with("# Milk [2L]\n\n- id: 1\n- priority: normal\n- tags: groceries\n- due: 2026-08-01\n- shop: corner\n- created: "),
        "{text}"
    );
    assert!(text.ends_with("\n\nOat.\n"), "{text}");
    let missing = c.read_resource("notes://42").await.expect_err("no note 42");
    assert_eq!(
        (missing.code, missing.message.as_str()),
        (-32002, "No note with id 42.")
    );
    let bad = c.read_resource("notes://abc").await.expect_err("not an id");
    assert_eq!(
        (bad.code, bad.message.as_str()),
        (-32602, "Argument 'id' is not valid. Expected an integer.")
    );

    // The generated input of the prompt; its arguments go out as strings.
    let prompt = c
        .prompt(&SummarizeTagArgs {
            tag: "groceries".into(),
            max_notes: 1,
        })
        .await
        .expect("prompts/get");
    let first = &prompt["messages"][0];
    assert_eq!(first["role"], "user");
    let text = first["content"]["text"].as_str().expect("text");
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
        let e = c
            .get_prompt("summarize_tag", args.clone())
            .await
            .expect_err("refused");
        assert_eq!((e.code, e.message.as_str()), (-32602, error), "{args}");
    }

    async fn completion(c: &Client, reference: Value, name: &str, value: &str) -> Value {
        let result = c
            .request(
                "completion/complete",
                json!({"ref": reference, "argument": {"name": name, "value": value}}),
            )
            .await
            .expect("completion/complete");
        result["completion"].clone()
    }
    let prompt_ref = json!({"type": "ref/prompt", "name": "summarize_tag"});
    assert_eq!(
        completion(&c, prompt_ref.clone(), "tag", "gr").await,
        json!({"values": ["grind", "groceries"], "total": 2})
    );
    assert_eq!(
        completion(&c, prompt_ref, "tag", "").await,
        json!({"values": ["grind", "groceries", "recipes"], "total": 3})
    );
    let values = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let tag = |prefix| c.complete_prompt("summarize_tag", "tag", prefix);
    assert_eq!(tag("zz").await.expect("complete"), values(&[]));
    assert_eq!(
        c.complete_prompt("summarize_tag", "max_notes", "1")
            .await
            .expect("complete"),
        values(&[])
    );
    let id = |prefix| c.complete_resource("notes://{id}", "id", prefix);
    assert_eq!(id("").await.expect("complete"), values(&["3", "2", "1"]));
    assert_eq!(id("2").await.expect("complete"), values(&["2"]));
    assert_eq!(id("x").await.expect("complete"), values(&[]));
    c.close().await;
}
