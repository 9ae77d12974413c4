//! The contract between the runtime and a service (generated or hand-written).

use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use serde_json::value::RawValue;

use crate::args::{ArgError, Decode, Path};
use crate::context::RequestContext;
use crate::protocol::RpcError;

/// The text of every error result whose details must not reach the client.
pub const TOOL_FAILED: &str = "The tool failed.";

/// A boxed, sendable future, as every service method returns.
pub type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

/// What a tool call produces: an output, or an error that becomes an error result.
pub type ToolResult = Result<ToolOutput, ToolError>;

/// One listed tool: its name and its complete `Tool` JSON object, rendered ahead of time.
#[derive(Debug, Clone)]
pub struct ToolDef {
    /// The tool's name, as `tools/call` gives it.
    pub name: Cow<'static, str>,
    /// The complete `Tool` object.
    pub json: Cow<'static, str>,
    /// The OAuth scopes a token must hold to call it (`@scopes`); empty: none.
    pub scopes: &'static [&'static str],
}

impl ToolDef {
    /// For generated code: `static TOOLS: [ToolDef; 1] = [ToolDef::new("add", "{…}")];`
    pub const fn new(name: &'static str, json: &'static str) -> Self {
        ToolDef {
            name: Cow::Borrowed(name),
            json: Cow::Borrowed(json),
            scopes: &[],
        }
    }

    /// The scopes a token must hold to call the tool (generated from `@scopes`).
    pub const fn scopes(mut self, scopes: &'static [&'static str]) -> Self {
        self.scopes = scopes;
        self
    }

    /// For services built at run time.
    pub fn owned(name: String, json: String) -> Self {
        ToolDef {
            name: Cow::Owned(name),
            json: Cow::Owned(json),
            scopes: &[],
        }
    }
}

/// A listed item other than a tool (resource, resource template, prompt): its `json` is the
/// complete listing object (`Resource`, `ResourceTemplate` or `Prompt`).
#[derive(Debug, Clone)]
pub struct ListingDef {
    /// The complete listing object.
    pub json: Cow<'static, str>,
    /// The OAuth scopes a token must hold to read the resource or get the prompt
    /// (`@scopes`); empty: none.
    pub scopes: &'static [&'static str],
}

impl ListingDef {
    /// For generated code: a `static` listing.
    pub const fn new(json: &'static str) -> Self {
        ListingDef {
            json: Cow::Borrowed(json),
            scopes: &[],
        }
    }

    /// The scopes a token must hold to use the item (generated from `@scopes`).
    pub const fn scopes(mut self, scopes: &'static [&'static str]) -> Self {
        self.scopes = scopes;
        self
    }

    /// For listings built at run time.
    pub fn owned(json: String) -> Self {
        ListingDef {
            json: Cow::Owned(json),
            scopes: &[],
        }
    }
}

/// The generated input of a tool (`GetWeatherArgs`): which tool it is the input of. Its
/// `Serialize` writes the arguments as the tool's `inputSchema` names them, so a client can
/// send it ([`testing::Client::call`](crate::testing::Client::call)).
pub trait ToolInput: serde::Serialize {
    /// The tool's name, as listed.
    const TOOL: &'static str;
}

/// The generated input of a prompt (`SummarizeArgs`): which prompt it is the input of.
pub trait PromptInput: serde::Serialize {
    /// The prompt's name, as listed.
    const PROMPT: &'static str;
}

/// A `completion/complete` request, already read.
#[derive(Debug, Clone)]
pub struct CompletionRequest {
    /// `ref/prompt` or `ref/resource`.
    pub ref_type: String,
    /// The prompt name, or the resource template URI.
    pub ref_name: String,
    /// The argument being completed.
    pub argument_name: String,
    /// What the user typed so far.
    pub argument_value: String,
    /// Already-resolved arguments (`context.arguments`), if the client sent them.
    pub context_arguments: Option<serde_json::Map<String, serde_json::Value>>,
}

/// Suggestions for `completion/complete`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Completion {
    /// Suggested values (at most 100 are sent).
    pub values: Vec<String>,
    /// How many values there are in all, if known.
    pub total: Option<u64>,
    /// Whether there are more values than were sent.
    pub has_more: bool,
}

