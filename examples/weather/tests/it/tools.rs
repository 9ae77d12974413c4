//! The generated server in process, through `toolidl_runtime::testing`: listings equal to
//! `toolidl schema`, good and bad arguments, resources, prompts, completion, and a result
//! that would break its own outputSchema. (`e2e.rs` runs the binary over stdio.)

use std::path::Path;

use serde_json::{Value, json};
use toolidl_runtime::testing::{CallResult, Client};
use weather_example::acme::weather::{GetWeatherArgs, SummarizeArgs, Units};
use weather_example::manual::AddArgs;

async fn client() -> Client {
    Client::connect(&weather_example::server())
        .await
        .expect("initialize")
}

async fn call(c: &Client, tool: &str, arguments: Value) -> CallResult {
    c.call_tool(tool, arguments.clone())
        .await
        .unwrap_or_else(|e| panic!("{tool} {arguments}: {e}"))
}

/// What `toolidl schema FILE` prints for a file of this example.
fn toolidl_schema(file: &str) -> Value {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let resolved = toolidl_build::compile::compile_in(dir, Path::new(file))
        .unwrap_or_else(|f| panic!("{}", f.rendered));
    let json =
        toolidl_codegen::listings(&resolved.model, &toolidl_codegen::SchemaOptions::default())
            .expect("listings")
            .to_pretty_json();
    serde_json::from_str(&json).expect("JSON")
}

#[tokio::test]
async fn listings_are_what_toolidl_schema_prints_byte_for_byte() {
    let c = client().await;
    let listing = c.listing().await.expect("listing");
    assert_eq!(listing.resources, Vec::<Value>::new());

    // Services are listed in order: weather.tool's first, then manual.tool's.
    let weather_tools = 3;
    let weather = json!({
        "tools": listing.tools[..weather_tools],
        "resourceTemplates": listing.resource_templates,
        "prompts": listing.prompts,
    });
    let manual = json!({"tools": listing.tools[weather_tools..]});
    let pretty = |v: &Value| serde_json::to_string_pretty(v).expect("JSON");
    assert_eq!(
        pretty(&weather),
        pretty(&toolidl_schema("tools/weather.tool"))
    );
    assert_eq!(
        pretty(&manual),
        pretty(&toolidl_schema("tools/manual.tool"))
    );
}

#[tokio::test]
async fn tools_decode_typed_arguments_and_encode_results_by_the_seed() {
    let c = client().await;
    let brussels = GetWeatherArgs {
        city: "Brussels".into(),
        units: Units::Celsius,
    };
    assert_eq!(
        c.call(&brussels).await.expect("call").text(),
        "Brussels: 11.5°C"
    );
    let oslo = call(
        &c,
        "get_weather",
        json!({"city": "Oslo", "units": "fahrenheit"}),
    )
    .await;
    assert_eq!(oslo.text(), "Oslo: 37.4°F");

    for (tool, arguments, text) in [
        (
            "get_weather",
            json!({"city": ""}),
            "Argument 'city' is not valid. Expected at least 1 character.",
        ),
        (
            "get_weather",
            json!({"city": "Oslo", "units": "kelvin"}),
            "Argument 'units' is not valid. Expected one of: celsius, fahrenheit.",
        ),
        (
            "get_weather",
            json!({"city": "Oslo", "wind": true}),
            "Argument 'wind' is not valid. Unknown property.",
        ),
        (
            "get_weather",
            json!({}),
            "Argument 'city' is not valid. A value is required.",
        ),
        (
            "get_weather",
            json!({"city": "Atlantis"}),
            "No weather known for Atlantis.",
        ),
        (
            "daily_forecast",
            json!({"city": "Lisbon", "days": 15}),
            "Argument 'days' is not valid. Expected a value from 1 to 14.",
        ),
        (
            "daily_forecast",
            json!({"city": "Lisbon", "days": null}),
            "Argument 'days' is not valid. Null is not allowed.",
        ),
        // A structured result that would break its own outputSchema (a mean of inf).
        (
            "stats",
            json!({"values": [1.7e308, 1.7e308]}),
            "The tool failed.",
        ),
        (
            "stats",
            json!({"values": [1, "2"]}),
            "Argument 'values[1]' is not valid. Expected a number.",
        ),
        (
            "add",
            json!({"a": 2147483648_i64, "b": 1}),
            "Argument 'a' is not valid. Expected an integer from -2147483648 to 2147483647.",
        ),
    ] {
        let result = call(&c, tool, arguments.clone()).await;
        assert!(result.is_error(), "{tool} {arguments}: {:?}", result.json());
        assert_eq!(result.text(), text, "{tool} {arguments}");
    }

    // A list: JSON text, no structured content.
    let forecast = call(&c, "daily_forecast", json!({"city": "Lisbon", "days": 2})).await;
    let days: Value = serde_json::from_str(forecast.text()).expect("JSON text");
    assert_eq!(days.as_array().map(Vec::len), Some(2));
    assert_eq!(
        days[0],
        json!({"city": "Lisbon", "tempC": 19.0, "humidity": 60, "when": "2026-12-01"})
    );
    assert_eq!(forecast.structured(), None);

    // A record: structured content and the same JSON as text; an unknown city is a tool error.
    let located = call(&c, "locate", json!({"city": "Oslo"})).await;
    assert_eq!(
        located.structured(),
        Some(&json!({"latitude": 59.91, "longitude": 10.75}))
    );
    assert_eq!(
        serde_json::from_str::<Value>(located.text()).ok().as_ref(),
        located.structured()
    );
    let nowhere = call(&c, "locate", json!({"city": "Nowhere"})).await;
    assert!(nowhere.is_error());
    assert_eq!(
        (nowhere.text(), nowhere.structured()),
        ("No city named Nowhere.", None)
    );

    let stats = call(&c, "stats", json!({"values": [1, 2, 6]})).await;
    assert_eq!(
        stats.structured(),
        Some(&json!({"count": 3, "min": 1.0, "max": 6.0, "mean": 3.0}))
    );
    let sum = c.call(&AddArgs { a: i32::MAX, b: 1 }).await.expect("call");
    assert_eq!(sum.text(), "2147483648");
    let greeting = call(&c, "greet", json!({"name": "Ada"})).await;
    assert_eq!(greeting.text(), "Hello, Ada!");
    c.close().await;
}

