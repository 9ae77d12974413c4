//! Fixed samples and small strategies for strings: formats, base64, characters, keys.
//!
//! Valid samples are valid in both readings (JSON Schema and the runtime). Nothing here is a
//! `time` without a UTC offset: the runtime accepts local times on purpose (docs/runtime.md,
//! deliberate deviations), so such strings are never generated.

use proptest::prelude::*;
use proptest::sample::select;

/// Valid strings of `format`.
pub fn format_valid(format: &str) -> BoxedStrategy<String> {
    let pool: &[&str] = match format {
        "uuid" => &[
            "123e4567-e89b-12d3-a456-426614174000",
            "123E4567-E89B-12D3-A456-426614174000",
            "00000000-0000-0000-0000-000000000000",
            "ffffffff-ffff-ffff-ffff-ffffffffffff",
        ],
        "date" => &[
            "2024-02-29",
            "2000-02-29",
            "2023-12-31",
            "0001-01-01",
            "1970-01-01",
            "9999-12-31",
        ],
        "date-time" => &[
            "2024-02-29T12:30:00Z",
            "2024-02-29t12:30:00z",
            "1990-12-31T23:59:60Z",
            "1990-12-31T15:59:60-08:00",
            "2024-01-01T00:00:00.123456+05:30",
            "1963-06-19T08:30:06.283185Z",
            "0001-01-01T00:00:00+00:00",
        ],
        "time" => &[
            "12:00:00Z",
            "00:00:00z",
            "23:59:59.999+01:00",
            "08:30:06.283185Z",
            "23:59:60Z",
            "15:59:60-08:00",
            "01:29:60+01:30",
            "12:34:56.7-23:59",
        ],
        "uri" => &[
            "https://example.com",
            "http://a.b/c?d=e#f",
            "urn:isbn:0451450523",
            "mailto:someone@example.com",
            "ftp://[::1]:21/x",
            "file:///etc/hosts",
            "https://example.com/%20a",
            "x:",
            "a+b-c.d:rest",
            "http://user:pass@host:8080/p/a/t/h?query=1",
            "https://example.com/?q=a%2Fb&x=%E2%82%AC",
            "tel:+1-816-555-1212",
            "http://[2001:db8::7]/c=GB?objectClass?one",
            "https://192.168.0.1:65535/",
        ],
        "email" => &[
            "a@example.com",
            "first.last@sub.example.org",
            "\"quoted local\"@example.com",
            "user+tag@example.com",
            "a@[127.0.0.1]",
            "a@[IPv6:::1]",
            "x@localhost",
            "o'hare@example.com",
            "te~st@example.com",
        ],
        other => panic!("no samples of format {other}"),
    };
    let pool = select(pool).prop_map(str::to_owned);
    match format {
        "uuid" => prop_oneof![1 => pool, 2 => uuid()].boxed(),
        "date" => prop_oneof![1 => pool, 2 => date()].boxed(),
        "date-time" => prop_oneof![
            1 => pool,
            2 => (date(), time_of_day(), offset()).prop_map(|(d, t, o)| format!("{d}T{t}{o}")),
        ]
        .boxed(),
        "time" => prop_oneof![
            1 => pool,
            2 => (time_of_day(), offset()).prop_map(|(t, o)| format!("{t}{o}")),
        ]
        .boxed(),
        _ => pool.boxed(),
    }
}

