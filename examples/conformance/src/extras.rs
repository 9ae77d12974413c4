//! The fixtures the `.tool` language cannot express yet, written by hand against
//! `toolidl_runtime::codegen` (as `examples/manual` is). Each one is a gap listed in
//! README.md:
//!
//! - `json_schema_2020_12_tool`: an `inputSchema` with `$schema`, `$defs`/`$anchor`/`$ref`,
//!   `allOf`/`anyOf`, `if`/`then`/`else` and an open nested object;
//! - `test_custom_header`: a parameter annotated with `x-mcp-header` (SEP-2243);
//! - the `input_required` tools and prompt (SEP-2322 multi round-trip), and the task
//!   fixtures that ask for input: no generated handler can answer `input_required`;
//! - prompts whose messages are not one user text: an embedded resource, an image.

use serde_json::{Map, Value, json};
use toolidl_runtime::codegen::{
    Arc, ArgError, Arguments, BoxFuture, ListingDef, Path, Profile, RequestContext, RpcError,
    Service, ToolDef, ToolError, ToolOutput, ToolResult, ToolVariant, args, ready,
};

use crate::input::{self, Inputs, accepted_text, elicit_one, sample_one, state_of};

/// `{"type":"object","properties":{},"additionalProperties":false}`, as generated code writes it.
macro_rules! no_params {
    () => {
        r#"{"type":"object","properties":{},"additionalProperties":false}"#
    };
}

/// A tool without parameters: its `Tool` JSON.
macro_rules! plain_tool {
    ($name:literal, $description:literal) => {
        ToolDef::new(
            $name,
            concat!(
                r#"{"name":""#,
                $name,
                r#"","description":""#,
                $description,
                r#"","inputSchema":"#,
                no_params!(),
                "}"
            ),
        )
    };
}

static TOOLS: [ToolDef; 14] = [
    ToolDef::new(
        "json_schema_2020_12_tool",
        r##"{"name":"json_schema_2020_12_tool","description":"Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613, SEP-2106)","inputSchema":{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","$defs":{"address":{"$anchor":"addressDef","type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}}}},"properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"},"contactMethod":{"type":"string","enum":["phone","email"]},"phone":{"type":"string"},"email":{"type":"string"}},"allOf":[{"anyOf":[{"required":["phone"]},{"required":["email"]}]}],"if":{"properties":{"contactMethod":{"const":"phone"}},"required":["contactMethod"]},"then":{"required":["phone"]},"else":{"required":["email"]},"additionalProperties":false}}"##,
    )
    .variants(&[ToolVariant::new(
        Profile::OpenAiStrict,
        "json_schema_2020_12_tool",
        // Strict mode has no `if`/`allOf` and closes every object: the rule is in the
        // description (and checked as before), every property is required and takes null
        // for "left out", the address is inlined (the Agents SDK refuses a `$ref` it did not
        // expand) and takes no other members.
        r##"{"name":"json_schema_2020_12_tool","description":"Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613, SEP-2106). Give a phone or an email; with contactMethod phone, the phone is required, else the email.","inputSchema":{"type":"object","properties":{"name":{"type":["string","null"],"description":"Null leaves it out."},"address":{"type":["object","null"],"properties":{"street":{"type":["string","null"],"description":"Null leaves it out."},"city":{"type":["string","null"],"description":"Null leaves it out."}},"required":["street","city"],"additionalProperties":false,"description":"Null leaves it out."},"contactMethod":{"type":["string","null"],"enum":["phone","email",null],"description":"Null leaves it out."},"phone":{"type":["string","null"],"description":"Null leaves it out."},"email":{"type":["string","null"],"description":"Null leaves it out."}},"required":["name","address","contactMethod","phone","email"],"additionalProperties":false}}"##,
    )]),
    ToolDef::new(
        "test_custom_header",
        r#"{"name":"test_custom_header","description":"Echoes a parameter that clients mirror into the Mcp-Param-Region header (SEP-2243)","inputSchema":{"type":"object","properties":{"region":{"type":"string","description":"A region name, mirrored into Mcp-Param-Region.","x-mcp-header":"Region"}},"required":["region"],"additionalProperties":false}}"#,
    ),
    plain_tool!(
        "test_input_required_result_elicitation",
        "MRTR: asks for the user's name with elicitation (input_required), then greets"
    ),
    plain_tool!(
        "test_input_required_result_sampling",
        "MRTR: asks the client's model a question with sampling (input_required)"
    ),
    plain_tool!(
        "test_input_required_result_list_roots",
        "MRTR: asks for the client's roots (input_required)"
    ),
    plain_tool!(
        "test_input_required_result_request_state",
        "MRTR: input_required with a requestState that the retry must echo"
    ),
    plain_tool!(
        "test_input_required_result_multiple_inputs",
        "MRTR: input_required with elicitation, sampling and roots/list requests at once"
    ),
    plain_tool!(
        "test_input_required_result_multi_round",
        "MRTR: two rounds of input_required with an evolving requestState"
    ),
    plain_tool!(
        "test_input_required_result_tampered_state",
        "MRTR: integrity-protected requestState; a changed one is refused with -32602"
    ),
    plain_tool!(
        "test_input_required_result_capabilities",
        "MRTR: asks only for what the client's declared capabilities allow"
    ),
    plain_tool!(
        "test_streaming_elicitation",
        "Reports progress, then asks for confirmation: input_required under 2026-07-28, never a request on the stream"
    ),
    ToolDef::new(
        "confirm_delete",
        r#"{"name":"confirm_delete","description":"Asks the user to confirm, then deletes a (pretend) file (task-supporting)","inputSchema":{"type":"object","properties":{"filename":{"type":"string","description":"The file to delete."}},"required":["filename"],"additionalProperties":false}}"#,
    ),
    plain_tool!(
        "multi_input",
        "Asks for a name and a confirmation at once (task-supporting)"
    ),
    plain_tool!(
        "test_tool_with_task",
        "Asks for the user's name, then greets (task support: required)"
    ),
];

