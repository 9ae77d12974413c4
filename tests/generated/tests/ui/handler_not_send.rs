// An `async fn` handler whose future is not Send: it holds an `Rc` across an `.await`.
// The generated trait requires every handler future to be Send, so a server can run calls on any
// thread.

use std::rc::Rc;

use toolidl_generated_tests::codegen::weather::{
    CityInfoArgs, Forecast, GetForecastArgs, GetWeatherArgs, SummarizeArgs, TodayArgs, WeatherTools,
};
use toolidl_runtime::{RequestContext, RpcError, ToolError};

struct MyImpl;

impl WeatherTools for MyImpl {
    async fn get_weather(
        &self,
        _ctx: RequestContext,
        GetWeatherArgs { city, units, .. }: GetWeatherArgs,
    ) -> Result<String, ToolError> {
        let city = Rc::new(city);
        std::future::ready(()).await;
        Ok(format!("{city}: 11.5 {units}"))
    }

    async fn get_forecast(
        &self,
        _ctx: RequestContext,
        _: GetForecastArgs,
    ) -> Result<Vec<Forecast>, ToolError> {
        Ok(Vec::new())
    }

    async fn today(
        &self,
        _ctx: RequestContext,
        TodayArgs { city, .. }: TodayArgs,
    ) -> Result<Forecast, ToolError> {
        Err(ToolError::message(format!("No forecast for {city}.")))
    }

    async fn city_info(
        &self,
        _ctx: RequestContext,
        CityInfoArgs { name, .. }: CityInfoArgs,
    ) -> Result<String, RpcError> {
        Ok(format!("# {name}"))
    }

    async fn summarize(
        &self,
        _ctx: RequestContext,
        SummarizeArgs { city, days, .. }: SummarizeArgs,
    ) -> Result<String, RpcError> {
        Ok(format!("Summarize {days} days in {city}."))
    }
}

fn main() {}
