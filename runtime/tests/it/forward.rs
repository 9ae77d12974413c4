//! Forwarding (feature `forward`) against an API on a local socket that records every
//! request: parameters in their styles, bodies, credentials, retries, the answer read as the
//! declared type, errors as tool errors. With `auth` too: behind the OAuth resource server,
//! the MCP client's token never reaches the API, only the token service of an exchange.

#![cfg(feature = "forward")]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use toolidl_runtime::ToolError;
use toolidl_runtime::codegen::Decode;
use toolidl_runtime::forward::{
    ClientCredentials, Credential, KeyIn, Method, Scheme, Secret, Style, Upstream,
};
use toolidl_runtime::testing::TestContext;

/// One request the API received: the request line, the headers (lower-case names), the body.
#[derive(Debug, Clone)]
struct Seen {
    line: String,
    headers: Vec<(String, String)>,
    body: String,
}

impl Seen {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Everything the API saw, as one text.
    fn all(&self) -> String {
        format!("{}\n{:?}\n{}", self.line, self.headers, self.body)
    }
}

type Answer = Box<dyn Fn(&Seen, usize) -> (u16, String) + Send + Sync>;

/// An API at `http://127.0.0.1:PORT` answering with `answer` (the request and how many came
/// before it), and what it received.
async fn api(answer: Answer) -> (String, Arc<Mutex<Vec<Seen>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let answer = Arc::new(answer);
    tokio::spawn(async move {
        loop {
            let Ok((mut socket, _)) = listener.accept().await else {
                return;
            };
            let log = log.clone();
            let answer = answer.clone();
            tokio::spawn(async move {
                let mut data = Vec::new();
                let mut buf = [0u8; 4096];
                let head_end = loop {
                    let n = socket.read(&mut buf).await.unwrap_or(0);
                    if n == 0 {
                        return;
                    }
                    data.extend_from_slice(&buf[..n]);
                    if let Some(i) = data.windows(4).position(|w| w == b"\r\n\r\n") {
                        break i + 4;
                    }
                };
                let head = String::from_utf8_lossy(&data[..head_end]).to_string();
                let mut lines = head.split("\r\n");
                let line = lines.next().unwrap_or_default().to_owned();
                let headers: Vec<(String, String)> = lines
                    .filter_map(|l| l.split_once(": "))
                    .map(|(n, v)| (n.to_ascii_lowercase(), v.to_owned()))
                    .collect();
                let length: usize = headers
                    .iter()
                    .find(|(n, _)| n == "content-length")
                    .and_then(|(_, v)| v.parse().ok())
                    .unwrap_or(0);
                while data.len() < head_end + length {
                    let n = socket.read(&mut buf).await.unwrap_or(0);
                    if n == 0 {
                        break;
                    }
                    data.extend_from_slice(&buf[..n]);
                }
                let body = String::from_utf8_lossy(&data[head_end..]).to_string();
                let seen = Seen {
                    line,
                    headers,
                    body,
                };
                let before = {
                    let mut log = log.lock().unwrap();
                    log.push(seen.clone());
                    log.len() - 1
                };
                let (status, body) = answer(&seen, before);
                let response = format!(
                    "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = socket.write_all(response.as_bytes()).await;
            });
        }
    });
    (url, seen)
}

fn ok(body: Value) -> Answer {
    Box::new(move |_, _| (200, body.to_string()))
}

const SCHEMES: &[Scheme] = &[
    Scheme::api_key("key", KeyIn::Query, "api-key"),
    Scheme::api_key("header_key", KeyIn::Header, "X-Key"),
    Scheme::basic("basic"),
    Scheme::bearer("bearer"),
    Scheme::oauth2("oauth", None),
];

#[tokio::test]
async fn parameters_go_where_their_style_says_and_the_answer_is_read_as_declared() {
    let (url, seen) = api(ok(json!({"id": 7, "name": "Rex"}))).await;
    let upstream = Upstream::builder(&url, SCHEMES)
        .credential("key", Credential::secret(Secret::new("k&1")))
        .build()
        .unwrap();
    let test = TestContext::new();
    let ctx = test.context();
    let mut call = upstream.call(&ctx, Method::Put, "/pets/{id}/{tags}");
    call.security(&[&["key"]]);
    call.path("id", Style::Simple, false, &"a/b c");
    call.path("tags", Style::Label, true, &["x", "y"]);
    call.query("filter", Style::DeepObject, true, &json!({"color": "red"}));
    call.query("ids", Style::PipeDelimited, false, &[1, 2]);
    call.query("absent", Style::Form, true, &None::<u32>);
    call.query_reserved("next", Style::Form, true, &"http://x/y");
    call.header("X-Request-Id", Style::Simple, false, &"r-1");
    call.cookie("session", Style::Form, true, &"s 1");
    call.media_type("application/json");
    call.field("name", &"Rex");
    call.field("tag", &None::<String>);
    call.accept("application/json");
    let reply = call.send().await.unwrap();
    let value: Value = reply.json(<Value as Decode>::read).unwrap();
    assert_eq!(value["name"], "Rex");

    let seen = seen.lock().unwrap()[0].clone();
    assert_eq!(
        seen.line,
        "PUT /pets/a%2Fb%20c/.x.y?filter[color]=red&ids=1|2&next=http://x/y&api-key=k%261 HTTP/1.1"
    );
    assert_eq!(seen.header("x-request-id"), Some("r-1"));
    assert_eq!(seen.header("cookie"), Some("session=s%201"));
    assert_eq!(seen.header("content-type"), Some("application/json"));
    assert_eq!(seen.header("accept"), Some("application/json"));
    // A member sent as null stays null; one left out is not sent.
    assert_eq!(seen.body, r#"{"name":"Rex","tag":null}"#);
}

#[tokio::test]
async fn form_bodies_and_credentials_of_each_kind() {
    let (url, seen) = api(Box::new(|seen, _| {
        if seen.line.starts_with("POST /token") {
            (
                200,
                json!({"access_token": "from-grant", "expires_in": 3600}).to_string(),
            )
        } else {
            (200, "null".into())
        }
    }))
    .await;
    let upstream = Upstream::builder(&url, SCHEMES)
        .credential("header_key", Credential::secret(Secret::new("hk")))
        .credential("basic", Credential::basic("ann", Secret::new("pw")))
        .credential(
            "oauth",
            Credential::client_credentials(
                ClientCredentials::new("client", Secret::new("secret"))
                    .token_url(format!("{url}/token"))
                    .scopes(["write"]),
            ),
        )
        .build()
        .unwrap();
    let test = TestContext::new();
    let ctx = test.context();
    const BOTH: &[&[&str]] = &[&["header_key", "basic"]];
    const OAUTH: &[&[&str]] = &[&["oauth"]];
    for security in [BOTH, OAUTH, OAUTH] {
        let mut call = upstream.call(&ctx, Method::Post, "/form");
        call.security(security);
        call.media_type("application/x-www-form-urlencoded");
        call.field("a", &"x y");
        call.field("b", &["1", "2"]);
        call.send().await.unwrap();
    }
    let seen = seen.lock().unwrap().clone();
    assert_eq!(seen[0].body, "a=x%20y&b=1&b=2");
    assert_eq!(seen[0].header("x-key"), Some("hk"));
    assert_eq!(seen[0].header("authorization"), Some("Basic YW5uOnB3"));
    // The grant's token is fetched once (client authenticated with Basic), then reused.
    let grants: Vec<&Seen> = seen
        .iter()
        .filter(|s| s.line.starts_with("POST /token"))
        .collect();
    assert_eq!(grants.len(), 1);
    assert_eq!(grants[0].body, "grant_type=client_credentials&scope=write");
    assert_eq!(
        grants[0].header("authorization"),
        Some("Basic Y2xpZW50OnNlY3JldA==")
    );
    let calls: Vec<&Seen> = seen
        .iter()
        .filter(|s| s.line.starts_with("POST /form"))
        .collect();
    assert_eq!(calls[1].header("authorization"), Some("Bearer from-grant"));
    assert_eq!(calls[2].header("authorization"), Some("Bearer from-grant"));
}

#[tokio::test]
async fn answers_outside_2xx_are_tool_errors_with_status_and_message() {
    let (url, _) = api(Box::new(|_, _| {
        (
            404,
            json!({"code": 1, "message": "Pet not found"}).to_string(),
        )
    }))
    .await;
    let upstream = Upstream::builder(&url, &[]).build().unwrap();
    let test = TestContext::new();
    let ctx = test.context();
    let error = upstream
        .call(&ctx, Method::Get, "/pets/1")
        .send()
        .await
        .err()
        .unwrap();
    assert!(
        matches!(&error, ToolError::Message(m) if m == "The API answered 404 Not Found: Pet not found"),
        "{error}"
    );
}

#[tokio::test]
async fn an_answer_that_breaks_the_declared_type_is_an_error_naming_where() {
    let (url, _) = api(ok(json!({"id": "seven"}))).await;
    let upstream = Upstream::builder(&url, &[]).build().unwrap();
    let test = TestContext::new();
    let ctx = test.context();
    let reply = upstream.call(&ctx, Method::Get, "/n").send().await.unwrap();
    let error = reply
        .json(<std::collections::BTreeMap<String, u32> as Decode>::read)
        .err()
        .unwrap();
    assert_eq!(
        error.to_string(),
        "The API's answer is not the declared result: `[\"id\"]` is not valid. Expected an integer."
    );
}

#[tokio::test]
async fn idempotent_requests_are_retried_and_others_are_not() {
    let answer: Answer = Box::new(|_, before| {
        if before % 2 == 0 {
            (503, "{}".into())
        } else {
            (200, "1".into())
        }
    });
    let (url, seen) = api(answer).await;
    let upstream = Upstream::builder(&url, &[])
        .retry_backoff(Duration::from_millis(1))
        .build()
        .unwrap();
    let test = TestContext::new();
    let ctx = test.context();
    // GET: 503, then 200.
    let reply = upstream.call(&ctx, Method::Get, "/x").send().await.unwrap();
    assert_eq!(reply.json(<u32 as Decode>::read).unwrap(), 1);
    assert_eq!(seen.lock().unwrap().len(), 2);
    // POST: the 503 is the answer.
    let error = upstream
        .call(&ctx, Method::Post, "/x")
        .send()
        .await
        .err()
        .unwrap();
    assert!(
        error.to_string().starts_with("The API answered 503"),
        "{error}"
    );
    assert_eq!(seen.lock().unwrap().len(), 3);
}

#[tokio::test]
async fn a_slow_api_is_a_timeout() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = listener.accept().await {
            held.push(socket); // never answered
        }
    });
    let upstream = Upstream::builder(&url, &[])
        .timeout(Duration::from_millis(200))
        .retries(0)
        .build()
        .unwrap();
    let test = TestContext::new();
    let ctx = test.context();
    let error = upstream
        .call(&ctx, Method::Get, "/slow")
        .send()
        .await
        .err()
        .unwrap();
    assert_eq!(error.to_string(), "The API did not answer within 0.2 s.");
}

