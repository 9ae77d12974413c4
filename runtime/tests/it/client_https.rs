//! `client::HttpTransport` over TLS and over kept-alive connections: the kitchen server
//! behind a TLS acceptor this test runs (rustls, ALPN `h2` and `http/1.1`, a CA and
//! certificates generated here), and on a plain listener that counts its connections.
#![cfg(all(feature = "client", feature = "http"))]

use crate::common;

use std::convert::Infallible;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use common::kitchen_server;
use hyper::body::Incoming;
use hyper::{Request, Version};
use hyper_util::rt::{TokioExecutor, TokioIo};
use serde_json::json;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls;
use toolidl_runtime::client::{ClientError, HttpTransport, call_tool};
use toolidl_runtime::http::{HttpConfig, HttpServer, McpService};
use toolidl_runtime::protocol::Revision;
use tower_service::Service;

/// A CA, and a server certificate it signed for `names`.
struct Pki {
    ca_pem: String,
    cert: rustls::pki_types::CertificateDer<'static>,
    key: rustls::pki_types::PrivateKeyDer<'static>,
}

fn pki(names: &[&str]) -> Pki {
    let ca_key = rcgen::KeyPair::generate().unwrap();
    let mut ca = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    ca.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    ca.distinguished_name
        .push(rcgen::DnType::CommonName, "toolidl test CA");
    let ca_cert = ca.self_signed(&ca_key).unwrap();
    let issuer = rcgen::Issuer::new(ca, ca_key);
    let key = rcgen::KeyPair::generate().unwrap();
    let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    let cert = rcgen::CertificateParams::new(names)
        .unwrap()
        .signed_by(&key, &issuer)
        .unwrap();
    Pki {
        ca_pem: ca_cert.pem(),
        cert: cert.der().clone(),
        key: rustls::pki_types::PrivateKeyDer::Pkcs8(key.serialize_der().into()),
    }
}

/// What the TLS server saw: connections accepted, and each request's HTTP version.
#[derive(Default)]
struct Seen {
    connections: AtomicUsize,
    versions: Mutex<Vec<Version>>,
}

/// The kitchen endpoint over TLS on a loopback port, offering `alpn`: its URL at
/// `localhost`, and what it saw.
async fn serve_tls(pki: &Pki, alpn: &[&[u8]]) -> (String, Arc<Seen>) {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(vec![pki.cert.clone()], pki.key.clone_key())
        .unwrap();
    config.alpn_protocols = alpn.iter().map(|p| p.to_vec()).collect();
    let acceptor = TlsAcceptor::from(Arc::new(config));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let mcp = McpService::new(kitchen_server(), HttpConfig::new());
    let seen = Arc::new(Seen::default());
    let seen_by_server = Arc::clone(&seen);
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            seen_by_server.connections.fetch_add(1, Ordering::SeqCst);
            let (acceptor, mcp, seen) = (acceptor.clone(), mcp.clone(), seen_by_server.clone());
            tokio::spawn(async move {
                let Ok(tls) = acceptor.accept(tcp).await else {
                    return;
                };
                let service = hyper::service::service_fn(move |mut request: Request<Incoming>| {
                    seen.versions.lock().unwrap().push(request.version());
                    // HTTP/2 carries the authority in the URI, not in a Host header, which
                    // the endpoint checks: a proxy in front would pass it on as Host.
                    if let Some(authority) = request.uri().authority().cloned() {
                        let host = authority.as_str().parse().unwrap();
                        request.headers_mut().entry("host").or_insert(host);
                    }
                    let mut mcp = mcp.clone();
                    async move { Ok::<_, Infallible>(mcp.call(request).await.unwrap()) }
                });
                let _ = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new())
                    .serve_connection(TokioIo::new(tls), service)
                    .await;
            });
        }
    });
    (format!("https://localhost:{port}/mcp"), seen)
}

/// Calls `context` `n` times, checking each reply.
async fn calls(server: &HttpTransport, n: usize) {
    for _ in 0..n {
        let reply = call_tool(server, "context", json!({})).await.unwrap();
        let context: serde_json::Value = reply.structured().unwrap();
        assert!(context["revision"].is_string(), "{context}");
    }
}