static PROMPTS: [ListingDef; 3] = [
    ListingDef::new(
        r#"{"name":"test_prompt_with_embedded_resource","title":"Prompt With Embedded Resource","description":"A prompt that includes an embedded resource","arguments":[{"name":"resourceUri","description":"URI of the resource to embed","required":true}]}"#,
    ),
    ListingDef::new(
        r#"{"name":"test_prompt_with_image","title":"Prompt With Image","description":"A prompt that includes image content","arguments":[]}"#,
    ),
    ListingDef::new(
        r#"{"name":"test_input_required_result_prompt","title":"Prompt Requiring Input","description":"MRTR: a prompt that asks for context with elicitation (input_required)","arguments":[]}"#,
    ),
];

/// The hand-written service.
pub struct Extras;

/// A decoded tool call.
enum Call {
    JsonSchema(Value),
    CustomHeader(String),
    Elicitation,
    Sampling,
    ListRoots,
    RequestState,
    MultipleInputs,
    MultiRound,
    TamperedState,
    Capabilities,
    StreamingElicitation,
    ConfirmDelete(String),
    MultiInput,
    ToolWithTask,
}

impl Extras {
    fn decode(name: &str, args: Arguments<'_>) -> Result<Call, ToolError> {
        Ok(match name {
            "json_schema_2020_12_tool" => Call::JsonSchema(read_json_schema_args(args)?),
            "test_custom_header" => Call::CustomHeader(read_one_string(args, "region")?),
            "confirm_delete" => Call::ConfirmDelete(read_one_string(args, "filename")?),
            other => {
                read_no_args(args)?;
                match other {
                    "test_input_required_result_elicitation" => Call::Elicitation,
                    "test_input_required_result_sampling" => Call::Sampling,
                    "test_input_required_result_list_roots" => Call::ListRoots,
                    "test_input_required_result_request_state" => Call::RequestState,
                    "test_input_required_result_multiple_inputs" => Call::MultipleInputs,
                    "test_input_required_result_multi_round" => Call::MultiRound,
                    "test_input_required_result_tampered_state" => Call::TamperedState,
                    "test_input_required_result_capabilities" => Call::Capabilities,
                    "test_streaming_elicitation" => Call::StreamingElicitation,
                    "multi_input" => Call::MultiInput,
                    "test_tool_with_task" => Call::ToolWithTask,
                    _ => return Err(ToolError::internal(format!("no tool named {other}"))),
                }
            }
        })
    }

