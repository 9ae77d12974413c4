//! A tool service written by hand against `toolidl-runtime`, without code generation.
//!
//! It is what generated code looks like, written out: static listings that follow the
//! schema mapping, argument decoding with the runtime's helpers (so errors read exactly
//! like generated code's), and one `call_tool` that dispatches by name.

use serde::Serialize;
use toolidl_runtime::Profile;
use toolidl_runtime::codegen::{
    Arc, ArgError, Arguments, BoxFuture, Decode, Path, RequestContext, Service, ToolDef, ToolError,
    ToolOutput, ToolResult, ToolVariant, args, check,
};

/// The listings, in order: pre-rendered `Tool` objects (keyword order per seed 000), each
/// with the variants the client profiles publish where they differ (what the profiles' rules
/// make of each listing; `tests/it/profiles.rs` checks them against those rules).
pub static TOOLS: [ToolDef; 3] = [
    ToolDef::new(
        "greet",
        r#"{"name":"greet","description":"Greets someone by name.","inputSchema":{"type":"object","properties":{"name":{"type":"string","description":"Who to greet.","minLength":1}},"required":["name"],"additionalProperties":false}}"#,
    )
    .variants(&[
        // Strict mode has no `minLength`: the rule moves into the description (the server
        // still enforces it).
        ToolVariant::new(
            Profile::OpenAiStrict,
            "greet",
            r#"{"name":"greet","description":"Greets someone by name.","inputSchema":{"type":"object","properties":{"name":{"type":"string","description":"Who to greet. Length at least 1."}},"required":["name"],"additionalProperties":false}}"#,
        ),
        // Gemini's schemas have no `additionalProperties` (unknown arguments are still refused).
        ToolVariant::new(
            Profile::Gemini,
            "greet",
            r#"{"name":"greet","description":"Greets someone by name.","inputSchema":{"type":"object","properties":{"name":{"type":"string","description":"Who to greet.","minLength":1}},"required":["name"]}}"#,
        ),
    ]),
    ToolDef::new(
        "add",
        r#"{"name":"add","description":"Adds two integers.","inputSchema":{"type":"object","properties":{"a":{"type":"integer","minimum":-2147483648,"maximum":2147483647},"b":{"type":"integer","minimum":-2147483648,"maximum":2147483647}},"required":["a","b"],"additionalProperties":false},"annotations":{"readOnlyHint":true,"idempotentHint":true}}"#,
    )
    .variants(&[ToolVariant::new(
        Profile::Gemini,
        "add",
        r#"{"name":"add","description":"Adds two integers.","inputSchema":{"type":"object","properties":{"a":{"type":"integer","minimum":-2147483648,"maximum":2147483647},"b":{"type":"integer","minimum":-2147483648,"maximum":2147483647}},"required":["a","b"]},"annotations":{"readOnlyHint":true,"idempotentHint":true}}"#,
    )]),
    ToolDef::new(
        "stats",
        r#"{"name":"stats","title":"Summary statistics","description":"Summarizes a list of numbers.","inputSchema":{"type":"object","properties":{"values":{"type":"array","items":{"type":"number"},"minItems":1,"maxItems":1000}},"required":["values"],"additionalProperties":false},"outputSchema":{"type":"object","properties":{"count":{"type":"integer","minimum":0,"maximum":18446744073709551615},"min":{"type":"number"},"max":{"type":"number"},"mean":{"type":"number"}},"required":["count","min","max","mean"],"additionalProperties":false},"annotations":{"title":"Summary statistics","readOnlyHint":true}}"#,
    )
    .variants(&[ToolVariant::new(
        Profile::Gemini,
        "stats",
        r#"{"name":"stats","title":"Summary statistics","description":"Summarizes a list of numbers.","inputSchema":{"type":"object","properties":{"values":{"type":"array","items":{"type":"number"},"minItems":1,"maxItems":1000}},"required":["values"]},"outputSchema":{"type":"object","properties":{"count":{"type":"integer","minimum":0,"maximum":18446744073709551615},"min":{"type":"number"},"max":{"type":"number"},"mean":{"type":"number"}},"required":["count","min","max","mean"],"additionalProperties":false},"annotations":{"title":"Summary statistics","readOnlyHint":true}}"#,
    )]),
];

