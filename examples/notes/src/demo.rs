//! `--demo`: a short scripted session against the real server, in process (the same
//! `Connection` the stdio transport drives, fed line by line), printed readably. Needs no
//! client and no database file.

use std::io::{self, Write};

use serde_json::{Value, json};
use toolidl_runtime::{Server, transport::Connection};

/// One step of the script: a method, its params, and what the step shows.
struct Step {
    method: &'static str,
    params: Value,
    note: &'static str,
}

fn script() -> Vec<Step> {
    let call = |name: &str, arguments: Value| json!({"name": name, "arguments": arguments});
    vec![
        Step {
            method: "tools/list",
            params: json!({}),
            note: "what the server offers (names only)",
        },
        Step {
            method: "tools/call",
            params: call(
                "create_note",
                json!({"title": "Buy milk", "body": "Oat milk, 2 litres.", "tags": ["groceries", "errands"], "priority": "high", "due": "2026-08-01"}),
            ),
            note: "a note with tags, a priority and a due date",
        },
        Step {
            method: "tools/call",
            params: call(
                "create_note",
                json!({"title": "Bread recipe", "body": "500 g flour, 350 g water, salt, yeast.", "tags": ["groceries", "recipes"], "metadata": {"source": "grandma"}}),
            ),
            note: "defaults fill in priority; metadata is a string map",
        },
        Step {
            method: "tools/call",
            params: call("search_notes", json!({"tag": "groceries", "limit": 1})),
            note: "a page of one note; nextCursor fetches the next",
        },
        Step {
            method: "tools/call",
            params: call(
                "search_notes",
                json!({"tag": "groceries", "limit": 1, "cursor": "before:2"}),
            ),
            note: "the next (last) page",
        },
        Step {
            method: "tools/call",
            params: call("get_note", json!({"id": 1})),
            note: "one note",
        },
        Step {
            method: "resources/read",
            params: json!({"uri": "notes://1"}),
            note: "the same note as a Markdown resource",
        },
        Step {
            method: "completion/complete",
            params: json!({"ref": {"type": "ref/prompt", "name": "summarize_tag"}, "argument": {"name": "tag", "value": "gr"}}),
            note: "tag names completed from the database",
        },
        Step {
            method: "prompts/get",
            params: json!({"name": "summarize_tag", "arguments": {"tag": "groceries"}}),
            note: "a prompt built from the notes with a tag",
        },
        Step {
            method: "tools/call",
            params: call("create_note", json!({"title": ""})),
            note: "a bad argument: the model is told what to fix",
        },
        Step {
            method: "tools/call",
            params: call("get_note", json!({"id": 99})),
            note: "a note that does not exist: a tool error result",
        },
    ]
}

/// Plays the script against `server`, printing to `out`.
pub async fn run(server: Server, out: &mut impl Write) -> io::Result<()> {
    let (conn, mut outbox) = Connection::new(&server, tokio::runtime::Handle::current());
    writeln!(
        out,
        "notes-example --demo: a scripted MCP session with this server, in process, on an\n\
         in-memory database. → is what a client sends, ← what the server answers.\n"
    )?;

    let init = json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "demo", "version": "1"}});
    writeln!(out, "→ initialize {}", compact(&init, 0))?;
    let reply = exchange(&conn, &mut outbox, 0, "initialize", init).await?;
    let r = &reply["result"];
    let caps: Vec<&str> = r["capabilities"]
        .as_object()
        .map(|c| c.keys().map(String::as_str).collect())
        .unwrap_or_default();
    writeln!(
        out,
        "← {} {}, protocol {}, capabilities: {}",
        r["serverInfo"]["name"].as_str().unwrap_or("?"),
        r["serverInfo"]["version"].as_str().unwrap_or("?"),
        r["protocolVersion"].as_str().unwrap_or("?"),
        caps.join(", ")
    )?;
    conn.handle_line(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);

    for (i, step) in script().into_iter().enumerate() {
        let id = i as i64 + 1;
        writeln!(out, "\n# {}", step.note)?;
        let shown = match step.method {
            "tools/call" => format!(
                "tools/call {} {}",
                step.params["name"].as_str().unwrap_or("?"),
                compact(&step.params["arguments"], 0)
            ),
            "tools/list" => "tools/list".to_owned(),
            _ => format!("{} {}", step.method, compact(&step.params, 0)),
        };
        writeln!(out, "→ {shown}")?;
        let reply = exchange(&conn, &mut outbox, id, step.method, step.params).await?;
        writeln!(out, "← {}", describe(step.method, &reply))?;
    }
    drop(conn);
    writeln!(out, "\ndone.")?;
    Ok(())
}

