//! The generated typed clients (`client(true)`), against generated servers in the same
//! process (`toolidl_runtime::testing`): every result kind of the seed's table comes back as
//! the declared Rust value, in every revision (before 2025-06-18 there is no
//! `structuredContent`, and the client reads the text); resources and prompts send their
//! arguments in their text forms; and a server whose reply breaks the declaration is a
//! `ClientError::Mismatch` naming the call and the place, not a wrong value.

use std::collections::BTreeMap;
use std::sync::Mutex;

use serde_json::{Value, json};
use toolidl_generated_tests::codegen::results::{self, Mood, Note, Results, ResultsClient};
use toolidl_generated_tests::codegen::weather::{
    CityInfoArgs, Forecast, GetForecastArgs, GetWeatherArgs, SummarizeArgs, TodayArgs, Units,
    WeatherTools, WeatherToolsClient, WeatherToolsServer,
};
use toolidl_runtime::client::{ClientError, ReplyFuture, Transport};
use toolidl_runtime::protocol::Revision;
use toolidl_runtime::testing::Client;
use toolidl_runtime::{RequestContext, RpcError, Server, ToolError};

fn note() -> Note {
    Note {
        id: "6f1e3a52-8d0c-4b6a-9b1e-2a4c5d6e7f80".into(),
        text: "milk".into(),
    }
}

/// Every result of `results.tool`, fixed.
struct Fixed;

impl Results for Fixed {
    async fn nothing(&self, _: RequestContext, _: results::NothingArgs) -> Result<(), ToolError> {
        Ok(())
    }
    async fn text(&self, _: RequestContext, _: results::TextArgs) -> Result<String, ToolError> {
        Ok("hi \"there\"\nsecond line".into())
    }
    async fn maybe_text(
        &self,
        _: RequestContext,
        _: results::MaybeTextArgs,
    ) -> Result<Option<String>, ToolError> {
        Ok(None)
    }
    async fn mood(&self, _: RequestContext, _: results::MoodArgs) -> Result<Mood, ToolError> {
        Ok(Mood::Sad)
    }
    async fn maybe_mood(
        &self,
        _: RequestContext,
        _: results::MaybeMoodArgs,
    ) -> Result<Option<Mood>, ToolError> {
        Ok(None)
    }
    async fn count(&self, _: RequestContext, _: results::CountArgs) -> Result<u32, ToolError> {
        Ok(4_000_000_000)
    }
    async fn flag(&self, _: RequestContext, _: results::FlagArgs) -> Result<bool, ToolError> {
        Ok(true)
    }
    async fn when(&self, _: RequestContext, _: results::WhenArgs) -> Result<String, ToolError> {
        Ok("2026-12-03T10:00:00Z".into())
    }
    async fn notes(
        &self,
        _: RequestContext,
        _: results::NotesArgs,
    ) -> Result<Vec<Note>, ToolError> {
        Ok(vec![note(), note()])
    }
    async fn note(&self, _: RequestContext, _: results::NoteArgs) -> Result<Note, ToolError> {
        Ok(note())
    }
    async fn maybe_note(
        &self,
        _: RequestContext,
        _: results::MaybeNoteArgs,
    ) -> Result<Option<Note>, ToolError> {
        Ok(None)
    }
    async fn index(
        &self,
        _: RequestContext,
        _: results::IndexArgs,
    ) -> Result<BTreeMap<String, Note>, ToolError> {
        Ok(BTreeMap::from([("a".into(), note())]))
    }
    async fn maybe_index(
        &self,
        _: RequestContext,
        _: results::MaybeIndexArgs,
    ) -> Result<Option<BTreeMap<String, u8>>, ToolError> {
        Ok(Some(BTreeMap::from([("x".into(), 7)])))
    }
    async fn stamps(
        &self,
        _: RequestContext,
        _: results::StampsArgs,
    ) -> Result<BTreeMap<String, String>, ToolError> {
        Ok(BTreeMap::from([("born".into(), "2020-02-29".into())]))
    }
    async fn blocks(
        &self,
        _: RequestContext,
        _: results::BlocksArgs,
    ) -> Result<Vec<Value>, ToolError> {
        Ok(vec![json!({"type": "text", "text": "one"})])
    }
    async fn raw(&self, _: RequestContext, _: results::RawArgs) -> Result<Value, ToolError> {
        Ok(json!({"content": [], "_meta": {"x": 1}}))
    }
    async fn value(&self, _: RequestContext, _: results::ValueArgs) -> Result<Value, ToolError> {
        Ok(json!([1, "two", null]))
    }
    async fn obj(
        &self,
        _: RequestContext,
        _: results::ObjArgs,
    ) -> Result<serde_json::Map<String, Value>, ToolError> {
        Ok(json!({"k": {"deep": [true]}})
            .as_object()
            .cloned()
            .unwrap_or_default())
    }
}