/// Strings that are not of `format`, near misses first. For `time`, never a time that is
/// valid without an offset.
pub fn format_invalid(format: &str) -> BoxedStrategy<String> {
    let pool: &[&str] = match format {
        "uuid" => &[
            "123e4567e89b12d3a456426614174000",
            "{123e4567-e89b-12d3-a456-426614174000}",
            "123e4567-e89b-12d3-a456-42661417400",
            "123e4567-e89b-12d3-a456-4266141740000",
            "g23e4567-e89b-12d3-a456-426614174000",
            "urn:uuid:123e4567-e89b-12d3-a456-426614174000",
            "123e4567-e89b12d3-a456-426614174000",
            "123e4567-e89b-12d3-a456-42661417400\u{0660}",
            "",
        ],
        "date" => &[
            "2023-02-29",
            "1900-02-29",
            "2100-02-29",
            "2024-13-01",
            "2024-00-10",
            "2024-01-00",
            "2024-04-31",
            "2024-1-01",
            "24-01-01",
            "2024-01-32",
            "2024/01/01",
            "2024-01-01T00:00:00Z",
            "+2024-01-01",
            "20240101",
            "\u{0662}024-01-01",
            "2024-01-01 ",
            "",
        ],
        "date-time" => &[
            "2024-01-01T12:00:00",
            "2024-01-01T25:00:00Z",
            "2024-02-30T00:00:00Z",
            "2024-01-01T12:00:00+24:00",
            "2024-01-01T12:00:00+01:60",
            "1998-12-31T23:58:60Z",
            "1990-12-31T23:59:60+01:00",
            "2024-01-01T12:00Z",
            "2024-01-01T12:00:00.Z",
            "2024-01-01 12:00:00Z",
            "2024-01-01T12:00:00+0100",
            "2024-01-01T12:00:00 Z",
            "2024-01-01",
            "12:00:00Z",
            "",
        ],
        "time" => &[
            "24:00:00Z",
            "12:60:00Z",
            "12:00:61Z",
            "22:59:60Z",
            "23:59:60+01:00",
            "12:00:00+25:00",
            "12:00:00+01:60",
            "12:00:00+01",
            "12:00:00+0100",
            "1:00:00Z",
            "12:00Z",
            "12:00:00.Z",
            "12:00:00 Z",
            "T12:00:00Z",
            "12:00:00ZZ",
            "noon",
            "\u{0661}2:00:00Z",
            "",
        ],
        "uri" => &[
            "/relative/path",
            "example.com",
            "//example.com",
            "https://exa mple.com",
            "http://a/%zz",
            "http://a/%2",
            "https://example.com/\u{e4}",
            "1http://x",
            ":nope",
            "http://[::1",
            "https://example.com:port/",
            "http://exa\\mple.com",
            "",
            "#frag",
            "?q=1",
        ],
        "email" => &[
            "plain",
            "@example.com",
            "a@",
            "a..b@example.com",
            ".a@example.com",
            "a.@example.com",
            "a@b@c",
            "a@-example.com",
            "a@example-.com",
            "a@example..com",
            "\u{e4}@example.com",
            "a@[300.0.0.1]",
            "a b@example.com",
            "a@[IPv6:::g]",
            "\"unterminated@example.com",
            "a@example.com ",
            "",
        ],
        other => panic!("no samples of format {other}"),
    };
    select(pool).prop_map(str::to_owned).boxed()
}

fn uuid() -> impl Strategy<Value = String> {
    "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
}

fn is_leap(y: u32) -> bool {
    (y.is_multiple_of(4) && !y.is_multiple_of(100)) || y.is_multiple_of(400)
}

/// A valid date, every day of every month reachable (February 29 in leap years).
fn date() -> impl Strategy<Value = String> {
    (
        prop_oneof![1u32..=9999, 1995u32..=2030],
        1u32..=12,
        1u32..=31,
    )
        .prop_map(|(y, m, d)| {
            let days = match m {
                2 if is_leap(y) => 29,
                2 => 28,
                4 | 6 | 9 | 11 => 30,
                _ => 31,
            };
            format!("{y:04}-{m:02}-{:02}", d.min(days))
        })
}

/// `hh:mm:ss[.f]` without `:60` (a leap second depends on the offset).
fn time_of_day() -> impl Strategy<Value = String> {
    (
        0u32..24,
        0u32..60,
        0u32..60,
        proptest::option::of("[0-9]{1,9}"),
    )
        .prop_map(|(h, m, s, f)| match f {
            Some(f) => format!("{h:02}:{m:02}:{s:02}.{f}"),
            None => format!("{h:02}:{m:02}:{s:02}"),
        })
}

