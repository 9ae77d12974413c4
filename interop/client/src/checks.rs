//! The fixed script: each typed call with the value `examples/weather/src/lib.rs` answers.
//! Every server the interop run calls (ours, and the official SDKs' in interop/clients/) has
//! to give exactly these.

use std::fmt::Debug;

use toolidl_runtime::client::ClientError;

use crate::acme::common::Coordinates;
use crate::acme::weather::{
    CityInfoArgs, Forecast, GetForecastArgs, GetWeatherArgs, LocateArgs, SummarizeArgs, Units,
    WeatherToolsClient,
};
use crate::manual::{AddArgs, GreetArgs, ManualToolsClient, Stats, StatsArgs};

/// How a check went: `Ok` with a note to print (often empty), or what was wrong.
type Outcome = Result<String, String>;

/// The counts, for the last line.
#[derive(Default)]
pub struct Tally {
    pub passed: usize,
    pub failed: usize,
}

impl Tally {
    /// Prints the check's line on stderr (where interop.sh looks for failures) and counts it.
    fn record(&mut self, name: &str, outcome: Outcome) {
        match outcome {
            Ok(note) if note.is_empty() => eprintln!("ok {name}"),
            Ok(note) => eprintln!("ok {name} ({note})"),
            Err(why) => {
                self.failed += 1;
                eprintln!("FAILED {name}: {why}");
                return;
            }
        }
        self.passed += 1;
    }
}

/// An error as a failed check names it: its variant, then its message.
fn why(e: &ClientError) -> String {
    let variant = match e {
        ClientError::Tool { .. } => "Tool",
        ClientError::Protocol(_) => "Protocol",
        ClientError::Transport(_) => "Transport",
        ClientError::Authorization(_) => "Authorization",
        ClientError::Mismatch { .. } => "Mismatch",
        ClientError::Input { .. } => "Input",
    };
    format!("{variant}: {e}")
}

/// The call answered `want`.
fn equals<T: PartialEq + Debug>(got: Result<T, ClientError>, want: T) -> Outcome {
    match got {
        Ok(value) if value == want => Ok(String::new()),
        Ok(value) => Err(format!("got {value:?}, expected {want:?}")),
        Err(e) => Err(why(&e)),
    }
}

/// The tool ran and said no, with exactly `want` as its text.
fn tool_error<T: Debug>(got: Result<T, ClientError>, want: &str) -> Outcome {
    match got {
        Err(ClientError::Tool { text, .. }) if text == want => Ok(String::new()),
        Err(ClientError::Tool { text, .. }) => {
            Err(format!("tool error {text:?}, expected {want:?}"))
        }
        Err(e) => Err(format!("{}, expected the tool error {want:?}", why(&e))),
        Ok(value) => Err(format!("got {value:?}, expected the tool error {want:?}")),
    }
}

/// Arguments outside the declared range: refused, as a tool error (the handshake revisions)
/// or as invalid params (-32602). Both are right; the note says which came.
fn refused<T: Debug>(got: Result<T, ClientError>) -> Outcome {
    match got {
        Err(ClientError::Tool { text, .. }) => Ok(format!("tool error: {text}")),
        Err(ClientError::Protocol(e)) if e.code == -32602 => Ok(format!("-32602: {}", e.message)),
        Err(e) => Err(format!("{}, expected a tool error or -32602", why(&e))),
        Ok(value) => Err(format!("got {value:?}, expected a refusal")),
    }
}

/// Resource not found, with exactly `message`: -32002 under the handshake revisions,
/// -32602 under 2026-07-28 (SEP-2164), which the TypeScript SDK sends under every revision.
/// Both are right; the note says which came.
fn not_found<T: Debug>(got: Result<T, ClientError>, message: &str) -> Outcome {
    match got {
        Err(ClientError::Protocol(e))
            if [-32002, -32602].contains(&e.code) && e.message == message =>
        {
            Ok(format!("{}", e.code))
        }
        Err(e) => Err(format!(
            "{}, expected -32002 or -32602 {message:?}",
            why(&e)
        )),
        Ok(value) => Err(format!(
            "got {value:?}, expected -32002 or -32602 {message:?}"
        )),
    }
}

