//! The line transport over in-memory streams: limits, bad bytes, CRLF, end of input.

use crate::common;

use std::io::{Cursor, Write};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use toolidl_runtime::{stdio::StdioConfig, transport::serve_io};

/// A writer whose bytes the test can read after the server is done.
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

async fn run(input: Vec<u8>, max_line_bytes: usize) -> Vec<Value> {
    run_raw(input, max_line_bytes)
        .await
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The output lines as written.
async fn run_raw(input: Vec<u8>, max_line_bytes: usize) -> Vec<String> {
    let out = Shared::default();
    serve_io(
        common::kitchen_server(),
        Cursor::new(input),
        out.clone(),
        StdioConfig { max_line_bytes },
    )
    .await
    .unwrap();
    let bytes = out.0.lock().unwrap().clone();
    let text = String::from_utf8(bytes).unwrap();
    assert!(text.is_empty() || text.ends_with('\n'));
    text.lines().map(str::to_owned).collect()
}

/// Serves `input` with default options; the output text.
async fn serve_text(server: toolidl_runtime::Server, input: String) -> String {
    let out = Shared::default();
    serve_io(
        server,
        Cursor::new(input.into_bytes()),
        out.clone(),
        StdioConfig::default(),
    )
    .await
    .unwrap();
    String::from_utf8(out.0.lock().unwrap().clone()).unwrap()
}

fn discover(id: i64) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "server/discover"}).to_string()
}

#[tokio::test]
async fn over_long_and_invalid_lines_get_errors_and_reading_goes_on() {
    let mut input = Vec::new();
    input.extend_from_slice(format!("{}\n", discover(1)).as_bytes());
    input.extend_from_slice(
        format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"x\",\"pad\":\"{}\"}}\n",
            "a".repeat(5000)
        )
        .as_bytes(),
    );
    input.extend_from_slice(b"{\"bad\":\"\xff\xfe\"}\n");
    input.extend_from_slice(b"\n   \n");
    input.extend_from_slice(format!("{}\r\n", discover(3)).as_bytes());
    // The last line has no newline.
    input.extend_from_slice(discover(4).as_bytes());
    let out = run(input, 1000).await;
    let summary: Vec<(Value, Value)> = out
        .iter()
        .map(|m| (m["id"].clone(), m["error"]["code"].clone()))
        .collect();
    assert_eq!(
        summary,
        vec![
            (json!(1), Value::Null),
            // The over-long line's id is read as its bytes go by.
            (json!(2), json!(-32600)),
            (Value::Null, json!(-32700)),
            (json!(3), Value::Null),
            (json!(4), Value::Null),
        ]
    );
    assert_eq!(
        out[1]["error"]["message"],
        "Invalid request: the message is longer than 1000 bytes."
    );
}

