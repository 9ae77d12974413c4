//! The Streamable HTTP endpoint mounted as a tower service (`McpService`) on any requests:
//! methods, paths, headers and bodies from the input (format: `toolidl_fuzz::HttpInput`),
//! in session mode (the target opens a session first; `$session` names it) and stateless.
//! Each response's body is read until it ends or `SETTLE` passes on the paused clock.
#![no_main]

use hyper::body::{Body, Bytes};
use hyper::header::{HeaderName, HeaderValue};
use hyper::{Method, Request, Response};
use libfuzzer_sys::fuzz_target;
use std::future::poll_fn;
use std::pin::Pin;
use toolidl_fuzz::{HttpInput, SETTLE, Whole, http_inputs, runtime, server};
use toolidl_runtime::http::{HttpConfig, McpService};
use tower_service::Service as _;

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"fuzz","version":"0"}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

fuzz_target!(|data: &[u8]| {
    let inputs = http_inputs(data);
    let rt = runtime();
    rt.block_on(async {
        for stateless in [false, true] {
            let mut service = McpService::new(server(), HttpConfig::new().stateless(stateless));
            let session = match stateless {
                true => None,
                // The target's own requests: a session that does not open is the target's bug.
                false => match open_session(&mut service).await {
                    Some(id) => Some(id),
                    None => panic!("the target's initialize opened no session"),
                },
            };
            for input in &inputs {
                if let Some(request) = request(input, session.as_deref()) {
                    let response = call(&mut service, request).await;
                    drain(response).await;
                }
            }
        }
    });
});

async fn call<B>(service: &mut McpService, request: Request<B>) -> Response<impl Body + Unpin>
where
    B: Body<Data = Bytes> + Send + 'static,
{
    match service.call(request).await {
        Ok(response) => response,
        Err(never) => match never {},
    }
}

/// Reads a response's body to its end, or until `SETTLE` passes (a `GET` stream).
async fn drain<B: Body + Unpin>(response: Response<B>) {
    let mut body = response.into_body();
    let read =
        async { while let Some(Ok(_)) = poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await {} };
    let _ = tokio::time::timeout(SETTLE, read).await;
}

fn post(body: &str, session: Option<&str>) -> Request<Whole> {
    let mut builder = Request::builder()
        .method(Method::POST)
        .uri("/mcp")
        .header("host", "localhost")
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream");
    if let Some(id) = session {
        builder = builder
            .header("mcp-session-id", id)
            .header("mcp-protocol-version", "2025-11-25");
    }
    match builder.body(Whole(Some(Bytes::copy_from_slice(body.as_bytes())))) {
        Ok(request) => request,
        Err(error) => panic!("the target's own request: {error}"),
    }
}

/// `initialize` and `notifications/initialized`: the session's id.
async fn open_session(service: &mut McpService) -> Option<String> {
    let response = call(service, post(INITIALIZE, None)).await;
    let id = response
        .headers()
        .get("mcp-session-id")?
        .to_str()
        .ok()?
        .to_owned();
    drain(response).await;
    drain(call(service, post(INITIALIZED, Some(&id))).await).await;
    Some(id)
}

/// The input's request, `None` when its method or path is no HTTP one.
fn request(input: &HttpInput<'_>, session: Option<&str>) -> Option<Request<Whole>> {
    let method = Method::from_bytes(input.method).ok()?;
    let mut request = Request::builder()
        .method(method)
        .uri(hyper::Uri::try_from(input.path).ok()?)
        .body(Whole(Some(Bytes::copy_from_slice(input.body))))
        .ok()?;
    for &(name, value) in &input.headers {
        let Ok(name) = HeaderName::from_bytes(name) else {
            continue;
        };
        let value = match (value, session) {
            (b"$session", Some(id)) => HeaderValue::from_str(id),
            _ => HeaderValue::from_bytes(value),
        };
        if let Ok(value) = value {
            request.headers_mut().append(name, value);
        }
    }
    Some(request)
}
