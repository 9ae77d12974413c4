//! Forwarding tool calls to an HTTP API (feature `forward`): what the handlers generated from
//! an OpenAPI import call (`toolidl_build::Builder::forward`, docs/openapi.md).
//!
//! An [`Upstream`] is the API: its base URL, credentials ([`Credential`], by security
//! scheme), timeout and retries. A generated handler builds a [`Call`] from its checked input
//! (path template, query, headers, cookies, body, each in its OpenAPI style), sends it, and
//! reads the [`Reply`] as the tool's declared result, with every check of its declaration. An
//! answer outside 2xx is a tool error with the status and the body's message.
//!
//! The MCP client's own token never reaches the API: nothing here reads the request that
//! carried the tool call; the credentials are configuration, and a `TokenExchange` (RFC
//! 8693) trades the client's token for another at a token service, never at the API.

mod credentials;
mod style;

use std::time::Duration;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::RequestContext;
use crate::args::{ArgError, Path, Reader};
use crate::service::ToolError;

pub use credentials::{ClientCredentials, Credential, KeyIn, Scheme, Secret};
#[cfg(feature = "auth")]
pub use credentials::{Rfc8693, TokenExchange};
pub use style::Style;

/// A configuration error: a base URL that is not one, a credential for a scheme the API does
/// not have, an environment variable missing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForwardError(String);

impl ForwardError {
    fn new(text: impl Into<String>) -> ForwardError {
        ForwardError(text.into())
    }
}

impl std::fmt::Display for ForwardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ForwardError {}

/// An HTTP method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// `GET`.
    Get,
    /// `PUT`.
    Put,
    /// `POST`.
    Post,
    /// `DELETE`.
    Delete,
    /// `OPTIONS`.
    Options,
    /// `HEAD`.
    Head,
    /// `PATCH`.
    Patch,
    /// `TRACE`.
    Trace,
}

impl Method {
    /// Whether sending it twice has the effect of sending it once (RFC 9110 §9.2.2), so that
    /// a failed attempt may be retried.
    pub fn is_idempotent(self) -> bool {
        !matches!(self, Method::Post | Method::Patch)
    }

    fn as_reqwest(self) -> reqwest::Method {
        match self {
            Method::Get => reqwest::Method::GET,
            Method::Put => reqwest::Method::PUT,
            Method::Post => reqwest::Method::POST,
            Method::Delete => reqwest::Method::DELETE,
            Method::Options => reqwest::Method::OPTIONS,
            Method::Head => reqwest::Method::HEAD,
            Method::Patch => reqwest::Method::PATCH,
            Method::Trace => reqwest::Method::TRACE,
        }
    }
}

/// The API calls are forwarded to. Cheap to clone (shared).
#[derive(Clone)]
pub struct Upstream {
    inner: std::sync::Arc<Inner>,
}

struct Inner {
    base: String,
    http: reqwest::Client,
    timeout: Duration,
    retries: u32,
    backoff: Duration,
    headers: Vec<(String, String)>,
    credentials: credentials::Credentials,
}

/// Configures an [`Upstream`]: `Upstream::builder(base_url, schemes)`, or the generated
/// `XxxRequests::upstream()` (the document's first server URL and its schemes).
#[must_use]
pub struct UpstreamBuilder {
    base: String,
    timeout: Duration,
    retries: u32,
    backoff: Duration,
    headers: Vec<(String, String)>,
    credentials: credentials::Credentials,
    error: Option<ForwardError>,
}

impl Upstream {
    /// An API at `base_url` (paths are appended to it: `https://api.example.com/v1`) whose
    /// security schemes are `schemes`.
    pub fn builder(base_url: impl Into<String>, schemes: &[Scheme]) -> UpstreamBuilder {
        UpstreamBuilder {
            base: base_url.into(),
            timeout: Duration::from_secs(30),
            retries: 2,
            backoff: Duration::from_millis(200),
            headers: Vec::new(),
            credentials: credentials::Credentials::new(schemes),
            error: None,
        }
    }

    /// The base URL.
    pub fn base_url(&self) -> &str {
        &self.inner.base
    }

