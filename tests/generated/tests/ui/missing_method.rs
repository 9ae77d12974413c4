// An impl of a generated service trait that forgets a tool (`today`).

use toolidl_generated_tests::codegen::weather::{Forecast, Units, WeatherTools};
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
        _city: String,
        _days: u8,
    ) -> Result<Vec<Forecast>, ToolError> {
        Ok(Vec::new())
    }

    async fn city_info(&self, _ctx: RequestContext, name: String) -> Result<String, RpcError> {
        Ok(format!("# {name}"))
    }

    async fn summarize(
        &self,
        _ctx: RequestContext,
        city: String,
        days: u8,
        _units: Option<Units>,
    ) -> Result<String, RpcError> {
        Ok(format!("Summarize {days} days in {city}."))
    }
}

fn main() {}
