//! What the fuzz targets share: the generated server they drive (examples/weather's
//! interface with handlers that answer at once), the runtime they drive it on, and the text
//! format of the `http` target's requests.

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use hyper::body::{Body, Bytes, Frame};
use toolidl_runtime::{RequestContext, RpcError, Server, ToolError};

toolidl_runtime::include_tools!();

use acme::common::Coordinates;
use acme::weather::{
    CityInfoArgs, Forecast, GetForecastArgs, GetWeatherArgs, LocateArgs, SummarizeArgs,
    WeatherTools, WeatherToolsServer,
};
use manual::{AddArgs, GreetArgs, ManualTools, ManualToolsServer, Stats, StatsArgs};

/// Handlers that answer from their arguments at once: what the fuzzer reaches is the
/// runtime and the generated decoders, not a service's logic.
struct Weather;

impl WeatherTools for Weather {
    async fn get_weather(
        &self,
        _ctx: RequestContext,
        args: GetWeatherArgs,
    ) -> Result<String, ToolError> {
        match args.city.as_str() {
            "" => Err(ToolError::message("no city")),
            city => Ok(city.to_owned()),
        }
    }

    async fn get_forecast(
        &self,
        _ctx: RequestContext,
        args: GetForecastArgs,
    ) -> Result<Vec<Forecast>, ToolError> {
        Ok((0..args.days)
            .map(|d| Forecast {
                city: args.city.clone(),
                temp_c: f64::from(d),
                humidity: (d % 2 == 0).then_some(d),
                day: format!("2026-12-{:02}", 1 + d % 28),
            })
            .collect())
    }

    async fn locate(
        &self,
        _ctx: RequestContext,
        args: LocateArgs,
    ) -> Result<Coordinates, ToolError> {
        // A city's length as a latitude: some of them out of the record's own range, which
        // the runtime must refuse to publish.
        let latitude = args.city.len() as f64;
        Ok(Coordinates {
            latitude,
            longitude: -latitude,
        })
    }

    async fn city_info(
        &self,
        _ctx: RequestContext,
        args: CityInfoArgs,
    ) -> Result<String, RpcError> {
        match args.name.as_str() {
            "" => Err(RpcError::resource_not_found("no city")),
            name => Ok(format!("# {name}\n")),
        }
    }

    async fn summarize(
        &self,
        _ctx: RequestContext,
        args: SummarizeArgs,
    ) -> Result<String, RpcError> {
        Ok(format!("{} {} {}", args.city, args.days, args.units))
    }
}

struct Manual;

impl ManualTools for Manual {
    async fn greet(&self, _ctx: RequestContext, args: GreetArgs) -> Result<String, ToolError> {
        Ok(args.name)
    }

    async fn add(&self, _ctx: RequestContext, args: AddArgs) -> Result<i64, ToolError> {
        Ok(i64::from(args.a) + i64::from(args.b))
    }

    async fn stats(&self, _ctx: RequestContext, args: StatsArgs) -> Result<Stats, ToolError> {
        let values = &args.values;
        // An infinite or NaN mean, which the runtime must refuse to publish, for some inputs.
        Ok(Stats {
            count: values.len() as u64,
            min: values.iter().copied().fold(f64::INFINITY, f64::min),
            max: values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            mean: values.iter().sum::<f64>() / values.len() as f64,
        })
    }
}

/// The server: both services.
pub fn server() -> Server {
    Server::builder("fuzz", "0.0.0")
        .service(WeatherToolsServer::new(Weather))
        .service(ManualToolsServer::new(Manual))
        .build()
}

/// A runtime for one input: one thread, its clock paused, so that a timer fires as soon as
/// nothing else can run (a 30-second timeout passes at once). Dropped after the input, with
/// whatever it still holds.
pub fn runtime() -> tokio::runtime::Runtime {
    match tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => panic!("cannot build a tokio runtime: {error}"),
    }
}

/// How long (on the paused clock) an input's spawned calls and response streams may run
/// before they are dropped.
pub const SETTLE: Duration = Duration::from_secs(60);

/// One request of the `http` target's input.
///
/// The input is requests separated by a line `%%`. Each is a line `METHOD [PATH]`, header
/// lines `name: value`, an empty line, and the body (every byte up to the separator). A header
/// value `$session` is replaced by the session id the target opened (session mode). Lines end
/// with `\n`; bytes that make no method, path, header name or value are dropped.
pub struct HttpInput<'a> {
    pub method: &'a [u8],
    pub path: &'a [u8],
    pub headers: Vec<(&'a [u8], &'a [u8])>,
    pub body: &'a [u8],
}

/// At most this many requests are read from one input.
pub const MAX_REQUESTS: usize = 16;

/// The requests of an `http` input.
pub fn http_inputs(data: &[u8]) -> Vec<HttpInput<'_>> {
    split(data, b"\n%%\n")
        .take(MAX_REQUESTS)
        .map(|request| {
            let (head, body) = match find(request, b"\n\n") {
                Some(at) => (&request[..at], &request[at + 2..]),
                None => (request, &b""[..]),
            };
            let mut lines = head.split(|&b| b == b'\n');
            let first = lines.next().unwrap_or_default();
            let (method, path) = match first.iter().position(|&b| b == b' ') {
                Some(at) => (&first[..at], &first[at + 1..]),
                None => (first, &b"/mcp"[..]),
            };
            let headers = lines
                .filter_map(|line| {
                    let at = line.iter().position(|&b| b == b':')?;
                    Some((&line[..at], line[at + 1..].trim_ascii()))
                })
                .collect();
            HttpInput {
                method,
                path,
                headers,
                body,
            }
        })
        .collect()
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn split<'a>(mut data: &'a [u8], separator: &'a [u8]) -> impl Iterator<Item = &'a [u8]> {
    let mut done = false;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        match find(data, separator) {
            Some(at) => {
                let part = &data[..at];
                data = &data[at + separator.len()..];
                Some(part)
            }
            None => {
                done = true;
                Some(data)
            }
        }
    })
}

/// A request body that is there at once, in one frame.
pub struct Whole(pub Option<Bytes>);

impl Body for Whole {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        Poll::Ready(self.get_mut().0.take().map(|b| Ok(Frame::data(b))))
    }
}
