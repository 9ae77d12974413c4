//! A service whose handlers fail in every way a handler can: panics in the synchronous part
//! and after an await (for tools, resources, prompts and completions), every `ToolError`
//! kind, a request to the client after the input may have ended, and one tool that runs
//! every argument decoder on whatever it is given.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use toolidl_runtime::codegen::{
    ArgError, Arguments, BoxFuture, Completion, CompletionRequest, Decode, Format, ListingDef,
    Path, Pattern, RawValue, RequestContext, RpcError, Service, ToolDef, ToolError, ToolOutput,
    ToolResult, args, check,
};

macro_rules! tool {
    ($name:literal) => {
        ToolDef::new(
            $name,
            concat!(
                r#"{"name":""#,
                $name,
                r#"","inputSchema":{"type":"object"}}"#
            ),
        )
    };
}

pub static FUZZ_TOOLS: [ToolDef; 3] = [tool!("decode_all"), tool!("fail"), tool!("ask_later")];

pub static FUZZ_PROMPTS: [ListingDef; 1] = [ListingDef::new(r#"{"name":"panic_prompt"}"#)];

/// How `fail` ends, chosen by its `kind` argument.
pub const FAIL_KINDS: [&str; 6] = ["message", "argument", "rpc", "internal", "panic", "ok"];

pub struct Fuzz;

fn ready<T: Send + 'static>(v: T) -> BoxFuture<T> {
    Box::pin(std::future::ready(v))
}

static WORD: Pattern = Pattern::new("^[a-z]+$");

/// Runs a decoder chosen by each key's name on its value; the first error is the result.
/// Decoders must never panic, whatever the value (a panic would read `The tool failed.`).
fn decode_all(arguments: Arguments<'_>) -> Result<(), ArgError> {
    let root = Path::Root;
    args::object(&mut arguments.reader(), &root, |r, key| {
        let p = root.field(key);
        match key.split('_').next().unwrap_or("") {
            "i8" => drop(i8::read(r, &p)?),
            "u8" => drop(u8::read(r, &p)?),
            "i32" => check::range(i32::read(r, &p)?, Some(-5), Some(5), &p)?,
            "u64" => drop(u64::read(r, &p)?),
            "i64" => drop(i64::read(r, &p)?),
            "i128" => drop(args::integer(
                r,
                &p,
                i128::from(i64::MIN),
                i128::from(u64::MAX),
            )?),
            "f32" => drop(f32::read(r, &p)?),
            "f64" => check::range(f64::read(r, &p)?, Some(-1.5), Some(1e300), &p)?,
            "bool" => drop(bool::read(r, &p)?),
            "string" => check::length(&String::read(r, &p)?, Some(1), Some(8), &p)?,
            "char" => drop(char::read(r, &p)?),
            "opt" => drop(Option::<Vec<Option<i16>>>::read(r, &p)?),
            "vec" => {
                let items = Vec::<String>::read(r, &p)?;
                check::items(items.len(), Some(0), Some(3), &p)?;
            }
            "map" => drop(std::collections::BTreeMap::<String, Box<u32>>::read(r, &p)?),
            "hash" => drop(std::collections::HashMap::<String, bool>::read(r, &p)?),
            "json" => drop(Value::read(r, &p)?),
            "object" => drop(serde_json::Map::<String, Value>::read(r, &p)?),
            "bytes" => drop(args::bytes(r, &p)?),
            "uuid" => drop(args::formatted(r, &p, Format::Uuid)?),
            "date" => drop(args::formatted(r, &p, Format::Date)?),
            "time" => drop(args::formatted(r, &p, Format::Time)?),
            "datetime" => drop(args::formatted(r, &p, Format::DateTime)?),
            "duration" => drop(args::formatted(r, &p, Format::Duration)?),
            "email" => drop(args::formatted(r, &p, Format::Email)?),
            "url" => drop(args::formatted(r, &p, Format::Uri)?),
            "enum" => drop(args::enum_member(r, &p, &["celsius", "fahrenheit"])?),
            "set" => drop(args::set::<i64>(r, &p)?),
            "pattern" => check::pattern(&String::read(r, &p)?, &WORD, &p)?,
            "nested" => {
                // Records inside lists, as generated code reads them.
                args::array(r, &p, |r, i| {
                    let at = p.index(i);
                    args::object(r, &at, |r, k| match k {
                        "n" => u8::read(r, &at.field("n")).map(drop),
                        _ => Err(ArgError::unknown(&at, k)),
                    })
                })?;
            }
            _ => return Err(ArgError::unknown(&root, key)),
        }
        Ok(())
    })
}

fn fail(kind: &str) -> ToolResult {
    match kind {
        "message" => Err(ToolError::message("Nothing to see.")),
        "argument" => Err(ArgError::missing(&Path::Root, "x").into()),
        "rpc" => Err(RpcError::new(-32099, "Custom failure").into()),
        "internal" => Err(ToolError::internal("secret internal detail")),
        "panic" => panic!("secret panic detail"),
        _ => Ok(ToolOutput::text("fine")),
    }
}

fn str_arg(raw: &RawValue, key: &str) -> Option<String> {
    serde_json::from_str::<Value>(raw.get())
        .ok()?
        .get(key)?
        .as_str()
        .map(str::to_owned)
}

impl Service for Fuzz {
    fn tools(&self) -> &[ToolDef] {
        &FUZZ_TOOLS
    }

    fn call_tool(
        self: Arc<Self>,
        name: &str,
        args: Arguments<'_>,
        ctx: RequestContext,
    ) -> BoxFuture<ToolResult> {
        let raw = args.raw();
        match name {
            "decode_all" => ready(
                decode_all(args)
                    .map(|()| ToolOutput::Empty)
                    .map_err(Into::into),
            ),
            "fail" => {
                let kind = str_arg(raw, "kind").unwrap_or_default();
                let later = str_arg(raw, "when").as_deref() == Some("later");
                if !later {
                    return ready(fail(&kind));
                }
                Box::pin(async move {
                    tokio::task::yield_now().await;
                    fail(&kind)
                })
            }
            // Asks the client only after a while, when the input may already have ended.
            "ask_later" => Box::pin(async move {
                tokio::time::sleep(Duration::from_millis(3)).await;
                let r = ctx
                    .create_message(json!({"messages": [], "maxTokens": 1}))
                    .await?;
                Ok(ToolOutput::text(r.to_string()))
            }),
            _ => ready(Err(ToolError::internal("unlisted tool"))),
        }
    }

    fn read_resource(
        self: Arc<Self>,
        uri: &str,
        _ctx: RequestContext,
    ) -> Option<BoxFuture<Result<Value, RpcError>>> {
        match uri {
            "fuzz://panic-now" => panic!("resource panic before the future"),
            "fuzz://panic-first-poll" => Some(Box::pin(async {
                panic!("resource panic in the first poll")
            })),
            "fuzz://panic-later" => Some(Box::pin(async {
                tokio::task::yield_now().await;
                panic!("resource panic after an await")
            })),
            _ => None,
        }
    }

    fn prompts(&self) -> &[ListingDef] {
        &FUZZ_PROMPTS
    }

    fn get_prompt(
        self: Arc<Self>,
        name: &str,
        args: Arguments<'_>,
        _ctx: RequestContext,
    ) -> Option<BoxFuture<Result<Value, RpcError>>> {
        let args = args.raw();
        if name != "panic_prompt" {
            return None;
        }
        // `when` picks where the panic happens; every choice must end in -32603.
        let fut: BoxFuture<Result<Value, RpcError>> = match str_arg(args, "when").as_deref() {
            Some("first_poll") => Box::pin(async { panic!("prompt panic in the first poll") }),
            Some("later") => Box::pin(async {
                tokio::task::yield_now().await;
                panic!("prompt panic after an await")
            }),
            _ => panic!("prompt panic before the future"),
        };
        Some(fut)
    }

    fn has_completions(&self) -> bool {
        true
    }

    fn complete(
        self: Arc<Self>,
        request: &CompletionRequest,
        _ctx: RequestContext,
    ) -> Option<BoxFuture<Result<Completion, RpcError>>> {
        match request.argument_name.as_str() {
            "panic_now" => panic!("completion panic before the future"),
            "panic_first_poll" => Some(Box::pin(async {
                panic!("completion panic in the first poll")
            })),
            "panic_later" => Some(Box::pin(async {
                tokio::task::yield_now().await;
                panic!("completion panic after an await")
            })),
            _ => None,
        }
    }
}
