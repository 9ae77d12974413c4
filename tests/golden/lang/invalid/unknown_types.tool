service Weather {
    tool get_weather(city: Strin, when: Date) -> Forecst;
    tool other(x: nope.Thing, s: Weather);
}

record Forecast { day: date }
