// A golden shaped like examples/weather/tools/weather.tool, fully documented (missing_docs).
package codegen.weather;

/// Temperature units.
enum Units {
    /// Degrees Celsius.
    celsius,
    /// Degrees Fahrenheit.
    fahrenheit,
}

/// One day's forecast.
@rename_all("camelCase")
record Forecast {
    /// The city it is for.
    city: string,
    /// The temperature, in degrees Celsius.
    temp_c: f64,
    /// Relative humidity in percent, when measured.
    @range(0, 100) humidity: u8?,
    /// The day.
    @json_name("when") day: date,
}

/// Weather tools.
service WeatherTools {
    /// Returns the current weather for a city.
    @title("Get current weather") @read_only @idempotent @open_world @destructive(false)
    tool get_weather(
        /// City name, e.g. 'Brussels'
        @length(1, 100) city: string,
        /// The units of the answer.
        units: Units = celsius,
    ) -> string;

    /// The forecast of the coming days.
    @name("forecast.daily")
    tool get_forecast(city: string, @range(1, 14) days: u8 = 3) -> list<Forecast>;

    /// Today's forecast, as structured content.
    tool today(city: string) -> Forecast;

    /// What there is to know about a city.
    @uri("weather://cities/{name}") @mime("text/markdown")
    resource city_info(name: string) -> string;

    /// Asks for a summary of the coming days.
    prompt summarize(city: string, days: u8 = 3, units: Units? = null) -> string;
}
