//! The HTTP exchanges with the endpoint: reqwest over rustls, one pooled client per
//! transport (keep-alive, HTTP/2 where the server offers it by ALPN), the response's body
//! read piece by piece within a size limit.

use std::time::Duration;

use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use reqwest::{Method, Response, Url};

use super::super::ClientError;
pub(crate) use crate::fetch::describe;

/// The TLS and connection options of [`Endpoint::new`].
#[derive(Clone, Debug)]
pub(crate) struct Connection {
    pub connect_timeout: Duration,
    pub idle_timeout: Duration,
    /// PEM bundles of certificates trusted besides the platform's roots.
    pub roots: Vec<Vec<u8>>,
}

/// Where the server listens, and the pooled client every request goes through.
#[derive(Clone, Debug)]
pub(crate) struct Endpoint {
    /// The URL as given, for messages.
    pub url: String,
    /// The URL parsed: every request goes here and nowhere else.
    pub target: Url,
    client: reqwest::Client,
}

impl Endpoint {
    /// Reads an `http://` or `https://` URL and builds its client.
    pub(crate) fn new(url: &str, options: &Connection) -> Result<Endpoint, ClientError> {
        let target = parse(url)?;
        let client = http_client(options)?;
        Ok(Endpoint {
            url: url.to_owned(),
            target,
            client,
        })
    }

    /// The pooled client, for the authorization server's documents (OAuth).
    pub(crate) fn client(&self) -> &reqwest::Client {
        &self.client
    }

    /// Sends `method` with `headers` and `body` to the endpoint, and returns the response
    /// as it starts.
    pub(crate) async fn send(
        &self,
        method: Method,
        headers: &[(&str, String)],
        body: Option<Vec<u8>>,
    ) -> Result<Response, ClientError> {
        let failed =
            |what: String| ClientError::Transport(format!("{method} {}: {what}", self.url));
        let mut map = HeaderMap::with_capacity(headers.len() + 1);
        for (name, value) in headers {
            let name = HeaderName::from_bytes(name.as_bytes())
                .map_err(|e| failed(format!("the header name `{name}` is not valid: {e}")))?;
            let value = HeaderValue::from_str(value)
                .map_err(|e| failed(format!("the value of header `{name}` is not valid: {e}")))?;
            map.append(name, value);
        }
        let mut request = self.client.request(method.clone(), self.target.clone());
        if let Some(body) = body {
            map.insert(
                reqwest::header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            );
            request = request.body(body);
        }
        request
            .headers(map)
            .send()
            .await
            .map_err(|e| failed(describe(&e)))
    }
}

/// The client of one transport: connection pool, timeouts, roots, no redirects (an
/// endpoint that moved is an error, and a token never follows a redirect).
pub(crate) fn http_client(options: &Connection) -> Result<reqwest::Client, ClientError> {
    let mut builder = reqwest::Client::builder()
        .connect_timeout(options.connect_timeout)
        .pool_idle_timeout(options.idle_timeout)
        .tcp_nodelay(true)
        .redirect(reqwest::redirect::Policy::none())
        .user_agent(concat!("toolidl-client/", env!("CARGO_PKG_VERSION")))
        .tls_built_in_native_certs(true);
    for pem in &options.roots {
        let certificates = reqwest::Certificate::from_pem_bundle(pem).map_err(|e| {
            ClientError::Transport(format!("the trusted certificates are not PEM: {e}"))
        })?;
        if certificates.is_empty() {
            return Err(ClientError::Transport(
                "the trusted certificates hold no certificate".into(),
            ));
        }
        for certificate in certificates {
            builder = builder.add_root_certificate(certificate);
        }
    }
    builder
        .build()
        .map_err(|e| ClientError::Transport(format!("cannot set up HTTP: {}", describe(&e))))
}

/// Reads an endpoint URL: `http` or `https`, a host, no user information, no fragment.
fn parse(url: &str) -> Result<Url, ClientError> {
    let bad = |why: &str| ClientError::Transport(format!("the URL `{url}` {why}"));
    let parsed = Url::parse(url).map_err(|e| bad(&format!("is not a URL: {e}")))?;
    match parsed.scheme() {
        "http" | "https" => {}
        other => {
            return Err(bad(&format!(
                "is {other}:, and only http: and https: are supported"
            )));
        }
    }
    if parsed.host_str().is_none_or(str::is_empty) {
        return Err(bad("has no host"));
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(bad("has user information, which is not supported"));
    }
    if parsed.fragment().is_some() {
        return Err(bad("has a fragment, which an endpoint cannot have"));
    }
    Ok(parsed)
}

/// The next piece of `body`: `None` at its end.
pub(crate) async fn next_piece(body: &mut Response) -> Result<Option<hyper::body::Bytes>, String> {
    body.chunk()
        .await
        .map_err(|e| format!("reading the response failed: {}", describe(&e)))
}

/// The whole of `body`, unless it is longer than `limit` bytes.
pub(crate) async fn read_all(body: &mut Response, limit: usize) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    while let Some(piece) = next_piece(body).await? {
        if out.len() + piece.len() > limit {
            return Err(format!("the response is longer than {limit} bytes"));
        }
        out.extend_from_slice(&piece);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_http_or_https_with_a_host() {
        let e = parse("http://127.0.0.1:8931/mcp?x=1").unwrap();
        assert_eq!(e.as_str(), "http://127.0.0.1:8931/mcp?x=1");
        assert_eq!(parse("https://[::1]").unwrap().as_str(), "https://[::1]/");
        for bad in [
            "ftp://example.com/mcp",
            "example.com/mcp",
            "http://u:p@h/",
            "https://h/mcp#top",
            "::",
        ] {
            let Err(ClientError::Transport(text)) = parse(bad) else {
                panic!("{bad} was accepted");
            };
            assert!(text.contains(bad), "{text}");
        }
    }
}