    /// A request of the tool call `ctx` to `path` (a template: `/pets/{petId}`).
    pub fn call<'a>(
        &'a self,
        ctx: &'a RequestContext,
        method: Method,
        path: &'static str,
    ) -> Call<'a> {
        Call {
            upstream: self,
            ctx,
            method,
            path: path.to_owned(),
            query: Vec::new(),
            headers: Vec::new(),
            cookies: Vec::new(),
            media_type: None,
            fields: Map::new(),
            body: None,
            accept: None,
            security: &[],
            error: None,
        }
    }
}

impl UpstreamBuilder {
    /// Another base URL (a test server, a staging API).
    pub fn base_url(mut self, url: impl Into<String>) -> Self {
        self.base = url.into();
        self
    }

    /// How long one attempt may take, from sending to the whole answer (default 30 s).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// How many times a request of an idempotent method (`GET`, `PUT`, `DELETE`, …) is sent
    /// again after a failure to connect, a timeout, or a 429, 502, 503 or 504 answer
    /// (default 2); `POST` and `PATCH` are sent once.
    pub fn retries(mut self, retries: u32) -> Self {
        self.retries = retries;
        self
    }

    /// The wait before the first retry, doubled before each next one (default 200 ms); a
    /// `Retry-After` of at most 10 s is waited instead.
    pub fn retry_backoff(mut self, backoff: Duration) -> Self {
        self.backoff = backoff;
        self
    }

    /// A header sent with every request (`User-Agent`, a tenant id).
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// The credential of the security scheme `scheme` (its name in the document). A
    /// credential that does not fit the scheme (a password for an API key) fails [`build`](Self::build).
    pub fn credential(mut self, scheme: &str, credential: Credential) -> Self {
        if let Err(e) = self.credentials.set(scheme, credential) {
            self.error.get_or_insert(e);
        }
        self
    }

    /// The credentials of every scheme from environment variables named after it with
    /// `prefix` (docs/openapi.md): `PREFIX_API_KEY` for an `apiKey` scheme `api_key`,
    /// `PREFIX_<SCHEME>_TOKEN` for a bearer or OAuth token, `_USERNAME` and `_PASSWORD` for
    /// basic, `_CLIENT_ID`, `_CLIENT_SECRET` (and `_TOKEN_URL`, `_SCOPES`) for OAuth client
    /// credentials. A scheme with none of its variables set gets no credential.
    pub fn credentials_from_env(mut self, prefix: &str) -> Self {
        if let Err(e) = self.credentials.read_env(prefix) {
            self.error.get_or_insert(e);
        }
        self
    }

    /// The upstream, or the first configuration error.
    pub fn build(self) -> Result<Upstream, ForwardError> {
        if let Some(error) = self.error {
            return Err(error);
        }
        let base = self.base.trim_end_matches('/').to_owned();
        match reqwest::Url::parse(&base) {
            Ok(url) if url.scheme() == "http" || url.scheme() == "https" => {}
            _ => {
                return Err(ForwardError::new(format!(
                    "the base URL `{base}` is not an http(s) URL; give one with `base_url`"
                )));
            }
        }
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| ForwardError::new(format!("cannot make the HTTP client: {e}")))?;
        Ok(Upstream {
            inner: std::sync::Arc::new(Inner {
                base,
                http,
                timeout: self.timeout,
                retries: self.retries,
                backoff: self.backoff,
                headers: self.headers,
                credentials: self.credentials,
            }),
        })
    }
}

/// One request being built by a generated handler. Arguments that are `null` (an optional
/// parameter left out) are not sent.
pub struct Call<'a> {
    upstream: &'a Upstream,
    ctx: &'a RequestContext,
    method: Method,
    path: String,
    query: Vec<(String, String)>,
    headers: Vec<(String, String)>,
    cookies: Vec<String>,
    media_type: Option<&'static str>,
    fields: Map<String, Value>,
    body: Option<Vec<u8>>,
    accept: Option<&'static str>,
    security: &'static [&'static [&'static str]],
    error: Option<String>,
}