    async fn run(&self, call: Call, ctx: RequestContext) -> ToolResult {
        let mut inputs = Inputs::new(&ctx);
        match call {
            Call::JsonSchema(args) => Ok(ToolOutput::text(format!(
                "JSON Schema 2020-12 tool called with: {args}"
            ))),
            Call::CustomHeader(region) => Ok(ToolOutput::text(format!("Region: {region}"))),
            Call::Elicitation | Call::ToolWithTask => {
                let ask = elicit_one("What is your name?", "name", "string");
                let Some(answer) = inputs.ask("user_name", "elicitation/create", ask).await? else {
                    return Ok(more(inputs, None));
                };
                let name = accepted_text(&answer, "name").unwrap_or("stranger");
                Ok(ToolOutput::text(format!("Hello, {name}!")))
            }
            Call::Sampling => {
                let ask = sample_one("What is the capital of France?", 100);
                let Some(answer) = inputs
                    .ask("capital_question", "sampling/createMessage", ask)
                    .await?
                else {
                    return Ok(more(inputs, None));
                };
                let text = answer
                    .pointer("/content/text")
                    .and_then(Value::as_str)
                    .unwrap_or("no response");
                Ok(ToolOutput::text(format!("Sampling result: {text}")))
            }
            Call::ListRoots => {
                let Some(answer) = inputs.ask("client_roots", "roots/list", json!({})).await?
                else {
                    return Ok(more(inputs, None));
                };
                let n = answer["roots"].as_array().map_or(0, Vec::len);
                Ok(ToolOutput::text(format!("Found {n} root(s)")))
            }
            Call::RequestState | Call::TamperedState => {
                let kind = match call {
                    Call::RequestState => "request-state",
                    _ => "tamper-test",
                };
                // A state that does not open was refused (-32602) by the runtime already.
                let state = state_of(&ctx);
                let ok = state.as_ref().and_then(|s| s.get("kind")) == Some(&json!(kind));
                let ask = elicit_one("Please confirm", "ok", "boolean");
                let answer = inputs.ask("confirm", "elicitation/create", ask).await?;
                match (answer, ok || !inputs.stateless()) {
                    (Some(_), true) if kind == "request-state" => {
                        Ok(ToolOutput::text("state-ok: requestState validated"))
                    }
                    (Some(_), true) => Ok(ToolOutput::text("integrity-ok: state verified")),
                    // Answered without a state: ask again, with one (another tool's state was
                    // refused by the runtime before this handler ran).
                    _ => {
                        let state = json!({ "kind": kind }).to_string();
                        let requests = inputs.pending().unwrap_or_else(confirm_request);
                        Ok(input::input_required(requests, Some(state)))
                    }
                }
            }
            Call::MultipleInputs => {
                let state = state_of(&ctx);
                let name = inputs
                    .ask(
                        "user_name",
                        "elicitation/create",
                        elicit_one("What is your name?", "name", "string"),
                    )
                    .await?;
                let greeting = inputs
                    .ask(
                        "greeting",
                        "sampling/createMessage",
                        sample_one("Generate a greeting", 50),
                    )
                    .await?;
                let roots = inputs.ask("client_roots", "roots/list", json!({})).await?;
                let kind_ok =
                    state.as_ref().and_then(|s| s.get("kind")) == Some(&json!("multiple-inputs"));
                match (name, greeting, roots) {
                    (Some(name), Some(greeting), Some(roots)) if kind_ok || !inputs.stateless() => {
                        let name = accepted_text(&name, "name").unwrap_or("unknown");
                        let greeting = greeting
                            .pointer("/content/text")
                            .and_then(Value::as_str)
                            .unwrap_or("Hello there!");
                        let n = roots["roots"].as_array().map_or(0, Vec::len);
                        Ok(ToolOutput::text(format!(
                            "Name: {name}; Greeting: {greeting}; Roots: {n}"
                        )))
                    }
                    _ => {
                        let state = json!({ "kind": "multiple-inputs" }).to_string();
                        Ok(more(inputs, Some(state)))
                    }
                }
            }
            Call::MultiRound => self.multi_round(&ctx, inputs).await,
            Call::Capabilities => {
                let mut asked = Vec::new();
                if ctx.client_supports("elicitation") {
                    let ask = elicit_one("Elicitation input", "value", "string");
                    if inputs
                        .ask("elicit_input", "elicitation/create", ask)
                        .await?
                        .is_some()
                    {
                        asked.push("elicit_input");
                    }
                }
                if ctx.client_supports("sampling") {
                    let ask = sample_one("Sample request", 50);
                    if inputs
                        .ask("sample_input", "sampling/createMessage", ask)
                        .await?
                        .is_some()
                    {
                        asked.push("sample_input");
                    }
                }
                if !asked.is_empty() {
                    return Ok(ToolOutput::text(format!(
                        "capabilities-ok: received {}",
                        asked.join(",")
                    )));
                }
                match inputs.pending() {
                    None => Ok(ToolOutput::text("No supported capabilities declared")),
                    Some(requests) => {
                        let state = json!({ "kind": "capabilities-test" }).to_string();
                        Ok(input::input_required(requests, Some(state)))
                    }
                }
            }
            Call::StreamingElicitation => {
                ctx.progress(50.0, Some(100.0), Some("Halfway there"));
                let ask = elicit_one("Continue?", "ok", "boolean");
                if inputs
                    .ask("confirm", "elicitation/create", ask)
                    .await?
                    .is_none()
                {
                    return Ok(more(inputs, None));
                }
                Ok(ToolOutput::text("Streaming complete"))
            }
            Call::ConfirmDelete(filename) => {
                let ask = elicit_one(&format!("Delete {filename}?"), "confirm", "boolean");
                let Some(answer) = inputs.ask("confirm", "elicitation/create", ask).await? else {
                    return Ok(more(inputs, None));
                };
                let yes = answer.get("action") == Some(&json!("accept"))
                    && answer.pointer("/content/confirm") == Some(&json!(true));
                Ok(ToolOutput::text(if yes {
                    format!("Deleted {filename}.")
                } else {
                    format!("Kept {filename}.")
                }))
            }
            Call::MultiInput => {
                let name = inputs
                    .ask(
                        "name",
                        "elicitation/create",
                        elicit_one("Your name?", "name", "string"),
                    )
                    .await?;
                let confirm = inputs
                    .ask(
                        "confirm",
                        "elicitation/create",
                        elicit_one("Confirm?", "confirm", "boolean"),
                    )
                    .await?;
                let (Some(name), Some(confirm)) = (name, confirm) else {
                    return Ok(more(inputs, None));
                };
                let name = accepted_text(&name, "name").unwrap_or("unknown");
                let confirmed = confirm.pointer("/content/confirm") == Some(&json!(true));
                Ok(ToolOutput::text(format!(
                    "Name: {name}; confirmed: {confirmed}"
                )))
            }
        }
    }

