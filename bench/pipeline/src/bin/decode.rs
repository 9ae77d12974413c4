//! Decoding and checking one tool call's arguments: toolidl's generated decoder against
//! jsonschema validation plus serde, on the same JSON text.
//!
//! `cargo run --release -p toolidl-bench --bin decode [ITERATIONS]`

use std::hint::black_box;
use std::time::{Duration, Instant};

use serde_json::Value;
use serde_json::value::RawValue;
use toolidl_bench::{
    LINES, SerdeSubmitOrderArgs, SubmitOrderArgs, near_valid_arguments, sample_arguments,
    submit_order_input_schema,
};
use toolidl_runtime::codegen::Arguments;

/// Iterations of each side when no argument is given.
const DEFAULT_ITERATIONS: u32 = 20_000;
/// The iterations are timed in this many rounds, alternating the two sides.
const ROUNDS: u32 = 10;

/// What a toolidl server does per call: borrow the arguments as raw JSON, then decode them
/// into the Args struct, checking every constraint on the way.
fn toolidl(text: &str) -> Result<SubmitOrderArgs, String> {
    let raw: &RawValue = serde_json::from_str(text).map_err(|e| e.to_string())?;
    Arguments::new(raw)
        .decode::<SubmitOrderArgs>()
        .map_err(|e| e.to_string())
}

/// What a server built on jsonschema does per call: parse the arguments into a `Value`,
/// validate it against the published inputSchema, then deserialize the text into the Args.
fn schema_then_serde(
    validator: &jsonschema::Validator,
    text: &str,
) -> Result<SubmitOrderArgs, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    if !validator.is_valid(&value) {
        return Err("the arguments do not match the inputSchema".into());
    }
    let args: SerdeSubmitOrderArgs = serde_json::from_str(text).map_err(|e| e.to_string())?;
    Ok(args.into())
}

/// Runs `f` `n` times and returns the time taken.
fn time<T>(n: u32, mut f: impl FnMut() -> T) -> Duration {
    let start = Instant::now();
    for _ in 0..n {
        black_box(f());
    }
    start.elapsed()
}

fn ns_per_op(d: Duration, n: u32) -> f64 {
    d.as_nanos() as f64 / f64::from(n)
}

fn main() {
    let iterations: u32 = match std::env::args().nth(1) {
        None => DEFAULT_ITERATIONS,
        Some(arg) => match arg.parse() {
            Ok(n) if n >= ROUNDS => n,
            _ => {
                eprintln!("usage: decode [ITERATIONS]   (a whole number, at least {ROUNDS})");
                std::process::exit(2);
            }
        },
    };

    // Built once: the published schema, its validator, and the two argument texts.
    let schema = submit_order_input_schema();
    let validator = jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("the inputSchema compiles");
    let valid = sample_arguments().to_string();
    let near_valid = near_valid_arguments().to_string();

    // Both sides do the same work: both accept the object, with equal results, and both
    // refuse the one with a pattern violation deep in the list.
    let decoded = toolidl(&valid).expect("toolidl accepts the sample");
    let via_schema = schema_then_serde(&validator, &valid).expect("jsonschema accepts the sample");
    assert_eq!(decoded, via_schema, "both sides decode the same arguments");
    assert_eq!(decoded.order.lines.len(), LINES);
    let refusal = toolidl(&near_valid).expect_err("toolidl refuses the near-valid object");
    let near_value: Value = serde_json::from_str(&near_valid).unwrap();
    let schema_errors: Vec<String> = validator
        .iter_errors(&near_value)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        schema_then_serde(&validator, &near_valid).is_err() && !schema_errors.is_empty(),
        "jsonschema refuses the near-valid object"
    );
    // serde alone would take it: the pattern is what the schema (or toolidl) adds.
    assert!(serde_json::from_str::<SerdeSubmitOrderArgs>(&near_valid).is_ok());

    println!(
        "arguments: {} bytes of JSON, an order of {LINES} lines (sku and origin @pattern, \
         quantity/price/discount @range, status enum, shipBy date?, description @length)",
        valid.len()
    );
    println!(
        "both accept it; both refuse the object with line {}'s sku broken:",
        LINES - 3
    );
    println!("  toolidl:    {refusal}");
    for e in &schema_errors {
        println!("  jsonschema: {e}");
    }

    // `PROFILE_TOOLIDL=1`: only the toolidl side, for a profiler.
    if std::env::var_os("PROFILE_TOOLIDL").is_some() {
        let d = time(iterations, || toolidl(black_box(&valid)));
        println!("toolidl only: {:.0} ns/op", ns_per_op(d, iterations));
        return;
    }

    // Warm up: caches, branch predictors, lazily compiled patterns, the allocator.
    let warm = (iterations / 10).max(100);
    time(warm, || toolidl(&valid));
    time(warm, || schema_then_serde(&validator, &valid));

    // Time the sides in alternating rounds so that frequency changes hit both alike.
    let per_round = iterations / ROUNDS;
    let n = per_round * ROUNDS;
    let (mut ours, mut theirs) = (Duration::ZERO, Duration::ZERO);
    let (mut ours_best, mut theirs_best) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..ROUNDS {
        let d = time(per_round, || toolidl(black_box(&valid)));
        ours += d;
        ours_best = ours_best.min(ns_per_op(d, per_round));
        let d = time(per_round, || {
            schema_then_serde(&validator, black_box(&valid))
        });
        theirs += d;
        theirs_best = theirs_best.min(ns_per_op(d, per_round));
    }
    let (ours_ns, theirs_ns) = (ns_per_op(ours, n), ns_per_op(theirs, n));

    // Where the jsonschema side's time goes (informational, each part timed alone).
    let parse = time(per_round, || {
        serde_json::from_str::<Value>(black_box(&valid)).unwrap()
    });
    let value: Value = serde_json::from_str(&valid).unwrap();
    let check_valid = time(per_round, || validator.is_valid(black_box(&value)));
    let typed = time(per_round, || {
        serde_json::from_str::<SerdeSubmitOrderArgs>(black_box(&valid)).unwrap()
    });

    println!();
    println!("{n} iterations each, in {ROUNDS} alternating rounds (after {warm} warm-up each):");
    println!(
        "  toolidl  RawValue + SubmitOrderArgs::decode            {ours_ns:>9.0} ns/op  (best round {ours_best:.0})"
    );
    println!(
        "  jsonschema  Value parse + is_valid + serde into Args   {theirs_ns:>9.0} ns/op  (best round {theirs_best:.0})"
    );
    println!(
        "      of which: parse Value {:.0}, is_valid {:.0}, serde_json::from_str Args {:.0} ns/op",
        ns_per_op(parse, per_round),
        ns_per_op(check_valid, per_round),
        ns_per_op(typed, per_round),
    );
    println!(
        "  toolidl is {:.1}x faster (best rounds: {:.1}x); target at least 5x",
        theirs_ns / ours_ns,
        theirs_best / ours_best
    );
}
