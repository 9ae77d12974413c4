//! The resolver on large files: how `toolidl::compile` (parse and resolve) grows with the
//! number of declarations.
//!
//! `cargo run --release -p toolidl-bench --bin resolve [RUNS] [SIZES…]`: for each size
//! (default 2,500, 5,000, 10,000 and 20,000) it compiles a chain of that many records
//! (`toolidl_bench::record_chain_file`) and a service of that many tools
//! (`toolidl_bench::wide_service_file`), best of RUNS (default 3), and prints the time, the
//! time per declaration and how much the time grew against the size before it (2.0 for a
//! size twice as large is linear growth). Parsing alone is timed beside it.

use std::time::{Duration, Instant};

use toolidl::source::{FileId, MemoryLoader, SourceId};

/// A file of the benchmark: what it is, and how to write one of a given size.
type Shape = (&'static str, fn(usize) -> String);

const DEFAULT_RUNS: usize = 3;
const DEFAULT_SIZES: [usize; 4] = [2_500, 5_000, 10_000, 20_000];

fn best(runs: usize, mut f: impl FnMut() -> Duration) -> Duration {
    (0..runs).map(|_| f()).min().unwrap_or_default()
}

fn compile(text: &str) -> Duration {
    let start = Instant::now();
    let output = toolidl::compile(
        &MemoryLoader::new(),
        SourceId::new("big.tool"),
        text.to_owned(),
    );
    let took = start.elapsed();
    assert!(!output.has_errors(), "{}", output.render());
    assert!(output.model.is_some());
    took
}

fn parse(text: &str) -> Duration {
    let start = Instant::now();
    let parsed = toolidl::parser::parse(FileId(0), text);
    let took = start.elapsed();
    assert!(parsed.file.is_some());
    took
}

fn main() {
    let mut args = std::env::args().skip(1);
    let usage = || -> ! {
        eprintln!("usage: resolve [RUNS] [SIZES…]   (whole numbers above 0)");
        std::process::exit(2);
    };
    let number = |a: Option<String>| -> Option<usize> {
        a.map(|a| a.parse().ok().filter(|&n| n > 0).unwrap_or_else(|| usage()))
    };
    let runs = number(args.next()).unwrap_or(DEFAULT_RUNS);
    let mut sizes: Vec<usize> = std::iter::from_fn(|| number(args.next())).collect();
    if sizes.is_empty() {
        sizes = DEFAULT_SIZES.to_vec();
    }
    let profile = if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    };
    println!("toolidl::compile, best of {runs} runs ({profile} build)");
    println!();
    println!("| file | declarations | KB | parse ms | compile ms | µs per declaration | growth |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    let shapes: [Shape; 2] = [
        ("record chain", toolidl_bench::record_chain_file),
        ("one service of tools", toolidl_bench::wide_service_file),
    ];
    for (what, file) in shapes {
        let mut before: Option<Duration> = None;
        for &n in &sizes {
            let text = file(n);
            let parse = best(runs, || parse(&text));
            let took = best(runs, || compile(&text));
            let growth = before.map_or("".into(), |b| {
                format!("{:.2}", took.as_secs_f64() / b.as_secs_f64())
            });
            println!(
                "| {what} | {n} | {} | {:.1} | {:.1} | {:.1} | {growth} |",
                text.len() / 1024,
                parse.as_secs_f64() * 1e3,
                took.as_secs_f64() * 1e3,
                took.as_secs_f64() * 1e6 / n as f64,
            );
            before = Some(took);
        }
    }
}