/// MCP's limit on `completion.values`.
const MAX_COMPLETION_VALUES: usize = 100;

impl Completion {
    /// The `names` that start with `typed` (case-sensitive), in the given order: at most 100
    /// values (MCP's limit), `total` the number of matches, `has_more` when some were left out.
    /// What generated code answers for an enum-typed argument.
    pub fn members(names: &[&str], typed: &str) -> Completion {
        let mut values = Vec::new();
        let mut total = 0usize;
        for name in names.iter().filter(|n| n.starts_with(typed)) {
            if values.len() < MAX_COMPLETION_VALUES {
                values.push((*name).to_owned());
            }
            total += 1;
        }
        Completion {
            values,
            total: Some(total as u64),
            has_more: total > MAX_COMPLETION_VALUES,
        }
    }
}

/// A set of tools, resources and prompts served by the runtime.
///
/// Listings are pre-rendered JSON, returned in a stable order. Dispatch methods take
/// `self: Arc<Self>` so the returned future can own the service (`'static`, runnable on any
/// worker). A method returns its future quickly: argument decoding may happen before the
/// future is built, and argument errors are reported through the future's output.
///
/// The runtime calls `call_tool` only with a name that `tools()` lists; `read_resource`,
/// `get_prompt` and `complete` return `None` for what the service does not own, so the
/// runtime can ask the next service.
pub trait Service: Send + Sync + 'static {
    /// The tools, in listing order.
    fn tools(&self) -> &[ToolDef] {
        &[]
    }

    /// Runs a tool. `args` is the `arguments` object (`{}` when the client sent none).
    fn call_tool(
        self: Arc<Self>,
        name: &str,
        args: &RawValue,
        ctx: RequestContext,
    ) -> BoxFuture<ToolResult>;

    /// Concrete resources (`Resource` objects).
    fn resources(&self) -> &[ListingDef] {
        &[]
    }

    /// Resource templates (`ResourceTemplate` objects).
    fn resource_templates(&self) -> &[ListingDef] {
        &[]
    }

    /// Reads a resource: the future yields the `ReadResourceResult` object
    /// (`{"contents":[…]}`, see [`crate::content`]). `None`: not this service's URI.
    fn read_resource(
        self: Arc<Self>,
        uri: &str,
        ctx: RequestContext,
    ) -> Option<BoxFuture<Result<serde_json::Value, RpcError>>> {
        let _ = (uri, ctx);
        None
    }

    /// Whether the tool `name` can run as a task (the `io.modelcontextprotocol/tasks`
    /// extension, 2026-07-28), and how: generated code answers for the tools declared with
    /// `@task`. A tool declared with
    /// [`ServerBuilder::task_tool`](crate::ServerBuilder::task_tool) is a task tool whatever
    /// this says. The handler's requests for input park the task (`TaskInput::InTask`).
    fn task_support(&self, name: &str) -> Option<crate::tasks::TaskSupport> {
        let _ = name;
        None
    }

    /// Whether some of this service's resources can be subscribed to: the server then
    /// advertises `resources.subscribe`. Pair it with [`Service::subscribable`].
    fn has_subscriptions(&self) -> bool {
        false
    }

    /// Whether clients may subscribe to updates of the resource `uri` (`resources/subscribe`
    /// under the handshake revisions, `resourceSubscriptions` of `subscriptions/listen` under
    /// 2026-07-28). The service then announces changes with
    /// [`Server::notify_resource_updated`](crate::Server::notify_resource_updated)
    /// (from a handler: `ctx.server().notify_resource_updated(uri)`).
    fn subscribable(&self, uri: &str) -> bool {
        let _ = uri;
        false
    }

    /// Prompts (`Prompt` objects).
    fn prompts(&self) -> &[ListingDef] {
        &[]
    }

    /// Renders a prompt: the future yields the `GetPromptResult` object
    /// (`{"messages":[…]}`). `args` is the `arguments` object of strings (`{}` if absent).
    /// `None`: not this service's prompt.
    fn get_prompt(
        self: Arc<Self>,
        name: &str,
        args: &RawValue,
        ctx: RequestContext,
    ) -> Option<BoxFuture<Result<serde_json::Value, RpcError>>> {
        let _ = (name, args, ctx);
        None
    }

    /// Whether `complete` answers anything (advertises the `completions` capability).
    fn has_completions(&self) -> bool {
        false
    }

    /// Suggests values for a prompt or resource-template argument. `None`: not this service's.
    fn complete(
        self: Arc<Self>,
        request: &CompletionRequest,
        ctx: RequestContext,
    ) -> Option<BoxFuture<Result<Completion, RpcError>>> {
        let _ = (request, ctx);
        None
    }
}

