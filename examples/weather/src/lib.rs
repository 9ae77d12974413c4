//! The weather service the README and the docs show, and `examples/manual`'s tools,
//! generated from `tools/*.tool` by `build.rs` and implemented here with plain `async fn`s.

use toolidl_runtime::{RequestContext, RpcError, Server, ToolError};

// Every package the build generated, nested by package path: `acme::weather`,
// `acme::common`, `manual`.
toolidl_runtime::include_tools!();

use acme::common::Coordinates;
use acme::weather::{
    CityInfoArgs, Forecast, GetForecastArgs, GetWeatherArgs, LocateArgs, SummarizeArgs, Units,
    WeatherTools, WeatherToolsServer,
};
use manual::{AddArgs, GreetArgs, ManualTools, ManualToolsServer, Stats, StatsArgs};

/// A weather service with a few known cities and no network.
#[derive(Default)]
pub struct Weather;

/// Known cities: name, latitude, longitude, temperature in °C.
const CITIES: &[(&str, f64, f64, f64)] = &[
    ("Brussels", 50.85, 4.35, 11.5),
    ("Lisbon", 38.72, -9.14, 19.0),
    ("Oslo", 59.91, 10.75, 3.0),
];

fn city(name: &str) -> Option<&'static (&'static str, f64, f64, f64)> {
    CITIES.iter().find(|c| c.0.eq_ignore_ascii_case(name))
}

impl WeatherTools for Weather {
    async fn get_weather(
        &self,
        _ctx: RequestContext,
        GetWeatherArgs {
            city: city_name,
            units,
            ..
        }: GetWeatherArgs,
    ) -> Result<String, ToolError> {
        let Some(&(name, _, _, celsius)) = city(&city_name) else {
            return Err(ToolError::message(format!(
                "No weather known for {city_name}."
            )));
        };
        Ok(match units {
            Units::Celsius => format!("{name}: {celsius:.1}°C"),
            Units::Fahrenheit => format!("{name}: {:.1}°F", celsius * 9.0 / 5.0 + 32.0),
        })
    }

    async fn get_forecast(
        &self,
        _ctx: RequestContext,
        GetForecastArgs {
            city: city_name,
            days,
            ..
        }: GetForecastArgs,
    ) -> Result<Vec<Forecast>, ToolError> {
        let Some(&(name, _, _, celsius)) = city(&city_name) else {
            return Err(ToolError::message(format!("No forecast for {city_name}.")));
        };
        Ok((0..days)
            .map(|d| Forecast {
                city: name.to_owned(),
                temp_c: celsius + f64::from(d) / 2.0,
                humidity: (d % 2 == 0).then_some(60 + d),
                day: format!("2026-12-{:02}", 1 + d),
            })
            .collect())
    }

    async fn locate(
        &self,
        _ctx: RequestContext,
        LocateArgs {
            city: city_name, ..
        }: LocateArgs,
    ) -> Result<Coordinates, ToolError> {
        match city(&city_name) {
            Some(&(_, latitude, longitude, _)) => Ok(Coordinates {
                latitude,
                longitude,
            }),
            None => Err(ToolError::message(format!("No city named {city_name}."))),
        }
    }

    async fn city_info(
        &self,
        _ctx: RequestContext,
        CityInfoArgs { name, .. }: CityInfoArgs,
    ) -> Result<String, RpcError> {
        match city(&name) {
            Some(&(name, lat, lon, _)) => Ok(format!("# {name}\n\nAt {lat}° N, {lon}° E.\n")),
            None => Err(RpcError::resource_not_found(format!(
                "No city named {name}."
            ))),
        }
    }

    async fn summarize(
        &self,
        _ctx: RequestContext,
        SummarizeArgs {
            city, days, units, ..
        }: SummarizeArgs,
    ) -> Result<String, RpcError> {
        Ok(format!(
            "Summarize the weather in {city} for the next {days} days, in {units}."
        ))
    }
}

/// `examples/manual`'s tools, generated instead of written by hand.
#[derive(Default)]
pub struct Manual;

impl ManualTools for Manual {
    async fn greet(
        &self,
        _ctx: RequestContext,
        GreetArgs { name, .. }: GreetArgs,
    ) -> Result<String, ToolError> {
        Ok(format!("Hello, {name}!"))
    }

    async fn add(
        &self,
        _ctx: RequestContext,
        AddArgs { a, b, .. }: AddArgs,
    ) -> Result<i64, ToolError> {
        Ok(i64::from(a) + i64::from(b))
    }

    async fn stats(
        &self,
        _ctx: RequestContext,
        StatsArgs { values, .. }: StatsArgs,
    ) -> Result<Stats, ToolError> {
        let min = values.iter().copied().fold(f64::INFINITY, f64::min);
        let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let sum: f64 = values.iter().sum();
        // A sum that overflows makes the mean infinite: the runtime refuses to publish that
        // (its outputSchema says number) and answers "The tool failed." instead.
        Ok(Stats {
            count: values.len() as u64,
            min,
            max,
            mean: sum / values.len() as f64,
        })
    }
}

/// The server: both services, weather first.
pub fn server() -> Server {
    server_with(|builder| builder)
}

/// The same, with `configure` applied to the builder (`--redis`, say) before it is built.
pub fn server_with(
    configure: impl FnOnce(toolidl_runtime::ServerBuilder) -> toolidl_runtime::ServerBuilder,
) -> Server {
    let builder = Server::builder("weather-example", env!("CARGO_PKG_VERSION"))
        .instructions("Weather for a few cities, and greet, add and stats.")
        .service(WeatherToolsServer::new(Weather))
        .service(ManualToolsServer::new(Manual));
    configure(builder).build()
}

/// Sends `tracing` output to stderr (stdout carries only protocol messages), filtered by
/// `RUST_LOG` (default `warn`). With feature `otel` (on by default) and an OTLP endpoint in
/// the environment (`OTEL_EXPORTER_OTLP_ENDPOINT`, or a signal's own), also exports the
/// server's spans and metrics over OTLP/HTTP (`docs/telemetry.md`). Keep what it returns
/// until the server has stopped: dropping it flushes and stops the export.
#[must_use = "dropping it stops the OpenTelemetry export"]
pub fn init_logging() -> Logging {
    use tracing_subscriber::Layer;
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    let filter =
        tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into());
    let logs = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_filter(filter);
    let registry = tracing_subscriber::registry().with(logs);
    #[cfg(feature = "otel")]
    {
        let otlp =
            toolidl_runtime::telemetry::Otlp::from_env("weather-example").unwrap_or_else(|e| {
                eprintln!("weather-example: {e}");
                None
            });
        // The request spans are at INFO, whatever RUST_LOG lets through to stderr. Without
        // an exporter no layer is added: the spans are not even made.
        let _ = match &otlp {
            Some(o) => registry
                .with(
                    o.layer()
                        .with_filter(tracing_subscriber::filter::LevelFilter::INFO),
                )
                .try_init(),
            None => registry.try_init(),
        };
        Logging { _otlp: otlp }
    }
    #[cfg(not(feature = "otel"))]
    {
        let _ = registry.try_init();
        Logging {}
    }
}

/// What [`init_logging`] set up: the OTLP exporter, flushed when this is dropped.
pub struct Logging {
    #[cfg(feature = "otel")]
    _otlp: Option<toolidl_runtime::telemetry::Otlp>,
}
