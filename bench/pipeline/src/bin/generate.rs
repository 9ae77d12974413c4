//! The whole pipeline, in memory, on a synthetic `.tool` file with 1,000 tools: parse and
//! resolve, the Rust checks, and generation (listings, Rust items, prettyplease).
//!
//! `cargo run --release -p toolidl-bench --bin generate [RUNS] [TOOLS]`; with `--print-tool
//! [TOOLS]` it prints the synthetic file instead.

use std::time::{Duration, Instant};

use toolidl::source::{FileId, MemoryLoader, SourceId};
use toolidl_codegen::SchemaOptions;
use toolidl_codegen::rust::RustOptions;

const DEFAULT_RUNS: usize = 5;
const DEFAULT_TOOLS: usize = 1_000;

/// The times of one run of the pipeline, and what it produced.
struct Run {
    compile: Duration,
    check: Duration,
    generate: Duration,
    output_bytes: usize,
    output_lines: usize,
}

impl Run {
    fn total(&self) -> Duration {
        self.compile + self.check + self.generate
    }
}

fn run(text: &str) -> Run {
    let start = Instant::now();
    let output = toolidl::compile(
        &MemoryLoader::new(),
        SourceId::new("synth.tool"),
        text.to_owned(),
    );
    let compile = start.elapsed();
    if output.has_errors() {
        eprintln!("{}", output.render());
        panic!("the synthetic file does not resolve");
    }
    let model = output.model.as_ref().expect("a model without errors");

    let start = Instant::now();
    let problems = toolidl_codegen::rust::check(model, &output.locations);
    let check = start.elapsed();
    assert!(
        problems.is_empty(),
        "the Rust checks refuse the file: {problems:?}"
    );

    let start = Instant::now();
    let files =
        toolidl_codegen::rust::generate(&[model], &RustOptions::default()).expect("generates");
    let generate = start.elapsed();

    Run {
        compile,
        check,
        generate,
        output_bytes: files.iter().map(|f| f.code.len()).sum(),
        output_lines: files.iter().map(|f| f.code.lines().count()).sum(),
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn arg(n: usize, default: usize, what: &str) -> usize {
    match std::env::args().nth(n) {
        None => default,
        Some(a) => a.parse().ok().filter(|&v| v > 0).unwrap_or_else(|| {
            eprintln!("usage: generate [RUNS] [TOOLS]   ({what} must be a whole number above 0)");
            std::process::exit(2);
        }),
    }
}

fn main() {
    if std::env::args().nth(1).as_deref() == Some("--print-tool") {
        print!(
            "{}",
            toolidl_bench::synthetic_tool_file(arg(2, DEFAULT_TOOLS, "TOOLS"))
        );
        return;
    }
    let runs = arg(1, DEFAULT_RUNS, "RUNS");
    let tools = arg(2, DEFAULT_TOOLS, "TOOLS");
    let text = toolidl_bench::synthetic_tool_file(tools);
    println!(
        "input: {tools} tools in 10 services, 20 enums, 40 records: {} bytes, {} lines of .tool",
        text.len(),
        text.lines().count()
    );

    // Informational parts of the phases, timed on their own.
    let start = Instant::now();
    let parsed = toolidl::parser::parse(FileId(0), &text);
    let parse = start.elapsed();
    drop(parsed);
    let output = toolidl::compile(
        &MemoryLoader::new(),
        SourceId::new("synth.tool"),
        text.clone(),
    );
    let model = output.model.expect("the synthetic file resolves");
    let start = Instant::now();
    let listings = toolidl_codegen::listings(&model, &SchemaOptions::default()).expect("listings");
    let listing = start.elapsed();
    let listed: usize = listings.services.iter().map(|s| s.tools.len()).sum();
    assert_eq!(listed, tools);

    let mut all: Vec<Run> = (0..runs).map(|_| run(&text)).collect();
    all.sort_by_key(Run::total);
    let best = &all[0];
    println!(
        "output: {} bytes, {} lines of Rust",
        best.output_bytes, best.output_lines
    );
    println!();
    println!("best of {runs} runs (ms):");
    println!(
        "  parse + resolve   toolidl::compile              {:>8.1}",
        ms(best.compile)
    );
    println!(
        "  Rust checks       toolidl_codegen::rust::check  {:>8.1}",
        ms(best.check)
    );
    println!(
        "  generate          toolidl_codegen::rust::generate {:>6.1}",
        ms(best.generate)
    );
    println!(
        "  total                                           {:>8.1}   (target < 1000)",
        ms(best.total())
    );
    println!(
        "  of which, timed alone: parse {:.1}, listings {:.1}",
        ms(parse),
        ms(listing)
    );
    let totals: Vec<String> = all
        .iter()
        .map(|r| format!("{:.1}", ms(r.total())))
        .collect();
    println!("  every run's total, sorted: {}", totals.join(", "));
}
