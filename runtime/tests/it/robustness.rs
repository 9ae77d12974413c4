//! "A panic or bad input never kills the server or loses a reply", as a property: random
//! sequences of valid, odd and corrupted lines go through the stdio transport (in-memory
//! streams); every request with a readable id is answered exactly once with that id, every
//! unreadable line gets one error without an id, every output line is one JSON-RPC message,
//! and the server returns `Ok` at the end of input.

use crate::common;
mod input;
mod service;

use std::collections::HashMap;
use std::io::{Cursor, Write};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use input::{Check, Expect, item, render};
use proptest::prelude::*;
use serde_json::{Value, json};
use toolidl_runtime::{Server, service::TOOL_FAILED, stdio::StdioConfig, transport::serve_io};

/// A writer whose bytes the test reads after the server is done.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Handler tasks run on two workers, beside the transport's reader and writer threads.
fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap()
    })
}

fn server(page_size: usize, list_changed: bool) -> Server {
    Server::builder("fuzz", "1")
        .page_size(page_size)
        .list_changed(list_changed)
        .service(Arc::new(common::Kitchen))
        .service(Arc::new(service::Fuzz))
        .build()
}

/// Serves `input` to the end; panics if the server fails or does not finish.
fn serve(server: Server, input: Vec<u8>) -> String {
    let out = Shared::default();
    let sink = out.clone();
    let served = runtime().block_on(async move {
        let config = StdioConfig {
            max_line_bytes: 64 * 1024,
        };
        tokio::time::timeout(
            Duration::from_secs(5),
            serve_io(server, Cursor::new(input), sink, config),
        )
        .await
    });
    match served {
        Ok(Ok(())) => {}
        Ok(Err(e)) => panic!("the server failed: {e}"),
        Err(_) => panic!("the server did not finish after the end of input"),
    }
    let bytes = out.0.lock().unwrap().clone();
    String::from_utf8(bytes).expect("output is UTF-8")
}

/// One output message, checked against JSON-RPC's shapes.
enum Out {
    Response {
        id: Option<Value>,
        message: Value,
    },
    /// A notification, or a request from the server (ids `"s1"`, `"s2"`, …).
    FromServer,
}

fn classify(line: &str) -> Result<Out, String> {
    let m: Value = serde_json::from_str(line).map_err(|e| format!("not JSON ({e}): {line}"))?;
    let obj = m.as_object().ok_or(format!("not an object: {line}"))?;
    if obj.get("jsonrpc") != Some(&Value::from("2.0")) {
        return Err(format!("jsonrpc is not \"2.0\": {line}"));
    }
    if let Some(method) = obj.get("method") {
        if !method.is_string() || obj.get("params").is_some_and(|p| !p.is_object()) {
            return Err(format!("bad notification or request: {line}"));
        }
        if let Some(id) = obj.get("id")
            && !id.as_str().is_some_and(|s| s.starts_with('s'))
        {
            return Err(format!(
                "a request from the server with a client-style id: {line}"
            ));
        }
        if let Some(token) = m["params"].get("progressToken")
            && !(token.is_string() || token.is_number())
        {
            return Err(format!("a progress token MCP does not allow: {line}"));
        }
        return Ok(Out::FromServer);
    }
    let keys_ok = match (obj.get("result"), obj.get("error")) {
        (Some(r), None) => r.is_object(),
        (None, Some(e)) => e["code"].is_i64() && e["message"].is_string(),
        _ => false,
    };
    let id = obj.get("id").cloned();
    let id_ok = id.as_ref().is_none_or(|i| i.is_string() || i.is_number());
    let known = obj
        .keys()
        .all(|k| matches!(k.as_str(), "jsonrpc" | "id" | "result" | "error"));
    if !keys_ok || !id_ok || !known || (id.is_none() && obj.contains_key("result")) {
        return Err(format!("not a response: {line}"));
    }
    Ok(Out::Response { id, message: m })
}

