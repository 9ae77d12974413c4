//! A hand-written test service that uses every result kind, and an in-process client.

#[cfg(feature = "http")]
pub mod raw;

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use toolidl_runtime::codegen::{
    ArgError, Arguments, BoxFuture, Completion, CompletionRequest, Decode, ListingDef, Path,
    RawValue, RequestContext, RpcError, Service, ToolDef, ToolError, ToolOutput, ToolResult, args,
    check, content,
};
use toolidl_runtime::{LogLevel, Server, transport::Connection, transport::Outbox};

/// A `ToolDef` named `$name` that takes no arguments (a closed empty object).
macro_rules! tool {
    ($name:literal) => {
        toolidl_runtime::codegen::ToolDef::new(
            $name,
            concat!(
                r#"{"name":""#,
                $name,
                r#"","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#
            ),
        )
    };
}
pub(crate) use tool;

pub static TOOLS: [ToolDef; 21] = [
    tool!("empty"),
    tool!("text"),
    tool!("json_list"),
    tool!("enum_name"),
    tool!("record"),
    tool!("null_record"),
    tool!("content"),
    tool!("call_result"),
    tool!("user_error"),
    tool!("internal_error"),
    tool!("panics"),
    tool!("panics_later"),
    tool!("slow"),
    tool!("progress"),
    tool!("sample"),
    tool!("elicit"),
    tool!("needs_elicitation"),
    tool!("input_required"),
    ToolDef::new(
        "order",
        r#"{"name":"order","title":"Order","description":"Orders items.","inputSchema":{"type":"object","properties":{"items":{"type":"array","items":{"type":"object","properties":{"qty":{"type":"integer","minimum":1,"maximum":10}},"required":["qty"],"additionalProperties":false}}},"required":["items"],"additionalProperties":false},"outputSchema":{"type":"object"},"annotations":{"title":"Order","readOnlyHint":false},"icons":[{"src":"https://example.org/i.png"}],"execution":{"taskSupport":"optional"},"_meta":{"x":1}}"#,
    ),
    tool!("context"),
    tool!("roots"),
];

pub static RESOURCES: [ListingDef; 1] = [ListingDef::new(
    r#"{"uri":"mem://readme","name":"readme","mimeType":"text/plain"}"#,
)];
pub static TEMPLATES: [ListingDef; 1] = [ListingDef::new(
    r#"{"uriTemplate":"mem://notes/{id}","name":"note","mimeType":"text/markdown"}"#,
)];
pub static PROMPTS: [ListingDef; 1] = [ListingDef::new(
    r#"{"name":"summarize","arguments":[{"name":"city","required":true}]}"#,
)];

pub struct Kitchen;

fn ready<T: Send + 'static>(v: T) -> BoxFuture<T> {
    Box::pin(std::future::ready(v))
}

fn read_order(args: Arguments<'_>) -> Result<Vec<u8>, ArgError> {
    let root = Path::Root;
    let mut items = None;
    args::object(&mut args.reader(), &root, |r, key| {
        match key {
            "items" => {
                let path = root.field("items");
                let mut qtys = Vec::new();
                args::array(r, &path, |r, i| {
                    let at = path.index(i);
                    let mut qty = None;
                    args::object(r, &at, |r, k| {
                        match k {
                            "qty" => {
                                let p = at.field("qty");
                                let q = u8::read(r, &p)?;
                                check::range(q, Some(1), Some(10), &p)?;
                                qty = Some(q);
                            }
                            _ => return Err(ArgError::unknown(&at, k)),
                        }
                        Ok(())
                    })?;
                    qtys.push(args::required(qty, &at, "qty")?);
                    Ok(())
                })?;
                items = Some(qtys);
            }
            _ => return Err(ArgError::unknown(&root, key)),
        }
        Ok(())
    })?;
    args::required(items, &root, "items")
}

impl Service for Kitchen {
    fn tools(&self) -> &[ToolDef] {
        &TOOLS
    }

