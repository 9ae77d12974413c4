service S {
    tool get_forecast(
        @range(1, 14) days: u8 = 20,
        @range(min: 0.5) ratio: f64 = 0.25,
        @length(1, 3) code: string = "abcd",
        @length(min: 2) short: string = "é",
        @pattern("^[a-z]+$") slug: string = "Not A Slug",
        @email contact: string = "nobody",
        @url home: string = "not a url",
        @range(max: 10) maybe: u8? = 11,
    );
}
