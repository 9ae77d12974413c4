record Formats {
    a: uuid = "not-a-uuid",
    b: date = "2023-02-29",
    c: datetime = "2025-06-18 14:30",
    d: time = "25:00:00Z",
    e: duration = "P1D",
    f: uri = "example.com",
    g: bytes = "abc",
}