/// The record `stats` returns as structured content.
#[derive(Debug, Serialize, PartialEq)]
pub struct Stats {
    pub count: u64,
    pub min: f64,
    pub max: f64,
    pub mean: f64,
}

/// The service. Stateless; a real one would hold clients, caches, configuration.
#[derive(Default)]
pub struct ManualTools;

impl Service for ManualTools {
    fn tools(&self) -> &[ToolDef] {
        &TOOLS
    }

    fn call_tool(
        self: Arc<Self>,
        name: &str,
        args: Arguments<'_>,
        _ctx: RequestContext,
    ) -> BoxFuture<ToolResult> {
        // Arguments are decoded before the future is built, so `args` need not outlive it.
        let result = match name {
            "greet" => read_greet(args).map(|who| ToolOutput::text(format!("Hello, {who}!"))),
            "add" => read_add(args)
                .map(|(a, b)| ToolOutput::Json((i64::from(a) + i64::from(b)).to_string())),
            "stats" => read_stats(args).and_then(|values| ToolOutput::structured(&stats(&values))),
            other => Err(ToolError::internal(format!("no tool named {other}"))),
        };
        Box::pin(std::future::ready(result))
    }
}

/// `greet(@length(min: 1) name: string)`.
fn read_greet(args: Arguments<'_>) -> Result<String, ToolError> {
    let root = Path::Root;
    let mut name = None;
    args::object(&mut args.reader(), &root, |r, key| {
        match key {
            "name" => {
                let path = root.field("name");
                let s = String::read(r, &path)?;
                check::length(&s, Some(1), None, &path)?;
                name = Some(s);
            }
            _ => return Err(ArgError::unknown(&root, key)),
        }
        Ok(())
    })?;
    Ok(args::required(name, &root, "name")?)
}

/// `add(a: i32, b: i32)`.
fn read_add(args: Arguments<'_>) -> Result<(i32, i32), ToolError> {
    let root = Path::Root;
    let (mut a, mut b) = (None, None);
    args::object(&mut args.reader(), &root, |r, key| {
        match key {
            "a" => a = Some(i32::read(r, &root.field("a"))?),
            "b" => b = Some(i32::read(r, &root.field("b"))?),
            _ => return Err(ArgError::unknown(&root, key)),
        }
        Ok(())
    })?;
    Ok((
        args::required(a, &root, "a")?,
        args::required(b, &root, "b")?,
    ))
}

/// `stats(@length(1, 1000) values: list<f64>)`.
fn read_stats(args: Arguments<'_>) -> Result<Vec<f64>, ToolError> {
    let root = Path::Root;
    let mut values = None;
    args::object(&mut args.reader(), &root, |r, key| {
        match key {
            "values" => {
                let path = root.field("values");
                let v = Vec::<f64>::read(r, &path)?;
                check::items(v.len(), Some(1), Some(1000), &path)?;
                values = Some(v);
            }
            _ => return Err(ArgError::unknown(&root, key)),
        }
        Ok(())
    })?;
    Ok(args::required(values, &root, "values")?)
}

/// The summary of a non-empty list.
pub fn stats(values: &[f64]) -> Stats {
    let min = values.iter().copied().fold(f64::INFINITY, f64::min);
    let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let sum: f64 = values.iter().sum();
    Stats {
        count: values.len() as u64,
        min,
        max,
        mean: sum / values.len() as f64,
    }
}

/// The server this example serves: one service, named for `serverInfo`.
pub fn server() -> toolidl_runtime::Server {
    server_for(Profile::Standard)
}

/// The same server, listing its tools as `profile` publishes them.
pub fn server_for(profile: Profile) -> toolidl_runtime::Server {
    toolidl_runtime::Server::builder("manual-example", env!("CARGO_PKG_VERSION"))
        .instructions("Call greet, add or stats.")
        .service(Arc::new(ManualTools))
        .profile(profile)
        .build()
}

/// Sends `tracing` output to stderr (stdout carries only protocol messages).
pub fn init_logging() {
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into()),
        )
        .try_init();
}
