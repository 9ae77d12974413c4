//! Nothing is lost and nothing is half-written: concurrent writers through one process's
//! stdin, a SIGKILL in the middle of an import (both the binary), a cancelled import and
//! concurrent calls (in process), and the file read back with rusqlite after each.

use crate::common;

use std::collections::BTreeSet;
use std::io::Write;
use std::path::Path;

use common::{Client, inproc, temp_db, titles};
use serde_json::{Value, json};

/// Opens the file as a fresh process would: `integrity_check` must say ok; returns the
/// number of notes and of tag rows.
fn reopen(path: &Path) -> (i64, i64) {
    let conn = rusqlite::Connection::open(path).expect("open the database file");
    let check: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .expect("integrity_check");
    assert_eq!(check, "ok");
    let fk: Option<String> = conn
        .query_row("PRAGMA foreign_key_check", [], |r| r.get(0))
        .map(Some)
        .or_else(|e| match e {
            rusqlite::Error::QueryReturnedNoRows => Ok(None),
            other => Err(other),
        })
        .expect("foreign_key_check");
    assert_eq!(fk, None, "a tag row without its note");
    let notes = conn
        .query_row("SELECT count(*) FROM notes", [], |r| r.get(0))
        .expect("count");
    let tags = conn
        .query_row("SELECT count(*) FROM note_tags", [], |r| r.get(0))
        .expect("count");
    (notes, tags)
}

fn import_args(n: usize, batch: u32) -> Value {
    let notes: Vec<Value> = (0..n)
        .map(|i| json!({"title": format!("bulk {i}"), "tags": ["bulk"]}))
        .collect();
    json!({"name": "import_notes", "arguments": {"notes": notes, "batch_size": batch}, "_meta": {"progressToken": "p"}})
}

fn is_progress(m: &Value) -> bool {
    m["method"] == "notifications/progress" && m["params"]["progressToken"] == "p"
}

#[test]
fn concurrent_writers_through_one_process_lose_nothing() {
    const WRITERS: usize = 8;
    const EACH: usize = 50;
    let (_dir, path) = temp_db();
    let mut c = Client::with_db(&path);

    // Each writer pipelines its creates from its own thread; a reader searches meanwhile.
    std::thread::scope(|s| {
        for w in 0..WRITERS {
            let stdin = c.writer();
            s.spawn(move || {
                for i in 0..EACH {
                    let id = w * 1000 + i;
                    let line = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "create_note", "arguments": {"title": format!("w{w} n{i}"), "tags": [format!("w{w}"), "all"], "metadata": {"writer": w.to_string()}}}});
                    let mut out = stdin.lock().expect("lock");
                    writeln!(out, "{line}").expect("write");
                }
            });
        }
        let stdin = c.writer();
        s.spawn(move || {
            for i in 0..20 {
                let line = json!({"jsonrpc": "2.0", "id": 90_000 + i, "method": "tools/call", "params": {"name": "search_notes", "arguments": {"tag": "all", "limit": 100}}});
                writeln!(stdin.lock().expect("lock"), "{line}").expect("write");
            }
        });
    });
    let mut ids = BTreeSet::new();
    for w in 0..WRITERS {
        for i in 0..EACH {
            let reply = c.reply((w * 1000 + i) as i64);
            let note = &reply["result"]["structuredContent"];
            assert_eq!(note["title"], format!("w{w} n{i}"), "{reply}");
            assert!(
                ids.insert(note["id"].as_i64().expect("id")),
                "id given twice: {reply}"
            );
        }
    }
    for i in 0..20 {
        let reply = c.reply(90_000 + i);
        let n = reply["result"]["structuredContent"]["notes"]
            .as_array()
            .map(Vec::len);
        assert!(n.is_some_and(|n| n <= 100), "{reply}");
    }
    assert_eq!(ids, (1..=(WRITERS * EACH) as i64).collect::<BTreeSet<_>>());

    let mut expected = serde_json::Map::new();
    expected.insert("all".into(), json!(WRITERS * EACH));
    for w in 0..WRITERS {
        expected.insert(format!("w{w}"), json!(EACH));
    }
    assert_eq!(c.ok("list_tags", json!({})), Value::Object(expected));
    assert!(c.finish().success());

    assert_eq!(
        reopen(&path),
        ((WRITERS * EACH) as i64, (WRITERS * EACH * 2) as i64)
    );
    // And a new process sees the same notes.
    let mut again = Client::with_db(&path);
    let note = again.ok("get_note", json!({"id": 400}));
    assert_eq!(note["tags"].as_array().map(Vec::len), Some(2));
    assert!(again.finish().success());
}

