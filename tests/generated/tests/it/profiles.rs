//! A server serving a client profile (`ServerBuilder::profile`) lists its tools as the
//! profile publishes them and reads the forms that listing gives arguments, so that a
//! client of that profile gets the same handler call as a standard client: under
//! openai-strict, `null` for an optional parameter left out (`head?: u32`) and a map as a
//! list of `{key, value}` entries.

use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use toolidl_generated_tests::codegen::optional::{Lines, LinesServer, ReadArgs};
use toolidl_generated_tests::golden::composites::{CollectionsArgs, Composites, CompositesServer};
use toolidl_runtime::testing::Client;
use toolidl_runtime::{Profile, RequestContext, Server, ToolError};

/// Keeps every input it is called with.
struct Recorder<T>(Mutex<Vec<T>>);

impl<T> Recorder<T> {
    fn taken(&self) -> Vec<T> {
        std::mem::take(&mut *self.0.lock().expect("lock"))
    }
}

impl Lines for Recorder<ReadArgs> {
    async fn read(&self, _: RequestContext, input: ReadArgs) -> Result<(), ToolError> {
        self.0.lock().expect("lock").push(input);
        Ok(())
    }
}

impl Composites for Recorder<CollectionsArgs> {
    async fn collections(
        &self,
        _: RequestContext,
        input: CollectionsArgs,
    ) -> Result<(), ToolError> {
        self.0.lock().expect("lock").push(input);
        Ok(())
    }
}

fn server(
    profile: Option<Profile>,
) -> (
    Server,
    Arc<Recorder<ReadArgs>>,
    Arc<Recorder<CollectionsArgs>>,
) {
    let lines = Arc::new(Recorder(Mutex::new(Vec::new())));
    let composites = Arc::new(Recorder(Mutex::new(Vec::new())));
    let mut builder = Server::builder("profiles", "0")
        .service(LinesServer::from_arc(Arc::clone(&lines)))
        .service(CompositesServer::from_arc(Arc::clone(&composites)));
    if let Some(profile) = profile {
        builder = builder.profile(profile);
    }
    (builder.build(), lines, composites)
}

async fn call(client: &Client, tool: &str, args: Value) -> Result<(), String> {
    let result = client.call_tool(tool, args).await.expect("a tool result");
    if result.is_error() {
        Err(result.text().to_owned())
    } else {
        Ok(())
    }
}

async fn listed(client: &Client, tool: &str) -> Value {
    let tools = client.list_tools().await.expect("tools/list");
    tools
        .into_iter()
        .find(|t| t["name"] == tool)
        .unwrap_or_else(|| panic!("no tool {tool}"))
}

#[tokio::test]
async fn a_strict_client_sending_null_gets_the_call_a_standard_client_omitting_gets() {
    let (standard, standard_lines, _) = server(None);
    let (strict, strict_lines, _) = server(Some(Profile::OpenAiStrict));
    let standard = Client::connect(&standard).await.expect("connect");
    let strict = Client::connect(&strict).await.expect("connect");

    // What each lists: the strict variant requires every parameter, and `head?: u32` takes
    // null too.
    let schema = &listed(&strict, "read").await["inputSchema"];
    assert_eq!(
        schema["required"],
        json!(["path", "head", "tail", "window", "grep", "ratio", "pick"])
    );
    assert_eq!(
        schema["properties"]["head"],
        json!({"type": ["integer", "null"], "minimum": 1, "maximum": 1000, "description": "Null leaves it out."})
    );
    let schema = &listed(&standard, "read").await["inputSchema"];
    assert_eq!(schema["required"], json!(["path"]));

    // Everything left out, as each client sends it. `tail?: i64?` already took null,
    // meaning null: a strict client cannot leave it out (lint's L0315), so both send it.
    let left_out = json!({"path": "a", "tail": null, "window": {"label": "l", "tail": null}});
    let strict_nulls = json!({
        "path": "a", "head": null, "tail": null, "grep": null, "ratio": null, "pick": null,
        "window": {"head": null, "tail": null, "label": "l", "tags": null, "order": null}
    });
    call(&standard, "read", left_out.clone())
        .await
        .expect("standard");
    call(&strict, "read", strict_nulls.clone())
        .await
        .expect("strict");
    let (a, b) = (standard_lines.taken(), strict_lines.taken());
    assert_eq!(a, b);
    assert_eq!(a[0].head, None);
    assert_eq!(a[0].tail, Some(None));

    // Values given are values, in both forms.
    let given =
        json!({"path": "a", "head": 7, "window": {"label": null, "order": "desc"}, "grep": "x"});
    call(&standard, "read", given.clone())
        .await
        .expect("standard");
    call(&strict, "read", given).await.expect("strict");
    assert_eq!(standard_lines.taken(), strict_lines.taken());

    // The strict server still takes what the `.tool` file accepts (a parameter left out);
    // the standard server refuses the null a strict client would send, as its listing says.
    call(&strict, "read", left_out)
        .await
        .expect("left out, strict");
    assert_eq!(
        call(&standard, "read", strict_nulls).await.unwrap_err(),
        "Argument 'head' is not valid. Null is not allowed."
    );
    // `null` is left out only where the parameter is optional: `path` is required.
    assert_eq!(
        call(&strict, "read", json!({"path": null}))
            .await
            .unwrap_err(),
        "Argument 'path' is not valid. Null is not allowed."
    );
}