fn offset() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("Z".to_owned()),
        Just("z".to_owned()),
        (prop_oneof![Just('+'), Just('-')], 0u32..24, 0u32..60)
            .prop_map(|(sign, h, m)| format!("{sign}{h:02}:{m:02}")),
    ]
}

/// Standard base64 with padding of a few random bytes.
pub fn base64_valid() -> BoxedStrategy<String> {
    proptest::collection::vec(any::<u8>(), 0..10)
        .prop_map(|bytes| base64(&bytes))
        .boxed()
}

/// Near misses of base64.
pub fn base64_invalid() -> BoxedStrategy<String> {
    select(
        &[
            "aGk",
            "a",
            "aGk==",
            "a===",
            "====",
            "aGk=\n",
            " aGk=",
            "!!!!",
            "aG k=",
            "=aGk",
            "aGl=",
            "aGVsbG9=",
            "aGk=aGk=",
            "aGk-",
            "aGk_",
            "YQ",
            "YR==",
            "Y===",
            "\u{e4}\u{e4}\u{e4}\u{e4}",
        ][..],
    )
    .prop_map(str::to_owned)
    .boxed()
}

pub fn base64(data: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in data.chunks(3) {
        let mut n = 0u32;
        for (i, &b) in chunk.iter().enumerate() {
            n |= u32::from(b) << (16 - 8 * i);
        }
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// One character: mostly ASCII letters, sometimes multi-byte, astral, escaped or control ones.
pub fn character() -> BoxedStrategy<char> {
    prop_oneof![
        6 => proptest::char::range('a', 'z'),
        1 => proptest::char::range('A', 'Z'),
        1 => proptest::char::range('0', '9'),
        2 => select(&[
            ' ', '\u{e9}', '\u{df}', '\u{1F600}', '\u{4e2d}', '\n', '\t', '"', '\\', '/', '\u{0}',
            '\u{7f}', '\u{10FFFF}', '\u{FEFF}', '\u{2028}', '_', '-', ':', '.', '\u{1D400}',
            '\u{C4}', '\u{3A3}', '\u{660}',
        ][..]),
    ]
    .boxed()
}

/// Text of `len` characters (code points).
pub fn text(len: std::ops::RangeInclusive<usize>) -> BoxedStrategy<String> {
    proptest::collection::vec(character(), len)
        .prop_map(|chars| chars.into_iter().collect())
        .boxed()
}

/// Keys for maps and unknown properties.
pub fn key() -> BoxedStrategy<String> {
    prop_oneof![
        2 => "[a-z]{1,6}",
        1 => select(&[
            "", "a b", "extra", "Extra", "__proto__", "\u{e9}", "\u{1F600}", "\"", "a.b", "0",
            "constructor", "$ref",
        ][..])
        .prop_map(str::to_owned),
    ]
    .boxed()
}

/// Strings that are nothing in particular (not a format, not a time).
pub fn odd_strings() -> BoxedStrategy<String> {
    select(
        &[
            "",
            " ",
            "a",
            "A",
            "abc",
            "ABC",
            "AB",
            "ABCD",
            "a_b",
            "Ab",
            "\u{C4}",
            "\u{e9}",
            "\u{1D400}x",
            "1",
            "-1",
            "true",
            "null",
            "[]",
            "{}",
            "1.12:00:00",
            "-1.00:00:00",
            "00:00:00.12345678",
            "99999999.23:59:59.9999999",
            "\u{661}\u{662}:00:00",
            "\u{0}",
            "x\ny",
            "celsius ",
            "Celsius",
            "CELSIUS",
            "low",
            "LOW",
            "mid",
            "high",
            "red",
            "Red",
        ][..],
    )
    .prop_map(str::to_owned)
    .boxed()
}
