//! The authorization code's trip through the user's browser: [`Redirect`] sends the user
//! to the authorization server and receives the redirect back; [`LoopbackRedirect`] does
//! so for command-line tools (RFC 8252 §7.3: a redirect URI on the loopback address).

use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use hyper::body::Incoming;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;
use tokio::sync::{Mutex, mpsc};

/// What [`Redirect::authorize`] returns: the parameters of the redirect back (its query:
/// `code`, `state`, `iss`, or `error`), or why there is none.
pub type RedirectFuture<'a> =
    Pin<Box<dyn Future<Output = Result<Vec<(String, String)>, String>> + Send + 'a>>;

/// Takes the user to the authorization server and brings back its answer: the part of an
/// authorization code flow that needs a user agent.
pub trait Redirect: Send + Sync {
    /// The redirect URI the authorization server sends the user back to (registered with
    /// it: by dynamic registration, in the client's metadata document, or beforehand).
    fn redirect_uri(&self) -> String;

    /// Sends the user to `authorization_url` (open a browser, print it, …) and waits for
    /// the authorization server's redirect to [`redirect_uri`](Redirect::redirect_uri):
    /// the parameters of its query.
    fn authorize<'a>(&'a self, authorization_url: &'a str) -> RedirectFuture<'a>;
}

/// A [`Redirect`] for command-line tools and tests: an HTTP listener on `127.0.0.1`
/// receives the redirect at `/callback`, and a function of the caller's sends the user to
/// the authorization URL (opens a browser, or prints the URL for the user to open).
///
/// The listener is bound by [`bind`](LoopbackRedirect::bind), so the redirect URI is known
/// before the client registers it; it answers the browser with a short page saying the
/// window can be closed. [`authorize`](Redirect::authorize) waits 5 minutes by default
/// ([`timeout`](LoopbackRedirect::timeout)).
pub struct LoopbackRedirect {
    listener: Mutex<TcpListener>,
    addr: SocketAddr,
    open: Arc<dyn Fn(&str) + Send + Sync>,
    timeout: Duration,
}

impl LoopbackRedirect {
    /// Binds a loopback port chosen by the system; `open` is given each authorization URL.
    pub async fn bind(open: impl Fn(&str) + Send + Sync + 'static) -> io::Result<LoopbackRedirect> {
        LoopbackRedirect::bind_port(0, open).await
    }

    /// Binds `127.0.0.1:port`: for an authorization server that only knows a fixed
    /// redirect URI.
    pub async fn bind_port(
        port: u16,
        open: impl Fn(&str) + Send + Sync + 'static,
    ) -> io::Result<LoopbackRedirect> {
        let listener = TcpListener::bind(("127.0.0.1", port)).await?;
        let addr = listener.local_addr()?;
        Ok(LoopbackRedirect {
            listener: Mutex::new(listener),
            addr,
            open: Arc::new(open),
            timeout: Duration::from_secs(300),
        })
    }

    /// How long [`authorize`](Redirect::authorize) waits for the redirect.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Serves connections until one brings the redirect: its query's parameters.
    async fn receive(&self) -> Result<Vec<(String, String)>, String> {
        let listener = self.listener.lock().await;
        let (found, mut received) = mpsc::channel::<Vec<(String, String)>>(1);
        loop {
            let (tcp, _) = tokio::select! {
                accepted = listener.accept() => accepted.map_err(|e| format!("the redirect listener failed: {e}"))?,
                Some(query) = received.recv() => return Ok(query),
            };
            let found = found.clone();
            let service = hyper::service::service_fn(move |request: Request<Incoming>| {
                let found = found.clone();
                async move { Ok::<_, Infallible>(callback(&request, &found)) }
            });
            tokio::spawn(async move {
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(tcp), service)
                    .await;
            });
        }
    }
}

/// The response to one request of the browser: the redirect is kept and thanked for.
fn callback(
    request: &Request<Incoming>,
    found: &mpsc::Sender<Vec<(String, String)>>,
) -> Response<String> {
    let respond = |status: StatusCode, text: &str| {
        let mut response = Response::new(format!(
            "<!doctype html><meta charset=utf-8><title>toolidl</title><p>{text}</p>\n"
        ));
        *response.status_mut() = status;
        response.headers_mut().insert(
            hyper::header::CONTENT_TYPE,
            hyper::header::HeaderValue::from_static("text/html; charset=utf-8"),
        );
        response
    };
    if request.uri().path() != "/callback" {
        return respond(StatusCode::NOT_FOUND, "Not found.");
    }
    let query = request.uri().query().unwrap_or_default();
    let pairs: Vec<(String, String)> = reqwest::Url::parse(&format!("http://x/?{query}"))
        .map(|u| u.query_pairs().into_owned().collect())
        .unwrap_or_default();
    let _ = found.try_send(pairs);
    respond(
        StatusCode::OK,
        "The authorization is complete: you can close this window.",
    )
}

impl Redirect for LoopbackRedirect {
    fn redirect_uri(&self) -> String {
        format!("http://127.0.0.1:{}/callback", self.addr.port())
    }

    fn authorize<'a>(&'a self, authorization_url: &'a str) -> RedirectFuture<'a> {
        Box::pin(async move {
            (self.open)(authorization_url);
            match tokio::time::timeout(self.timeout, self.receive()).await {
                Ok(outcome) => outcome,
                Err(_) => Err(format!(
                    "no redirect came back within {} seconds",
                    self.timeout.as_secs()
                )),
            }
        })
    }
}
