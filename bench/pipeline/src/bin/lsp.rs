//! `toolidl lsp` on a 1,000-tool file: how long from a change to its diagnostics.
//!
//! `cargo build --release -p toolidl-cli && cargo run --release -p toolidl-bench --bin lsp
//! [CHANGES] [TOOLS]`. Starts `target/release/toolidl lsp` (or `$TOOLIDL`) as an editor does,
//! with no debounce, opens the synthetic file of the `generate` benchmark, then sends CHANGES
//! full-text changes (default 40), alternately breaking one parameter's type and repairing it,
//! and times each from sending `didChange` to receiving the `publishDiagnostics` of that
//! version. Before timing, it checks that the broken version has exactly the one E0101 and the
//! repaired one none.

#[allow(dead_code)] // The client's helpers for the CLI's snapshot tests.
#[path = "../../../../toolidl-cli/tests/it/lsp_client.rs"]
mod client;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

fn main() {
    let mut args = std::env::args().skip(1);
    let changes: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(40);
    let tools: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1_000);
    let binary = std::env::var_os("TOOLIDL")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/release/toolidl")
        });
    assert!(
        binary.exists(),
        "no {} (cargo build --release -p toolidl-cli)",
        binary.display()
    );
    let good = toolidl_bench::synthetic_tool_file(tools);
    // One parameter type misspelt: the file no longer resolves.
    let needle = ": string";
    let at = good
        .rfind(needle)
        .expect("the synthetic file has string parameters");
    let broken = format!("{}: strnig{}", &good[..at], &good[at + needle.len()..]);

    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut c = client::Client::start_binary(&binary, dir.path(), json!({"debounceMs": 0}));
    let first = c.open("synth.tool", &good);
    assert_eq!(
        first["diagnostics"],
        json!([]),
        "the synthetic file has diagnostics"
    );
    let mut times: Vec<Duration> = Vec::with_capacity(changes);
    for i in 0..changes {
        let version = i as i64 + 2;
        let (text, expected) = if i % 2 == 0 { (&broken, 1) } else { (&good, 0) };
        let start = Instant::now();
        c.change("synth.tool", version, text);
        let published = c.wait_for("textDocument/publishDiagnostics", |p| {
            p["version"] == json!(version)
        });
        times.push(start.elapsed());
        let found = published["diagnostics"].as_array().map_or(0, Vec::len);
        assert_eq!(
            found, expected,
            "version {version}: {}",
            published["diagnostics"]
        );
        if expected == 1 {
            assert_eq!(published["diagnostics"][0]["code"], Value::from("E0101"));
        }
    }
    c.shutdown();
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "toolidl lsp, {} tools ({} KB), {changes} changes: change → diagnostics min {:.1} ms, median {:.1} ms, p90 {:.1} ms, max {:.1} ms",
        tools,
        good.len() / 1024,
        ms(times[0]),
        ms(times[times.len() / 2]),
        ms(times[times.len() * 9 / 10]),
        ms(times[times.len() - 1]),
    );
}
