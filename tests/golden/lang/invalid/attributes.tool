@colour("red")
record A {
    @lenght(1, 2) name: string,
    @title("not here") age: u8,
    @range(1, 2) @range(3, 4) size: u8,
    @range(1, 2, 3) extra: u8,
    @range() empty: u8,
    @range(min: "a") word: u8,
    @json_name(1) wrong_type: u8,
    @json_name("") empty_name: u8,
    @length(min: -1) negative: string,
    @length(minimum: 1) named_wrong: string,
}

service S {
    @read_only("yes") @uri("x://y") tool t();
    @name tool u();
}
