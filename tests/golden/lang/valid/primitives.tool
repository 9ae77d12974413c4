// Every primitive type, as a record field and as a parameter; every kind of result.
record AllPrimitives {
    a_bool: bool,
    a_i8: i8,
    a_i16: i16,
    a_i32: i32,
    a_i64: i64,
    a_u8: u8,
    a_u16: u16,
    a_u32: u32,
    a_u64: u64,
    a_f32: f32,
    a_f64: f64,
    a_string: string,
    a_char: char,
    a_uuid: uuid,
    a_datetime: datetime,
    a_date: date,
    a_time: time,
    a_duration: duration,
    a_uri: uri,
    a_bytes: bytes,
    a_json: json,
    a_object: object,
    a_array: array,
}

service Primitives {
    tool echo(value: AllPrimitives) -> AllPrimitives;
    tool blob(data: bytes, meta: object?, items: array?) -> json;
    tool blocks(text: string) -> content;
    tool raw(request: json) -> call_result;
    tool fire_and_forget(at: datetime, after: duration?);
}