#[tokio::test]
async fn a_line_over_the_limit_at_the_end_of_input_is_reported() {
    let out = run(vec![b'x'; 3000], 1000).await;
    assert_eq!(out.len(), 1);
    assert_eq!(out[0]["error"]["code"], -32600);
    // A whole message without its newline still gets its id.
    let line = format!(r#"{{"id":5,"method":"ping","pad":"{}"}}"#, "a".repeat(3000));
    let out = run(line.into_bytes(), 1000).await;
    assert_eq!(
        (&out[0]["id"], &out[0]["error"]["code"]),
        (&json!(5), &json!(-32600))
    );
}

/// Five MiB of `params` that a careless scanner would trip on: braces, brackets and quotes
/// inside strings, escapes, and `id` members that are not the request's.
fn huge_params() -> String {
    let chunk = r#"{"id":99,"s":"}{\"id\":1,[\\","a":[{"id":"x"},1.5e3,null,true]},"#;
    let mut items = String::with_capacity(5 << 20);
    while items.len() < 5 << 20 {
        items.push_str(chunk);
    }
    items.pop();
    format!(
        r#"{{"name":"greet","id":98,"arguments":{{"name":"{}","items":[{items}]}}}}"#,
        "x".repeat(1000)
    )
}

/// Over the default limit (4 MiB), a message is skipped but its top-level id is read as its
/// bytes stream by, whether it comes before or after a huge `params`, and the error carries
/// it, byte for byte; the server then answers the next line. Memory stays bounded by design:
/// past the limit the line's bytes go only through the `IdScanner` (fixed-size state and at
/// most 256 bytes of id text), never into a buffer that grows with the line.
#[tokio::test]
async fn over_long_requests_are_answered_with_their_id() {
    let params = huge_params();
    let mut input = String::new();
    let mut next = 0;
    let mut line = |text: String| {
        input.push_str(&text);
        input.push('\n');
        next += 1;
        input.push_str(&discover(next));
        input.push('\n');
    };
    for id in ["7", r#""a\"b""#] {
        line(format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{params}}}"#
        ));
        line(format!(
            "{{\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\r\t\"params\" : {params} , \"id\" :  {id} }}\r"
        ));
    }
    // No top-level id (a notification), two of them, or one that is not a string or integer:
    // the error has no id, as for any line whose id cannot be read.
    line(format!(
        r#"{{"jsonrpc":"2.0","method":"notifications/x","params":{params}}}"#
    ));
    line(format!(
        r#"{{"jsonrpc":"2.0","id":1,"id":2,"method":"m","params":{params}}}"#
    ));
    line(format!(
        r#"{{"jsonrpc":"2.0","id":null,"method":"m","params":{params}}}"#
    ));
    line(format!(
        r#"{{"jsonrpc":"2.0","id":7,"method":"m","params":{params}"#
    ));
    let out = run_raw(input.into_bytes(), StdioConfig::default().max_line_bytes).await;
    let error = r#""error":{"code":-32600,"message":"Invalid request: the message is longer than 4194304 bytes."}}"#;
    let with_id = |id: &str| format!(r#"{{"jsonrpc":"2.0","id":{id},{error}"#);
    let without_id = format!(r#"{{"jsonrpc":"2.0",{error}"#);
    let mut expected = vec![
        with_id("7"),
        with_id("7"),
        with_id(r#""a\"b""#),
        with_id(r#""a\"b""#),
        without_id.clone(),
        without_id.clone(),
        without_id.clone(),
        without_id,
    ];
    assert_eq!(out.len(), 2 * expected.len());
    for (i, expected) in expected.drain(..).enumerate() {
        assert_eq!(out[2 * i], expected, "reply {i}");
        let next: Value = serde_json::from_str(&out[2 * i + 1]).unwrap();
        assert_eq!(next["id"], json!(i + 1), "the line after {i}");
        assert!(next["result"].is_object(), "{next}");
    }
}

/// An over-long response from the client is not answered with its id (the server's own):
/// the server's request fails at once, and the client gets the error without an id.
#[tokio::test]
async fn an_over_long_response_fails_the_servers_request() {
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {"sampling": {}}, "clientInfo": {"name": "t", "version": "1"}}});
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "sample", "arguments": {}}});
    let response = json!({"jsonrpc": "2.0", "id": "s1", "result": {"role": "assistant", "content": {"type": "text", "text": "y".repeat(5000)}, "model": "m"}});
    let input = format!("{init}\n{call}\n{response}\n{}\n", discover(2));
    let out = run(input.into_bytes(), 2000).await;
    let request = out
        .iter()
        .find(|m| m["method"] == "sampling/createMessage")
        .unwrap();
    assert_eq!(request["id"], "s1");
    let too_long = out
        .iter()
        .find(|m| {
            m["error"]["message"] == "Invalid request: the message is longer than 2000 bytes."
        })
        .unwrap();
    assert!(too_long.get("id").is_none(), "{too_long}");
    let call = out.iter().find(|m| m["id"] == 1).unwrap();
    assert_eq!(
        call["error"],
        json!({"code": -32603, "message": "The client's response is longer than 2000 bytes."}),
        "{call}"
    );
    assert!(out.iter().any(|m| m["id"] == 2 && m["result"].is_object()));
}

#[tokio::test]
async fn end_of_input_waits_for_calls_in_flight() {
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    let slow = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "slow", "arguments": {"ms": 150}}});
    let fast = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "text", "arguments": {}}});
    let input = format!("{init}\n{slow}\n{fast}\n");
    let out = run(input.into_bytes(), 4 << 20).await;
    let ids: Vec<_> = out.iter().map(|m| m["id"].clone()).collect();
    assert_eq!(ids, vec![json!(0), json!(2), json!(1)]);
    assert_eq!(out[2]["result"]["content"][0]["text"], "slept 150");
}

#[test]
fn default_line_limit_is_four_mebibytes() {
    assert_eq!(StdioConfig::default().max_line_bytes, 4 * 1024 * 1024);
}

#[tokio::test]
async fn batching_joins_replies_until_flushed() {
    let server = common::kitchen_server();
    let (conn, mut out) =
        toolidl_runtime::transport::Connection::new(&server, tokio::runtime::Handle::current());
    let conn = conn.with_batching();
    conn.handle_line(&discover(1));
    conn.handle_line("oops");
    assert!(out.try_recv().is_err(), "nothing leaves before the flush");
    conn.flush();
    let batch = out.try_recv().unwrap();
    let lines: Vec<Value> = batch
        .split('\n')
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(
        (&lines[0]["id"], &lines[1]["error"]["code"]),
        (&json!(1), &json!(-32700))
    );
    conn.flush();
    assert!(out.try_recv().is_err(), "an empty batch is not sent");
}

/// A hand-written service whose listings and outputs are pretty-printed JSON.
struct Pretty {
    tools: Vec<toolidl_runtime::service::ToolDef>,
    resources: Vec<toolidl_runtime::service::ListingDef>,
    templates: Vec<toolidl_runtime::service::ListingDef>,
    prompts: Vec<toolidl_runtime::service::ListingDef>,
}

fn pretty(value: Value) -> String {
    serde_json::to_string_pretty(&value)
        .unwrap()
        .replace('\n', "\r\n")
}