fn check_one(check: Check, m: &Value) -> Result<(), String> {
    let text = m["result"]["content"][0]["text"].as_str();
    let is_error = m["result"]["isError"] == true;
    let ok = match check {
        Check::Any => true,
        Check::Error(code) => m["error"]["code"] == code,
        Check::Result => m.get("result").is_some() && !is_error,
        Check::ToolFailed => is_error && text == Some(TOOL_FAILED),
        Check::ToolError => is_error && text.is_some_and(|t| t != TOOL_FAILED),
        Check::NotToolFailed => text != Some(TOOL_FAILED),
    };
    if ok {
        Ok(())
    } else {
        Err(format!("expected {check:?}, got {m}"))
    }
}

/// Checks the whole output against what each input line must produce.
fn verify(output: &str, expects: &[Expect]) -> Result<(), String> {
    if !output.is_empty() && !output.ends_with('\n') {
        return Err("the output does not end with a newline".into());
    }
    if output.contains("secret") || output.contains("hunter2") {
        return Err(format!(
            "a panic or internal detail reached the client: {output}"
        ));
    }
    let mut by_id: HashMap<String, Vec<Value>> = HashMap::new();
    let mut idless = 0usize;
    for line in output.lines() {
        match classify(line)? {
            Out::FromServer => {}
            Out::Response {
                id: Some(id),
                message,
            } => by_id.entry(id.to_string()).or_default().push(message),
            Out::Response { id: None, message } => {
                if message.get("error").is_none() {
                    return Err(format!("a result without an id: {message}"));
                }
                idless += 1;
            }
        }
    }
    let (mut min_idless, mut max_idless) = (0, 0);
    for e in expects {
        match e {
            Expect::Reply { id, check, at_most } => {
                // The key is the id as serde_json writes it back: the type must survive.
                let key = serde_json::from_str::<Value>(id).unwrap().to_string();
                let got = by_id.remove(&key).unwrap_or_default();
                match (got.len(), at_most) {
                    (1, _) => check_one(*check, &got[0])?,
                    (0, true) => {}
                    (n, _) => return Err(format!("{n} responses to request {id}: {got:?}")),
                }
            }
            Expect::NoReply { id } => {
                let key = serde_json::from_str::<Value>(id).unwrap().to_string();
                if let Some(got) = by_id.remove(&key) {
                    return Err(format!("a response to a response ({id}): {got:?}"));
                }
            }
            Expect::Nothing => {}
            Expect::IdlessError => {
                min_idless += 1;
                max_idless += 1;
            }
            Expect::MaybeIdlessError => max_idless += 1,
        }
    }
    if let Some((id, got)) = by_id.into_iter().next() {
        return Err(format!("responses with an id nobody sent ({id}): {got:?}"));
    }
    if !(min_idless..=max_idless).contains(&idless) {
        return Err(format!(
            "{idless} errors without an id; expected {min_idless} to {max_idless}"
        ));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 96,
        max_shrink_iters: 500,
        max_shrink_time: 120_000,
        ..ProptestConfig::default()
    })]

    #[test]
    fn every_request_is_answered_once_and_the_server_survives_any_input(
        items in prop::collection::vec(item(), 1..40),
        final_newline in any::<bool>(),
        page_size in 1usize..30,
        list_changed in any::<bool>(),
    ) {
        let (bytes, expects) = render(&items, final_newline);
        let output = serve(server(page_size, list_changed), bytes.clone());
        if let Err(problem) = verify(&output, &expects) {
            let input = String::from_utf8_lossy(&bytes);
            prop_assert!(false, "{problem}\n--- input\n{input}\n--- output\n{output}");
        }
    }
}

// What the property found, pinned as plain cases.

fn fuzz_server() -> Server {
    server(100, false)
}

#[tokio::test]
async fn a_request_to_the_client_after_the_end_of_input_fails_instead_of_hanging() {
    let init = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"sampling":{}},"clientInfo":{"name":"t","version":"1"}}}"#;
    let ask = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask_later"}}"#;
    let input = format!("{init}\n{ask}\n").into_bytes();
    let out = Shared::default();
    let served = tokio::time::timeout(
        Duration::from_secs(5),
        serve_io(
            fuzz_server(),
            Cursor::new(input),
            out.clone(),
            StdioConfig::default(),
        ),
    )
    .await;
    assert!(matches!(served, Ok(Ok(()))), "the server did not finish");
    let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
    let last: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(
        (&last["id"], &last["error"]["code"]),
        (&json!(1), &json!(-32603))
    );
}