impl Call<'_> {
    fn json(&mut self, value: &impl Serialize) -> Option<Value> {
        match serde_json::to_value(value) {
            Ok(Value::Null) => None,
            Ok(value) => Some(value),
            Err(e) => {
                self.error.get_or_insert(e.to_string());
                None
            }
        }
    }

    /// The path variable `{name}`.
    pub fn path(
        &mut self,
        name: &str,
        style: Style,
        explode: bool,
        value: &impl Serialize,
    ) -> &mut Self {
        let text = match self.json(value) {
            Some(value) => style::path(name, style, explode, &value),
            None => String::new(),
        };
        self.path = self.path.replace(&format!("{{{name}}}"), &text);
        self
    }

    /// The query parameter `name`.
    pub fn query(
        &mut self,
        name: &str,
        style: Style,
        explode: bool,
        value: &impl Serialize,
    ) -> &mut Self {
        if let Some(value) = self.json(value) {
            self.query
                .extend(style::query(name, style, explode, false, &value));
        }
        self
    }

    /// The query parameter `name`, with `allowReserved`: reserved characters sent as they
    /// are.
    pub fn query_reserved(
        &mut self,
        name: &str,
        style: Style,
        explode: bool,
        value: &impl Serialize,
    ) -> &mut Self {
        if let Some(value) = self.json(value) {
            self.query
                .extend(style::query(name, style, explode, true, &value));
        }
        self
    }

    /// The header `name`.
    pub fn header(
        &mut self,
        name: &str,
        style: Style,
        explode: bool,
        value: &impl Serialize,
    ) -> &mut Self {
        if let Some(value) = self.json(value) {
            self.headers
                .push((name.to_owned(), style::header(style, explode, &value)));
        }
        self
    }

    /// The cookie `name`.
    pub fn cookie(
        &mut self,
        name: &str,
        style: Style,
        explode: bool,
        value: &impl Serialize,
    ) -> &mut Self {
        if let Some(value) = self.json(value) {
            for (key, text) in style::query(name, style, explode, false, &value) {
                self.cookies.push(format!("{key}={text}"));
            }
        }
        self
    }

    /// The body's media type: JSON (the default for [`field`](Self::field) and
    /// [`body`](Self::body)), `application/x-www-form-urlencoded`, or another one for
    /// [`bytes`](Self::bytes) and [`text`](Self::text).
    pub fn media_type(&mut self, media_type: &'static str) -> &mut Self {
        self.media_type = Some(media_type);
        self
    }

    /// A member of an object body (JSON or form), `null` included: a handler leaves out an
    /// optional member by not calling this.
    pub fn field(&mut self, name: &str, value: &impl Serialize) -> &mut Self {
        match serde_json::to_value(value) {
            Ok(value) => {
                self.fields.insert(name.to_owned(), value);
            }
            Err(e) => {
                self.error.get_or_insert(e.to_string());
            }
        }
        self
    }

    /// The whole body, as JSON.
    pub fn body(&mut self, value: &impl Serialize) -> &mut Self {
        match serde_json::to_vec(value) {
            Ok(bytes) => self.body = Some(bytes),
            Err(e) => {
                self.error.get_or_insert(e.to_string());
            }
        }
        self
    }

    /// The whole body, these bytes.
    pub fn bytes(&mut self, bytes: &[u8]) -> &mut Self {
        self.body = Some(bytes.to_vec());
        self
    }

    /// The whole body, this text.
    pub fn text(&mut self, text: &str) -> &mut Self {
        self.body = Some(text.as_bytes().to_vec());
        self
    }

    /// The media type asked for with `Accept`.
    pub fn accept(&mut self, media_type: &'static str) -> &mut Self {
        self.accept = Some(media_type);
        self
    }

    /// The operation's security: alternatives, each a list of scheme names used together.
    pub fn security(&mut self, alternatives: &'static [&'static [&'static str]]) -> &mut Self {
        self.security = alternatives;
        self
    }

    fn is_form(&self) -> bool {
        self.media_type
            .is_some_and(|m| m.starts_with("application/x-www-form-urlencoded"))
    }

    /// The body's bytes and media type.
    fn payload(&mut self) -> Option<(Vec<u8>, &'static str)> {
        let media = self.media_type.unwrap_or("application/json");
        if let Some(body) = self.body.take() {
            return Some((body, media));
        }
        if self.fields.is_empty() && self.media_type.is_none() {
            return None;
        }
        if self.is_form() {
            let pairs: Vec<String> = self
                .fields
                .iter()
                .filter(|(_, v)| !v.is_null())
                .flat_map(|(k, v)| style::query(k, Style::Form, true, false, v))
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            return Some((pairs.join("&").into_bytes(), media));
        }
        let fields = std::mem::take(&mut self.fields);
        Some((Value::Object(fields).to_string().into_bytes(), media))
    }

    /// Sends the request (again, for an idempotent method that failed in a way worth
    /// retrying) and returns the success answer; anything else is a tool error.
    pub async fn send(mut self) -> Result<Reply, ToolError> {
        if let Some(error) = self.error.take() {
            return Err(ToolError::internal(ForwardError::new(format!(
                "cannot write the request: {error}"
            ))));
        }
        let inner = &self.upstream.inner;
        let mut url = format!("{}{}", inner.base, self.path);
        if !self.query.is_empty() {
            let pairs: Vec<String> = self.query.iter().map(|(k, v)| format!("{k}={v}")).collect();
            url.push('?');
            url.push_str(&pairs.join("&"));
        }
        let applied = inner.credentials.apply(self.security, self.ctx).await?;
        let payload = self.payload();
        let mut attempt = 0;
        loop {
            let mut request = inner
                .http
                .request(self.method.as_reqwest(), &url)
                .timeout(inner.timeout);
            for (name, value) in inner.headers.iter().chain(&self.headers) {
                request = request.header(name.as_str(), value.as_str());
            }
            let mut cookies = self.cookies.clone();
            let mut query = Vec::new();
            for credential in &applied {
                match credential {
                    credentials::Applied::Header(name, value) => {
                        request = request.header(name.as_str(), value.as_str());
                    }
                    credentials::Applied::Basic(user, password) => {
                        request = request.basic_auth(user, Some(password.expose()));
                    }
                    credentials::Applied::Query(name, value) => query.push((name, value)),
                    credentials::Applied::Cookie(name, value) => {
                        cookies.push(format!(
                            "{}={}",
                            credentials::form_escape(name),
                            credentials::form_escape(value)
                        ));
                    }
                }
            }
            if !query.is_empty() {
                request = request.query(&query);
            }
            if !cookies.is_empty() {
                request = request.header("cookie", cookies.join("; "));
            }
            if let Some(accept) = self.accept {
                request = request.header("accept", accept);
            }
            if let Some((body, media)) = &payload {
                request = request.header("content-type", *media).body(body.clone());
            }
            let retry = attempt < inner.retries && self.method.is_idempotent();
            let wait = inner.backoff * 2u32.saturating_pow(attempt);
            attempt += 1;
            let response = match request.send().await {
                Ok(response) => response,
                Err(e) if retry && (e.is_connect() || e.is_timeout()) => {
                    tracing::debug!(error = %e.without_url(), "retrying a forwarded request");
                    tokio::time::sleep(wait).await;
                    continue;
                }
                Err(e) => return Err(unreachable(&e, inner.timeout)),
            };
            let status = response.status();
            if retry && matches!(status.as_u16(), 429 | 502 | 503 | 504) {
                let after = response
                    .headers()
                    .get("retry-after")
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.parse::<u64>().ok())
                    .map(Duration::from_secs)
                    .filter(|d| *d <= Duration::from_secs(10));
                tokio::time::sleep(after.unwrap_or(wait)).await;
                continue;
            }
            let body = match response.bytes().await {
                Ok(body) => body.to_vec(),
                Err(e) => return Err(unreachable(&e, inner.timeout)),
            };
            if !status.is_success() {
                return Err(ToolError::message(upstream_error(status, &body)));
            }
            return Ok(Reply { body });
        }
    }
}

