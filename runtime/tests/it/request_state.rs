//! The sealed `requestState` of 2026-07-28 multi round-trip requests: what a handler returns
//! as `requestState` goes out sealed and bound to its request; a retry's state is opened and
//! checked before the handler runs (a state of one tool refused by another, a changed byte,
//! other arguments, an expired state, another principal's, `inputResponses` it did not ask
//! for, a second use with single use on); the handler sees only its own plain state; the
//! handshake revisions ignore both fields. In process (`toolidl_runtime::testing`) and over
//! real HTTP.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Map, Value, json};
use toolidl_runtime::codegen::{
    Arguments, BoxFuture, ListingDef, RawValue, RequestContext, RpcError, Service, ToolDef,
    ToolOutput, ToolResult, ready,
};
use toolidl_runtime::protocol::Revision;
use toolidl_runtime::tasks::{DirTaskStore, TaskInput, TaskSupport};
use toolidl_runtime::testing::Client;
use toolidl_runtime::{RequestStateKey, Server, ServerBuilder};

/// Tools that ask for a confirmation (`confirm`) and answer once they have it:
/// - `ask` and `other`: with the state `<name>-plain`; answered, they say what state they
///   saw;
/// - `keys_only`: without a state of its own;
/// - `echo`: never asks; says what state and `inputResponses.x` it saw.
///
/// The prompt `p` and the resource `test://r` ask the same way (states `prompt-plain` and
/// `resource-plain`). Every handler run is logged.
#[derive(Default)]
struct Asker {
    runs: Mutex<Vec<String>>,
}