#[tokio::test]
async fn panics_in_resource_prompt_and_completion_handlers_are_internal_errors() {
    let mut c = common::Client::new(&fuzz_server());
    c.initialize("2025-06-18", json!({})).await;
    let cases = [
        ("resources/read", json!({"uri": "fuzz://panic-now"})),
        ("resources/read", json!({"uri": "fuzz://panic-later"})),
        ("resources/read", json!({"uri": "fuzz://panic-first-poll"})),
        ("prompts/get", json!({"name": "panic_prompt"})),
        (
            "prompts/get",
            json!({"name": "panic_prompt", "arguments": {"when": "first_poll"}}),
        ),
        (
            "prompts/get",
            json!({"name": "panic_prompt", "arguments": {"when": "later"}}),
        ),
        (
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "x"}, "argument": {"name": "panic_first_poll", "value": ""}}),
        ),
        (
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "x"}, "argument": {"name": "panic_now", "value": ""}}),
        ),
        (
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "x"}, "argument": {"name": "panic_later", "value": ""}}),
        ),
    ];
    for (i, (method, params)) in cases.into_iter().enumerate() {
        let r = c.request(i as i64 + 1, method, params.clone()).await;
        assert_eq!(
            r["error"],
            json!({"code": -32603, "message": "Internal error."}),
            "{method} {params}"
        );
    }
    let r = c.call(99, "text", json!({})).await;
    assert_eq!(common::text_of(&r), "hi \"there\"");
}

#[tokio::test]
async fn lines_with_members_of_the_wrong_type_are_answered_with_their_id() {
    let mut c = common::Client::new(&fuzz_server());
    for line in [
        r#"{"jsonrpc":2.0,"id":"a","method":"ping"}"#,
        r#"{"jsonrpc":"2.0","method":5,"id":"a"}"#,
        r#"{"jsonrpc":"2.0","method":{"m":[[[]]]},"id":"a","params":{}}"#,
    ] {
        c.send_raw(line);
        let r = c.next().await;
        assert_eq!(
            (&r["id"], &r["error"]["code"]),
            (&json!("a"), &json!(-32600)),
            "{line}"
        );
    }
    // Two ids, or one that is not a string or integer: no id in the error.
    for line in [
        r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}"#,
        r#"{"jsonrpc":"2.0","method":5,"id":1.5}"#,
    ] {
        c.send_raw(line);
        let r = c.next().await;
        assert_eq!(
            (r.get("id"), &r["error"]["code"]),
            (None, &json!(-32600)),
            "{line}"
        );
    }
}

#[tokio::test]
async fn progress_tokens_are_strings_or_numbers() {
    let mut c = common::Client::new(&fuzz_server());
    c.initialize("2025-06-18", json!({})).await;
    let call = |token: Value| json!({"name": "progress", "_meta": {"progressToken": token}});
    for (i, token) in [json!({"a": 1}), json!([1]), json!(true)]
        .into_iter()
        .enumerate()
    {
        let r = c.request(i as i64 + 1, "tools/call", call(token)).await;
        assert_eq!(r["error"]["code"], -32602);
    }
    for (i, token) in [json!("t"), json!(7), json!(-1.5)].into_iter().enumerate() {
        let r = c
            .request(i as i64 + 10, "tools/call", call(token.clone()))
            .await;
        assert!(r.get("result").is_some());
        assert_eq!(c.other.pop().unwrap()["params"]["progressToken"], token);
    }
}

#[tokio::test]
async fn prompt_arguments_may_be_null_as_tool_arguments_may() {
    let mut c = common::Client::new(&fuzz_server());
    c.initialize("2025-06-18", json!({})).await;
    let r = c
        .request(
            1,
            "prompts/get",
            json!({"name": "summarize", "arguments": null}),
        )
        .await;
    assert_eq!(r["error"]["message"], "Missing required argument: city");
}
