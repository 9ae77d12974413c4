//! Benchmark: pipelined `tools/call add(a, b)` round trips over real pipes to a server
//! subprocess — the hand-written service of this example and the same tool generated from
//! `examples/weather/tools/manual.tool` — beside a plain serde_json typed line echo on the
//! same kind of pipes.
//!
//! `cargo run --release -p manual-example --bin bench [-- CALLS]`
//!
//! The same binary is the subprocess: `--serve` serves the manual example over stdio,
//! `--serve-generated` serves the generated one (`weather_example::server()`), `--echo` reads
//! each line into a typed request and writes a typed reply.

use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

const DEFAULT_CALLS: usize = 50_000;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let arg = std::env::args().nth(1);
    match arg.as_deref() {
        Some("--serve") => serve(manual_example::server()),
        Some("--serve-generated") => serve(weather_example::server()),
        Some("--echo") => echo(),
        other => {
            let calls = other.map(str::parse).transpose()?.unwrap_or(DEFAULT_CALLS);
            run(calls)
        }
    }
}

fn serve(server: toolidl_runtime::Server) -> Result<(), Box<dyn std::error::Error>> {
    manual_example::init_logging();
    let runtime = tokio::runtime::Builder::new_current_thread().build()?;
    runtime.block_on(toolidl_runtime::serve_stdio(server))?;
    Ok(())
}

#[derive(Deserialize)]
struct EchoRequest<'a> {
    #[allow(dead_code)]
    jsonrpc: &'a str,
    id: u64,
    #[allow(dead_code)]
    method: &'a str,
    params: EchoParams<'a>,
}

#[derive(Deserialize)]
struct EchoParams<'a> {
    #[allow(dead_code)]
    name: &'a str,
    arguments: AddArgs,
}

#[derive(Deserialize)]
struct AddArgs {
    a: i32,
    b: i32,
}

#[derive(Serialize)]
struct EchoReply {
    jsonrpc: &'static str,
    id: u64,
    result: EchoResult,
}

#[derive(Serialize)]
struct EchoResult {
    content: [TextBlock; 1],
}

#[derive(Serialize)]
struct TextBlock {
    r#type: &'static str,
    text: String,
}

/// The baseline: one typed parse and one typed write per line, flushed per read batch.
fn echo() -> Result<(), Box<dyn std::error::Error>> {
    let mut input = BufReader::with_capacity(64 * 1024, std::io::stdin().lock());
    let mut out = BufWriter::with_capacity(64 * 1024, std::io::stdout().lock());
    let mut line = String::new();
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            break;
        }
        let req: EchoRequest = serde_json::from_str(line.trim_end())?;
        let sum = i64::from(req.params.arguments.a) + i64::from(req.params.arguments.b);
        let reply = EchoReply {
            jsonrpc: "2.0",
            id: req.id,
            result: EchoResult {
                content: [TextBlock {
                    r#type: "text",
                    text: sum.to_string(),
                }],
            },
        };
        serde_json::to_writer(&mut out, &reply)?;
        out.write_all(b"\n")?;
        if input.buffer().is_empty() {
            out.flush()?;
        }
    }
    out.flush()?;
    Ok(())
}

struct Measured {
    elapsed: Duration,
    peak_rss_kib: Option<u64>,
}

