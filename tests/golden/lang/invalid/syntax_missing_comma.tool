record Forecast {
    city: string
    temp_c: f64,
}