    /// Round 1 asks `step1` (state `{round: 1}`), round 2 asks `step2` (state
    /// `{round: 2, name}`), round 3 answers. Under handshake revisions both are asked in turn.
    async fn multi_round(&self, ctx: &RequestContext, mut inputs: Inputs) -> ToolResult {
        let step1 = || elicit_one("Step 1: What is your name?", "name", "string");
        let step2 = || elicit_one("Step 2: What is your favorite color?", "color", "string");
        if !inputs.stateless() {
            let name = inputs.ask("step1", "elicitation/create", step1()).await?;
            let color = inputs.ask("step2", "elicitation/create", step2()).await?;
            let name = name.as_ref().and_then(|a| accepted_text(a, "name"));
            let color = color.as_ref().and_then(|a| accepted_text(a, "color"));
            return Ok(ToolOutput::text(format!(
                "Multi-round complete for {} who likes {}",
                name.unwrap_or("friend"),
                color.unwrap_or("no color")
            )));
        }
        let state = state_of(ctx);
        let round = state.as_ref().and_then(|s| s["round"].as_u64());
        if round == Some(2) {
            let name = state
                .as_ref()
                .and_then(|s| s["name"].as_str())
                .unwrap_or("friend")
                .to_owned();
            if let Some(answer) = inputs.ask("step2", "elicitation/create", step2()).await? {
                let color = accepted_text(&answer, "color").unwrap_or("no color");
                return Ok(ToolOutput::text(format!(
                    "Multi-round complete for {name} who likes {color}"
                )));
            }
            let state = ctx.request_state().map(str::to_owned);
            return Ok(more(inputs, state));
        }
        if round == Some(1)
            && let Some(answer) = inputs.ask("step1", "elicitation/create", step1()).await?
        {
            let name = accepted_text(&answer, "name").unwrap_or("friend");
            let state = json!({ "round": 2, "name": name }).to_string();
            let mut requests = Map::new();
            requests.insert(
                "step2".into(),
                json!({ "method": "elicitation/create", "params": step2() }),
            );
            return Ok(input::input_required(requests, Some(state)));
        }
        // First round, or a retry that lost its state: (re)start.
        let mut requests = Map::new();
        requests.insert(
            "step1".into(),
            json!({ "method": "elicitation/create", "params": step1() }),
        );
        let state = json!({ "round": 1 }).to_string();
        Ok(input::input_required(requests, Some(state)))
    }

