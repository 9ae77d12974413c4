// Every format type, in every place a value of one is read: a parameter, a nullable, a
// default, a list, a set, a map, a record field, a `@pattern` (judged on the text), a
// resource-template variable and a prompt argument. Generated with default options (checked
// `String`s) and, in its `.typed` snapshot and tests/generated, with `typed_formats(true)`.
package codegen.typed_formats;

type LowerId = @pattern("^[0-9a-f-]+$") uuid;

/// An appointment, as a handler returns it.
record Appointment {
    id: uuid,
    at: datetime,
    day: date,
    starts: time,
    length: duration,
    link: uri,
    until: date? = null,
}

service Calendar {
    /// Each format once, required.
    tool each(id: uuid, at: datetime, day: date, starts: time, length: duration, link: uri) -> Appointment;

    /// Defaults of every format, and nullables.
    tool defaults(
        id: uuid = "123e4567-e89b-12d3-a456-426614174000",
        at: datetime = "1998-12-31T15:59:60.123-08:00",
        due: date = "2026-01-01",
        starts: time = "08:30:00+02:00",
        length: duration = "-1.02:03:04.5",
        link: uri = "https://example.org/a?b=c#d",
        maybe: date? = "2024-02-29",
        gone: time? = null,
    );

    /// Formats inside composites.
    tool composites(
        ids: list<uuid>,
        unique_times: set<datetime>,
        unique_days: set<date>,
        spans: map<string, duration>,
        links: list<uri?>,
        appointments: list<Appointment>,
    );

    /// `@pattern` judges the text as sent.
    tool patterned(
        id: LowerId,
        maybe_id: LowerId?,
        ids: list<LowerId>,
        @pattern("^https://") secure: uri,
    );

    @uri("cal://days/{day}/{id}")
    resource day(day: date, id: LowerId) -> Appointment;

    prompt plan(starts: time, length: duration = "01:00:00", day: date?) -> string;
}
