// Every kind of default, each satisfying its field's own constraints.
enum Level { low, medium, high }

record Settings {
    name: string = "default",
    escaped: string = "tab\there \"quoted\" \\ \u{e9}",
    @length(2, 4) code: string = "abé",
    @pattern("^[a-z]+$") slug: string = "abc",
    @email contact: string = "ops@example.com",
    @url home: string = "https://example.com/home",
    initial: char = 'x',
    quote: char = '\'',
    small: i8 = -128,
    @range(-10, 10) offset: i32 = -3,
    big: u64 = 18446744073709551615,
    most_negative: i64 = -9223372036854775808,
    ratio: f32 = 0.5,
    whole: f64 = 2,
    @range(min: -1.5, max: 1e3) scale: f64 = -1.25,
    enabled: bool = true,
    disabled: bool = false,
    level: Level = medium,
    maybe_level: Level? = high,
    nothing: string? = null,
    nullable_with_value: u8? = 7,
    id: uuid = "123e4567-e89b-12d3-a456-426614174000",
    at: datetime = "2025-06-18T14:30:00Z",
    on: date = "2024-02-29",
    when: time = "08:30:00.5+02:00",
    every: duration = "1.02:03:04.5",
    link: uri = "urn:isbn:0451450523",
    blob: bytes = "aGVsbG8=",
    anything: json = 42,
    required_nullable: string?,
}

service Configure {
    tool configure(settings: Settings, @range(1, 14) days: u8 = 3, verbose: bool = false);
}