/// A failure to reach the API, as the tool's error (the URL, which may hold a key, left out).
fn unreachable(error: &reqwest::Error, timeout: Duration) -> ToolError {
    if error.is_timeout() {
        return ToolError::message(format!(
            "The API did not answer within {} s.",
            timeout.as_secs_f64()
        ));
    }
    let mut text = format!("{error:?}");
    if let Some(url) = error.url() {
        text = text.replace(url.as_str(), "<url>");
    }
    tracing::warn!(error = %text, "a forwarded request failed");
    ToolError::message("The API could not be reached.")
}

/// `The API answered 404 Not Found: Pet not found.`: the status and the body's message (a
/// problem's `detail` or `title`, `message`, `error_description`, `error`), else its text.
fn upstream_error(status: reqwest::StatusCode, body: &[u8]) -> String {
    let head = format!("The API answered {status}");
    let text = String::from_utf8_lossy(body);
    let message = match serde_json::from_slice::<Value>(body) {
        Ok(json) => message_of(&json).unwrap_or_else(|| text.trim().to_owned()),
        Err(_) => text.trim().to_owned(),
    };
    let message: String = message.chars().take(500).collect();
    if message.is_empty() {
        format!("{head}.")
    } else {
        format!("{head}: {message}")
    }
}

fn message_of(json: &Value) -> Option<String> {
    for key in ["detail", "message", "error_description", "title", "error"] {
        match json.get(key) {
            Some(Value::String(s)) if !s.is_empty() => return Some(s.clone()),
            Some(inner @ Value::Object(_)) => {
                if let Some(m) = message_of(inner) {
                    return Some(m);
                }
            }
            _ => {}
        }
    }
    json.get("errors")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
        .and_then(|e| message_of(e).or_else(|| e.as_str().map(str::to_owned)))
}

