//! One HTTP request to the endpoint, on a TCP connection of its own (HTTP/1.1, plain
//! `http://`), and its body read within a size limit.

use std::convert::Infallible;
use std::future::poll_fn;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use hyper::body::{Body, Bytes, Frame, Incoming, SizeHint};
use hyper::{Method, Request, Response, Uri, header};
use hyper_util::rt::TokioIo;

use super::super::ClientError;

/// How long connecting to the server may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// Where the server listens: the URL as given, the address to connect to, and the target
/// and `Host` of each request.
#[derive(Clone, Debug)]
pub(crate) struct Endpoint {
    pub url: String,
    addr: String,
    authority: String,
    target: String,
}

impl Endpoint {
    /// Reads an `http://host[:port][/path]` URL.
    pub(crate) fn parse(url: &str) -> Result<Endpoint, ClientError> {
        let bad = |why: &str| ClientError::Transport(format!("the URL `{url}` {why}"));
        let uri: Uri = url
            .parse()
            .map_err(|e| bad(&format!("is not a URL: {e}")))?;
        match uri.scheme_str() {
            Some("http") => {}
            Some(other) => return Err(bad(&format!("is {other}:, and only http: is supported"))),
            None => return Err(bad("has no scheme (http://…)")),
        }
        let authority = uri.authority().ok_or_else(|| bad("has no host"))?;
        if authority.as_str().contains('@') {
            return Err(bad("has user information, which is not supported"));
        }
        let port = authority.port_u16().unwrap_or(80);
        Ok(Endpoint {
            url: url.to_owned(),
            addr: format!("{}:{port}", authority.host()),
            authority: authority.as_str().to_owned(),
            target: uri.path_and_query().map_or("/", |p| p.as_str()).to_owned(),
        })
    }

    /// Sends `method` with `headers` and `body`, and returns the response as it starts.
    pub(crate) async fn send(
        &self,
        method: Method,
        headers: &[(&str, String)],
        body: Option<Vec<u8>>,
    ) -> Result<Response<Incoming>, ClientError> {
        let failed =
            |what: String| ClientError::Transport(format!("{method} {}: {what}", self.url));
        let connect = tokio::net::TcpStream::connect(&self.addr);
        let tcp = match tokio::time::timeout(CONNECT_TIMEOUT, connect).await {
            Ok(Ok(tcp)) => tcp,
            Ok(Err(e)) => return Err(failed(format!("cannot connect: {e}"))),
            Err(_) => return Err(failed("connecting timed out".into())),
        };
        let _ = tcp.set_nodelay(true);
        let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(tcp))
            .await
            .map_err(|e| failed(format!("the HTTP handshake failed: {e}")))?;
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!(error = %e, "an MCP client's HTTP connection failed");
            }
        });
        let mut request = Request::builder()
            .method(method.clone())
            .uri(&self.target)
            .header(header::HOST, &self.authority);
        for (name, value) in headers {
            request = request.header(*name, value);
        }
        if body.is_some() {
            request = request.header(header::CONTENT_TYPE, "application/json");
        }
        let request = request
            .body(Payload(body.map(Bytes::from)))
            .map_err(|e| failed(format!("cannot build the request: {e}")))?;
        sender
            .send_request(request)
            .await
            .map_err(|e| failed(format!("no response: {e}")))
    }
}

/// The next piece of `body`: `None` at its end.
pub(crate) async fn next_piece(body: &mut Incoming) -> Result<Option<Bytes>, String> {
    loop {
        let frame = poll_fn(|cx| Pin::new(&mut *body).poll_frame(cx)).await;
        match frame {
            None => return Ok(None),
            Some(Err(e)) => return Err(format!("reading the response failed: {e}")),
            // Trailers carry nothing a client reads.
            Some(Ok(frame)) => {
                if let Ok(data) = frame.into_data() {
                    return Ok(Some(data));
                }
            }
        }
    }
}

/// The whole of `body`, unless it is longer than `limit` bytes.
pub(crate) async fn read_all(body: &mut Incoming, limit: usize) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    while let Some(piece) = next_piece(body).await? {
        if out.len() + piece.len() > limit {
            return Err(format!("the response is longer than {limit} bytes"));
        }
        out.extend_from_slice(&piece);
    }
    Ok(out)
}

/// A request body: one buffer, or nothing.
struct Payload(Option<Bytes>);

impl Body for Payload {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        Poll::Ready(self.get_mut().0.take().map(|data| Ok(Frame::data(data))))
    }

    fn is_end_stream(&self) -> bool {
        self.0.is_none()
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.0.as_ref().map_or(0, |d| d.len() as u64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_give_the_address_host_and_target() {
        let e = Endpoint::parse("http://127.0.0.1:8931/mcp?x=1").unwrap();
        assert_eq!(
            (e.addr.as_str(), e.authority.as_str(), e.target.as_str()),
            ("127.0.0.1:8931", "127.0.0.1:8931", "/mcp?x=1")
        );
        let e = Endpoint::parse("http://[::1]").unwrap();
        assert_eq!((e.addr.as_str(), e.target.as_str()), ("[::1]:80", "/"));
        for bad in [
            "https://example.com/mcp",
            "example.com/mcp",
            "http://u:p@h/",
            "::",
        ] {
            let Err(ClientError::Transport(text)) = Endpoint::parse(bad) else {
                panic!("{bad} was accepted");
            };
            assert!(text.contains(bad), "{text}");
        }
    }
}