#[tokio::test]
async fn a_credential_for_no_scheme_or_of_the_wrong_kind_is_refused() {
    let wrong = Upstream::builder("http://127.0.0.1:1", SCHEMES)
        .credential("key", Credential::basic("u", Secret::new("p")))
        .build();
    assert!(
        wrong
            .err()
            .unwrap()
            .to_string()
            .contains("does not fit the security scheme `key`")
    );
    let unknown = Upstream::builder("http://127.0.0.1:1", SCHEMES)
        .credential("nope", Credential::secret(Secret::new("k")))
        .build();
    assert!(
        unknown
            .err()
            .unwrap()
            .to_string()
            .starts_with("the API has no security scheme `nope`")
    );
}

/// Behind the OAuth resource server: the MCP client's token is exchanged at the token service
/// (RFC 8693) and never reaches the API; without a credential, nothing is sent for it.
#[cfg(all(feature = "auth", feature = "http"))]
mod behind_the_resource_server {
    use super::*;
    use toolidl_runtime::auth::{AuthInfo, TokenError, TokenVerifier, VerifyFuture};
    use toolidl_runtime::codegen::{
        Arguments, BoxFuture, RequestContext, Service, ToolDef, ToolResult,
    };
    use toolidl_runtime::forward::Rfc8693;
    use toolidl_runtime::http::{AuthConfig, HttpConfig, HttpServer};
    use toolidl_runtime::{Server, ToolOutput};

