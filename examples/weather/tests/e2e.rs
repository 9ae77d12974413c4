//! The generated server as a real process over stdio: listings equal to `toolidl schema`,
//! good and bad arguments, resources, prompts, completion, a result that would break its own
//! outputSchema, malformed input, and exit at end of input.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::{Map, Value, json};

/// Runs one session: writes every line, closes stdin, returns the replies and exit status.
fn session(lines: &[String]) -> (Vec<Value>, std::process::ExitStatus) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_weather-example"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the server");
    let mut stdin = child.stdin.take().expect("stdin");
    for line in lines {
        writeln!(stdin, "{line}").expect("write");
    }
    drop(stdin);
    let replies = BufReader::new(child.stdout.take().expect("stdout"))
        .lines()
        .map(|l| serde_json::from_str(&l.expect("read")).expect("every line is JSON"))
        .collect();
    (replies, child.wait().expect("wait"))
}

fn request(id: i64, method: &str, params: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

fn call(id: i64, tool: &str, arguments: Value) -> String {
    request(
        id,
        "tools/call",
        json!({"name": tool, "arguments": arguments}),
    )
}

fn handshake() -> Vec<String> {
    vec![
        request(
            0,
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "e2e", "version": "1"}}),
        ),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string(),
    ]
}

struct Replies(Vec<Value>);

impl Replies {
    fn get(&self, id: i64) -> &Value {
        self.0
            .iter()
            .find(|r| r["id"] == json!(id))
            .unwrap_or_else(|| panic!("no reply with id {id}: {:?}", self.0))
    }

    fn result(&self, id: i64) -> &Value {
        let r = self.get(id);
        assert!(r.get("error").is_none(), "{id}: {r}");
        &r["result"]
    }

    fn text(&self, id: i64) -> &str {
        self.result(id)["content"][0]["text"]
            .as_str()
            .unwrap_or_else(|| panic!("{id}: no text"))
    }

    fn is_error(&self, id: i64) -> bool {
        self.result(id)["isError"] == json!(true)
    }
}

/// What `toolidl schema FILE` prints for a file of this example.
fn toolidl_schema(file: &str) -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let resolved = toolidl_build::compile::compile_in(dir, Path::new(file))
        .unwrap_or_else(|f| panic!("{}", f.rendered));
    toolidl_codegen::listings(&resolved.model, &toolidl_codegen::SchemaOptions::default())
        .expect("listings")
        .to_pretty_json()
}

#[test]
fn listings_are_what_toolidl_schema_prints_byte_for_byte() {
    let mut lines = handshake();
    lines.push(request(1, "tools/list", json!({})));
    lines.push(request(2, "resources/templates/list", json!({})));
    lines.push(request(3, "prompts/list", json!({})));
    lines.push(request(4, "resources/list", json!({})));
    let (replies, status) = session(&lines);
    assert!(status.success());
    let r = Replies(replies);
    let tools = r.result(1)["tools"].as_array().expect("tools").clone();
    assert_eq!(r.result(4)["resources"], json!([]));

    // Services are listed in order: weather.tool's first, then manual.tool's.
    let weather_tools = 3;
    let mut weather = Map::new();
    weather.insert(
        "tools".into(),
        Value::Array(tools[..weather_tools].to_vec()),
    );
    weather.insert(
        "resourceTemplates".into(),
        r.result(2)["resourceTemplates"].clone(),
    );
    weather.insert("prompts".into(), r.result(3)["prompts"].clone());
    let mut manual = Map::new();
    manual.insert(
        "tools".into(),
        Value::Array(tools[weather_tools..].to_vec()),
    );

    let pretty = |m: Map<String, Value>| {
        let mut text = serde_json::to_string_pretty(&Value::Object(m)).expect("json");
        text.push('\n');
        text
    };
    assert_eq!(pretty(weather), toolidl_schema("tools/weather.tool"));
    assert_eq!(pretty(manual), toolidl_schema("tools/manual.tool"));
}

