// A golden shaped like examples/weather/tools/weather.tool: a dotted name, no import.
package acme.weather;

/// Temperature units.
enum Units { celsius, fahrenheit }

/// One day's forecast.
@rename_all("camelCase")
record Forecast {
    city: string,
    temp_c: f64,
    @range(0, 100) humidity: u8?,
    @json_name("when") day: date,
}

service WeatherTools {
    /// Returns the current weather for a city.
    @title("Get current weather") @read_only @idempotent @open_world @destructive(false)
    tool get_weather(
        /// City name, e.g. 'Brussels'
        @length(1, 100) city: string,
        units: Units = celsius,
    ) -> string;

    @name("forecast.daily")
    tool get_forecast(city: string, @range(1, 14) days: u8 = 3) -> list<Forecast>;

    /// Today's forecast, as structured content.
    tool today(city: string) -> Forecast;

    @uri("weather://cities/{name}") @mime("text/markdown")
    resource city_info(name: string) -> string;

    prompt summarize(city: string, days: u8 = 3) -> string;
}