async fn results_client(revision: Revision) -> ResultsClient {
    let server = Server::builder("results", "0")
        .service(results::ResultsServer::new(Fixed))
        .build();
    let client = Client::builder()
        .revision(revision)
        .connect(&server)
        .await
        .expect("connects");
    ResultsClient::new(client)
}

#[tokio::test]
async fn every_result_kind_comes_back_as_declared_in_every_revision() -> Result<(), ClientError> {
    for revision in Revision::ALL {
        let client = results_client(revision).await;
        client.nothing().await?;
        assert_eq!(
            client.text().await?,
            "hi \"there\"\nsecond line",
            "{revision}"
        );
        assert_eq!(client.maybe_text().await?, None);
        assert_eq!(client.mood().await?, Mood::Sad);
        assert_eq!(client.maybe_mood().await?, None);
        assert_eq!(client.count().await?, 4_000_000_000);
        assert!(client.flag().await?);
        assert_eq!(client.when().await?, "2026-12-03T10:00:00Z");
        assert_eq!(client.notes().await?, vec![note(), note()]);
        assert_eq!(client.note().await?, note(), "{revision}");
        assert_eq!(client.maybe_note().await?, None, "{revision}");
        assert_eq!(
            client.index().await?,
            BTreeMap::from([("a".to_owned(), note())])
        );
        assert_eq!(
            client.maybe_index().await?,
            Some(BTreeMap::from([("x".to_owned(), 7)]))
        );
        assert_eq!(
            client.stamps().await?,
            BTreeMap::from([("born".to_owned(), "2020-02-29".to_owned())])
        );
        assert_eq!(
            client.blocks().await?,
            vec![json!({"type": "text", "text": "one"})]
        );
        assert_eq!(client.raw().await?["_meta"], json!({"x": 1}));
        assert_eq!(client.value().await?, json!([1, "two", null]));
        assert_eq!(client.obj().await?["k"], json!({"deep": [true]}));
    }
    Ok(())
}

/// The weather design example, remembering what its resource and prompt were given.
#[derive(Default)]
struct Weather {
    seen: Mutex<Vec<String>>,
}

impl WeatherTools for Weather {
    async fn get_weather(
        &self,
        _: RequestContext,
        GetWeatherArgs { city, units, .. }: GetWeatherArgs,
    ) -> Result<String, ToolError> {
        if city == "Atlantis" {
            return Err(ToolError::message("No such city: Atlantis."));
        }
        Ok(format!("{city}: 21 {units}"))
    }
    async fn get_forecast(
        &self,
        _: RequestContext,
        GetForecastArgs { city, days, .. }: GetForecastArgs,
    ) -> Result<Vec<Forecast>, ToolError> {
        Ok((0..days).map(|d| forecast(&city, d)).collect())
    }
    async fn today(
        &self,
        _: RequestContext,
        TodayArgs { city, .. }: TodayArgs,
    ) -> Result<Forecast, ToolError> {
        Ok(forecast(&city, 0))
    }
    async fn city_info(
        &self,
        _: RequestContext,
        CityInfoArgs { name, .. }: CityInfoArgs,
    ) -> Result<String, RpcError> {
        self.remember(format!("city_info {name}"));
        Ok(format!("{name} is a city."))
    }
    async fn summarize(&self, _: RequestContext, input: SummarizeArgs) -> Result<String, RpcError> {
        self.remember(format!("summarize {input:?}"));
        Ok(format!("Summarize {} days of {}.", input.days, input.city))
    }
}

impl Weather {
    fn remember(&self, what: String) {
        if let Ok(mut seen) = self.seen.lock() {
            seen.push(what);
        }
    }
}

fn forecast(city: &str, day: u8) -> Forecast {
    Forecast {
        city: city.into(),
        temp_c: 20.5 + f64::from(day),
        humidity: Some(40 + day),
        day: format!("2026-12-{:02}", 3 + day),
    }
}