#[test]
fn tools_decode_typed_arguments_and_encode_results_by_the_seed() {
    let mut lines = handshake();
    lines.extend([
        call(1, "get_weather", json!({"city": "Brussels"})),
        call(
            2,
            "get_weather",
            json!({"city": "Oslo", "units": "fahrenheit"}),
        ),
        call(3, "get_weather", json!({"city": ""})),
        call(4, "get_weather", json!({"city": "Oslo", "units": "kelvin"})),
        call(5, "get_weather", json!({"city": "Oslo", "wind": true})),
        call(6, "get_weather", json!({})),
        call(7, "get_weather", json!({"city": "Atlantis"})),
        call(8, "forecast.daily", json!({"city": "Lisbon", "days": 2})),
        call(9, "forecast.daily", json!({"city": "Lisbon", "days": 15})),
        call(10, "locate", json!({"city": "Oslo"})),
        call(11, "locate", json!({"city": "Nowhere"})),
        call(12, "stats", json!({"values": [1, 2, 6]})),
        call(13, "stats", json!({"values": [1.7e308, 1.7e308]})),
        call(14, "stats", json!({"values": [1, "2"]})),
        call(15, "add", json!({"a": 2147483647, "b": 1})),
        call(16, "add", json!({"a": 2147483648_i64, "b": 1})),
        call(17, "greet", json!({"name": "Ada"})),
        call(
            18,
            "forecast.daily",
            json!({"city": "Lisbon", "days": null}),
        ),
    ]);
    let (replies, status) = session(&lines);
    assert!(status.success());
    let r = Replies(replies);

    assert_eq!(r.text(1), "Brussels: 11.5°C");
    assert_eq!(r.text(2), "Oslo: 37.4°F");
    for (id, text) in [
        (
            3,
            "Argument 'city' is not valid. Expected at least 1 character.",
        ),
        (
            4,
            "Argument 'units' is not valid. Expected one of: celsius, fahrenheit.",
        ),
        (5, "Argument 'wind' is not valid. Unknown property."),
        (6, "Argument 'city' is not valid. A value is required."),
        (7, "No weather known for Atlantis."),
        (
            9,
            "Argument 'days' is not valid. Expected a value from 1 to 14.",
        ),
        (13, "The tool failed."),
        (14, "Argument 'values[1]' is not valid. Expected a number."),
        (
            16,
            "Argument 'a' is not valid. Expected an integer from -2147483648 to 2147483647.",
        ),
        (18, "Argument 'days' is not valid. Null is not allowed."),
    ] {
        assert!(r.is_error(id), "{id}: {}", r.get(id));
        assert_eq!(r.text(id), text, "{id}");
    }

    // A list: JSON text, no structured content.
    let forecast: Value = serde_json::from_str(r.text(8)).expect("JSON text");
    assert_eq!(forecast.as_array().map(Vec::len), Some(2));
    assert_eq!(
        forecast[0],
        json!({"city": "Lisbon", "tempC": 19.0, "humidity": 60, "when": "2026-12-01"})
    );
    assert!(r.result(8).get("structuredContent").is_none());

    // A nullable record: structured content and the same JSON as text, or the text null.
    let located = r.result(10);
    assert_eq!(
        located["structuredContent"],
        json!({"latitude": 59.91, "longitude": 10.75})
    );
    assert_eq!(
        serde_json::from_str::<Value>(r.text(10)).expect("JSON"),
        located["structuredContent"]
    );
    assert_eq!(r.text(11), "null");
    assert!(r.result(11).get("structuredContent").is_none());

    assert_eq!(
        r.result(12)["structuredContent"],
        json!({"count": 3, "min": 1.0, "max": 6.0, "mean": 3.0})
    );
    assert_eq!(r.text(15), "2147483648");
    assert_eq!(r.text(17), "Hello, Ada!");
}

