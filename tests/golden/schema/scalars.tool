// Every primitive type as a parameter: one row of the mapping each.
package golden.scalars;

service Scalars {
    /// One parameter of every primitive type.
    tool every_primitive(
        flag: bool,
        tiny: i8,
        small: i16,
        medium: i32,
        large: i64,
        byte: u8,
        word: u16,
        dword: u32,
        qword: u64,
        single: f32,
        double: f64,
        text: string,
        letter: char,
        id: uuid,
        at: datetime,
        day: date,
        clock: time,
        span: duration,
        link: uri,
        data: bytes,
        anything: json,
        obj: object,
        arr: array,
    );
}
