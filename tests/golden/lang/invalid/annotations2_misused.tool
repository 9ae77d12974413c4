// Second-edition attributes where they do not fit.
@open(true)
record R {
    @range(exclusive_min: 0) count: u32,
    @range(min: 0, exclusive_min: 1.0) a: f64,
    @range(exclusive_min: 2.0, exclusive_max: 2.0) b: f64,
    @range(exclusive_min: 1.5) c: f64 = 1.5,
    @deprecated(true) d: string,
    @title("") e: string,
    @range(exclusive_max: 0.0) f: string,
}

@deprecated
service S {
    @rename_all("snake_case") tool t(a: u8);
    @open tool u();
}
