//! The exact argument error texts for every check the schema can advertise.

use std::collections::BTreeMap;

use toolidl_runtime::args::{self, ArgError, Decode, Format, Path, Pattern, Reader, check};

/// Decodes `json` as the argument `x`.
fn decode<T: Decode>(json: &str) -> Result<T, String> {
    let root = Path::Root;
    T::read(&mut Reader::new(json), &root.field("x")).map_err(|e| e.to_string())
}

fn err<T: Decode + std::fmt::Debug>(json: &str) -> String {
    decode::<T>(json).unwrap_err()
}

#[test]
fn scalars_decode_and_report_wrong_types_and_null() {
    assert_eq!(decode::<i32>("-5"), Ok(-5));
    assert_eq!(decode::<i64>("3.0"), Ok(3));
    assert_eq!(decode::<u64>("18446744073709551615"), Ok(u64::MAX));
    assert_eq!(decode::<f64>("1e3"), Ok(1000.0));
    assert_eq!(decode::<bool>("true"), Ok(true));
    assert_eq!(decode::<String>(r#""a\"b""#), Ok("a\"b".into()));
    assert_eq!(
        err::<i32>("\"1\""),
        "Argument 'x' is not valid. Expected an integer."
    );
    assert_eq!(
        err::<i32>("1.5"),
        "Argument 'x' is not valid. Expected an integer."
    );
    assert_eq!(
        err::<i32>("null"),
        "Argument 'x' is not valid. Null is not allowed."
    );
    assert_eq!(
        err::<f64>("\"x\""),
        "Argument 'x' is not valid. Expected a number."
    );
    assert_eq!(
        err::<bool>("1"),
        "Argument 'x' is not valid. Expected a boolean."
    );
    assert_eq!(
        err::<String>("1"),
        "Argument 'x' is not valid. Expected a string."
    );
    assert_eq!(
        err::<String>("null"),
        "Argument 'x' is not valid. Null is not allowed."
    );
    assert_eq!(decode::<Option<String>>("null"), Ok(None));
}

#[test]
fn integer_types_enforce_their_ranges() {
    assert_eq!(
        err::<u8>("256"),
        "Argument 'x' is not valid. Expected an integer from 0 to 255."
    );
    assert_eq!(
        err::<i8>("-129"),
        "Argument 'x' is not valid. Expected an integer from -128 to 127."
    );
    assert_eq!(
        err::<u32>("-1"),
        "Argument 'x' is not valid. Expected an integer from 0 to 4294967295."
    );
    assert_eq!(
        err::<i32>("2147483648"),
        "Argument 'x' is not valid. Expected an integer from -2147483648 to 2147483647."
    );
    assert_eq!(
        err::<i64>("9223372036854775808"),
        "Argument 'x' is not valid. Expected an integer from -9223372036854775808 to 9223372036854775807."
    );
    assert_eq!(decode::<i16>("-32768"), Ok(i16::MIN));
    assert_eq!(decode::<u16>("65535"), Ok(u16::MAX));
}

/// `integer` (an `i128`): what JSON Schema calls an integer, read exactly from its text
/// (never through `f64`), and a clear refusal past what an `i128` holds.
#[test]
fn unbounded_integers_are_read_exactly_into_i128() {
    // Beyond u64 and beyond f64's exact integers: every digit kept.
    assert_eq!(
        decode::<i128>("232510626956793085952"),
        Ok(232510626956793085952)
    );
    assert_eq!(
        decode::<i128>("-9007199254740993000001"),
        Ok(-9007199254740993000001)
    );
    assert_eq!(decode::<i128>("5.0"), Ok(5));
    assert_eq!(decode::<i128>("1e3"), Ok(1000));
    assert_eq!(decode::<i128>("-0"), Ok(0));
    assert_eq!(
        decode::<i128>("2.32510626956793085952e20"),
        Ok(232510626956793085952)
    );
    assert_eq!(
        decode::<i128>("170141183460469231731687303715884105727"),
        Ok(i128::MAX)
    );
    assert_eq!(
        decode::<i128>("-170141183460469231731687303715884105728"),
        Ok(i128::MIN)
    );
    let beyond = "Argument 'x' is not valid. Expected an integer from -170141183460469231731687303715884105728 to 170141183460469231731687303715884105727.";
    assert_eq!(
        err::<i128>("170141183460469231731687303715884105728"),
        beyond
    );
    assert_eq!(err::<i128>("-1e39"), beyond);
    assert_eq!(err::<i128>("1e400"), beyond);
    assert_eq!(
        err::<i128>("1.5"),
        "Argument 'x' is not valid. Expected an integer."
    );
    assert_eq!(
        err::<i128>("\"1\""),
        "Argument 'x' is not valid. Expected an integer."
    );
    assert_eq!(
        check::range(
            decode::<i128>("300").unwrap(),
            Some(1),
            Some(200),
            &Path::Root.field("x")
        )
        .unwrap_err()
        .to_string(),
        "Argument 'x' is not valid. Expected a value from 1 to 200."
    );
}

#[test]
fn range_constraint() {
    let root = Path::Root;
    let p = root.field("days");
    let msg = |r: Result<(), ArgError>| r.unwrap_err().to_string();
    assert!(check::range(3, Some(1), Some(14), &p).is_ok());
    assert_eq!(
        msg(check::range(15, Some(1), Some(14), &p)),
        "Argument 'days' is not valid. Expected a value from 1 to 14."
    );
    assert_eq!(
        msg(check::range(0, Some(1), None, &p)),
        "Argument 'days' is not valid. Expected a value of at least 1."
    );
    assert_eq!(
        msg(check::range(2.5, None, Some(2.0), &p)),
        "Argument 'days' is not valid. Expected a value of at most 2."
    );
}

#[test]
fn length_counts_code_points_and_items() {
    let root = Path::Root;
    let p = root.field("city");
    let msg = |r: Result<(), ArgError>| r.unwrap_err().to_string();
    // Four code points, sixteen bytes.
    assert!(check::length("😀😀😀😀", Some(4), Some(4), &p).is_ok());
    assert!(check::length("ééé", Some(1), Some(3), &p).is_ok());
    assert_eq!(
        msg(check::length("", Some(1), Some(100), &p)),
        "Argument 'city' is not valid. Expected at least 1 character."
    );
    assert_eq!(
        msg(check::length(&"a".repeat(101), Some(1), Some(100), &p)),
        "Argument 'city' is not valid. Expected at most 100 characters."
    );
    assert_eq!(
        msg(check::length("😀😀", None, Some(1), &p)),
        "Argument 'city' is not valid. Expected at most 1 character."
    );
    assert_eq!(
        msg(check::items(0, Some(2), None, &p)),
        "Argument 'city' is not valid. Expected at least 2 items."
    );
    assert_eq!(
        msg(check::items(3, None, Some(1), &p)),
        "Argument 'city' is not valid. Expected at most 1 item."
    );
}

#[test]
fn pattern_is_ecma_262_and_unanchored() {
    static CODE: Pattern = Pattern::new(r"^[A-Z]{3}\d?$");
    static SEARCH: Pattern = Pattern::new(r"\p{L}+");
    let root = Path::Root;
    let p = root.field("code");
    assert!(check::pattern("ABC", &CODE, &p).is_ok());
    assert!(check::pattern("ABC1", &CODE, &p).is_ok());
    assert_eq!(
        check::pattern("abc", &CODE, &p).unwrap_err().to_string(),
        r"Argument 'code' is not valid. Expected a string matching the pattern '^[A-Z]{3}\d?$'."
    );
    assert!(check::pattern("12 é 34", &SEARCH, &p).is_ok());
    assert!(check::pattern("12 34", &SEARCH, &p).is_err());
    static ONE: Pattern = Pattern::new("^.$");
    assert!(
        check::pattern("😀", &ONE, &p).is_ok(),
        "unicode mode: . is one code point"
    );
    static BROKEN: Pattern = Pattern::new("(");
    assert!(check::pattern("(", &BROKEN, &p).is_err());
}

#[test]
fn formats() {
    let cases = [
        (
            Format::Email,
            "ada@example.org",
            "ada",
            "Expected an email address.",
        ),
        (
            Format::Uri,
            "https://example.org",
            "example.org",
            "Expected an absolute URI.",
        ),
        (
            Format::Uuid,
            "123e4567-e89b-12d3-a456-426614174000",
            "123",
            "Expected a UUID.",
        ),
        (
            Format::Date,
            "2024-02-29",
            "2023-02-29",
            "Expected a date (YYYY-MM-DD).",
        ),
        (
            Format::Time,
            "13:45:00",
            "25:00:00",
            "Expected a time (hh:mm:ss).",
        ),
        (
            Format::DateTime,
            "2024-02-29T13:45:00Z",
            "2024-02-29",
            "Expected a date-time (RFC 3339).",
        ),
        (
            Format::Duration,
            "1.02:03:04.5",
            "1h",
            "Expected a duration ([-][d.]hh:mm:ss[.fffffff]).",
        ),
    ];
    let root = Path::Root;
    let p = root.field("v");
    for (format, good, bad, reason) in cases {
        assert_eq!(
            args::formatted(&mut Reader::new(&format!("\"{good}\"")), &p, format),
            Ok(good.to_owned())
        );
        assert_eq!(
            args::formatted(&mut Reader::new(&format!("\"{bad}\"")), &p, format)
                .unwrap_err()
                .to_string(),
            format!("Argument 'v' is not valid. {reason}")
        );
    }
    assert_eq!(
        err::<char>("\"ab\""),
        "Argument 'x' is not valid. Expected exactly one character."
    );
    assert_eq!(
        err::<char>("\"\""),
        "Argument 'x' is not valid. Expected exactly one character."
    );
    assert_eq!(decode::<char>("\"😀\""), Ok('😀'));
    assert_eq!(
        args::bytes(&mut Reader::new("\"aGk=\""), &p),
        Ok(b"hi".to_vec())
    );
    assert_eq!(
        args::bytes(&mut Reader::new("\"aGk\""), &p)
            .unwrap_err()
            .to_string(),
        "Argument 'v' is not valid. Expected base64 data."
    );
}

#[test]
fn enums_match_member_names_exactly() {
    let root = Path::Root;
    let p = root.field("units");
    let members = ["celsius", "fahrenheit"];
    assert_eq!(
        args::enum_member(&mut Reader::new("\"fahrenheit\""), &p, &members),
        Ok(1)
    );
    for bad in ["\"Celsius\"", "\"kelvin\"", "3"] {
        assert_eq!(
            args::enum_member(&mut Reader::new(bad), &p, &members)
                .unwrap_err()
                .to_string(),
            "Argument 'units' is not valid. Expected one of: celsius, fahrenheit."
        );
    }
    assert_eq!(
        args::enum_member(&mut Reader::new("null"), &p, &members)
            .unwrap_err()
            .to_string(),
        "Argument 'units' is not valid. Null is not allowed."
    );
}

#[test]
fn collections_track_paths() {
    assert_eq!(decode::<Vec<u8>>("[1,2]"), Ok(vec![1, 2]));
    assert_eq!(
        err::<Vec<u8>>("[1,\"2\"]"),
        "Argument 'x[1]' is not valid. Expected an integer."
    );
    assert_eq!(
        err::<Vec<u8>>("{}"),
        "Argument 'x' is not valid. Expected an array."
    );
    assert_eq!(
        err::<Vec<Vec<bool>>>("[[true],[1]]"),
        "Argument 'x[1][0]' is not valid. Expected a boolean."
    );
    let m: BTreeMap<String, i32> = decode(r#"{"a":1,"b c":2}"#).unwrap();
    assert_eq!(m.len(), 2);
    assert_eq!(
        err::<BTreeMap<String, i32>>(r#"{"a":1,"b \"c\"":"x"}"#),
        r#"Argument 'x["b \"c\""]' is not valid. Expected an integer."#
    );
    assert_eq!(
        err::<BTreeMap<String, i32>>("[]"),
        "Argument 'x' is not valid. Expected an object."
    );
    assert_eq!(decode::<Option<Vec<i32>>>("null"), Ok(None));
    assert_eq!(
        decode::<serde_json::Value>(r#"{"any":[1]}"#),
        Ok(serde_json::json!({"any": [1]}))
    );
}

#[test]
fn sets_refuse_duplicates_at_their_index() {
    let root = Path::Root;
    let p = root.field("tags");
    assert_eq!(
        args::set::<String>(&mut Reader::new(r#"["a","b"]"#), &p),
        Ok(vec!["a".into(), "b".into()])
    );
    assert_eq!(
        args::set::<String>(&mut Reader::new(r#"["a","b","a"]"#), &p)
            .unwrap_err()
            .to_string(),
        "Argument 'tags[2]' is not valid. Duplicate item."
    );
    let many: Vec<String> = (0..20).map(|i| format!("\"{}\"", i % 19)).collect();
    assert_eq!(
        args::set::<String>(&mut Reader::new(&format!("[{}]", many.join(","))), &p)
            .unwrap_err()
            .to_string(),
        "Argument 'tags[19]' is not valid. Duplicate item."
    );
    assert_eq!(
        check::unique_by_eq(&[1.0, 2.0, 1.0], &p)
            .unwrap_err()
            .to_string(),
        "Argument 'tags[2]' is not valid. Duplicate item."
    );
}

#[test]
fn closed_records_refuse_unknown_keys_and_need_required_ones() {
    // record Point { x: i32, y: i32? }: y is nullable without a default, so still required.
    fn point(json: &str) -> Result<(i32, Option<i32>), String> {
        let root = Path::Root;
        let at = root.field("p");
        let (mut x, mut y) = (None, None);
        args::object(&mut Reader::new(json), &at, |r, k| {
            match k {
                "x" => x = Some(i32::read(r, &at.field("x"))?),
                "y" => y = Some(Option::<i32>::read(r, &at.field("y"))?),
                _ => return Err(ArgError::unknown(&at, k)),
            }
            Ok(())
        })
        .map_err(|e| e.to_string())?;
        let x = args::required(x, &at, "x").map_err(|e| e.to_string())?;
        let y = args::required(y, &at, "y").map_err(|e| e.to_string())?;
        Ok((x, y))
    }
    assert_eq!(point(r#"{"x":1,"y":null}"#), Ok((1, None)));
    assert_eq!(
        point(r#"{"x":1}"#),
        Err("Argument 'p.y' is not valid. A value is required.".into())
    );
    assert_eq!(
        point(r#"{"x":1,"y":2,"z":3}"#),
        Err("Argument 'p.z' is not valid. Unknown property.".into())
    );
    assert_eq!(
        point(r#"{"x":null,"y":2}"#),
        Err("Argument 'p.x' is not valid. Null is not allowed.".into())
    );
    assert_eq!(
        point(r#""s""#),
        Err("Argument 'p' is not valid. Expected an object.".into())
    );
    assert_eq!(
        point(r#"{"x\u0031":1}"#),
        Err("Argument 'p.x1' is not valid. Unknown property.".into())
    );
}