/// A success answer, read as the tool's declared result.
pub struct Reply {
    body: Vec<u8>,
}

impl Reply {
    /// The body as JSON, read with `read` (a generated decoder, `<T as Decode>::read`): every
    /// check of the result's declaration is made, and an answer that breaks it is a tool
    /// error naming where.
    pub fn json<T>(
        self,
        read: impl FnOnce(&mut Reader<'_>, &Path<'_>) -> Result<T, ArgError>,
    ) -> Result<T, ToolError> {
        let text = std::str::from_utf8(&self.body)
            .map_err(|_| ToolError::message("The API's answer is not UTF-8 text."))?;
        let raw: Box<serde_json::value::RawValue> = serde_json::from_str(text)
            .map_err(|e| ToolError::message(format!("The API's answer is not JSON: {e}.")))?;
        read(&mut Reader::new(raw.get()), &Path::Root).map_err(|e| {
            let place = match e.path() {
                "" => "the value".to_owned(),
                path => format!("`{path}`"),
            };
            ToolError::message(format!(
                "The API's answer is not the declared result: {place} is not valid. {}",
                e.reason().unwrap_or("It does not have the declared type.")
            ))
        })
    }

    /// The body as text.
    pub fn text(self) -> Result<String, ToolError> {
        String::from_utf8(self.body)
            .map_err(|_| ToolError::message("The API's answer is not UTF-8 text."))
    }

    /// The body's bytes.
    pub fn bytes(self) -> crate::Bytes {
        crate::Bytes::from(self.body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_answer_says_its_status_and_message() {
        let status = reqwest::StatusCode::NOT_FOUND;
        assert_eq!(
            upstream_error(status, br#"{"code": 1, "message": "Pet not found"}"#),
            "The API answered 404 Not Found: Pet not found"
        );
        assert_eq!(
            upstream_error(
                status,
                br#"{"type": "x", "title": "Missing", "detail": "No pet 3"}"#
            ),
            "The API answered 404 Not Found: No pet 3"
        );
        assert_eq!(
            upstream_error(status, br#"{"error": {"message": "deep"}}"#),
            "The API answered 404 Not Found: deep"
        );
        assert_eq!(
            upstream_error(status, b""),
            "The API answered 404 Not Found."
        );
        assert_eq!(
            upstream_error(status, b"  plain words\n"),
            "The API answered 404 Not Found: plain words"
        );
    }

    #[test]
    fn only_post_and_patch_are_not_retried() {
        assert!(Method::Get.is_idempotent() && Method::Put.is_idempotent());
        assert!(Method::Delete.is_idempotent());
        assert!(!Method::Post.is_idempotent() && !Method::Patch.is_idempotent());
    }

    #[test]
    fn a_base_url_must_be_http() {
        let error = Upstream::builder("petstore", &[]).build().err().unwrap();
        assert!(error.to_string().contains("not an http(s) URL"), "{error}");
        assert!(
            Upstream::builder("http://127.0.0.1:4010/", &[])
                .build()
                .is_ok()
        );
    }
}