/// A successful tool output, and the `CallToolResult` it becomes (each variant says how;
/// docs/runtime.md, "Tool results", has the whole table).
#[derive(Debug, Clone, PartialEq)]
pub enum ToolOutput {
    /// No result: empty `content`.
    Empty,
    /// A string: one text block.
    Text(String),
    /// A scalar, collection or JSON value: one text block holding this JSON text.
    Json(String),
    /// A record or map: `structuredContent` with this JSON object, plus the same text block.
    Structured(String),
    /// Content blocks, passed as they are.
    Content(Vec<serde_json::Value>),
    /// A complete `CallToolResult` object, passed through.
    CallResult(serde_json::Value),
    /// 2026-07-28 multi round-trip: ask the client for input, then retry.
    InputRequired {
        /// `inputRequests`: key → `{"method": "elicitation/create" | "sampling/createMessage" | "roots/list", "params": …}`.
        requests: serde_json::Map<String, serde_json::Value>,
        /// `requestState`: echoed back on the retry; opaque to the client.
        state: Option<String>,
    },
}

impl ToolOutput {
    /// A text block with `text`.
    pub fn text(text: impl Into<String>) -> Self {
        ToolOutput::Text(text.into())
    }

    /// A scalar or collection, written as JSON in one text block.
    pub fn json<T: serde::Serialize + ?Sized>(value: &T) -> Result<Self, ToolError> {
        crate::args::depth::to_json(value)
            .map(ToolOutput::Json)
            .map_err(ToolError::internal)
    }

    /// A record or map: structured content plus the same JSON as text.
    pub fn structured<T: serde::Serialize + ?Sized>(value: &T) -> Result<Self, ToolError> {
        crate::args::depth::to_json(value)
            .map(ToolOutput::Structured)
            .map_err(ToolError::internal)
    }

    /// A nullable record: `None` is the text `null` with no structured content.
    pub fn nullable_structured<T: serde::Serialize>(value: Option<&T>) -> Result<Self, ToolError> {
        match value {
            Some(v) => Self::structured(v),
            None => Ok(ToolOutput::Text("null".into())),
        }
    }
}

impl ToolOutput {
    /// A record or map, checked against the tool's `outputSchema` before it is published:
    /// the value is serialized, then read back with `T::decode`, which generated code makes
    /// enforce exactly that schema. A value that does not read back (a non-finite `f64`,
    /// which serde_json writes as `null`; a constrained field out of its range) is an internal
    /// error: the client sees `The tool failed.`, the mismatch goes to `tracing`. A server must
    /// never send `structuredContent` that contradicts the schema it advertised.
    pub fn checked_structured<T: serde::Serialize + Decode>(value: &T) -> Result<Self, ToolError> {
        let json = crate::args::depth::to_json(value).map_err(ToolError::internal)?;
        let raw: &RawValue = serde_json::from_str(&json).map_err(ToolError::internal)?;
        match T::decode(raw, &Path::Root) {
            Ok(_) => Ok(ToolOutput::Structured(json)),
            Err(e) => Err(ToolError::internal(schema_mismatch(&e))),
        }
    }

    /// [`Self::checked_structured`] for a nullable record: `None` is the text `null`, as in
    /// [`Self::nullable_structured`].
    pub fn checked_nullable_structured<T: serde::Serialize + Decode>(
        value: Option<&T>,
    ) -> Result<Self, ToolError> {
        match value {
            Some(v) => Self::checked_structured(v),
            None => Ok(ToolOutput::Text("null".into())),
        }
    }
}

