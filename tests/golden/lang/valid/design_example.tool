package acme.weather;                 // optional; default: the file stem
import "common.tool";                 // path relative to this file

/// Temperature units.                // `///` doc comments attach to the next item, field, param or variant
enum Units { celsius, fahrenheit }

/// One day's forecast.
@rename_all("camelCase")              // the only accepted policy; none = names as written
record Forecast {
    city: string,
    temp_c: f64,
    @range(0, 100) humidity: u8?,     // `T?` = nullable: the type accepts null
    @json_name("when") day: date,
}

service WeatherTools {                // → trait WeatherTools + WeatherToolsServer<T>
    /// Returns the current weather for a city.
    @title("Get current weather") @read_only @idempotent @open_world @destructive(false)
    tool get_weather(
        /// City name, e.g. 'Brussels'
        @length(1, 100) city: string,
        units: Units = celsius,
    ) -> string;

    @name("forecast.daily")
    tool get_forecast(city: string, @range(1, 14) days: u8 = 3) -> list<Forecast>;

    @uri("weather://cities/{name}") @mime("text/markdown")
    resource city_info(name: string) -> string;

    prompt summarize(city: string, days: u8 = 3) -> string;
}