    async fn prompt(&self, name: Prompt, ctx: RequestContext) -> Result<Value, RpcError> {
        match name {
            Prompt::EmbeddedResource(uri) => Ok(json!({
                "messages": [
                    {
                        "role": "user",
                        "content": {
                            "type": "resource",
                            "resource": {
                                "uri": uri,
                                "mimeType": "text/plain",
                                "text": "Embedded resource content for testing.",
                            },
                        },
                    },
                    {
                        "role": "user",
                        "content": { "type": "text", "text": "Please process the embedded resource above." },
                    },
                ],
            })),
            Prompt::Image => Ok(json!({
                "messages": [
                    {
                        "role": "user",
                        "content": { "type": "image", "data": crate::PNG_BASE64, "mimeType": "image/png" },
                    },
                    {
                        "role": "user",
                        "content": { "type": "text", "text": "Please analyze the image above." },
                    },
                ],
            })),
            Prompt::InputRequired => {
                let mut inputs = Inputs::new(&ctx);
                let ask = elicit_one("What context should the prompt use?", "context", "string");
                let Some(answer) = inputs
                    .ask("user_context", "elicitation/create", ask)
                    .await?
                else {
                    let requests = inputs.pending().unwrap_or_default();
                    return Ok(input::prompt_input_required(requests));
                };
                let context = accepted_text(&answer, "context").unwrap_or("none");
                Ok(toolidl_runtime::content::prompt_user_text(
                    None,
                    format!("Prompt with context: {context}"),
                ))
            }
        }
    }
}

/// A decoded `prompts/get`.
enum Prompt {
    EmbeddedResource(String),
    Image,
    InputRequired,
}

/// `input_required` with the requests `inputs` still has pending. Every caller has just
/// seen an unanswered `ask`, so there is at least one.
fn more(inputs: Inputs, state: Option<String>) -> ToolOutput {
    input::input_required(inputs.pending().unwrap_or_default(), state)
}

/// The `confirm` request of the request-state tools, when a retry answered it without state.
fn confirm_request() -> Map<String, Value> {
    let mut requests = Map::new();
    requests.insert(
        "confirm".into(),
        json!({ "method": "elicitation/create", "params": elicit_one("Please confirm", "ok", "boolean") }),
    );
    requests
}

impl Service for Extras {
    fn tools(&self) -> &[ToolDef] {
        &TOOLS
    }

    fn call_tool(
        self: Arc<Self>,
        name: &str,
        args: Arguments<'_>,
        ctx: RequestContext,
    ) -> BoxFuture<ToolResult> {
        // Decode before building the future: `args` borrows the input line.
        match Self::decode(name, args) {
            Ok(call) => Box::pin(async move { self.run(call, ctx).await }),
            Err(e) => ready(Err(e)),
        }
    }

    fn prompts(&self) -> &[ListingDef] {
        &PROMPTS
    }

    fn get_prompt(
        self: Arc<Self>,
        name: &str,
        args: Arguments<'_>,
        ctx: RequestContext,
    ) -> Option<BoxFuture<Result<Value, RpcError>>> {
        let prompt = match name {
            "test_prompt_with_embedded_resource" => read_prompt_args(args, &["resourceUri"])
                .map(|mut v| Prompt::EmbeddedResource(v.remove(0))),
            "test_prompt_with_image" => read_prompt_args(args, &[]).map(|_| Prompt::Image),
            "test_input_required_result_prompt" => {
                read_prompt_args(args, &[]).map(|_| Prompt::InputRequired)
            }
            _ => return None,
        };
        Some(match prompt {
            Ok(p) => Box::pin(async move { self.prompt(p, ctx).await }),
            Err(e) => ready(Err(e.into())),
        })
    }
}

/// `{}` only (generated code refuses unknown arguments of a tool without parameters too).
fn read_no_args(args: Arguments<'_>) -> Result<(), ArgError> {
    let root = Path::Root;
    args::object(&mut args.reader(), &root, |_, key| {
        Err(ArgError::unknown(&root, key))
    })
}

/// `{field: string}`, required.
fn read_one_string(args: Arguments<'_>, field: &str) -> Result<String, ArgError> {
    let root = Path::Root;
    let mut value = None;
    args::object(&mut args.reader(), &root, |r, key| {
        if key != field {
            return Err(ArgError::unknown(&root, key));
        }
        value = Some(args::string(r, &root.field(field))?.into_owned());
        Ok(())
    })?;
    args::required(value, &root, field)
}