fn weather(city: &str, units: Units) -> GetWeatherArgs {
    GetWeatherArgs {
        city: city.into(),
        units,
    }
}

fn forecast(city: &str, days: u8) -> GetForecastArgs {
    GetForecastArgs {
        city: city.into(),
        days,
    }
}

fn day(temp_c: f64, humidity: Option<u8>, day: &str) -> Forecast {
    Forecast {
        city: "Oslo".into(),
        temp_c,
        humidity,
        day: day.into(),
    }
}

/// Runs every check in order, printing a line for each.
pub async fn run(weather_tools: &WeatherToolsClient, manual: &ManualToolsClient) -> Tally {
    let w = weather_tools;
    let mut tally = Tally::default();
    let mut check = |name: &str, outcome| tally.record(name, outcome);

    check(
        "get_weather Oslo celsius",
        equals(
            w.get_weather(weather("Oslo", Units::Celsius)).await,
            "Oslo: 3.0°C".into(),
        ),
    );
    check(
        "get_weather Oslo fahrenheit",
        equals(
            w.get_weather(weather("oslo", Units::Fahrenheit)).await,
            "Oslo: 37.4°F".into(),
        ),
    );
    check(
        "get_weather unknown city",
        tool_error(
            w.get_weather(weather("Atlantis", Units::Celsius)).await,
            "No weather known for Atlantis.",
        ),
    );
    // Humidity only on even days: an absent optional field reads back as None.
    let two_days = vec![
        day(3.0, Some(60), "2026-12-01"),
        day(3.5, None, "2026-12-02"),
    ];
    check(
        "daily_forecast Oslo 2 days",
        equals(w.get_forecast(forecast("Oslo", 2)).await, two_days),
    );
    check(
        "daily_forecast unknown city",
        tool_error(
            w.get_forecast(forecast("Atlantis", 2)).await,
            "No forecast for Atlantis.",
        ),
    );
    check(
        "daily_forecast 15 days refused",
        refused(w.get_forecast(forecast("Oslo", 15)).await),
    );
    let lisbon = Coordinates {
        latitude: 38.72,
        longitude: -9.14,
    };
    check(
        "locate Lisbon",
        equals(
            w.locate(LocateArgs {
                city: "Lisbon".into(),
            })
            .await,
            lisbon,
        ),
    );
    check(
        "locate unknown city",
        tool_error(
            w.locate(LocateArgs {
                city: "Atlantis".into(),
            })
            .await,
            "No city named Atlantis.",
        ),
    );
    check(
        "resource city_info Oslo",
        equals(
            w.city_info(CityInfoArgs {
                name: "Oslo".into(),
            })
            .await,
            "# Oslo\n\nAt 59.91° N, 10.75° E.\n".into(),
        ),
    );
    check(
        "resource city_info unknown city",
        not_found(
            w.city_info(CityInfoArgs {
                name: "Atlantis".into(),
            })
            .await,
            "No city named Atlantis.",
        ),
    );
    let summarize = SummarizeArgs {
        city: "Oslo".into(),
        days: 2,
        units: Units::Fahrenheit,
    };
    check(
        "prompt summarize",
        equals(
            w.summarize(summarize).await,
            "Summarize the weather in Oslo for the next 2 days, in fahrenheit.".into(),
        ),
    );
    check(
        "greet",
        equals(
            manual.greet(GreetArgs { name: "Ada".into() }).await,
            "Hello, Ada!".into(),
        ),
    );
    // Past i32: the sum is an i64.
    let (a, b) = (i32::MAX, i32::MAX);
    check(
        "add",
        equals(manual.add(AddArgs { a, b }).await, 4_294_967_294),
    );
    let stats = Stats {
        count: 4,
        min: 1.0,
        max: 4.0,
        mean: 2.5,
    };
    let values = vec![1.0, 4.0, 2.0, 3.0];
    check(
        "stats",
        equals(manual.stats(StatsArgs { values }).await, stats),
    );
    tally
}