/// Sends one request and waits for its reply (printing nothing of the notifications).
async fn exchange(
    conn: &Connection,
    outbox: &mut toolidl_runtime::transport::Outbox,
    id: i64,
    method: &str,
    params: Value,
) -> io::Result<Value> {
    let line = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    conn.handle_line(&line.to_string());
    while let Some(message) = outbox.recv().await {
        for one in message.lines() {
            let value: Value = serde_json::from_str(one).map_err(io::Error::other)?;
            if value["id"] == json!(id) {
                return Ok(value);
            }
        }
    }
    Err(io::Error::other(format!("no reply to {method}")))
}

/// A reply, short: names for listings, the structured content or text of a call, the text
/// of a resource or a prompt.
fn describe(method: &str, reply: &Value) -> String {
    if let Some(e) = reply.get("error") {
        return format!(
            "error {}: {}",
            e["code"],
            e["message"].as_str().unwrap_or("")
        );
    }
    let r = &reply["result"];
    match method {
        "tools/list" => {
            let names: Vec<&str> = r["tools"]
                .as_array()
                .map(|t| t.iter().filter_map(|t| t["name"].as_str()).collect())
                .unwrap_or_default();
            format!("{} tools: {}", names.len(), names.join(", "))
        }
        "tools/call" => {
            let text = r["content"][0]["text"].as_str().unwrap_or("");
            if r["isError"] == json!(true) {
                format!("error result: {text}")
            } else if let Some(s) = r.get("structuredContent") {
                compact(s, 0)
            } else {
                text.to_owned()
            }
        }
        "resources/read" => indent_text(r["contents"][0]["text"].as_str().unwrap_or("")),
        "prompts/get" => {
            let text = r["messages"][0]["content"]["text"].as_str().unwrap_or("");
            let lines: Vec<&str> = text.lines().collect();
            let shown = lines.iter().take(8).copied().collect::<Vec<_>>().join("\n");
            let mut out = indent_text(&shown);
            if lines.len() > 8 {
                out.push_str(&format!("\n    … ({} more lines)", lines.len() - 8));
            }
            out
        }
        _ => compact(r, 0),
    }
}

/// Text as an indented block under the arrow.
fn indent_text(text: &str) -> String {
    let mut out = String::from("text:");
    for line in text.trim_end().lines() {
        out.push_str("\n    ");
        out.push_str(line);
    }
    out
}

/// JSON that keeps a value on one line when it fits in 88 columns, and otherwise puts
/// each member on its own line, nested two spaces deeper than `indent`.
pub fn compact(value: &Value, indent: usize) -> String {
    fit(value, indent, indent)
}

/// [`compact`] for a value that starts at `column`.
fn fit(value: &Value, indent: usize, column: usize) -> String {
    const WIDTH: usize = 88;
    let one_line = value.to_string();
    if column + one_line.chars().count() <= WIDTH {
        return one_line;
    }
    let pad = " ".repeat(indent + 2);
    let close = " ".repeat(indent);
    match value {
        Value::Object(map) if !map.is_empty() => {
            let members: Vec<String> = map
                .iter()
                .map(|(k, v)| {
                    let key = Value::from(k.as_str()).to_string();
                    let at = indent + 2 + key.chars().count() + 2;
                    format!("{pad}{key}: {}", fit(v, indent + 2, at))
                })
                .collect();
            format!("{{\n{}\n{close}}}", members.join(",\n"))
        }
        Value::Array(items) if !items.is_empty() => {
            let items: Vec<String> = items
                .iter()
                .map(|v| format!("{pad}{}", fit(v, indent + 2, indent + 2)))
                .collect();
            format!("[\n{}\n{close}]", items.join(",\n"))
        }
        _ => one_line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_values_stay_on_one_line_long_ones_break() {
        assert_eq!(compact(&json!({"a": [1, 2]}), 0), r#"{"a":[1,2]}"#);
        let long = json!({"title": "x".repeat(60), "tags": ["a", "b"], "n": 1});
        let text = compact(&long, 0);
        assert!(text.starts_with("{\n  \"title\": "), "{text}");
        assert!(text.contains("\n  \"tags\": [\"a\",\"b\"],"), "{text}");
        let back: Value = serde_json::from_str(&text).expect("still JSON");
        assert_eq!(back, long);
    }
}