impl Pretty {
    fn new() -> Self {
        use toolidl_runtime::{service::ListingDef, service::ToolDef};
        let tool = |name: &str| {
            ToolDef::owned(
                name.into(),
                pretty(json!({
                    "name": name,
                    "description": "Pretty.",
                    "inputSchema": {"type": "object", "properties": {}},
                    "execution": {"taskSupport": "forbidden"},
                })),
            )
        };
        Pretty {
            tools: vec![tool("structured"), tool("json")],
            resources: vec![ListingDef::owned(pretty(
                json!({"uri": "mem://a", "name": "a"}),
            ))],
            templates: vec![ListingDef::owned(pretty(
                json!({"uriTemplate": "mem://t/{x}", "name": "t"}),
            ))],
            prompts: vec![ListingDef::owned(pretty(
                json!({"name": "p", "arguments": [{"name": "x"}]}),
            ))],
        }
    }
}

impl toolidl_runtime::Service for Pretty {
    fn tools(&self) -> &[toolidl_runtime::service::ToolDef] {
        &self.tools
    }
    fn resources(&self) -> &[toolidl_runtime::service::ListingDef] {
        &self.resources
    }
    fn resource_templates(&self) -> &[toolidl_runtime::service::ListingDef] {
        &self.templates
    }
    fn prompts(&self) -> &[toolidl_runtime::service::ListingDef] {
        &self.prompts
    }
    fn call_tool(
        self: Arc<Self>,
        name: &str,
        _args: toolidl_runtime::args::Arguments<'_>,
        _ctx: toolidl_runtime::RequestContext,
    ) -> toolidl_runtime::service::BoxFuture<toolidl_runtime::ToolResult> {
        use toolidl_runtime::ToolOutput;
        let value = json!({"lines": ["a\nb", "c"], "n": {"x": 1}});
        let out = match name {
            "structured" => ToolOutput::Structured(pretty(value)),
            _ => ToolOutput::Json(pretty(value)),
        };
        Box::pin(async move { Ok(out) })
    }
}

#[tokio::test]
async fn pretty_printed_listings_and_outputs_stay_on_one_line() {
    let server = toolidl_runtime::Server::builder("pretty", "1")
        .service(Arc::new(Pretty::new()))
        .build();
    let mut input = String::new();
    let mut id = 0;
    let mut request = |method: &str, params: Value, modern: bool| {
        id += 1;
        let mut params = params;
        if modern {
            params["_meta"] = json!({
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {},
            });
        }
        input.push_str(
            &json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string(),
        );
        input.push('\n');
    };
    for modern in [true, false] {
        if !modern {
            request(
                "initialize",
                json!({"protocolVersion": "2025-11-25", "capabilities": {},
                       "clientInfo": {"name": "c", "version": "1"}}),
                false,
            );
        }
        request("tools/list", json!({}), modern);
        request("resources/list", json!({}), modern);
        request("resources/templates/list", json!({}), modern);
        request("prompts/list", json!({}), modern);
        request("tools/call", json!({"name": "structured"}), modern);
        request("tools/call", json!({"name": "json"}), modern);
    }
    let text = serve_text(server, input).await;
    assert!(!text.contains('\r'), "{text}");
    let replies: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(replies.len(), 13, "{text}");
    let value = json!({"lines": ["a\nb", "c"], "n": {"x": 1}});
    for r in &replies {
        let result = &r["result"];
        assert!(result.is_object(), "{r}");
        if let Some(tools) = result.get("tools") {
            assert_eq!(tools[0]["name"], "structured");
            assert_eq!(tools[1]["inputSchema"]["type"], "object");
        }
        if let Some(content) = result.get("content") {
            let text: Value = serde_json::from_str(content[0]["text"].as_str().unwrap()).unwrap();
            assert_eq!(text, value);
            if let Some(s) = result.get("structuredContent") {
                assert_eq!(s, &value);
            }
        }
    }
    let by_id = |id: i64| replies.iter().find(|r| r["id"] == id).unwrap();
    assert_eq!(by_id(2)["result"]["resources"][0]["uri"], "mem://a");
    assert_eq!(
        by_id(4)["result"]["prompts"][0]["arguments"][0]["name"],
        "x"
    );
    assert_eq!(by_id(5)["result"]["structuredContent"], value);
    // 2025-11-25 keeps `execution`; the listing is still one line.
    assert_eq!(
        by_id(8)["result"]["tools"][0]["execution"]["taskSupport"],
        "forbidden"
    );
    assert_eq!(by_id(12)["result"]["structuredContent"], value);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_the_pending_limit_stdio_stops_reading_instead_of_refusing() {
    let server = toolidl_runtime::Server::builder("kitchen", "1.2.3")
        .service(Arc::new(common::Kitchen))
        .max_pending_calls(2)
        .build();
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    let mut input = format!("{init}\n");
    for id in 1..=6 {
        let slow = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "slow", "arguments": {"ms": 30}}});
        input.push_str(&format!("{slow}\n"));
    }
    let text = serve_text(server, input).await;
    let replies: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(replies.len(), 7, "{text}");
    for reply in &replies[1..] {
        assert_eq!(reply["result"]["content"][0]["text"], "slept 30", "{reply}");
    }
}
