//! Numbers judged exactly: every spelling of an integer reaches the handler as that exact
//! integer, and a float bound is judged on the number as written, not on its nearest `f64`
//! (JSON Schema 2020-12 core, §4.2.1: numbers are exact decimals). The tools are
//! `tests/golden/codegen/numbers.tool`'s; each case is its exact verdict.

use toolidl_generated_tests::codegen::numbers::{CountArgs, MeasureArgs, WideArgs};
use toolidl_runtime::codegen::{Arguments, Decode, RawValue};

fn decode<T: Decode>(text: String) -> Result<T, String> {
    let raw = RawValue::from_string(text).expect("JSON");
    Arguments::new(&raw)
        .decode::<T>()
        .map_err(|e| e.to_string())
}

fn wide(unsigned: &str, signed: &str) -> Result<WideArgs, String> {
    decode(format!(r#"{{"unsigned":{unsigned},"signed":{signed}}}"#))
}

const U64: &str =
    "Argument 'unsigned' is not valid. Expected an integer from 0 to 18446744073709551615.";
const I64: &str = "Argument 'signed' is not valid. Expected an integer from -9223372036854775808 to 9223372036854775807.";

#[test]
fn integers_at_the_64_bit_bounds_whatever_the_spelling() {
    for spelling in [
        "18446744073709551615",
        "18446744073709551615.0",
        "1.8446744073709551615e19",
        "18446744073709551615e0",
        "1844674407370955161.5e1",
    ] {
        let args = wide(spelling, "0").unwrap_or_else(|e| panic!("{spelling}: {e}"));
        assert_eq!(args.unsigned, u64::MAX, "{spelling}");
    }
    for spelling in ["9223372036854775807.0", "9.223372036854775807e18"] {
        assert_eq!(wide("0", spelling).unwrap().signed, i64::MAX, "{spelling}");
    }
    for spelling in ["-9223372036854775808.0", "-9.223372036854775808e18"] {
        assert_eq!(wide("0", spelling).unwrap().signed, i64::MIN, "{spelling}");
    }
    // Below the i64 minimum: out of range, however written.
    for spelling in ["-9223372036854775809.0", "-9.223372036854775809e18"] {
        assert_eq!(wide("0", spelling).unwrap_err(), I64, "{spelling}");
    }
    // Above the u64 maximum, and beyond 128 bits.
    for spelling in [
        "18446744073709551616.0",
        "1.8446744073709551616e19",
        "1e400",
    ] {
        assert_eq!(wide(spelling, "0").unwrap_err(), U64, "{spelling}");
    }
    // A fraction, however small or far out, is no integer.
    assert_eq!(
        wide("0", "-9223372036854775808.5").unwrap_err(),
        "Argument 'signed' is not valid. Expected an integer."
    );
    // The exact integer reaches the handler, not its nearest f64.
    assert_eq!(
        wide("0", "9007199254740993.0").unwrap().signed,
        9007199254740993
    );
    assert_eq!(
        wide("9007199254740993e0", "0").unwrap().unsigned,
        9007199254740993
    );
}

#[test]
fn a_fraction_past_f64_precision_is_no_integer() {
    let count = |n: &str| decode::<CountArgs>(format!(r#"{{"number":{n}}}"#)).map(|a| a.number);
    let not_integer = "Argument 'number' is not valid. Expected an integer.";
    assert_eq!(count("31.0000000000000000001").unwrap_err(), not_integer);
    assert_eq!(count("1e-400").unwrap_err(), not_integer);
    assert_eq!(count("-1e-400").unwrap_err(), not_integer);
    assert_eq!(count("31.000000000000000000").unwrap(), 31);
    assert_eq!(count("0e-400").unwrap(), 0);
    assert_eq!(count("3.1e1").unwrap(), 31);
}

fn measure(level: &str, share: &str) -> Result<MeasureArgs, String> {
    decode(format!(r#"{{"level":{level},"share":{share}}}"#))
}

#[test]
fn float_bounds_are_judged_on_the_number_as_written() {
    let level_range = "Argument 'level' is not valid. Expected a value from 0 to 2.5.";
    assert_eq!(
        measure("2.5000000000000001", "0.05").unwrap_err(),
        level_range
    );
    assert_eq!(measure("-1e-400", "0.05").unwrap_err(), level_range);
    assert_eq!(
        measure("-0.0000000000000000000001", "0.05").unwrap_err(),
        level_range
    );
    // On the bounds, in any spelling, and just inside them.
    for ok in [
        "2.5",
        "2.50000000000000000000",
        "25e-1",
        "0",
        "-0.0",
        "1e-400",
        "2.4999999999999999",
    ] {
        let args = measure(ok, "0.05").unwrap_or_else(|e| panic!("{ok}: {e}"));
        // The handler gets the nearest f64.
        assert_eq!(args.level, ok.parse::<f64>().unwrap());
    }
    // Exclusive bounds: the bound itself and what f64 rounds onto it are refused.
    let share_range =
        "Argument 'share' is not valid. Expected a value greater than 0 and less than 0.1.";
    for refused in ["0.1", "0.10000000000000000001", "0", "0.0", "-1e-400"] {
        assert_eq!(measure("1", refused).unwrap_err(), share_range, "{refused}");
    }
    for accepted in ["1e-400", "0.09999999999999999999", "0.05"] {
        measure("1", accepted).unwrap_or_else(|e| panic!("{accepted}: {e}"));
    }
    // An f32 is judged before it is rounded to f32.
    let size = |s: &str| decode::<MeasureArgs>(format!(r#"{{"level":1,"size":{s}}}"#));
    assert_eq!(
        size("-1e-400").unwrap_err(),
        "Argument 'size' is not valid. Expected a value of at least 0."
    );
    assert_eq!(size("1e-400").unwrap().size, 0.0);
    // Beyond f64's range: refused, saying why.
    assert_eq!(
        measure("1e400", "0.05").unwrap_err(),
        "Argument 'level' is not valid. Expected a number from -1.7976931348623157e308 to 1.7976931348623157e308."
    );
}