#[tokio::test]
async fn map_entries_survive_the_round_trip_under_openai_strict() {
    let (standard, _, standard_maps) = server(None);
    let (strict, _, strict_maps) = server(Some(Profile::OpenAiStrict));
    let standard = Client::connect(&standard).await.expect("connect");
    let strict = Client::connect(&strict).await.expect("connect");

    let schema = &listed(&strict, "collections").await["inputSchema"];
    assert_eq!(schema["properties"]["scores"]["type"], "array");
    assert_eq!(
        schema["properties"]["scores"]["items"]["required"],
        json!(["key", "value"])
    );
    let point = json!({"x": 1.5, "y": -2.0});
    let base = json!({
        "names": [], "tags": [], "grid": [], "colour": "red", "palette": [],
        "origin": point, "path": [],
    });
    let with = |scores: Value, named_points: Value| {
        let mut args = base.clone();
        args["scores"] = scores;
        args["named_points"] = named_points;
        args
    };
    let objects = with(json!({"b": 2, "a": -1}), json!({"home": point}));
    let entries = with(
        json!([{"key": "b", "value": 2}, {"value": -1, "key": "a"}]),
        json!([{"key": "home", "value": point}]),
    );
    call(&standard, "collections", objects.clone())
        .await
        .expect("standard");
    call(&strict, "collections", entries.clone())
        .await
        .expect("strict");
    let (a, b) = (standard_maps.taken(), strict_maps.taken());
    assert_eq!(a, b);
    assert_eq!(a[0].scores.len(), 2);
    assert_eq!(a[0].scores["a"], -1);

    // Each key once; the value's own checks at the entry's path; entries only where the
    // server serves the profile that publishes them.
    let twice = with(
        json!([{"key": "a", "value": 1}, {"key": "a", "value": 2}]),
        json!([]),
    );
    assert_eq!(
        call(&strict, "collections", twice).await.unwrap_err(),
        "Argument 'scores[1].key' is not valid. Duplicate key."
    );
    let out_of_range = with(json!([{"key": "a", "value": 2147483648_i64}]), json!([]));
    assert_eq!(
        call(&strict, "collections", out_of_range)
            .await
            .unwrap_err(),
        "Argument 'scores[0].value' is not valid. Expected an integer from -2147483648 to 2147483647."
    );
    assert_eq!(
        call(&standard, "collections", entries).await.unwrap_err(),
        "Argument 'scores' is not valid. Expected an object."
    );
    call(&strict, "collections", objects)
        .await
        .expect("objects, strict");
    assert_eq!(strict_maps.taken().len(), 1);
}

mod weather {
    use toolidl_generated_tests::codegen::weather::{
        CityInfoArgs, Forecast, GetForecastArgs, GetWeatherArgs, SummarizeArgs, TodayArgs,
        WeatherTools,
    };
    use toolidl_runtime::{RequestContext, RpcError, ToolError};

    /// Answers `get_forecast` (`forecast.daily`) with one day per day asked for.
    pub struct Weather;