impl ToolOutput {
    /// What generated code does with a result that can nest without bound (a recursive
    /// record, a `json` value), once `output` was rendered from `value`: when rendering
    /// failed (a value nested deeper than the limit, say), `value` may also be too deep for
    /// its own drop glue on a worker's stack, so it is dropped on a thread with a stack to
    /// match (256 MiB, reserved but touched only as deep as the value goes).
    pub fn dispose_if_failed<T: Send + 'static>(
        value: T,
        output: Result<Self, ToolError>,
    ) -> Result<Self, ToolError> {
        if output.is_err() {
            crate::args::depth::drop_on_large_stack(value);
        }
        output
    }
}

/// The internal message for a result that breaks its schema, naming where and why.
fn schema_mismatch(e: &ArgError) -> String {
    let prefix = "the result does not match the tool's outputSchema";
    let reason = e.reason().unwrap_or("invalid value");
    if e.path().is_empty() {
        format!("{prefix}: {reason}")
    } else {
        format!("{prefix} at '{}': {reason}", e.path())
    }
}

/// Why a tool call did not produce an output.
#[derive(Debug)]
pub enum ToolError {
    /// A user-facing failure: an error result with exactly this text.
    Message(String),
    /// An argument that failed to decode or validate: an error result with its text.
    Argument(ArgError),
    /// A protocol error instead of a result (e.g. -32021 for a missing client capability).
    Rpc(RpcError),
    /// Anything else: the client sees `The tool failed.`, the details go to `tracing`.
    Internal(Box<dyn std::error::Error + Send + Sync>),
}

impl ToolError {
    /// A user-facing failure with exactly `text`.
    pub fn message(text: impl Into<String>) -> Self {
        ToolError::Message(text.into())
    }

    /// A failure whose details go to `tracing` only.
    pub fn internal(error: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Self {
        ToolError::Internal(error.into())
    }
}

/// `?` on any error in a handler. An [`ArgError`] stays an argument error and an [`RpcError`] a
/// protocol error (their meaning is kept, found by downcasting); any other error is
/// [`ToolError::Internal`]: the client sees `The tool failed.` and the cause goes to `tracing`.
///
/// ```
/// # use toolidl_runtime::{RpcError, ToolError};
/// fn parse(text: &str) -> Result<u32, ToolError> {
///     Ok(text.parse::<u32>()?) // a ParseIntError: an internal failure
/// }
/// assert!(matches!(parse("x"), Err(ToolError::Internal(_))));
/// let e: ToolError = RpcError::resource_not_found("No note 7.").into();
/// assert!(matches!(e, ToolError::Rpc(_)));
/// ```
///
/// (So that this blanket conversion is coherent, `ToolError` itself is not a
/// `std::error::Error`, as `anyhow::Error` is not.)
impl<E: std::error::Error + Send + Sync + 'static> From<E> for ToolError {
    fn from(e: E) -> Self {
        let boxed: Box<dyn std::error::Error + Send + Sync> = Box::new(e);
        let boxed = match boxed.downcast::<ArgError>() {
            Ok(e) => return ToolError::Argument(*e),
            Err(other) => other,
        };
        match boxed.downcast::<RpcError>() {
            Ok(e) => ToolError::Rpc(*e),
            Err(other) => ToolError::Internal(other),
        }
    }
}

impl std::fmt::Display for ToolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ToolError::Message(m) => f.write_str(m),
            ToolError::Argument(e) => e.fmt(f),
            ToolError::Rpc(e) => e.fmt(f),
            ToolError::Internal(e) => e.fmt(f),
        }
    }
}

/// What [`ServerBuilder::service`](crate::ServerBuilder::service) takes: any [`Service`]
/// (a generated `XxxServer`, a hand-written one), boxed into an `Arc` there, or a service
/// already in an `Arc` (`Arc<MyService>`, `Arc<dyn Service>`), used as it is.
pub trait IntoService {
    /// The service, shared.
    fn into_service(self) -> Arc<dyn Service>;
}

impl<S: Service> IntoService for S {
    fn into_service(self) -> Arc<dyn Service> {
        Arc::new(self)
    }
}

impl<S: Service> IntoService for Arc<S> {
    fn into_service(self) -> Arc<dyn Service> {
        self
    }
}

impl IntoService for Arc<dyn Service> {
    fn into_service(self) -> Arc<dyn Service> {
        self
    }
}