#[test]
fn sigkill_mid_import_leaves_all_or_nothing() {
    const N: usize = 50_000;
    let (_dir, path) = temp_db();
    let mut c = Client::with_db(&path);
    for i in 0..3 {
        c.ok(
            "create_note",
            json!({"title": format!("before {i}"), "tags": ["old"]}),
        );
    }
    let id = c.send("tools/call", import_args(N, 500));
    let first = c.wait_for(is_progress);
    let progress = first["params"]["progress"].as_f64().expect("progress");
    assert!(progress < N as f64, "the import was still running: {first}");
    c.kill();

    let (notes, tags) = reopen(&path);
    assert!(
        (notes, tags) == (3, 3) || (notes, tags) == (3 + N as i64, 3 + N as i64),
        "a partial import survived: {notes} notes, {tags} tags (request {id})"
    );
    // The server opens the file again and goes on.
    let mut again = Client::with_db(&path);
    assert_eq!(again.ok("get_note", json!({"id": 3}))["title"], "before 2");
    let next = again.ok("create_note", json!({"title": "after"}));
    assert!(next["id"].as_i64() > Some(3));
    assert!(again.finish().success());
}

#[tokio::test]
async fn a_cancelled_import_writes_nothing_and_the_server_goes_on() {
    const N: usize = 100_000;
    let (_dir, path) = temp_db();
    let c = inproc::client_of(&path).await;
    inproc::ok(&c, "create_note", json!({"title": "kept", "tags": ["old"]})).await;
    let import = c.send_request("tools/call", import_args(N, 200));
    while let Some(m) = c.next_message().await {
        if is_progress(&m) {
            break;
        }
    }
    c.cancel(&import);
    // A write waits for the import's transaction to end (one writer), so once it answers
    // the import has rolled back (or, had it already finished, committed).
    let after = inproc::ok(&c, "create_note", json!({"title": "after"})).await;
    assert_eq!(
        inproc::ok(&c, "list_tags", json!({})).await,
        json!({"old": 1})
    );
    let page = inproc::ok(&c, "search_notes", json!({"limit": 5})).await;
    assert_eq!(titles(&page), ["after", "kept"]);
    assert!(after["id"].as_i64() >= Some(2));
    // The server sends no reply to a cancelled request: once the client has closed, the
    // import's reply is only the end of the connection.
    c.close().await;
    let reply = import.reply().await;
    assert!(
        reply.is_err(),
        "a cancelled request gets no reply (it finished first?)"
    );
    assert_eq!(reopen(&path), (2, 1));
}

#[tokio::test]
async fn an_in_memory_server_serves_concurrent_calls_too() {
    let c = inproc::client().await;
    let pending: Vec<_> = (0..100)
        .map(|i| {
            c.send_request(
                "tools/call",
                json!({"name": "create_note", "arguments": {"title": format!("m{i}")}}),
            )
        })
        .collect();
    let mut got = BTreeSet::new();
    for request in pending {
        let result = request.reply().await.expect("tools/call");
        got.insert(result["structuredContent"]["id"].as_i64().expect("id"));
    }
    assert_eq!(got, (1..=100).collect::<BTreeSet<_>>());
    c.close().await;
}