    /// The MCP client's access token.
    const CLIENT_TOKEN: &str = "mcp-client-token-4f1c";

    struct Accept;

    impl TokenVerifier for Accept {
        fn verify<'a>(&'a self, token: &'a str) -> VerifyFuture<'a> {
            Box::pin(async move {
                if token != CLIENT_TOKEN {
                    return Err(TokenError::Invalid("unknown".into()));
                }
                Ok(AuthInfo::from_claims(json!({"sub": "alice"})))
            })
        }
    }

    static TOOLS: [ToolDef; 2] = [
        ToolDef::new(
            "exchanged",
            r#"{"name":"exchanged","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#,
        ),
        ToolDef::new(
            "anonymous",
            r#"{"name":"anonymous","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#,
        ),
    ];

    /// What a generated forwarding handler does: a call per tool, `exchanged` under the
    /// scheme whose credential is the exchange.
    struct Forwarding(Upstream);

    impl Service for Forwarding {
        fn tools(&self) -> &[ToolDef] {
            &TOOLS
        }

        fn call_tool(
            self: Arc<Self>,
            name: &str,
            _: Arguments<'_>,
            ctx: RequestContext,
        ) -> BoxFuture<ToolResult> {
            let name = name.to_owned();
            Box::pin(async move {
                let mut call = self.0.call(&ctx, Method::Get, "/me");
                if name == "exchanged" {
                    call.security(&[&["oauth"]]);
                }
                let text = call.send().await?.text()?;
                Ok(ToolOutput::Text(text))
            })
        }
    }

