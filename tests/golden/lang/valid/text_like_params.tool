// Every text-like type as a resource template variable and as a prompt argument,
// nullable ones included: each arrives as text and parses from it.
enum Mode { fast, slow }

service TextLike {
    @uri("t://{s}/{b}/{i}/{u}/{f}/{c}/{id}/{d}/{dt}/{t}/{dur}/{link}/{m}")
    resource every_kind(s: string, b: bool, i: i64, u: u8, f: f64, c: char, id: uuid, d: date, dt: datetime, t: time, dur: duration, link: uri, m: Mode) -> string;

    @uri("t://maybe{?wait,from}")
    resource nullable_kinds(wait: duration?, from: uri?) -> string;

    prompt every_argument(wait: duration, from: uri, when: datetime?, mode: Mode = fast) -> string;
}
