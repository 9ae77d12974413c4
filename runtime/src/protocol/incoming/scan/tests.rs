//! The scanner on whole lines ([`scan`]) and fed in pieces ([`IdScanner`]); the property
//! tests check that both modes read the same id, and that what it takes for JSON is what
//! serde_json takes.

use super::*;
use proptest::prelude::*;

#[test]
fn scan_agrees_with_serde_json_on_what_is_json() {
    let cases = [
        "{}",
        "[]",
        "1",
        "-0.5e+3",
        "\"a\\u00e9\\n\"",
        "true",
        " null ",
        "[1,[2,{\"a\":[]}]]",
        "{\"a\":1,}",
        "[1,]",
        "{\"a\"}",
        "01",
        "1.",
        "-",
        "\"\\x\"",
        "\"\u{1}\"",
        "{} x",
        "{\"a\":1",
        "",
        "[1 2]",
        "{1:2}",
        "tru",
        "\"\\u12\"",
        "{\"id\":1}{\"id\":2}",
    ];
    for c in cases {
        let serde_ok = serde_json::from_str::<serde::de::IgnoredAny>(c).is_ok();
        assert_eq!(scan(c) != Scanned::NotJson, serde_ok, "{c:?}");
    }
}

#[test]
fn scan_finds_the_top_level_id_at_any_depth() {
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let line = format!(r#"{{"jsonrpc":"2.0","x":{{"id":5}},"params":{deep},"\u0069d" : "a"}}"#);
    assert_eq!(
        scan(&line),
        Scanned::Json {
            id: Some("\"a\"".into())
        }
    );
    assert_eq!(scan(&line[..line.len() - 1]), Scanned::NotJson);
    for (line, id) in [
        (r#"{"id":1,"id":2}"#, None),
        (r#"{"id":1.5}"#, None),
        (r#"{"id":{"id":1}}"#, None),
        (r#"{"id":{"a":1},"id":2}"#, None),
        (r#"{"a":[{"id":1}],"id":2}"#, Some("2")),
        (r#"{"method":5,"id":-7}"#, Some("-7")),
        // Echoed byte for byte, as on the normal path.
        (r#"{"id":"\ud800"}"#, Some(r#""\ud800""#)),
    ] {
        assert_eq!(
            scan(line),
            Scanned::Json {
                id: id.map(str::to_owned)
            },
            "{line}"
        );
    }
    assert_eq!(scan(" [{\"id\":1}]"), Scanned::Array);
}

/// The scanner's answer for `input` fed in pieces of the given sizes (repeated).
fn scan_in_chunks(input: &[u8], sizes: &[usize]) -> (Option<String>, bool) {
    let mut scanner = IdScanner::new();
    let mut rest = input;
    for &size in sizes.iter().cycle() {
        if rest.is_empty() {
            break;
        }
        let (piece, tail) = rest.split_at(size.clamp(1, rest.len()));
        scanner.feed(piece);
        rest = tail;
    }
    let response = scanner.is_response();
    (scanner.finish(), response)
}

/// The scanner's id for `input`, checked to be the same whole, byte by byte and in odd
/// pieces.
fn id_of(input: &str) -> Option<String> {
    let whole = scan_in_chunks(input.as_bytes(), &[usize::MAX]).0;
    for sizes in [&[1][..], &[2, 3, 5, 7]] {
        assert_eq!(scan_in_chunks(input.as_bytes(), sizes).0, whole, "{input}");
    }
    whole
}

#[test]
fn finds_the_top_level_id_only() {
    for (line, id) in [
        (r#"{"jsonrpc":"2.0","id":7,"method":"m"}"#, Some("7")),
        (r#" {"id" : -3 } "#, Some("-3")),
        (r#"{"id":-0}"#, Some("-0")),
        (r#"{"id":""}"#, Some(r#""""#)),
        (r#"{"\u0069d":"x","\u0069\u0064x":1}"#, Some(r#""x""#)),
        (
            r#"{"params":{"id":1,"s":"}{\"id\":2,[","a":[{"id":3}]},"id":"a\"b"}"#,
            Some(r#""a\"b""#),
        ),
        (r#"{"id":"\ud800\n\u00e9é"}"#, Some(r#""\ud800\n\u00e9é""#)),
        (r#"{"a":{"id":1}}"#, None),
        (r#"{"idx":1,"i":2,"Id":3,"i\"d":4,"":5}"#, None),
        (r#"{"id":1,"id":2}"#, None),
        (r#"{"id":{"a":1},"id":2}"#, None),
        (r#"{"id":null}"#, None),
        (r#"{"id":1.5}"#, None),
        (r#"{"id":1e3}"#, None),
        (r#"{"id":true}"#, None),
        (r#"{"id":[1]}"#, None),
        (r#"{"id":{"id":1}}"#, None),
        // Not one JSON object.
        (r#"[{"id":1}]"#, None),
        (r#""id""#, None),
        (r#"{"id":1} x"#, None),
        (r#"{"id":1}{"id":2}"#, None),
        (r#"{"id":1"#, None),
        (r#"{"id":01}"#, None),
        (r#"{"id":-}"#, None),
        (r#"{"id":1,}"#, None),
        (r#"{"id":1,"a":[1,]}"#, None),
        (r#"{"id":1,"a":[}"#, None),
        (r#"{"id":1,"a":{"b"}}"#, None),
        (r#"{"id":1,"a":"\x"}"#, None),
        (r#"{"id":1,"a":"\u12g4"}"#, None),
        (r#"{"id":1,"a":tru}"#, None),
        ("{\"id\":1,\"a\":\"\u{1}\"}", None),
        ("", None),
    ] {
        assert_eq!(id_of(line).as_deref(), id, "{line}");
    }
}

#[test]
fn keeps_at_most_max_id_bytes_of_id() {
    let fits = format!("\"{}\"", "x".repeat(IdScanner::MAX_ID_BYTES - 2));
    let line = format!(r#"{{"id":{fits},"method":"m"}}"#);
    assert_eq!(id_of(&line), Some(fits));
    let over = format!("\"{}\"", "x".repeat(IdScanner::MAX_ID_BYTES - 1));
    assert_eq!(id_of(&format!(r#"{{"id":{over}}}"#)), None);
    let long_number = "1".repeat(IdScanner::MAX_ID_BYTES + 1);
    assert_eq!(id_of(&format!(r#"{{"id":{long_number}}}"#)), None);
}

#[test]
fn checks_the_id_is_utf8_and_nothing_else() {
    let mut scanner = IdScanner::new();
    scanner.feed(b"{\"id\":\"\xff\"}");
    assert_eq!(scanner.finish(), None);
    let mut scanner = IdScanner::new();
    scanner.feed(b"{\"id\":\"a\",\"params\":\"\xff\xfe\"}");
    assert_eq!(scanner.finish().as_deref(), Some("\"a\""));
}

#[test]
fn deeper_than_max_depth_only_pairs_brackets() {
    for depth in [IdScanner::MAX_DEPTH - 2, IdScanner::MAX_DEPTH + 5_000] {
        let deep = format!(
            r#"{}{{"id":1,"s":"]}}\"["}}{}"#,
            "[".repeat(depth),
            "]".repeat(depth)
        );
        let line = format!(r#"{{"a":{deep},"id":"ok"}}"#);
        assert_eq!(id_of(&line).as_deref(), Some(r#""ok""#), "{depth}");
        // One closing bracket short: never back at the top level.
        let line = format!(r#"{{"a":{},"id":"ok"}}"#, &deep[..deep.len() - 1]);
        assert_eq!(id_of(&line), None, "{depth}");
    }
}

#[test]
fn tells_responses_from_requests() {
    for (line, response) in [
        (r#"{"jsonrpc":"2.0","id":"s1","result":{}}"#, true),
        (r#"{"id":"s1","error":{"code":1,"message":"m"}}"#, true),
        (r#"{"id":"s1","result":{},"method":"m"}"#, false),
        (r#"{"id":1,"method":"m","params":{"result":1}}"#, false),
        (r#"{"id":1}"#, false),
        (r#"{"id":1,"result":{}"#, false),
    ] {
        assert_eq!(scan_in_chunks(line.as_bytes(), &[3]).1, response, "{line}");
    }
}

/// A JSON value to render with random whitespace and escapes.
#[derive(Debug, Clone)]
enum J {
    Raw(&'static str),
    Int(i64),
    Str(String),
    Arr(Vec<J>),
    Obj(Vec<(String, J)>),
}

/// Strings with the characters a scanner could trip on.
fn tricky() -> impl Strategy<Value = String> {
    "[a-z{}\\[\\]\":,/\\\\ \n\t\u{1}\u{7f}é😀]{0,10}"
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("id".to_owned()),
        Just("method".to_owned()),
        Just("idx".to_owned()),
        Just("i".to_owned()),
        tricky(),
    ]
}

fn value() -> impl Strategy<Value = J> {
    let leaf = prop_oneof![
        prop::sample::select(vec![
            "null", "true", "false", "0", "-0", "12", "-7", "1.5", "2e10", "-0.25E-3", "1E+2",
        ])
        .prop_map(J::Raw),
        tricky().prop_map(J::Str),
    ];
    leaf.prop_recursive(5, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(J::Arr),
            prop::collection::vec((key(), inner), 0..6).prop_map(J::Obj),
        ]
    })
}

/// A top-level id: the `J` to write, and whether it is one to echo.
fn id() -> impl Strategy<Value = (J, bool)> {
    prop_oneof![
        tricky().prop_map(J::Str),
        any::<i64>().prop_map(J::Int),
        Just(J::Raw("123456789012345678901234567890")),
        value(),
    ]
    .prop_map(|j| {
        let echo = match &j {
            J::Str(_) | J::Int(_) => true,
            J::Raw(r) => valid_id_text(r),
            J::Arr(_) | J::Obj(_) => false,
        };
        (j, echo)
    })
}

/// A tiny deterministic generator for whitespace and escape choices.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        // SplitMix64.
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) % n
    }

    fn ws(&mut self, out: &mut String) {
        for _ in 0..self.below(4).saturating_sub(1) {
            out.push([' ', '\t', '\n', '\r'][self.below(4) as usize]);
        }
    }
}

fn write_str(s: &str, rng: &mut Rng, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        let short = match c {
            '"' => Some("\\\""),
            '\\' => Some("\\\\"),
            '\n' => Some("\\n"),
            '\t' => Some("\\t"),
            '/' => Some("\\/"),
            _ => None,
        };
        let must = (c as u32) < 0x20 || c == '"' || c == '\\';
        match rng.below(3) {
            0 if must || rng.below(2) == 0 => {
                let mut units = [0; 2];
                for u in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{u:04x}"));
                }
            }
            1 if short.is_some() => out.push_str(short.unwrap()),
            _ if must => out.push_str(&format!("\\u{:04X}", c as u32)),
            _ => out.push(c),
        }
    }
    out.push('"');
}

fn write(j: &J, rng: &mut Rng, out: &mut String) {
    match j {
        J::Raw(r) => out.push_str(r),
        J::Int(n) => out.push_str(&n.to_string()),
        J::Str(s) => write_str(s, rng, out),
        J::Arr(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                rng.ws(out);
                write(item, rng, out);
                rng.ws(out);
            }
            out.push(']');
        }
        J::Obj(members) => {
            out.push('{');
            for (i, (k, v)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                rng.ws(out);
                write_str(k, rng, out);
                rng.ws(out);
                out.push(':');
                rng.ws(out);
                write(v, rng, out);
                rng.ws(out);
            }
            out.push('}');
        }
    }
}

/// A message with its top-level members in random order, and the id text the scanner
/// should find.
fn message() -> impl Strategy<Value = (String, Option<String>)> {
    (
        prop::option::of(id()),
        value(),
        prop::collection::vec((key(), value()), 0..4),
        any::<u64>(),
    )
        .prop_flat_map(|(id, params, inner, seed)| {
            // `params` is an object holding the random value and inner members (some
            // named `id`).
            let mut params_members = vec![("v".to_owned(), params)];
            params_members.extend(inner);
            let mut members: Vec<(String, Option<J>)> = vec![
                ("jsonrpc".into(), Some(J::Str("2.0".into()))),
                ("method".into(), Some(J::Str("m".into()))),
                ("params".into(), Some(J::Obj(params_members))),
            ];
            let echo = id.as_ref().is_some_and(|(_, echo)| *echo);
            if let Some((j, _)) = id {
                members.push(("id".into(), Some(j)));
            }
            (Just(members).prop_shuffle(), Just(echo), Just(seed))
        })
        .prop_map(|(members, echo, seed)| {
            let mut rng = Rng(seed);
            let mut out = String::new();
            rng.ws(&mut out);
            out.push('{');
            let mut id_text = None;
            for (i, (k, v)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                rng.ws(&mut out);
                write_str(k, &mut rng, &mut out);
                rng.ws(&mut out);
                out.push(':');
                rng.ws(&mut out);
                let start = out.len();
                write(v.as_ref().unwrap(), &mut rng, &mut out);
                if k == "id" && echo {
                    id_text = Some(out[start..].to_owned());
                }
                rng.ws(&mut out);
            }
            out.push('}');
            rng.ws(&mut out);
            (out, id_text)
        })
}

/// What [`scan`] finds on a whole line, within the scanner's id cap.
fn scan_id(line: &str) -> Option<String> {
    match scan(line) {
        Scanned::Json { id } => id.filter(|id| id.len() <= IdScanner::MAX_ID_BYTES),
        _ => None,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn scanner_finds_exactly_the_top_level_id(
        (line, expected) in message(),
        sizes in prop::collection::vec(1usize..40, 1..8),
    ) {
        let (found, response) = scan_in_chunks(line.as_bytes(), &sizes);
        prop_assert_eq!(&found, &expected, "{}", line);
        prop_assert!(!response);
        // The id serde_json reads from the whole message is the same value. (serde_json
        // reads `-0` and integers past u64 as floats; `valid_id` takes them, by their text.)
        let whole: serde_json::Value = serde_json::from_str(&line).unwrap();
        let by_serde = whole.get("id");
        match &found {
            Some(text) => prop_assert_eq!(
                Some(&serde_json::from_str::<serde_json::Value>(text).unwrap()),
                by_serde,
                "{}",
                line
            ),
            None => prop_assert!(
                by_serde.is_none_or(|v| !(v.is_string() || v.is_i64() || v.is_u64())),
                "{}",
                line
            ),
        }
        prop_assert_eq!(scan_id(&line), expected);
    }

    #[test]
    fn scanner_agrees_with_scan_on_damaged_messages(
        (line, _) in message(),
        at in any::<prop::sample::Index>(),
        len in 0usize..4,
        insert in prop::sample::select(vec!["", "{", "}", "[", "]", "\"", ":", ",", "\\", " ", "1", "x", "\"id\":1,"]),
        sizes in prop::collection::vec(1usize..40, 1..8),
    ) {
        let chars: Vec<char> = line.chars().collect();
        let start = at.index(chars.len() + 1);
        let end = (start + len).min(chars.len());
        let damaged: String = chars[..start]
            .iter()
            .chain(insert.chars().collect::<Vec<_>>().iter())
            .chain(&chars[end..])
            .collect();
        let (found, _) = scan_in_chunks(damaged.as_bytes(), &sizes);
        prop_assert_eq!(found, scan_id(&damaged), "{}", damaged);
        // And what the scanner takes for JSON is what serde_json takes.
        let serde_ok = serde_json::from_str::<serde::de::IgnoredAny>(&damaged).is_ok();
        prop_assert_eq!(scan(&damaged) != Scanned::NotJson, serde_ok, "{}", damaged);
    }
}
