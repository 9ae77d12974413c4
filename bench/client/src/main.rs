//! Calls per second through `client::HttpTransport` against examples/weather's server in
//! this process (its own thread and runtime): `tools/call add` one after the other, each
//! sum checked, over plain HTTP and over HTTPS (a CA and a certificate made at start-up;
//! HTTP/2 by ALPN, or HTTP/1.1 only), in 2026-07-28 and in a 2025-11-25 session.
//!
//!   bench-client [CALLS]      (default 5000 per point, after a tenth as warm-up)

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;

use hyper::Request;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo};
use serde_json::json;
use tokio_rustls::rustls;
use toolidl_runtime::client::{HttpTransport, call_tool};
use toolidl_runtime::http::{HttpConfig, HttpServer, McpService};
use toolidl_runtime::protocol::Revision;
use tower_service::Service;

/// A CA's PEM, and the certificate and key it signed for `localhost`.
fn pki() -> (String, rustls::pki_types::CertificateDer<'static>, rustls::pki_types::PrivateKeyDer<'static>) {
    let ca_key = rcgen::KeyPair::generate().expect("a key");
    let mut ca = rcgen::CertificateParams::new(Vec::<String>::new()).expect("params");
    ca.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    let ca_cert = ca.self_signed(&ca_key).expect("the CA");
    let issuer = rcgen::Issuer::new(ca, ca_key);
    let key = rcgen::KeyPair::generate().expect("a key");
    let cert = rcgen::CertificateParams::new(vec!["localhost".to_owned()])
        .expect("params")
        .signed_by(&key, &issuer)
        .expect("the certificate");
    let der = rustls::pki_types::PrivateKeyDer::Pkcs8(key.serialize_der().into());
    (ca_cert.pem(), cert.der().clone(), der)
}

/// Serves `mcp` over TLS on a loopback port offering `alpn`: its address.
async fn serve_tls(
    mcp: McpService,
    cert: rustls::pki_types::CertificateDer<'static>,
    key: rustls::pki_types::PrivateKeyDer<'static>,
    alpn: &[&[u8]],
) -> SocketAddr {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("TLS versions")
        .with_no_client_auth()
        .with_single_cert(vec![cert], key)
        .expect("the certificate");
    config.alpn_protocols = alpn.iter().map(|p| p.to_vec()).collect();
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            let _ = tcp.set_nodelay(true);
            let (acceptor, mcp) = (acceptor.clone(), mcp.clone());
            tokio::spawn(async move {
                let Ok(tls) = acceptor.accept(tcp).await else { return };
                let service = hyper::service::service_fn(move |mut request: Request<Incoming>| {
                    // HTTP/2 has no Host header; a proxy in front would pass the authority on.
                    if let Some(authority) = request.uri().authority().cloned() {
                        if let Ok(host) = authority.as_str().parse() {
                            request.headers_mut().entry("host").or_insert(host);
                        }
                    }
                    let mut mcp = mcp.clone();
                    async move { Ok::<_, Infallible>(mcp.call(request).await.unwrap_or_else(|e| match e {})) }
                });
                let _ = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new())
                    .serve_connection(TokioIo::new(tls), service)
                    .await;
            });
        }
    });
    addr
}

fn main() {
    let calls: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(5_000);
    let (ca_pem, cert, key) = pki();
    let (addr_tx, addr_rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(async {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
            let http = HttpServer::from_listener(weather_example::server(), listener, HttpConfig::new())
                .expect("serve");
            let plain = http.local_addr().expect("addr");
            let mcp = McpService::new(weather_example::server(), HttpConfig::new());
            let h2 = serve_tls(mcp.clone(), cert.clone(), key.clone_key(), &[b"h2", b"http/1.1"]).await;
            let h1 = serve_tls(mcp, cert, key, &[b"http/1.1"]).await;
            addr_tx.send((plain, h2, h1)).expect("send");
            http.run_until(std::future::pending()).await.expect("run");
        });
    });
    let (plain, h2, h1) = addr_rx.recv().expect("the server's addresses");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let points = [
        (format!("http://{plain}/mcp"), "http"),
        (format!("https://localhost:{}/mcp", h2.port()), "https h2"),
        (format!("https://localhost:{}/mcp", h1.port()), "https http/1.1"),
    ];
    runtime.block_on(async {
        for (url, name) in &points {
            for (mode, revision) in [("2026-07-28", Revision::V2026_07_28), ("2025-11-25 session", Revision::V2025_11_25)] {
                let transport = HttpTransport::builder(url)
                    .revision(revision)
                    .session_stream(false)
                    .root_certificates(ca_pem.clone())
                    .connect()
                    .await
                    .expect("connect");
                let label = format!("{name} {mode}");
                run(&label, &transport, calls / 10).await;
                let start = Instant::now();
                run(&label, &transport, calls).await;
                let secs = start.elapsed().as_secs_f64();
                println!(
                    "{label:<34} {:>8.0} calls/s ({calls} calls, {:.1} µs each)",
                    calls as f64 / secs,
                    secs * 1e6 / calls as f64
                );
            }
        }
    });
}

async fn run(name: &str, transport: &HttpTransport, calls: usize) {
    for i in 0..calls {
        let a = i as i64;
        let reply = call_tool(transport, "add", json!({"a": a, "b": 2}))
            .await
            .unwrap_or_else(|e| panic!("{name}: call {i}: {e}"));
        assert_eq!(reply.text(), (a + 2).to_string(), "{name}: call {i}");
    }
}