#[tokio::test]
async fn tools_resources_and_prompts_take_and_give_their_types() -> Result<(), ClientError> {
    let weather = std::sync::Arc::new(Weather::default());
    let server = Server::builder("weather", "0")
        .service(WeatherToolsServer::from_arc(std::sync::Arc::clone(
            &weather,
        )))
        .build();
    let client = WeatherToolsClient::new(Client::connect(&server).await?);
    let city = || "New York/Bronx".to_owned();
    let weather_now = GetWeatherArgs {
        city: city(),
        units: Units::Fahrenheit,
    };
    assert_eq!(
        client.get_weather(weather_now).await?,
        "New York/Bronx: 21 fahrenheit"
    );
    let days = client
        .get_forecast(GetForecastArgs {
            city: city(),
            days: 2,
        })
        .await?;
    assert_eq!(days, vec![forecast(&city(), 0), forecast(&city(), 1)]);
    assert_eq!(
        client.today(TodayArgs { city: city() }).await?,
        forecast(&city(), 0)
    );
    // The template's variable is percent-encoded on the way out and decoded by the server.
    let info = client.city_info(CityInfoArgs { name: city() }).await?;
    assert_eq!(info, "New York/Bronx is a city.");
    let summary = SummarizeArgs {
        city: city(),
        days: 5,
        units: Some(Units::Celsius),
    };
    assert_eq!(
        client.summarize(summary.clone()).await?,
        "Summarize 5 days of New York/Bronx."
    );
    let unset = SummarizeArgs {
        units: None,
        ..summary.clone()
    };
    client.summarize(unset.clone()).await?;
    let seen = weather.seen.lock().map(|s| s.clone()).unwrap_or_default();
    assert_eq!(
        seen,
        [
            "city_info New York/Bronx".to_owned(),
            format!("summarize {summary:?}"),
            format!("summarize {unset:?}"),
        ]
    );
    // The tool's own error keeps the server's text.
    let atlantis = GetWeatherArgs {
        city: "Atlantis".into(),
        units: Units::Celsius,
    };
    match client.get_weather(atlantis).await {
        Err(ClientError::Tool { text, .. }) => assert_eq!(text, "No such city: Atlantis."),
        other => panic!("expected the tool's error, got {other:?}"),
    }
    // Arguments the server refuses are the tool error the specification asks for.
    match client
        .get_forecast(GetForecastArgs {
            city: city(),
            days: 15,
        })
        .await
    {
        Err(ClientError::Tool { text, .. }) => {
            assert!(text.starts_with("Argument 'days' is not valid."), "{text}")
        }
        other => panic!("expected the tool's error, got {other:?}"),
    }
    Ok(())
}

/// A server that answers every request with `reply`: one that breaks its declarations.
struct Canned(Value);

impl Transport for Canned {
    fn request<'a>(&'a self, _: &'a str, _: Value) -> ReplyFuture<'a> {
        let reply = self.0.clone();
        Box::pin(async move { Ok(reply) })
    }

    fn notify(&self, _: &str, _: Value) -> Result<(), ClientError> {
        Ok(())
    }
}

fn mismatch(result: Result<impl std::fmt::Debug, ClientError>) -> String {
    match result {
        Err(error @ ClientError::Mismatch { .. }) => error.to_string(),
        other => panic!("expected a mismatch, got {other:?}"),
    }
}

#[tokio::test]
async fn a_result_that_breaks_its_declaration_is_a_mismatch_naming_the_place() {
    // `humidity` is `@range(0, 100) u8?`.
    let wet = json!({"city": "Oslo", "tempC": 3.0, "humidity": 150, "when": "2026-12-03"});
    let client = WeatherToolsClient::new(Canned(json!({
        "content": [{"type": "text", "text": wet.to_string()}],
        "structuredContent": wet,
    })));
    assert_eq!(
        mismatch(
            client
                .today(TodayArgs {
                    city: "Oslo".into()
                })
                .await
        ),
        "the result of tool `today` does not match its declaration: `humidity` is not valid: \
         Expected a value of at most 100."
    );
    // `when` is a `date`, checked in the items of a list too.
    let client = WeatherToolsClient::new(Canned(json!({
        "content": [{"type": "text", "text": r#"[{"city":"Oslo","tempC":3,"when":"yesterday"}]"#}],
    })));
    let message = mismatch(
        client
            .get_forecast(GetForecastArgs {
                city: "Oslo".into(),
                days: 1,
            })
            .await,
    );
    assert!(message.starts_with("the result of tool `forecast.daily` does not match its declaration: `[0].when` is not valid:"), "{message}");
    // An enum result that names no member; text that is not JSON where JSON is declared.
    let client = ResultsClient::new(Canned(
        json!({"content": [{"type": "text", "text": "angry"}]}),
    ));
    let message = mismatch(client.mood().await);
    assert!(
        message.starts_with(
            "the result of tool `mood` does not match its declaration: the value is not valid:"
        ),
        "{message}"
    );
    let message = mismatch(client.count().await);
    assert!(
        message.starts_with(
            "the result of tool `count` does not match its declaration: the result is not JSON:"
        ),
        "{message}"
    );
    // A format inside a map's values; a resource without contents.
    let client = ResultsClient::new(Canned(
        json!({"content": [], "structuredContent": {"born": "02/29/2020"}}),
    ));
    let message = mismatch(client.stamps().await);
    assert!(
        message.ends_with("`[\"born\"]` is not valid: Expected a date (YYYY-MM-DD)."),
        "{message}"
    );
    let client = WeatherToolsClient::new(Canned(json!({"contents": []})));
    assert_eq!(
        mismatch(
            client
                .city_info(CityInfoArgs {
                    name: "Oslo".into()
                })
                .await
        ),
        "the result of resource `weather://cities/Oslo` does not match its declaration: the result has no contents"
    );
}
