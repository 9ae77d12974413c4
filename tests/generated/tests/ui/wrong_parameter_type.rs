// An impl whose `get_weather` takes the tool's old positional parameters (`city: String`)
// instead of its input struct `GetWeatherArgs`.

use toolidl_generated_tests::codegen::weather::Units;
use toolidl_generated_tests::codegen::weather::{
    CityInfoArgs, Forecast, GetForecastArgs, SummarizeArgs, TodayArgs, WeatherTools,
};
use toolidl_runtime::{RequestContext, RpcError, ToolError};

struct MyImpl;

impl WeatherTools for MyImpl {
    async fn get_weather(
        &self,
        _ctx: RequestContext,
        city: String,
        units: Units,
    ) -> Result<String, ToolError> {
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