/// A prompt's required text arguments, in the order of `names`.
fn read_prompt_args(args: Arguments<'_>, names: &[&str]) -> Result<Vec<String>, ArgError> {
    let root = Path::Root;
    let mut values: Vec<Option<String>> = vec![None; names.len()];
    args::text_arguments(&mut args.reader(), &root, |key, text| {
        let Some(i) = names.iter().position(|n| *n == key) else {
            return Err(ArgError::unknown(&root, key));
        };
        values[i] = text.map(|t| t.into_owned());
        Ok(())
    })?;
    names
        .iter()
        .zip(values)
        .map(|(name, v)| args::required(v, &root, name))
        .collect()
}

/// The arguments of `json_schema_2020_12_tool`, checked against its schema by hand (the
/// generator cannot: README, gap 1), and returned as they came.
///
/// `name`, `phone`, `email`: strings; `address`: an object whose `street` and `city` are
/// strings (other members allowed: `$defs.address` is open); `contactMethod`: `phone` or
/// `email`; nothing else. Then `allOf`: a `phone` or an `email`; and `if contactMethod is
/// phone then phone else email` is required. Served as openai-strict, whose variant takes
/// `null` for each member left out, a `null` member is left out (and not echoed).
pub fn read_json_schema_args(args: Arguments<'_>) -> Result<Value, ArgError> {
    let root = Path::Root;
    let (mut phone, mut email, mut method) = (false, false, None);
    let strict = args.profile() == Profile::OpenAiStrict;
    args::object(&mut args.reader(), &root, |r, key| {
        let path = root.field(key);
        // Under openai-strict, `null` is a member left out (`args::null_as_absent`).
        if matches!(
            key,
            "name" | "phone" | "email" | "contactMethod" | "address"
        ) && args::null_as_absent(r)
        {
            return Ok(());
        }
        match key {
            "name" => {
                args::string(r, &path)?;
            }
            "phone" => {
                args::string(r, &path)?;
                phone = true;
            }
            "email" => {
                args::string(r, &path)?;
                email = true;
            }
            "contactMethod" => method = Some(args::enum_member(r, &path, &["phone", "email"])?),
            "address" => args::object(r, &path, |r, key| {
                if matches!(key, "street" | "city") && !args::null_as_absent(r) {
                    args::string(r, &path.field(key))?;
                }
                Ok(())
            })?,
            _ => return Err(ArgError::unknown(&root, key)),
        }
        Ok(())
    })?;
    if !phone && !email {
        return Err(ArgError::new(
            &root.field("phone"),
            "A phone or an email is required.",
        ));
    }
    match method {
        Some(0) if !phone => return Err(ArgError::missing(&root, "phone")),
        Some(0) => {}
        _ if !email => return Err(ArgError::missing(&root, "email")),
        _ => {}
    }
    let mut sent: Value = serde_json::from_str(args.raw().get())
        .map_err(|_| ArgError::expected(&root, "an object"))?;
    if strict {
        without_nulls(&mut sent);
        if let Some(address) = sent.get_mut("address") {
            without_nulls(address);
        }
    }
    Ok(sent)
}

/// The object's members but those that are `null`.
fn without_nulls(value: &mut Value) {
    if let Value::Object(members) = value {
        members.retain(|_, v| !v.is_null());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use toolidl_runtime::codegen::RawValue;

    fn read(profile: Profile, args: &str) -> Result<Value, String> {
        let raw = RawValue::from_string(args.to_owned()).expect("JSON");
        read_json_schema_args(Arguments::new(&raw).with_profile(profile)).map_err(|e| e.to_string())
    }

    #[test]
    fn under_openai_strict_a_null_member_is_left_out() {
        let strict = r#"{"name":null,"address":{"street":null,"city":"Oslo"},"contactMethod":null,"phone":null,"email":"a@b"}"#;
        assert_eq!(
            read(Profile::OpenAiStrict, strict),
            Ok(json!({"address": {"city": "Oslo"}, "email": "a@b"}))
        );
        assert_eq!(
            read(Profile::Standard, strict).unwrap_err(),
            "Argument 'name' is not valid. Null is not allowed."
        );
        // The rules the strict variant only states in words are still checked.
        let neither =
            r#"{"name":"n","address":null,"contactMethod":"phone","phone":null,"email":"a@b"}"#;
        assert_eq!(
            read(Profile::OpenAiStrict, neither).unwrap_err(),
            "Argument 'phone' is not valid. A value is required."
        );
    }
}
