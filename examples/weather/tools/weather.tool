// The weather example; README.md and docs/ show excerpts of it (scripts/readme.sh checks them).
package acme.weather;

import "common.tool";

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

/// Weather tools.
service WeatherTools {
    /// Returns the current weather for a city.
    @title("Get current weather") @read_only @idempotent @open_world @destructive(false)
    tool get_weather(
        /// City name, e.g. 'Brussels'
        @length(1, 100) city: string,
        units: Units = celsius,
    ) -> string;

    // Published under another name than its method's: a name of letters, digits and `_`,
    // which every client and model provider accepts (a dotted name is W0401).
    /// The forecast of the coming days.
    @name("daily_forecast")
    tool get_forecast(city: string, @range(1, 14) days: u8 = 3) -> list<Forecast>;

    // Not `-> Coordinates?`: every official client refuses a null result from a tool whose
    // listing has an `outputSchema`, so an unknown city is a tool error, as in get_weather.
    /// Where a city is.
    tool locate(@length(1, 100) city: string) -> Coordinates;

    /// What there is to know about a city.
    @uri("weather://cities/{name}") @mime("text/markdown")
    resource city_info(name: string) -> string;

    /// Asks for a summary of the coming days.
    prompt summarize(city: string, days: u8 = 3, units: Units = celsius) -> string;
}