    impl WeatherTools for Weather {
        async fn get_weather(
            &self,
            _: RequestContext,
            _: GetWeatherArgs,
        ) -> Result<String, ToolError> {
            Ok("sunny".into())
        }

        async fn get_forecast(
            &self,
            _: RequestContext,
            input: GetForecastArgs,
        ) -> Result<Vec<Forecast>, ToolError> {
            let day = |_| Forecast {
                city: input.city.clone(),
                temp_c: 20.0,
                humidity: None,
                day: "2026-12-03".into(),
            };
            Ok((0..input.days).map(day).collect())
        }

        async fn today(&self, _: RequestContext, input: TodayArgs) -> Result<Forecast, ToolError> {
            Ok(Forecast {
                city: input.city,
                temp_c: 20.0,
                humidity: None,
                day: "2026-12-03".into(),
            })
        }

        async fn city_info(
            &self,
            _: RequestContext,
            input: CityInfoArgs,
        ) -> Result<String, RpcError> {
            Ok(input.name)
        }

        async fn summarize(
            &self,
            _: RequestContext,
            input: SummarizeArgs,
        ) -> Result<String, RpcError> {
            Ok(input.city)
        }
    }
}

#[tokio::test]
async fn a_profile_lists_and_calls_by_the_names_it_publishes() {
    use toolidl_generated_tests::codegen::weather::{GetForecastArgs, WeatherToolsServer};
    let serve = |profile: Profile| {
        Server::builder("weather", "0")
            .service(WeatherToolsServer::new(weather::Weather))
            .profile(profile)
            .build()
    };
    for (profile, name) in [
        (Profile::Standard, "forecast.daily"),
        (Profile::Claude, "forecast_daily"),
        (Profile::OpenAiStrict, "forecast_daily"),
        (Profile::Gemini, "forecast_daily"),
    ] {
        let client = Client::connect(&serve(profile)).await.expect("connect");
        let list = client.list_tools().await.expect("tools/list");
        let names: Vec<&str> = list.iter().filter_map(|t| t["name"].as_str()).collect();
        assert_eq!(names, ["get_weather", name, "today"], "{profile}");
        let result = client
            .call_tool(name, json!({"city": "Oslo", "days": 2}))
            .await
            .expect("called by its published name");
        assert!(!result.is_error(), "{profile}: {}", result.text());
        // The typed call names the tool as the server lists it.
        let typed = client
            .call(&GetForecastArgs {
                city: "Oslo".into(),
                days: 2,
            })
            .await
            .expect("typed call");
        assert_eq!(typed, result, "{profile}");
        let other = if profile == Profile::Standard {
            "forecast_daily"
        } else {
            "forecast.daily"
        };
        let refused = client.call_tool(other, json!({"city": "Oslo"})).await;
        assert!(
            refused.is_err(),
            "{profile}: {other} is not listed, so not called"
        );
    }
}

/// Generated tools store their standard listing only; a server serving a profile derives the
/// profile's listing from it when it starts. What it lists is, byte for byte, what the
/// generator publishes for that profile (`toolidl schema --profile`, `toolidl lint`).
#[tokio::test]
async fn a_profile_lists_byte_for_byte_what_the_generator_publishes() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../golden/codegen/weather.tool");
    let model = toolidl_build::compile::compile_file(&path)
        .unwrap_or_else(|failed| panic!("{}", failed.rendered))
        .model;
    let standard = toolidl_codegen::listings(&model, &Default::default()).expect("listings");
    for profile in Profile::ALL {
        let mut published = standard.clone();
        toolidl_codegen::profile::publish(&mut published, profile);
        let expected: Vec<String> = published.services[0]
            .tools
            .iter()
            .map(|t| t.json())
            .collect();
        let server = Server::builder("weather", "0")
            .service(
                toolidl_generated_tests::codegen::weather::WeatherToolsServer::new(
                    weather::Weather,
                ),
            )
            .profile(profile)
            .build();
        let client = Client::connect(&server).await.expect("connect");
        let listed: Vec<String> = client
            .list_tools()
            .await
            .expect("tools/list")
            .iter()
            .map(Value::to_string)
            .collect();
        assert_eq!(listed, expected, "{profile}");
    }
}
