// Enum members whose wire value is not an identifier (`@value`), and member docs listed in
// the schema (`@document_members`).
package golden.enum_values;

/// How long a job runs.
@document_members
enum Duration {
    /// Done in seconds.
    quick,
    /// Runs for hours;
    /// check back later.
    @value("long-running") long_running,
    @value("1.0") v1,
}

enum Plain {
    @value("a b") a_b,
    c,
}

record Job {
    kind: Duration = long_running,
    kinds: list<Duration> = [quick, v1],
}

service Jobs {
    tool start(
        kind: Duration,
        /// What to run next.
        next: Duration? = long_running,
        plain: Plain = a_b,
        job: Job = { kind: v1 },
        by_name: map<string, Plain> = {"x": a_b},
    );
}