macro_rules! open_tool {
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

static TOOLS: [ToolDef; 5] = [
    open_tool!("ask"),
    open_tool!("other"),
    open_tool!("keys_only"),
    open_tool!("echo"),
    open_tool!("task"),
];

static PROMPTS: [ListingDef; 1] = [ListingDef::new(r#"{"name":"p","arguments":[]}"#)];
static RESOURCES: [ListingDef; 1] = [ListingDef::new(r#"{"uri":"test://r","name":"r"}"#)];

fn confirm_request() -> Map<String, Value> {
    let ask = json!({"method": "elicitation/create", "params": {"message": "Sure?",
        "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}});
    Map::from_iter([("confirm".to_owned(), ask)])
}

fn yes() -> Value {
    json!({"action": "accept", "content": {"ok": true}})
}

impl Asker {
    fn run(&self, what: &str) {
        self.runs.lock().unwrap().push(what.to_owned());
    }

    fn runs(&self, what: &str) -> usize {
        self.runs
            .lock()
            .unwrap()
            .iter()
            .filter(|r| *r == what)
            .count()
    }
}

impl Service for Asker {
    fn tools(&self) -> &[ToolDef] {
        &TOOLS
    }

    fn call_tool(
        self: Arc<Self>,
        name: &str,
        _: Arguments<'_>,
        ctx: RequestContext,
    ) -> BoxFuture<ToolResult> {
        self.run(name);
        let state = ctx.request_state().map(str::to_owned);
        let answered = ctx.input_response("confirm").is_some();
        ready(Ok(match name {
            "echo" => {
                ToolOutput::Json(json!({"state": state, "x": ctx.input_response("x")}).to_string())
            }
            _ if answered => ToolOutput::text(format!("{name} done: state={state:?}")),
            "keys_only" => ToolOutput::InputRequired {
                requests: confirm_request(),
                state: None,
            },
            _ => ToolOutput::InputRequired {
                requests: confirm_request(),
                state: Some(format!("{name}-plain")),
            },
        }))
    }

    fn prompts(&self) -> &[ListingDef] {
        &PROMPTS
    }

    fn get_prompt(
        self: Arc<Self>,
        _: &str,
        _: Arguments<'_>,
        ctx: RequestContext,
    ) -> Option<BoxFuture<Result<Value, RpcError>>> {
        self.run("p");
        Some(ready(Ok(match ctx.input_response("confirm") {
            Some(_) => json!({"messages": [{"role": "user", "content": {"type": "text",
                "text": format!("state={:?}", ctx.request_state())}}]}),
            None => json!({"resultType": "input_required", "inputRequests": confirm_request(),
                "requestState": "prompt-plain"}),
        })))
    }

    fn resources(&self) -> &[ListingDef] {
        &RESOURCES
    }

    fn read_resource(
        self: Arc<Self>,
        uri: &str,
        ctx: RequestContext,
    ) -> Option<BoxFuture<Result<Value, RpcError>>> {
        if uri != "test://r" {
            return None;
        }
        self.run("r");
        Some(ready(Ok(match ctx.input_response("confirm") {
            Some(_) => json!({"contents": [{"uri": uri,
                "text": format!("state={:?}", ctx.request_state())}]}),
            None => json!({"resultType": "input_required", "inputRequests": confirm_request(),
                "requestState": "resource-plain"}),
        })))
    }
}

fn builder() -> (ServerBuilder, Arc<Asker>) {
    let asker = Arc::new(Asker::default());
    let builder = Server::builder("asker", "1")
        .service(asker.clone())
        .task_tool("task", TaskSupport::Optional, TaskInput::BeforeTask);
    (builder, asker)
}

async fn modern(server: &Server) -> Client {
    Client::builder()
        .revision(Revision::V2026_07_28)
        .capabilities(json!({"elicitation": {}}))
        .connect(server)
        .await
        .unwrap()
}

/// `tools/call` of `name` with `arguments` and the members of `extra`.
async fn call(c: &Client, name: &str, arguments: Value, extra: Value) -> Result<Value, RpcError> {
    let mut params = json!({"name": name, "arguments": arguments});
    if let (Some(params), Value::Object(extra)) = (params.as_object_mut(), extra) {
        params.extend(extra);
    }
    c.request("tools/call", params).await
}

/// The sealed state of an `input_required` result.
fn sealed(result: &Value) -> String {
    assert_eq!(result["resultType"], "input_required", "{result}");
    result["requestState"].as_str().unwrap().to_owned()
}

fn refused(outcome: Result<Value, RpcError>, message: &str) {
    let e = outcome.expect_err("refused");
    assert_eq!((e.code, e.message.as_str()), (-32602, message));
}

const INTEGRITY: &str =
    "Invalid params: requestState was not issued by this server, or was changed.";

#[tokio::test]
async fn an_honest_two_round_flow_passes_and_the_handler_sees_only_its_own_state() {
    let (builder, asker) = builder();
    let server = builder.build();
    let c = modern(&server).await;
    let r1 = call(&c, "ask", json!({"n": 1, "s": "x"}), json!({}))
        .await
        .unwrap();
    let state = sealed(&r1);
    assert!(
        !state.contains("plain"),
        "the handler's state is hidden: {state}"
    );
    assert_eq!(r1["inputRequests"], Value::Object(confirm_request()));
    // The same arguments in another order, a number written otherwise: still the same.
    let r2 = call(
        &c,
        "ask",
        json!({"s": "x", "n": 1.0}),
        json!({"inputResponses": {"confirm": yes()}, "requestState": state}),
    )
    .await
    .unwrap();
    assert_eq!(
        r2["content"][0]["text"],
        r#"ask done: state=Some("ask-plain")"#
    );
    // And with other whitespace, as a client re-serializing them might send them.
    let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}"#;
    c.send_raw(&format!(
        r#"{{"jsonrpc":"2.0","id":"raw","method":"tools/call","params":{{ {meta}, "name" : "ask", "arguments" : {{ "s" : "x",  "n" : 1 }}, "requestState" : "{state}", "inputResponses" : {{ "confirm" : {} }} }}}}"#,
        yes()
    ));
    let raw = c.next_message().await.unwrap();
    assert_eq!(
        raw["result"]["content"][0]["text"], r#"ask done: state=Some("ask-plain")"#,
        "{raw}"
    );
    assert_eq!(asker.runs("ask"), 3);
}

#[tokio::test]
async fn a_state_of_one_tool_is_refused_by_another() {
    let (builder, asker) = builder();
    let server = builder.build();
    let c = modern(&server).await;
    let state = sealed(&call(&c, "ask", json!({}), json!({})).await.unwrap());
    let retry = json!({"inputResponses": {"confirm": yes()}, "requestState": state});
    refused(
        call(&c, "other", json!({}), retry.clone()).await,
        "Invalid params: requestState was issued for another tool.",
    );
    assert_eq!(asker.runs("other"), 0, "the handler never ran");
    // Nor do other arguments pass.
    refused(
        call(&c, "ask", json!({"n": 2}), retry.clone()).await,
        "Invalid params: requestState was issued for other arguments.",
    );
    // Nor another method (a tool's state on a prompt).
    let prompt = json!({"name": "p", "inputResponses": {"confirm": yes()}, "requestState": retry["requestState"]});
    refused(
        c.request("prompts/get", prompt).await,
        "Invalid params: requestState was issued for another method.",
    );
    assert_eq!(asker.runs("p"), 0);
    assert_eq!(asker.runs("ask"), 1);
}

#[tokio::test]
async fn a_changed_byte_is_refused() {
    let (builder, asker) = builder();
    let server = builder.build();
    let c = modern(&server).await;
    let state = sealed(&call(&c, "ask", json!({}), json!({})).await.unwrap());
    let mut changed = state.clone().into_bytes();
    let middle = changed.len() / 2;
    changed[middle] = if changed[middle] == b'A' { b'B' } else { b'A' };
    let changed = String::from_utf8(changed).unwrap();
    for bad in [changed, format!("{state}-TAMPERED"), "ask-plain".to_owned()] {
        let retry = json!({"inputResponses": {"confirm": yes()}, "requestState": bad});
        refused(call(&c, "ask", json!({}), retry).await, INTEGRITY);
    }
    assert_eq!(
        asker.runs("ask"),
        1,
        "the handler never ran on a changed state"
    );
}

#[tokio::test]
async fn an_expired_state_is_refused() {
    let (builder, asker) = builder();
    let server = builder.request_state_ttl(Duration::ZERO).build();
    let c = modern(&server).await;
    let state = sealed(&call(&c, "ask", json!({}), json!({})).await.unwrap());
    tokio::time::sleep(Duration::from_millis(20)).await;
    let retry = json!({"inputResponses": {"confirm": yes()}, "requestState": state});
    refused(
        call(&c, "ask", json!({}), retry).await,
        "Invalid params: requestState has expired; send the request again without it.",
    );
    assert_eq!(asker.runs("ask"), 1);
}

#[tokio::test]
async fn input_responses_the_server_did_not_ask_for_are_refused() {
    let (builder, asker) = builder();
    let server = builder.build();
    let c = modern(&server).await;
    let state = sealed(&call(&c, "ask", json!({}), json!({})).await.unwrap());
    let retry =
        json!({"inputResponses": {"confirm": yes(), "approve": yes()}, "requestState": state});
    refused(
        call(&c, "ask", json!({}), retry).await,
        "Invalid params: inputResponses answers 'approve', which the server did not ask for.",
    );
    // A state that asked nothing (`keys_only` asks with no state of its own: the runtime's
    // state still records what it asked).
    let state = sealed(&call(&c, "keys_only", json!({}), json!({})).await.unwrap());
    let retry = json!({"inputResponses": {"confirm": yes()}, "requestState": state});
    let done = call(&c, "keys_only", json!({}), retry).await.unwrap();
    assert_eq!(done["content"][0]["text"], "keys_only done: state=None");
    let retry = json!({"inputResponses": {"other": yes()}, "requestState": state});
    refused(
        call(&c, "keys_only", json!({}), retry).await,
        "Invalid params: inputResponses answers 'other', which the server did not ask for.",
    );
    // Not an object at all.
    refused(
        call(&c, "ask", json!({}), json!({"inputResponses": [yes()]})).await,
        "Invalid params: inputResponses must be an object.",
    );
    // Without a state nothing was asked that the runtime knows of: the handler judges
    // (the specification: unexpected answers SHOULD be ignored).
    let retry = json!({"inputResponses": {"confirm": yes(), "extra": yes()}});
    let done = call(&c, "ask", json!({}), retry).await.unwrap();
    assert_eq!(done["content"][0]["text"], "ask done: state=None");
    assert_eq!(asker.runs("ask"), 2);
    assert_eq!(asker.runs("keys_only"), 2);
}

#[tokio::test]
async fn prompts_and_resources_are_sealed_and_checked_too() {
    let (builder, _) = builder();
    let server = builder.build();
    let c = modern(&server).await;
    let r1 = c
        .request("prompts/get", json!({"name": "p"}))
        .await
        .unwrap();
    let state = sealed(&r1);
    assert!(!state.contains("plain"));
    let answer = json!({"confirm": yes()});
    let r2 = c
        .request(
            "prompts/get",
            json!({"name": "p", "inputResponses": answer, "requestState": state}),
        )
        .await
        .unwrap();
    assert_eq!(
        r2["messages"][0]["content"]["text"],
        r#"state=Some("prompt-plain")"#
    );
    refused(
        c.request("prompts/get", json!({"name": "p", "arguments": {"a": "b"}, "inputResponses": answer, "requestState": state}))
            .await,
        "Invalid params: requestState was issued for other arguments.",
    );

    let r1 = c
        .request("resources/read", json!({"uri": "test://r"}))
        .await
        .unwrap();
    let state = sealed(&r1);
    let r2 = c
        .request(
            "resources/read",
            json!({"uri": "test://r", "inputResponses": answer, "requestState": state}),
        )
        .await
        .unwrap();
    assert_eq!(r2["contents"][0]["text"], r#"state=Some("resource-plain")"#);
    refused(
        c.request(
            "resources/read",
            json!({"uri": "test://other", "inputResponses": answer, "requestState": state}),
        )
        .await,
        "Invalid params: requestState was issued for another resource.",
    );
}

#[tokio::test]
async fn the_handshake_revisions_ignore_both_fields() {
    let (builder, asker) = builder();
    let server = builder.build();
    let c = Client::connect(&server).await.unwrap();
    let params = json!({"name": "echo", "arguments": {},
        "requestState": "garbage", "inputResponses": {"x": 1}});
    let r = c.request("tools/call", params.clone()).await.unwrap();
    let seen: Value = serde_json::from_str(r["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(seen, json!({"state": null, "x": null}));
    assert_eq!(asker.runs("echo"), 1);
    // The same request under 2026-07-28 is refused before the handler runs.
    refused(
        modern(&server).await.request("tools/call", params).await,
        INTEGRITY,
    );
    assert_eq!(asker.runs("echo"), 1);
}

#[tokio::test]
async fn instances_that_share_a_key_open_each_others_states_and_keys_rotate() {
    let (old, new) = (
        RequestStateKey::new([1; 32]),
        RequestStateKey::derive("new secret"),
    );
    let issuing = builder().0.request_state_keys([old.clone()]).build();
    let state = sealed(
        &call(&modern(&issuing).await, "ask", json!({}), json!({}))
            .await
            .unwrap(),
    );
    let retry = json!({"inputResponses": {"confirm": yes()}, "requestState": state});
    // Another instance with the same key; one rotated (new key first, the old one kept).
    for keys in [vec![old.clone()], vec![new.clone(), old.clone()]] {
        let other = builder().0.request_state_keys(keys).build();
        let done = call(&modern(&other).await, "ask", json!({}), retry.clone())
            .await
            .unwrap();
        assert_eq!(
            done["content"][0]["text"],
            r#"ask done: state=Some("ask-plain")"#
        );
    }
    // The old key dropped, or no key given (a random one per process): refused.
    for server in [
        builder().0.request_state_keys([new]).build(),
        builder().0.build(),
    ] {
        refused(
            call(&modern(&server).await, "ask", json!({}), retry.clone()).await,
            INTEGRITY,
        );
    }
}

/// The flow `ask` then its retry, twice with the same state, on `first` then `second`
/// (the same server, or another instance sharing its task store).
async fn replayed(
    first: &Server,
    second: &Server,
) -> (Result<Value, RpcError>, Result<Value, RpcError>) {
    let c = modern(first).await;
    let state = sealed(&call(&c, "ask", json!({}), json!({})).await.unwrap());
    let retry = json!({"inputResponses": {"confirm": yes()}, "requestState": state});
    let once = call(&c, "ask", json!({}), retry.clone()).await;
    let twice = call(&modern(second).await, "ask", json!({}), retry).await;
    (once, twice)
}

const USED: &str = "Invalid params: requestState was already used.";

#[tokio::test]
async fn a_replay_is_refused_with_single_use_only() {
    let (builder, asker) = builder();
    let server = builder.single_use_request_state(true).build();
    let (once, twice) = replayed(&server, &server).await;
    assert_eq!(
        once.unwrap()["content"][0]["text"],
        r#"ask done: state=Some("ask-plain")"#
    );
    refused(twice, USED);
    assert_eq!(asker.runs("ask"), 2, "the replay never reached the handler");
    // Prompts, resources and task tools (input before the task) too.
    let c = modern(&server).await;
    let answer = json!({"confirm": yes()});
    let state = sealed(
        &c.request("prompts/get", json!({"name": "p"}))
            .await
            .unwrap(),
    );
    let retry = json!({"name": "p", "inputResponses": answer, "requestState": state});
    assert!(c.request("prompts/get", retry.clone()).await.is_ok());
    refused(c.request("prompts/get", retry).await, USED);
    let state = sealed(
        &c.request("resources/read", json!({"uri": "test://r"}))
            .await
            .unwrap(),
    );
    let retry = json!({"uri": "test://r", "inputResponses": answer, "requestState": state});
    assert!(c.request("resources/read", retry.clone()).await.is_ok());
    refused(c.request("resources/read", retry).await, USED);
    let tasks = Client::builder()
        .revision(Revision::V2026_07_28)
        .capabilities(
            json!({"elicitation": {}, "extensions": {"io.modelcontextprotocol/tasks": {}}}),
        )
        .connect(&server)
        .await
        .unwrap();
    let state = sealed(&call(&tasks, "task", json!({}), json!({})).await.unwrap());
    let retry = json!({"inputResponses": answer, "requestState": state});
    let created = call(&tasks, "task", json!({}), retry.clone())
        .await
        .unwrap();
    assert_eq!(created["resultType"], "task", "{created}");
    refused(call(&tasks, "task", json!({}), retry).await, USED);
    assert_eq!(asker.runs("task"), 2);

    // Off (the default): the same state passes as often as it is sent.
    let (builder, _) = self::builder();
    let server = builder.build();
    let (once, twice) = replayed(&server, &server).await;
    assert_eq!(once.unwrap(), twice.unwrap());
}

#[tokio::test]
async fn a_replay_through_another_instance_sharing_a_task_directory_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let key = RequestStateKey::derive("shared");
    let instance = || {
        builder()
            .0
            .request_state_keys([key.clone()])
            .single_use_request_state(true)
            .task_store(Arc::new(DirTaskStore::open(dir.path()).unwrap()))
            .build()
    };
    let (once, twice) = replayed(&instance(), &instance()).await;
    assert!(once.is_ok());
    refused(twice, USED);
}

/// A task store of one's own that does not record single-use tokens: a retry carrying a
/// state fails (-32603) rather than being let through.
#[tokio::test]
async fn a_store_without_single_use_fails_closed() {
    struct Forgetful(toolidl_runtime::tasks::MemoryTaskStore);
    impl toolidl_runtime::tasks::TaskStore for Forgetful {
        fn create<'a>(
            &'a self,
            r: &'a toolidl_runtime::tasks::TaskRecord,
        ) -> toolidl_runtime::tasks::StoreFuture<'a, ()> {
            self.0.create(r)
        }
        fn get<'a>(
            &'a self,
            id: &'a str,
        ) -> toolidl_runtime::tasks::StoreFuture<'a, Option<toolidl_runtime::tasks::TaskRecord>>
        {
            self.0.get(id)
        }
        fn update<'a>(
            &'a self,
            id: &'a str,
            edit: toolidl_runtime::tasks::TaskEdit<'a>,
        ) -> toolidl_runtime::tasks::StoreFuture<'a, Option<toolidl_runtime::tasks::TaskRecord>>
        {
            self.0.update(id, edit)
        }
    }
    let (builder, asker) = builder();
    let server = builder
        .single_use_request_state(true)
        .task_store(Arc::new(Forgetful(Default::default())))
        .build();
    let (_, twice) = replayed(&server, &server).await;
    let (once, _) = replayed(&server, &server).await;
    for outcome in [once, twice] {
        let e = outcome.unwrap_err();
        assert_eq!(e.code, -32603, "{e:?}");
    }
    assert_eq!(asker.runs("ask"), 2, "only the first rounds ran");
}

/// Over real HTTP (stateless): the honest flow, and a changed state refused.
#[cfg(feature = "http")]
#[tokio::test]
async fn over_http_the_state_is_sealed_and_checked() {
    let (builder, asker) = builder();
    let addr = serve(builder.build(), false).await;
    let (status, r1) = post(&addr, None, "ask", "{}", "").await;
    assert_eq!(status, 200, "{r1}");
    let state = sealed(&r1["result"]);
    let retry = format!(
        r#","inputResponses":{{"confirm":{}}},"requestState":"{state}""#,
        yes()
    );
    let (_, r2) = post(&addr, None, "ask", r#"{"n": 1}"#, &retry).await;
    assert_eq!(
        r2["error"]["message"],
        "Invalid params: requestState was issued for other arguments."
    );
    let (_, r2) = post(&addr, None, "ask", "{}", &retry).await;
    assert_eq!(
        r2["result"]["content"][0]["text"], r#"ask done: state=Some("ask-plain")"#,
        "{r2}"
    );
    let tampered = retry.replace(&state, &format!("{state}x"));
    let (_, r3) = post(&addr, None, "ask", "{}", &tampered).await;
    assert_eq!(r3["error"]["code"], -32602, "{r3}");
    assert_eq!(r3["error"]["message"], INTEGRITY);
    assert_eq!(asker.runs("ask"), 2);
}

/// Tokens whose text is their subject.
#[cfg(feature = "auth")]
struct Subject;

#[cfg(feature = "auth")]
impl toolidl_runtime::auth::TokenVerifier for Subject {
    fn verify<'a>(&'a self, token: &'a str) -> toolidl_runtime::auth::VerifyFuture<'a> {
        use toolidl_runtime::auth::{AuthInfo, TokenError};
        Box::pin(async move {
            if token.is_empty() {
                return Err(TokenError::Invalid("empty".into()));
            }
            Ok(AuthInfo::from_claims(json!({"sub": token, "scp": []})))
        })
    }
}

/// Another principal's state is refused (SEP-2567: bound to the authenticated principal).
#[cfg(feature = "auth")]
#[tokio::test]
async fn another_principals_state_is_refused() {
    let (builder, asker) = builder();
    let addr = serve(builder.build(), true).await;
    let (status, r1) = post(&addr, Some("alice"), "ask", "{}", "").await;
    assert_eq!(status, 200, "{r1}");
    let state = sealed(&r1["result"]);
    let retry = format!(
        r#","inputResponses":{{"confirm":{}}},"requestState":"{state}""#,
        yes()
    );
    let (_, stolen) = post(&addr, Some("mallory"), "ask", "{}", &retry).await;
    assert_eq!(stolen["error"]["code"], -32602, "{stolen}");
    assert_eq!(
        stolen["error"]["message"],
        "Invalid params: requestState was issued to another principal."
    );
    assert_eq!(asker.runs("ask"), 1);
    let (_, done) = post(&addr, Some("alice"), "ask", "{}", &retry).await;
    assert_eq!(
        done["result"]["content"][0]["text"], r#"ask done: state=Some("ask-plain")"#,
        "{done}"
    );
}

/// Serves `server` over stateless HTTP on a loopback port (with `principals`, tokens are
/// required and name their subject: [`Subject`]): its address.
#[cfg(feature = "http")]
async fn serve(server: Server, principals: bool) -> String {
    use toolidl_runtime::http::{HttpConfig, HttpServer};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    #[allow(unused_mut)]
    let mut config = HttpConfig::new().stateless(true);
    #[cfg(feature = "auth")]
    if principals {
        let auth = toolidl_runtime::http::AuthConfig::new(format!("http://{addr}/mcp"), Subject)
            .authorization_server("http://127.0.0.1:1");
        config = config.auth(auth);
    }
    #[cfg(not(feature = "auth"))]
    assert!(!principals, "needs the auth feature");
    let http = HttpServer::from_listener(server, listener, config).unwrap();
    tokio::spawn(http.run_until(std::future::pending::<()>()));
    addr
}

/// A 2026-07-28 `tools/call` of `tool` with `arguments` (JSON text) and more params members
/// (`extra`, each after a comma), as a POST with the bearer `token`: the status and the
/// reply.
#[cfg(feature = "http")]
async fn post(
    addr: &str,
    token: Option<&str>,
    tool: &str,
    arguments: &str,
    extra: &str,
) -> (u16, Value) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments}{extra},"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{"elicitation":{{}}}}}}}}}}"#
    );
    let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: {tool}\r\n{auth}Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    s.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    s.read_to_string(&mut response).await.unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    let status = head[9..12].parse().unwrap();
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

/// A unit test of a handler gives it its plain state, as the runtime hands it over once
/// opened (`TestContextBuilder::request_state`).
#[tokio::test]
async fn a_handler_unit_test_gives_the_plain_state() {
    let ctx = toolidl_runtime::testing::TestContext::builder()
        .revision(Revision::V2026_07_28)
        .input_responses(json!({"confirm": yes()}))
        .request_state("ask-plain")
        .build();
    let args = RawValue::from_string("{}".to_owned()).unwrap();
    let out = Arc::new(Asker::default())
        .call_tool("ask", Arguments::new(&args), ctx.context())
        .await
        .unwrap();
    assert_eq!(
        out,
        ToolOutput::text(r#"ask done: state=Some("ask-plain")"#)
    );
}
