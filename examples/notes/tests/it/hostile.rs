//! Hostile text is data: quotes, SQL, NUL bytes, emoji, text at the length limits, all
//! stored and read back byte for byte, over the protocol (in process, through
//! `toolidl_runtime::testing`) and in the file itself.

use crate::common;

use common::inproc::{client, client_of, fails, ok};
use common::{temp_db, titles};
use serde_json::{Value, json};

const HOSTILE: &[&str] = &[
    "'",
    "\"",
    "\\",
    "'; DROP TABLE notes; --",
    "Robert'); DROP TABLE note_tags;--",
    "%' OR 1=1 --",
    "_%\\%_",
    "nul\u{0}inside\u{0}",
    "\u{0}",
    "emoji 📝👩‍💻🏳️‍🌈 and é, e\u{301}, ß, 漢字, العربية",
    "line\nbreaks\r\nand\ttabs",
    "\u{feff}bom and \u{200b}zero width and \u{202e}rtl override",
    "{\"json\": [1, 2]}",
    "<script>alert(1)</script>",
    "\u{10ffff}\u{fffd}",
];

/// The stored title, body and metadata of a note, read from the file with rusqlite.
fn stored(path: &std::path::Path, id: i64) -> (String, String, String) {
    let conn = rusqlite::Connection::open(path).expect("open");
    conn.query_row(
        "SELECT title, body, metadata FROM notes WHERE id = ?1",
        [id],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )
    .expect("the row")
}

#[tokio::test]
async fn hostile_strings_round_trip_byte_for_byte() {
    let (_dir, path) = temp_db();
    let c = client_of(&path).await;
    for (i, s) in HOSTILE.iter().enumerate() {
        let metadata = json!({ *s: *s, "k": format!("{s}{s}") });
        let note = ok(
            &c,
            "create_note",
            json!({"title": s, "body": format!("body {s} end"), "metadata": metadata}),
        )
        .await;
        let id = note["id"].as_i64().expect("id");
        assert_eq!(id, i as i64 + 1);
        let got = ok(&c, "get_note", json!({"id": id})).await;
        assert_eq!(got["title"].as_str(), Some(*s), "{s:?}");
        assert_eq!(got["body"].as_str(), Some(format!("body {s} end").as_str()));
        assert_eq!(got["metadata"], metadata);
        let (title, body, stored_metadata) = stored(&path, id);
        assert_eq!(title.as_bytes(), s.as_bytes(), "{s:?}");
        assert_eq!(body, format!("body {s} end"));
        assert_eq!(
            serde_json::from_str::<Value>(&stored_metadata).expect("JSON"),
            metadata
        );
        // And as the Markdown resource.
        let read = c
            .read_resource(&format!("notes://{id}"))
            .await
            .expect("resources/read");
        let text = read["contents"][0]["text"].as_str().expect("text");
        assert!(text.contains(&format!("body {s} end")), "{s:?}");
    }
    // The tables are still there, and nothing matched what the SQL tried.
    let page = ok(&c, "search_notes", json!({"limit": 100})).await;
    assert_eq!(page["notes"].as_array().map(Vec::len), Some(HOSTILE.len()));
    let found = ok(&c, "search_notes", json!({"query": "%' OR 1=1 --"})).await;
    assert_eq!(titles(&found), ["%' OR 1=1 --"]);
    let found = ok(&c, "search_notes", json!({"query": "\\%"})).await;
    assert_eq!(found["notes"][0]["title"], "_%\\%_");
    let found = ok(&c, "search_notes", json!({"query": "👩‍💻"})).await;
    assert_eq!(found["notes"].as_array().map(Vec::len), Some(1));
    // A hostile tag is refused by its pattern before it reaches SQL.
    let error = fails(
        &c,
        "search_notes",
        json!({"tag": "x'; DROP TABLE notes; --"}),
    )
    .await;
    assert!(error.starts_with("Argument 'tag' is not valid."), "{error}");
    // Updates too.
    let s = HOSTILE[3];
    let changed = ok(&c, "update_note", json!({"id": 1, "title": s, "body": s})).await;
    assert_eq!(changed["title"], s);
    assert_eq!(stored(&path, 1).1, s);
    c.close().await;
}

#[tokio::test]
async fn text_at_the_length_limits() {
    let c = client().await;
    // 200 characters of 4-byte emoji: the limit counts characters, not bytes.
    let title: String = "📝".repeat(200);
    let note = ok(&c, "create_note", json!({"title": title})).await;
    assert_eq!(note["title"].as_str(), Some(title.as_str()));
    let error = fails(&c, "create_note", json!({"title": format!("{title}x")})).await;
    assert_eq!(
        error,
        "Argument 'title' is not valid. Expected at most 200 characters."
    );

    // A body of exactly 1 MiB of characters, with NULs, quotes and emoji all through it.
    let unit = "a\u{0}'\"\\;📝é\n-- ";
    let unit_chars = unit.chars().count();
    let limit = 1_048_576;
    let mut body = unit.repeat(limit / unit_chars);
    body.push_str(&"z".repeat(limit - body.chars().count()));
    assert_eq!(body.chars().count(), limit);
    let note = ok(&c, "create_note", json!({"title": "big", "body": body})).await;
    let id = note["id"].clone();
    let got = ok(&c, "get_note", json!({"id": id})).await;
    assert_eq!(
        got["body"].as_str().map(str::as_bytes),
        Some(body.as_bytes())
    );
    let error = fails(
        &c,
        "create_note",
        json!({"title": "too big", "body": format!("{body}!")}),
    )
    .await;
    assert_eq!(
        error,
        "Argument 'body' is not valid. Expected at most 1048576 characters."
    );
    c.close().await;
}
