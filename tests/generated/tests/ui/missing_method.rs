// An impl of a generated service trait that forgets a tool (`today`).

use toolidl_generated_tests::codegen::weather::{
    CityInfoArgs, Forecast, GetForecastArgs, GetWeatherArgs, SummarizeArgs, WeatherTools,
};
use toolidl_runtime::{RequestContext, RpcError, ToolError};

struct MyImpl;

impl WeatherTools for MyImpl {
    async fn get_weather(
        &self,
        _ctx: RequestContext,
        GetWeatherArgs { city, units, .. }: GetWeatherArgs,
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
