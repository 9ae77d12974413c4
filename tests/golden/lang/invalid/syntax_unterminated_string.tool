record R {
    a: string = "open,
    b: u8,
}