    async fn call(addr: &str, tool: &str) -> String {
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool, "arguments": {},
            "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}})
        .to_string();
        let response = reqwest::Client::new()
            .post(format!("http://{addr}/mcp"))
            .header("authorization", format!("Bearer {CLIENT_TOKEN}"))
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", "tools/call")
            .header("mcp-name", tool)
            .body(body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        response.text().await.unwrap()
    }

    #[tokio::test]
    async fn the_mcp_clients_token_is_exchanged_never_passed_through() {
        let (api_url, seen) = api(Box::new(|seen, _| {
            if seen.line.starts_with("POST /token") {
                (
                    200,
                    json!({"access_token": "upstream-token", "expires_in": 600}).to_string(),
                )
            } else {
                (200, "\"me\"".into())
            }
        }))
        .await;
        let upstream = Upstream::builder(&api_url, &[Scheme::oauth2("oauth", None)])
            .credential(
                "oauth",
                Credential::exchange(
                    Rfc8693::new(format!("{api_url}/token"))
                        .client("mcp-server", Secret::new("server-secret"))
                        .audience("the-api"),
                ),
            )
            .build()
            .unwrap();
        let server = Server::builder("forwarding", "1")
            .service(Forwarding(upstream))
            .build();
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        let auth = AuthConfig::new(format!("http://{addr}/mcp"), Accept)
            .authorization_server("http://127.0.0.1:1");
        let http =
            HttpServer::from_listener(server, listener, HttpConfig::new().auth(auth)).unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let running = tokio::spawn(http.run_until(async {
            let _ = stopped.await;
        }));

        for tool in ["exchanged", "exchanged", "anonymous"] {
            let reply = call(&addr, tool).await;
            assert!(reply.contains(r#""text":"\"me\"""#), "{tool}: {reply}");
        }

        let seen = seen.lock().unwrap().clone();
        let (exchanges, requests): (Vec<Seen>, Vec<Seen>) = seen
            .into_iter()
            .partition(|s| s.line.starts_with("POST /token"));
        // The exchange: once (then cached), the client's token as the subject.
        assert_eq!(exchanges.len(), 1);
        assert_eq!(
            exchanges[0].body,
            format!(
                "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Atoken-exchange&subject_token={CLIENT_TOKEN}&subject_token_type=urn%3Aietf%3Aparams%3Aoauth%3Atoken-type%3Aaccess_token&requested_token_type=urn%3Aietf%3Aparams%3Aoauth%3Atoken-type%3Aaccess_token&audience=the-api"
            )
        );
        // The API: the exchanged token, and never the client's, in any part of any request.
        assert_eq!(requests.len(), 3);
        assert_eq!(
            requests[0].header("authorization"),
            Some("Bearer upstream-token")
        );
        assert_eq!(
            requests[1].header("authorization"),
            Some("Bearer upstream-token")
        );
        assert_eq!(requests[2].header("authorization"), None);
        for request in &requests {
            assert!(
                !request.all().contains(CLIENT_TOKEN),
                "passed through: {}",
                request.all()
            );
        }
        let _ = stop.send(());
        running.await.unwrap().unwrap();
    }

    #[tokio::test]
    async fn without_a_verified_token_an_exchange_is_a_tool_error() {
        let upstream = Upstream::builder("http://127.0.0.1:1", &[Scheme::oauth2("oauth", None)])
            .credential(
                "oauth",
                Credential::exchange(Rfc8693::new("http://127.0.0.1:1/token")),
            )
            .build()
            .unwrap();
        let test = TestContext::new();
        let ctx = test.context();
        let mut call = upstream.call(&ctx, Method::Get, "/me");
        call.security(&[&["oauth"]]);
        let error = call.send().await.err().unwrap();
        assert_eq!(
            error.to_string(),
            "This tool acts on behalf of the signed-in user, and the request carries no verified access token."
        );
    }
}