#[tokio::test]
async fn https_with_a_private_ca_speaks_http2_on_one_connection() {
    let pki = pki(&["localhost"]);
    let (url, seen) = serve_tls(&pki, &[b"h2", b"http/1.1"]).await;
    for revision in [Revision::V2026_07_28, Revision::V2025_11_25] {
        let server = HttpTransport::builder(&url)
            .revision(revision)
            .root_certificates(pki.ca_pem.clone())
            .connect()
            .await
            .unwrap();
        calls(&server, 5).await;
        server.close().await.unwrap();
    }
    let versions = seen.versions.lock().unwrap().clone();
    assert!(versions.len() >= 12, "{versions:?}");
    assert!(
        versions.iter().all(|v| *v == Version::HTTP_2),
        "{versions:?}"
    );
    // One connection per transport, whatever the number of requests (HTTP/2 multiplexes
    // the session's GET stream beside the calls).
    assert_eq!(seen.connections.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn a_server_without_h2_is_spoken_to_over_kept_alive_http1() {
    let pki = pki(&["localhost"]);
    let (url, seen) = serve_tls(&pki, &[b"http/1.1"]).await;
    let server = HttpTransport::builder(&url)
        .root_certificates(pki.ca_pem.clone())
        .connect()
        .await
        .unwrap();
    calls(&server, 10).await;
    let versions = seen.versions.lock().unwrap().clone();
    assert!(
        versions.iter().all(|v| *v == Version::HTTP_11),
        "{versions:?}"
    );
    assert_eq!(seen.connections.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_certificate_no_trusted_root_signed_is_refused() {
    let pki = pki(&["localhost"]);
    let (url, seen) = serve_tls(&pki, &[b"h2", b"http/1.1"]).await;
    match HttpTransport::connect(&url).await {
        Err(ClientError::Transport(text)) => {
            assert!(text.contains(&url), "{text}");
            assert!(text.contains("certificate"), "{text}");
        }
        other => panic!("expected a transport error, got {:?}", other.err()),
    }
    assert!(seen.versions.lock().unwrap().is_empty());
}

#[tokio::test]
async fn a_certificate_for_another_name_is_refused() {
    let pki = pki(&["mcp.example.com"]);
    let (url, seen) = serve_tls(&pki, &[b"h2", b"http/1.1"]).await;
    let outcome = HttpTransport::builder(&url)
        .root_certificates(pki.ca_pem.clone())
        .connect()
        .await;
    match outcome {
        Err(ClientError::Transport(text)) => assert!(text.contains("certificate"), "{text}"),
        other => panic!("expected a transport error, got {:?}", other.err()),
    }
    assert!(seen.versions.lock().unwrap().is_empty());
}

#[tokio::test]
async fn a_bundle_without_certificates_is_an_error() {
    let outcome = HttpTransport::builder("https://localhost:1/mcp")
        .root_certificates("not a certificate")
        .connect()
        .await;
    assert!(
        matches!(&outcome, Err(ClientError::Transport(t)) if t.contains("no certificate")),
        "{:?}",
        outcome.err()
    );
}

/// Plain HTTP: the calls of one transport share one kept-alive connection.
#[tokio::test]
async fn plain_http_calls_reuse_one_connection() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server_addr = listener.local_addr().unwrap();
    let http = HttpServer::from_listener(kitchen_server(), listener, HttpConfig::new()).unwrap();
    tokio::spawn(http.run_until(std::future::pending()));
    // A counting relay in front: each connection it accepts is one to the server.
    let relay = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let relay_addr = relay.local_addr().unwrap();
    let accepted = Arc::new(AtomicUsize::new(0));
    let count = Arc::clone(&accepted);
    tokio::spawn(async move {
        while let Ok((mut inbound, _)) = relay.accept().await {
            count.fetch_add(1, Ordering::SeqCst);
            tokio::spawn(async move {
                let mut outbound = tokio::net::TcpStream::connect(server_addr).await.unwrap();
                let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
            });
        }
    });
    let url = format!("http://{relay_addr}/mcp");
    let server = HttpTransport::connect(&url).await.unwrap();
    calls(&server, 20).await;
    assert_eq!(accepted.load(Ordering::SeqCst), 1);
}