#[tokio::test]
async fn resources_prompts_and_completion_are_typed() {
    let c = client().await;
    assert_eq!(
        c.read_resource("weather://cities/Oslo")
            .await
            .expect("read"),
        json!({"contents": [{"uri": "weather://cities/Oslo", "mimeType": "text/markdown", "text": "# Oslo\n\nAt 59.91° N, 10.75° E.\n"}]})
    );
    // The variable is percent-decoded before the handler sees it.
    let missing = c
        .read_resource("weather://cities/New%20York")
        .await
        .expect_err("no such city");
    assert_eq!(
        (missing.code, missing.message.as_str()),
        (-32002, "No city named New York.")
    );
    assert!(
        c.read_resource("weather://towns/Oslo").await.is_err(),
        "no resource matches"
    );

    let message = |prompt: &Value| {
        prompt["messages"][0]["content"]["text"]
            .as_str()
            .expect("text")
            .to_owned()
    };
    let defaults = c
        .get_prompt("summarize", json!({"city": "Oslo"}))
        .await
        .expect("prompts/get");
    assert_eq!(
        message(&defaults),
        "Summarize the weather in Oslo for the next 3 days, in celsius."
    );
    // The generated input: its arguments are sent as the strings prompts/get carries.
    let typed = c
        .prompt(&SummarizeArgs {
            city: "Oslo".into(),
            days: 5,
            units: Units::Fahrenheit,
        })
        .await
        .expect("prompts/get");
    assert_eq!(
        message(&typed),
        "Summarize the weather in Oslo for the next 5 days, in fahrenheit."
    );
    for (arguments, text) in [
        (
            json!({"city": "Oslo", "days": "x"}),
            "Argument 'days' is not valid. Expected an integer.",
        ),
        (
            json!({"city": "Oslo", "units": "kelvin"}),
            "Argument 'units' is not valid. Expected one of: celsius, fahrenheit.",
        ),
        (
            json!({}),
            "Argument 'city' is not valid. A value is required.",
        ),
    ] {
        let e = c
            .get_prompt("summarize", arguments.clone())
            .await
            .expect_err("refused");
        assert_eq!((e.code, e.message.as_str()), (-32602, text), "{arguments}");
    }
    assert_eq!(
        c.complete_prompt("summarize", "units", "f")
            .await
            .expect("complete"),
        ["fahrenheit"],
        "enum members are suggested by default"
    );
    assert_eq!(
        c.complete_prompt("summarize", "city", "O")
            .await
            .expect("complete"),
        Vec::<String>::new()
    );
    c.close().await;
}