    fn call_tool(
        self: Arc<Self>,
        name: &str,
        args: Arguments<'_>,
        ctx: RequestContext,
    ) -> BoxFuture<ToolResult> {
        let raw = args.raw();
        match name {
            "empty" => ready(Ok(ToolOutput::Empty)),
            "text" => ready(Ok(ToolOutput::text("hi \"there\""))),
            "json_list" => ready(ToolOutput::json(&[1, 2, 3])),
            "enum_name" => ready(Ok(ToolOutput::text("celsius"))),
            "record" => ready(ToolOutput::structured(&json!({"city": "Oslo", "temp": 3}))),
            "null_record" => ready(ToolOutput::nullable_structured::<Value>(None)),
            "content" => ready(Ok(ToolOutput::Content(vec![
                content::text("a"),
                content::image(b"png", "image/png"),
            ]))),
            "call_result" => ready(Ok(ToolOutput::CallResult(json!({
                "content": [{"type": "text", "text": "raw"}],
                "structuredContent": {"k": 1},
                "isError": false
            })))),
            "user_error" => ready(Err(ToolError::message("The city is unknown."))),
            "internal_error" => ready(Err(ToolError::internal("database password is hunter2"))),
            "panics" => panic!("secret panic detail"),
            "panics_later" => Box::pin(async {
                tokio::task::yield_now().await;
                panic!("secret later panic")
            }),
            "slow" => {
                let ms = read_ms(raw);
                Box::pin(async move {
                    tokio::select! {
                        _ = tokio::time::sleep(Duration::from_millis(ms)) => Ok(ToolOutput::text(format!("slept {ms}"))),
                        _ = ctx.cancelled() => Ok(ToolOutput::text("cancelled")),
                    }
                })
            }
            "progress" => Box::pin(async move {
                ctx.progress(1.0, Some(2.0), Some("half"));
                ctx.log(LogLevel::Info, Some("kitchen"), "info message");
                ctx.log(LogLevel::Debug, None, "debug message");
                tokio::task::yield_now().await;
                ctx.progress(2.0, Some(2.0), None);
                Ok(ToolOutput::Empty)
            }),
            "sample" => Box::pin(async move {
                let r = ctx
                    .create_message(json!({"messages": [], "maxTokens": 5}))
                    .await?;
                Ok(ToolOutput::text(
                    r["content"]["text"].as_str().unwrap_or("?").to_owned(),
                ))
            }),
            "elicit" => Box::pin(async move {
                let r = ctx
                    .elicit(json!({"message": "Name?", "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}}))
                    .await?;
                Ok(ToolOutput::text(
                    r["content"]["name"].as_str().unwrap_or("?").to_owned(),
                ))
            }),
            "needs_elicitation" => ready(Err(ToolError::Rpc(RpcError::missing_client_capability(
                "Server requires the elicitation capability for this request",
                json!({"elicitation": {}}),
            )))),
            "input_required" => {
                let answer = ctx
                    .input_response("login")
                    .and_then(|r| r["content"]["name"].as_str())
                    .map(str::to_owned);
                let state = ctx.request_state().map(str::to_owned);
                ready(Ok(match answer {
                    Some(name) => ToolOutput::text(format!("hello {name}, state {}", state.unwrap_or_default())),
                    None => ToolOutput::InputRequired {
                        requests: serde_json::from_value(json!({
                            "login": {"method": "elicitation/create", "params": {"mode": "form", "message": "Login?", "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}}}
                        }))
                        .unwrap_or_default(),
                        state: Some("s1".into()),
                    },
                }))
            }
            "order" => ready(
                read_order(args)
                    .map_err(ToolError::from)
                    .and_then(|q| ToolOutput::json(&q)),
            ),
            "context" => ready(ToolOutput::structured(&json!({
                "revision": ctx.revision().as_str(),
                "client": ctx.client_info().cloned(),
                "sampling": ctx.client_supports("sampling"),
            }))),
            "roots" => Box::pin(async move {
                let r = ctx.list_roots().await?;
                ToolOutput::json(&r["roots"])
            }),
            _ => ready(Err(ToolError::internal("unreachable tool"))),
        }
    }

    fn resources(&self) -> &[ListingDef] {
        &RESOURCES
    }

    fn resource_templates(&self) -> &[ListingDef] {
        &TEMPLATES
    }

    fn read_resource(
        self: Arc<Self>,
        uri: &str,
        _ctx: RequestContext,
    ) -> Option<BoxFuture<Result<Value, RpcError>>> {
        if uri == "mem://panic" {
            return Some(Box::pin(async { panic!("resource panic") }));
        }
        if uri == "mem://readme" {
            return Some(ready(Ok(content::resource_text(
                uri,
                "text/plain",
                "read me",
            ))));
        }
        if uri == "ui://kitchen/view.html" {
            return Some(ready(Ok(content::with_meta(
                content::resource_text(uri, "text/html;profile=mcp-app", "<p>view</p>"),
                r#"{"ui":{"prefersBorder":true}}"#,
            ))));
        }
        let id = uri.strip_prefix("mem://notes/")?.to_owned();
        let uri = uri.to_owned();
        Some(Box::pin(async move {
            tokio::task::yield_now().await;
            Ok(content::resource_text(
                &uri,
                "text/markdown",
                format!("# note {id}"),
            ))
        }))
    }

    fn prompts(&self) -> &[ListingDef] {
        &PROMPTS
    }

    fn get_prompt(
        self: Arc<Self>,
        name: &str,
        args: Arguments<'_>,
        _ctx: RequestContext,
    ) -> Option<BoxFuture<Result<Value, RpcError>>> {
        let args = args.raw();
        if name != "summarize" {
            return None;
        }
        let city = serde_json::from_str::<Value>(args.get())
            .ok()
            .and_then(|v| v.get("city").and_then(Value::as_str).map(str::to_owned));
        Some(ready(match city {
            Some(c) => Ok(content::prompt_user_text(
                Some("Summary"),
                format!("Summarize {c}."),
            )),
            None => Err(RpcError::invalid_params("Missing required argument: city")),
        }))
    }

    fn has_completions(&self) -> bool {
        true
    }

    fn complete(
        self: Arc<Self>,
        request: &CompletionRequest,
        _ctx: RequestContext,
    ) -> Option<BoxFuture<Result<Completion, RpcError>>> {
        if request.ref_name != "summarize" || request.argument_name != "city" {
            return None;
        }
        let values = ["Oslo", "Osaka", "Paris"]
            .iter()
            .filter(|c| c.starts_with(&request.argument_value))
            .map(|c| c.to_string())
            .collect::<Vec<_>>();
        Some(ready(Ok(Completion {
            total: Some(values.len() as u64),
            values,
            has_more: false,
        })))
    }
}

fn read_ms(raw: &RawValue) -> u64 {
    serde_json::from_str::<Value>(raw.get())
        .ok()
        .and_then(|v| v.get("ms").and_then(Value::as_u64))
        .unwrap_or(50)
}

/// A tools-only service with one tool.
pub struct Solo;

pub static SOLO: [ToolDef; 1] = [tool!("solo")];

impl Service for Solo {
    fn tools(&self) -> &[ToolDef] {
        &SOLO
    }
    fn call_tool(
        self: Arc<Self>,
        _: &str,
        _: Arguments<'_>,
        _: RequestContext,
    ) -> BoxFuture<ToolResult> {
        ready(Ok(ToolOutput::text("solo")))
    }
}

pub fn kitchen_server() -> Server {
    Server::builder("kitchen", "1.2.3")
        .instructions("Test server.")
        .service(Arc::new(Kitchen))
        .build()
}

/// An in-process client over a [`Connection`].
pub struct Client {
    pub conn: Option<Connection>,
    pub out: Outbox,
    /// Notifications and requests received while waiting for a response.
    pub other: Vec<Value>,
}

impl Client {
    pub fn new(server: &Server) -> Self {
        let (conn, out) = Connection::new(server, tokio::runtime::Handle::current());
        Client {
            conn: Some(conn),
            out,
            other: Vec::new(),
        }
    }

    pub fn send_raw(&self, line: &str) {
        self.conn.as_ref().unwrap().handle_line(line);
    }

    pub fn send(&self, message: Value) {
        self.send_raw(&message.to_string());
    }

    pub async fn next(&mut self) -> Value {
        let line = tokio::time::timeout(Duration::from_secs(5), self.out.recv())
            .await
            .expect("timed out waiting for output")
            .expect("outbox closed");
        assert!(!line.contains('\n'), "a message must be one line: {line}");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"))
    }

    /// Waits for the response with `id`, keeping anything else in `other`.
    pub async fn response(&mut self, id: Value) -> Value {
        loop {
            let m = self.next().await;
            if m.get("id") == Some(&id) && m.get("method").is_none() {
                return m;
            }
            self.other.push(m);
        }
    }

    pub async fn request(&mut self, id: i64, method: &str, params: Value) -> Value {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.response(json!(id)).await
    }

    pub async fn initialize(&mut self, revision: &str, capabilities: Value) -> Value {
        let r = self
            .request(
                0,
                "initialize",
                json!({"protocolVersion": revision, "capabilities": capabilities, "clientInfo": {"name": "tester", "version": "9"}}),
            )
            .await;
        self.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        r
    }

    /// Calls a tool under the session's revision.
    pub async fn call(&mut self, id: i64, name: &str, arguments: Value) -> Value {
        self.request(
            id,
            "tools/call",
            json!({"name": name, "arguments": arguments}),
        )
        .await
    }

    /// Ends input and returns everything left in the outbox once it closes.
    pub async fn close(&mut self) -> Vec<Value> {
        if let Some(c) = self.conn.take() {
            c.close();
        }
        let mut rest = Vec::new();
        while let Ok(Some(line)) =
            tokio::time::timeout(Duration::from_secs(5), self.out.recv()).await
        {
            rest.push(serde_json::from_str(&line).unwrap());
        }
        rest
    }
}

/// `_meta` for a 2026-07-28 request.
pub fn modern_meta(capabilities: Value) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": capabilities,
        "io.modelcontextprotocol/clientInfo": {"name": "modern", "version": "1"}
    })
}

/// The text of a tool result's first content block.
pub fn text_of(response: &Value) -> &str {
    response["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text in {response}"))
}

/// Serves [`kitchen_server`] over HTTP on a loopback port with `config`: its address, and
/// the sender that stops it.
#[cfg(feature = "http")]
pub async fn serve_kitchen(
    config: toolidl_runtime::http::HttpConfig,
) -> (String, tokio::sync::oneshot::Sender<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let http = toolidl_runtime::http::HttpServer::from_listener(kitchen_server(), listener, config)
        .unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(http.run_until(async {
        let _ = stopped.await;
    }));
    (addr, stop)
}