#[test]
fn resources_prompts_and_completion_are_typed() {
    let mut lines = handshake();
    lines.extend([
        request(1, "resources/read", json!({"uri": "weather://cities/Oslo"})),
        request(2, "resources/read", json!({"uri": "weather://cities/New%20York"})),
        request(3, "resources/read", json!({"uri": "weather://towns/Oslo"})),
        request(
            4,
            "prompts/get",
            json!({"name": "summarize", "arguments": {"city": "Oslo"}}),
        ),
        request(
            5,
            "prompts/get",
            json!({"name": "summarize", "arguments": {"city": "Oslo", "days": "5", "units": "fahrenheit"}}),
        ),
        request(
            6,
            "prompts/get",
            json!({"name": "summarize", "arguments": {"city": "Oslo", "days": "x"}}),
        ),
        request(
            7,
            "prompts/get",
            json!({"name": "summarize", "arguments": {"city": "Oslo", "units": "kelvin"}}),
        ),
        request(8, "prompts/get", json!({"name": "summarize", "arguments": {}})),
        request(
            9,
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "summarize"}, "argument": {"name": "units", "value": "f"}}),
        ),
        request(
            10,
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "summarize"}, "argument": {"name": "city", "value": "O"}}),
        ),
    ]);
    let (replies, status) = session(&lines);
    assert!(status.success());
    let r = Replies(replies);

    assert_eq!(
        r.result(1),
        &json!({"contents": [{"uri": "weather://cities/Oslo", "mimeType": "text/markdown", "text": "# Oslo\n\nAt 59.91° N, 10.75° E.\n"}]})
    );
    // The variable is percent-decoded before the handler sees it.
    assert_eq!(r.get(2)["error"]["code"], json!(-32002));
    assert_eq!(
        r.get(2)["error"]["message"],
        json!("No city named New York.")
    );
    assert!(r.get(3).get("error").is_some(), "no resource matches");

    let message = |id: i64| {
        r.result(id)["messages"][0]["content"]["text"]
            .as_str()
            .expect("text")
            .to_owned()
    };
    assert_eq!(
        message(4),
        "Summarize the weather in Oslo for the next 3 days, in celsius."
    );
    assert_eq!(
        message(5),
        "Summarize the weather in Oslo for the next 5 days, in fahrenheit."
    );
    for (id, text) in [
        (6, "Argument 'days' is not valid. Expected an integer."),
        (
            7,
            "Argument 'units' is not valid. Expected one of: celsius, fahrenheit.",
        ),
        (8, "Argument 'city' is not valid. A value is required."),
    ] {
        assert_eq!(r.get(id)["error"]["code"], json!(-32602), "{id}");
        assert_eq!(r.get(id)["error"]["message"], json!(text), "{id}");
    }
    assert_eq!(
        r.result(9)["completion"]["values"],
        json!(["fahrenheit"]),
        "enum members are suggested by default"
    );
    assert_eq!(r.result(10)["completion"]["values"], json!([]));
}

#[test]
fn malformed_input_gets_an_error_and_the_server_goes_on() {
    let mut lines = handshake();
    lines.push("not json".into());
    lines.push(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}"#.into());
    lines.push(call(2, "add", json!({"a": 1, "b": 2})));
    lines.push(r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":[1,2]}}"#.into());
    lines.push(request(4, "ping", json!({})));
    let (replies, status) = session(&lines);
    assert!(status.success(), "exits 0 at end of input");
    let parse_errors = replies
        .iter()
        .filter(|r| r["error"]["code"] == json!(-32700))
        .count();
    assert_eq!(parse_errors, 2, "{replies:?}");
    let r = Replies(replies);
    assert_eq!(r.text(2), "3");
    assert!(r.get(3).get("error").is_some() || r.is_error(3));
    assert_eq!(r.result(4), &json!({}));
}
