// An impl whose `get_weather` returns `Result<i32, ToolError>` where the .tool file says
// `-> string`.

use toolidl_generated_tests::codegen::weather::{
    CityInfoArgs, Forecast, GetForecastArgs, GetWeatherArgs, SummarizeArgs, TodayArgs, WeatherTools,
};
use toolidl_runtime::{RequestContext, RpcError, ToolError};

struct MyImpl;

impl WeatherTools for MyImpl {
    async fn get_weather(&self, _ctx: RequestContext, _: GetWeatherArgs) -> Result<i32, ToolError> {
        Ok(11)
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