fn run(calls: usize) -> Result<(), Box<dyn std::error::Error>> {
    let exe = std::env::current_exe()?;
    let server = measure(&exe, "--serve", calls, true)?;
    let generated = measure(&exe, "--serve-generated", calls, true)?;
    let echo = measure(&exe, "--echo", calls, false)?;
    let rate = calls as f64 / server.elapsed.as_secs_f64();
    let generated_rate = calls as f64 / generated.elapsed.as_secs_f64();
    let echo_rate = calls as f64 / echo.elapsed.as_secs_f64();
    println!("pipelined tools/call add(a,b) over stdio pipes, {calls} calls after initialize");
    println!(
        "server: {:>9.1} ms  {:>10.0} calls/s  peak RSS {}  (hand-written)",
        ms(server.elapsed),
        rate,
        kib(server.peak_rss_kib)
    );
    println!(
        "server: {:>9.1} ms  {:>10.0} calls/s  peak RSS {}  (generated)",
        ms(generated.elapsed),
        generated_rate,
        kib(generated.peak_rss_kib)
    );
    println!(
        "echo:   {:>9.1} ms  {:>10.0} lines/s  peak RSS {}",
        ms(echo.elapsed),
        echo_rate,
        kib(echo.peak_rss_kib)
    );
    println!(
        "ratio (server time / echo time): {:.2}x hand-written, {:.2}x generated",
        server.elapsed.as_secs_f64() / echo.elapsed.as_secs_f64(),
        generated.elapsed.as_secs_f64() / echo.elapsed.as_secs_f64()
    );
    println!(
        "generated / hand-written calls/s: {:.3}",
        generated_rate / rate
    );
    Ok(())
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn kib(v: Option<u64>) -> String {
    v.map_or("unknown".into(), |k| {
        format!("{:.1} MiB", k as f64 / 1024.0)
    })
}

/// Starts `exe mode`, optionally initializes, pipelines `calls` requests and reads every reply.
fn measure(
    exe: &std::path::Path,
    mode: &str,
    calls: usize,
    initialize: bool,
) -> Result<Measured, Box<dyn std::error::Error>> {
    let mut child = Command::new(exe)
        .arg(mode)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let mut stdout = BufReader::with_capacity(64 * 1024, child.stdout.take().ok_or("no stdout")?);
    let mut line = String::new();
    if initialize {
        writeln!(
            stdin,
            r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"2025-11-25","capabilities":{{}},"clientInfo":{{"name":"bench","version":"1"}}}}}}"#
        )?;
        stdin.flush()?;
        stdout.read_line(&mut line)?;
        if !line.contains("\"protocolVersion\"") {
            return Err(format!("unexpected initialize reply: {line}").into());
        }
        writeln!(
            stdin,
            r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#
        )?;
    }
    let mut requests = String::with_capacity(calls * 100);
    for i in 1..=calls {
        let (a, b) = (i as i32, 7);
        requests.push_str(&format!(
            r#"{{"jsonrpc":"2.0","id":{i},"method":"tools/call","params":{{"name":"add","arguments":{{"a":{a},"b":{b}}}}}}}"#
        ));
        requests.push('\n');
    }
    let start = Instant::now();
    let writer = std::thread::spawn(move || -> std::io::Result<std::process::ChildStdin> {
        stdin.write_all(requests.as_bytes())?;
        stdin.flush()?;
        Ok(stdin)
    });
    let mut seen = 0usize;
    let mut checksum = 0i64;
    while seen < calls {
        line.clear();
        if stdout.read_line(&mut line)? == 0 {
            return Err(format!("{mode}: output ended after {seen} replies").into());
        }
        checksum += reply_sum(&line).ok_or_else(|| format!("{mode}: bad reply: {line}"))?;
        seen += 1;
    }
    let elapsed = start.elapsed();
    let expected: i64 = (1..=calls as i64).map(|i| i + 7).sum();
    if checksum != expected {
        return Err(format!("{mode}: wrong sums ({checksum} != {expected})").into());
    }
    let peak_rss_kib = peak_rss(child.id());
    let stdin = writer.join().map_err(|_| "writer thread panicked")??;
    drop(stdin);
    finish(&mut child, &mut stdout)?;
    Ok(Measured {
        elapsed,
        peak_rss_kib,
    })
}

/// The integer in the reply's first text block (a cheap scan, so the client is not the bottleneck).
fn reply_sum(line: &str) -> Option<i64> {
    if line.contains("\"isError\":true") || line.contains("\"error\"") {
        return None;
    }
    let start = line.find("\"text\":\"")? + 8;
    let end = start + line[start..].find('"')?;
    line[start..end].parse().ok()
}

/// VmHWM (peak resident set) of a live process, in KiB.
fn peak_rss(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn finish(child: &mut Child, stdout: &mut impl Read) -> Result<(), Box<dyn std::error::Error>> {
    let mut rest = Vec::new();
    stdout.read_to_end(&mut rest)?;
    let status = child.wait()?;
    if !status.success() {
        return Err(format!("subprocess exited with {status}").into());
    }
    Ok(())
}
