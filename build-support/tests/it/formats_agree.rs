//! Build time and call time accept the same strings: a default the compiler lets through is
//! an argument the runtime accepts, and the other way round. The corpus is every string of
//! the JSON-Schema-Test-Suite's format and pattern cases plus edge cases of our own.

use serde_json::Value;
use toolidl::source::{MemoryLoader, SourceId};
use toolidl_runtime::args::{Format, Path, Pattern, Reader, check};

const SUITE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/fixtures/json-schema-test-suite/tests/draft2020-12/"
);

/// A runtime format, the parameters whose defaults have it, and the suite file and own edge
/// cases that exercise it.
type Case = (
    Format,
    &'static [&'static str],
    Option<&'static str>,
    &'static [&'static str],
);

const FORMATS: &[Case] = &[
    (
        Format::DateTime,
        &["x: datetime"],
        Some("optional/format/date-time.json"),
        &[
            "2025-06-18 14:30:00Z",
            "2025-06-18T14:30:00",
            "2025-06-18t14:30:00z",
            "0000-01-01T00:00:00Z",
            "2025-06-18T14:30:00+01",
            "2025-06-18T23:59:60+23:59",
            "2025-06-1éT14:30:00Z",
            "2025-06-18T14:30:00.Z",
        ],
    ),
    (
        Format::Date,
        &["x: date"],
        Some("optional/format/date.json"),
        &[
            "2024-02-29",
            "1900-02-29",
            "2000-02-29",
            "0000-01-01",
            "2024-2-29",
        ],
    ),
    (
        Format::Time,
        &["x: time"],
        Some("optional/format/time.json"),
        &[
            "23:59:60",
            "12:00:60",
            "00:00:00.000000001+14:00",
            "12:00:00+24:00",
            "12:00:00 ",
            "12:00",
            "",
            "12:00:00.Z",
            "12:00:00é1234",
        ],
    ),
    (
        Format::Uuid,
        &["x: uuid"],
        Some("optional/format/uuid.json"),
        &[
            "{123e4567-e89b-12d3-a456-426614174000}",
            "123E4567-E89B-12D3-A456-426614174000",
        ],
    ),
    (
        Format::Uri,
        &["x: uri", "@url x: string"],
        Some("optional/format/uri.json"),
        &[
            "a:",
            "urn:x",
            "http://[::1]:80/",
            "http://[v1.x]/",
            "http://a/%7e",
            "file:///x",
            "x://a:b@c:d/",
            "http://é.com",
            "http://a/b c",
            "http://a:80:80/",
        ],
    ),
    (
        Format::Email,
        &["@email x: string"],
        Some("optional/format/email.json"),
        &[
            "a@b",
            "a@[IPv6:::1]",
            "a@[x:y]",
            "\"\"@b",
            "a@b.-c",
            "é@example.com",
        ],
    ),
    (
        Format::Duration,
        &["x: duration"],
        None,
        &[
            "1.02:03:04.5",
            "-00:00:01",
            "1:00:00",
            "24:00:00",
            "P1D",
            "00:00:00.12345678",
            "99999999.23:59:59.9999999",
        ],
    ),
];

/// `s` as a `.tool` string literal.
fn tool_literal(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            ' '..='~' => out.push(c),
            _ => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
        }
    }
    out.push('"');
    out
}

/// Whether the compiler accepts `value` as the default of `param`.
fn default_accepted(param: &str, value: &str) -> bool {
    let text = format!("service S {{ tool t({param} = {}); }}", tool_literal(value));
    let output = toolidl::compile(&MemoryLoader::new(), SourceId::new("f.tool"), text);
    let errors: Vec<_> = output.diagnostics.iter().filter(|d| d.is_error()).collect();
    assert!(
        errors.iter().all(|d| matches!(d.code, "E0504" | "E0502")),
        "{}",
        output.render()
    );
    errors.is_empty()
}

/// Every string instance of a suite file.
fn suite_strings(file: &str) -> Vec<String> {
    let text = std::fs::read_to_string(format!("{SUITE}{file}")).unwrap();
    let groups: Vec<Value> = serde_json::from_str(&text).unwrap();
    groups
        .iter()
        .flat_map(|g| g["tests"].as_array().unwrap())
        .filter_map(|t| t["data"].as_str().map(str::to_owned))
        .collect()
}

#[test]
fn defaults_and_arguments_accept_the_same_formatted_strings() {
    let (mut compared, mut disagreements) = (0, Vec::new());
    for (format, params, file, own) in FORMATS {
        let mut corpus: Vec<String> = own.iter().map(|s| s.to_string()).collect();
        corpus.extend(file.map(suite_strings).unwrap_or_default());
        for s in &corpus {
            let runtime = format.is_valid(s);
            for param in *params {
                compared += 1;
                let build = default_accepted(param, s);
                if build != runtime {
                    disagreements.push(format!(
                        "{format:?} `{param}` {s:?}: build time {build}, call time {runtime}"
                    ));
                }
            }
        }
    }
    println!(
        "formats: {compared} comparisons, {} disagreements",
        disagreements.len()
    );
    assert!(disagreements.is_empty(), "{disagreements:#?}");
}

#[test]
fn defaults_and_arguments_accept_the_same_bytes() {
    for s in [
        "aGVsbG8=", "", "abc", "Zm9=", "Zm8=", "Zm8", "Zm8=Zm8=", "Z===", "Zg==",
    ] {
        let json = serde_json::to_string(s).unwrap();
        let runtime = toolidl_runtime::args::bytes(&mut Reader::new(&json), &Path::Root).is_ok();
        assert_eq!(default_accepted("x: bytes", s), runtime, "{s:?}");
    }
}

/// `@pattern`: the suite's pattern cases plus ones where Unicode mode matters.
#[test]
fn defaults_and_arguments_match_patterns_alike() {
    let mut cases: Vec<(String, String)> = [
        (r"^\p{L}+$", "é"),
        (r"^.$", "💩"),
        (r"^\w$", "é"),
        (r"^\d$", "৪"),
        (r"^[^a]$", "💩"),
        ("a+", "xaay"),
    ]
    .iter()
    .map(|(p, s)| (p.to_string(), s.to_string()))
    .collect();
    for file in ["pattern.json", "optional/ecmascript-regex.json"] {
        let text = std::fs::read_to_string(format!("{SUITE}{file}")).unwrap();
        let groups: Vec<Value> = serde_json::from_str(&text).unwrap();
        for g in &groups {
            let Some(pattern) = g["schema"]["pattern"].as_str() else {
                continue;
            };
            for t in g["tests"].as_array().unwrap() {
                if let Some(s) = t["data"].as_str() {
                    cases.push((pattern.to_owned(), s.to_owned()));
                }
            }
        }
    }
    for (pattern, s) in &cases {
        let source: &'static str = Box::leak(pattern.clone().into_boxed_str());
        let runtime = check::pattern(s, &Pattern::new(source), &Path::Root).is_ok();
        let param = format!("@pattern({}) x: string", tool_literal(pattern));
        assert_eq!(
            default_accepted(&param, s),
            runtime,
            "pattern {pattern:?}, string {s:?}"
        );
    }
}
