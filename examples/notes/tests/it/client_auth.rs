//! The runtime's OAuth 2.1 client (`toolidl_runtime::client::OAuth`) against a real
//! authorization server: oidc-provider (npm, a certified OpenID provider) configured by
//! `interop/auth/client_provider.mjs`, protecting `notes-example --http … --auth-issuer …`.
//! The test plays the user: the loopback redirect's `open` function follows the
//! authorization URL through the provider's login (it logs `alice` in by itself) back to
//! the loopback listener, keeping cookies as a browser does.
//!
//! Flows: discovery from the 401, dynamic registration, authorization code with PKCE, a
//! step-up when the first grant lacked `notes:write`, refresh of an expiring token, a
//! pre-registered client, a client ID metadata document (served here over TLS with a CA
//! the test makes; the provider trusts it through NODE_EXTRA_CA_CERTS), the
//! client-credentials grant. Refusals: a token for another audience, metadata naming
//! another issuer, a server claiming another server's resource, stored tokens of another
//! server, a redirect answered with another `iss` or `state`.
//!
//! Needs Node and the provider: `bash scripts/auth.sh` installs them and runs this test with
//! `TOOLIDL_AUTH_NODE` and `TOOLIDL_AUTH_CLIENT_PROVIDER` set (hence `#[ignore]` under a
//! plain `cargo test`); `toolidl import --url` is tested with `TOOLIDL_CLI` too.

use crate::common;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use toolidl_runtime::client::{
    ClientError, HttpTransport, LoopbackRedirect, MemoryTokenStore, OAuth, OAuthBuilder, Redirect,
    RedirectFuture, Registration, TokenStore, Tokens, Transport, call_tool,
};

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| panic!("{name} (run scripts/auth.sh)"))
}

/// The provider process, and the lines it printed.
struct Provider {
    child: Child,
    port: u16,
    lines: Arc<Mutex<Vec<String>>>,
}

impl Provider {
    /// Starts the provider with `vars` in its environment.
    fn start(vars: &[(&str, String)]) -> Provider {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("a free port");
        let mut command = Command::new(env("TOOLIDL_AUTH_NODE"));
        command
            .arg(env("TOOLIDL_AUTH_CLIENT_PROVIDER"))
            .env("PROVIDER_PORT", port.to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        for (name, value) in vars {
            command.env(name, value);
        }
        let mut child = command.spawn().expect("start the provider");
        let lines = Arc::new(Mutex::new(Vec::new()));
        let (tx, rx) = std::sync::mpsc::channel();
        let stdout = child.stdout.take().expect("stdout");
        let sink = Arc::clone(&lines);
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if line.starts_with("listening") {
                    let _ = tx.send(());
                }
                sink.lock().expect("lines").push(line);
            }
        });
        rx.recv_timeout(Duration::from_secs(30))
            .expect("the provider did not start");
        Provider { child, port, lines }
    }

    fn issuer(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The tokens it issued: `(grant_type, client_id, scope)`.
    fn tokens(&self) -> Vec<(String, String, String)> {
        std::thread::sleep(Duration::from_millis(50));
        let lines = self.lines.lock().expect("lines");
        lines
            .iter()
            .filter_map(|l| {
                let mut words = l.strip_prefix("token ")?.splitn(3, ' ');
                let grant = words.next()?.to_owned();
                let client = words.next()?.to_owned();
                Some((grant, client, words.next().unwrap_or("").to_owned()))
            })
            .collect()
    }
}

impl Drop for Provider {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The notes server protected by `issuer`.
struct Notes {
    child: Child,
    url: String,
}

impl Notes {
    fn start(issuer: &str) -> Notes {
        let (child, addr) = common::spawn_http(&["--auth-issuer", issuer]);
        Notes {
            child,
            url: format!("http://{addr}/mcp"),
        }
    }
}

impl Drop for Notes {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Plays the user: follows `url` and its redirects (the provider's login and consent, then
/// the loopback callback), keeping cookies.
async fn play_user(url: &str) -> Result<(), String> {
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(|e| e.to_string())?;
    let mut cookies: BTreeMap<String, String> = BTreeMap::new();
    let mut url = reqwest::Url::parse(url).map_err(|e| e.to_string())?;
    for _ in 0..20 {
        let cookie = cookies
            .iter()
            .map(|(name, value)| format!("{name}={value}"))
            .collect::<Vec<_>>()
            .join("; ");
        let response = http
            .get(url.clone())
            .header("cookie", cookie)
            .send()
            .await
            .map_err(|e| format!("{url}: {e}"))?;
        for set in response.headers().get_all("set-cookie") {
            let Ok(set) = set.to_str() else { continue };
            let pair = set.split(';').next().unwrap_or_default();
            if let Some((name, value)) = pair.split_once('=') {
                let expired = set
                    .to_ascii_lowercase()
                    .contains("expires=thu, 01 jan 1970");
                match value.is_empty() || expired {
                    true => cookies.remove(name.trim()),
                    false => cookies.insert(name.trim().to_owned(), value.to_owned()),
                };
            }
        }
        if response.status().is_redirection() {
            let location = response
                .headers()
                .get("location")
                .and_then(|l| l.to_str().ok())
                .ok_or("a redirect without Location")?;
            url = url.join(location).map_err(|e| e.to_string())?;
            continue;
        }
        let status = response.status();
        let body = response.text().await.unwrap_or_default();
        return match status.is_success() {
            true => Ok(()),
            false => Err(format!("{url} answered {status}: {body}")),
        };
    }
    Err("too many redirects".into())
}

/// A loopback redirect whose `open` plays the user; what went wrong doing so is kept.
async fn user() -> (Arc<LoopbackRedirect>, Arc<Mutex<Vec<String>>>) {
    let failures = Arc::new(Mutex::new(Vec::new()));
    let keep = Arc::clone(&failures);
    let redirect = LoopbackRedirect::bind(move |url: &str| {
        let (url, keep) = (url.to_owned(), Arc::clone(&keep));
        tokio::spawn(async move {
            if let Err(e) = play_user(&url).await {
                keep.lock().expect("failures").push(e);
            }
        });
    })
    .await
    .expect("bind the loopback redirect");
    (
        Arc::new(redirect.timeout(Duration::from_secs(20))),
        failures,
    )
}

/// Calls a reading tool and a writing one.
async fn read_and_write(client: &dyn Transport) -> Result<(), ClientError> {
    call_tool(client, "list_tags", json!({})).await?;
    let created = call_tool(client, "create_note", json!({"title": "OAuth"})).await?;
    assert!(created.text().contains("OAuth"), "{}", created.text());
    Ok(())
}

#[tokio::test]
#[ignore = "needs Node and oidc-provider: run scripts/auth.sh"]
async fn authorization_code_with_dynamic_registration_and_step_up() {
    let provider = Provider::start(&[]);
    let notes = Notes::start(&provider.issuer());
    let (redirect, failures) = user().await;
    let store = Arc::new(MemoryTokenStore::new());
    let oauth = OAuth::authorization_code(redirect)
        .client_name("notes client test")
        .store(store.clone())
        .build();
    let client = HttpTransport::builder(&notes.url)
        .oauth(oauth)
        .connect()
        .await
        .unwrap_or_else(|e| panic!("{e}; the user: {:?}", failures.lock().unwrap()));
    read_and_write(&client).await.unwrap();
    // The client registered itself, and was authorized twice: first for notes:read only
    // (what the user granted), then, on the 403 for create_note, for both (the step-up).
    let registration = store.registration(&provider.issuer()).expect("registered");
    let tokens = provider.tokens();
    let codes: Vec<&str> = tokens
        .iter()
        .filter(|(grant, client, _)| {
            grant == "authorization_code" && *client == registration.client_id
        })
        .map(|(_, _, scope)| scope.as_str())
        .collect();
    assert_eq!(
        codes,
        ["notes:read", "notes:read notes:write"],
        "{tokens:?}"
    );
    let kept = store.tokens(&notes.url).expect("tokens kept");
    assert_eq!(kept.resource, notes.url);
    assert_eq!(kept.issuer, provider.issuer());
    assert!(kept.refresh_token.is_some());
    // A second transport with the same store needs no authorization.
    let again = HttpTransport::builder(&notes.url)
        .oauth(
            OAuth::authorization_code(user().await.0)
                .store(store)
                .build(),
        )
        .connect()
        .await
        .unwrap();
    read_and_write(&again).await.unwrap();
    assert_eq!(provider.tokens().len(), tokens.len());
}

#[tokio::test]
#[ignore = "needs Node and oidc-provider: run scripts/auth.sh"]
async fn an_expiring_token_is_refreshed() {
    // Tokens live 20 s; the client refreshes those that expire within 30 s before use.
    let provider = Provider::start(&[("PROVIDER_TOKEN_TTL", "20".into())]);
    let notes = Notes::start(&provider.issuer());
    let (redirect, _) = user().await;
    let client = HttpTransport::builder(&notes.url)
        .oauth(
            OAuth::authorization_code(redirect)
                .client("app", None)
                .build(),
        )
        .connect()
        .await
        .unwrap();
    call_tool(&client, "list_tags", json!({})).await.unwrap();
    let grants: Vec<String> = provider.tokens().into_iter().map(|t| t.0).collect();
    assert_eq!(grants[0], "authorization_code");
    assert!(
        grants[1..].iter().all(|g| g == "refresh_token"),
        "{grants:?}"
    );
    assert!(grants.len() >= 2, "{grants:?}");
    // The pre-registered client was used: nothing registered.
    assert!(provider.tokens().iter().all(|t| t.1 == "app"));
}

#[tokio::test]
#[ignore = "needs Node and oidc-provider: run scripts/auth.sh"]
async fn the_client_credentials_grant_for_a_machine_client() {
    let provider = Provider::start(&[]);
    let notes = Notes::start(&provider.issuer());
    let oauth = machine(|o| o.issuer(provider.issuer()));
    let client = connect(&notes.url, oauth).await.unwrap();
    read_and_write(&client).await.unwrap();
    let tokens = provider.tokens();
    assert_eq!(tokens.len(), 1, "{tokens:?}");
    assert_eq!(
        tokens[0],
        (
            "client_credentials".into(),
            "machine".into(),
            "notes:read notes:write".into()
        )
    );
}

/// A CA, and a certificate it signed for `127.0.0.1`: PEM of the CA, the leaf and its key.
fn pki() -> (String, String, String) {
    let ca_key = rcgen::KeyPair::generate().unwrap();
    let mut ca = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    ca.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    ca.distinguished_name
        .push(rcgen::DnType::CommonName, "toolidl test CA");
    let ca_cert = ca.self_signed(&ca_key).unwrap();
    let issuer = rcgen::Issuer::new(ca, ca_key);
    let key = rcgen::KeyPair::generate().unwrap();
    let leaf = rcgen::CertificateParams::new(vec!["127.0.0.1".to_owned()])
        .unwrap()
        .signed_by(&key, &issuer)
        .unwrap();
    (ca_cert.pem(), leaf.pem(), key.serialize_pem())
}

/// Serves `document` at `https://127.0.0.1:PORT/client.json` until the test ends: the URL.
async fn serve_document(cert_pem: &str, key_pem: &str, document: Arc<Mutex<Value>>) -> String {
    use tokio_rustls::rustls;
    use tokio_rustls::rustls::pki_types::pem::PemObject;
    let certs = rustls::pki_types::CertificateDer::pem_slice_iter(cert_pem.as_bytes())
        .collect::<Result<Vec<_>, _>>()
        .unwrap();
    let key = rustls::pki_types::PrivateKeyDer::from_pem_slice(key_pem.as_bytes()).unwrap();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            let (acceptor, document) = (acceptor.clone(), Arc::clone(&document));
            tokio::spawn(async move {
                let Ok(tls) = acceptor.accept(tcp).await else {
                    return;
                };
                let service = hyper::service::service_fn(move |_| {
                    let body = document.lock().unwrap().to_string();
                    async move {
                        hyper::Response::builder()
                            .header("content-type", "application/json")
                            .body(body)
                    }
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(hyper_util::rt::TokioIo::new(tls), service)
                    .await;
            });
        }
    });
    format!("https://127.0.0.1:{port}/client.json")
}

#[tokio::test]
#[ignore = "needs Node and oidc-provider: run scripts/auth.sh"]
async fn a_client_id_metadata_document_identifies_the_client() {
    let (ca, cert, key) = pki();
    let dir = tempfile::tempdir().unwrap();
    let ca_file = dir.path().join("ca.pem");
    std::fs::write(&ca_file, &ca).unwrap();
    let document = Arc::new(Mutex::new(json!({})));
    let url = serve_document(&cert, &key, Arc::clone(&document)).await;
    let provider = Provider::start(&[
        ("NODE_EXTRA_CA_CERTS", ca_file.display().to_string()),
        ("PROVIDER_FETCH_LOOPBACK", "1".into()),
    ]);
    let notes = Notes::start(&provider.issuer());
    let (redirect, failures) = user().await;
    *document.lock().unwrap() = json!({
        "client_id": url,
        "client_name": "toolidl client test",
        "redirect_uris": [redirect.redirect_uri()],
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        "token_endpoint_auth_method": "none",
        "application_type": "native",
    });
    let store = Arc::new(MemoryTokenStore::new());
    let oauth = OAuth::authorization_code(redirect)
        .client_metadata_document(url.clone())
        .store(store.clone())
        .build();
    let client = HttpTransport::builder(&notes.url)
        .oauth(oauth)
        .connect()
        .await
        .unwrap_or_else(|e| panic!("{e}; the user: {:?}", failures.lock().unwrap()));
    call_tool(&client, "list_tags", json!({})).await.unwrap();
    assert_eq!(store.tokens(&notes.url).unwrap().client_id, url);
    assert_eq!(store.registration(&provider.issuer()), None);
    assert!(provider.tokens().iter().all(|t| t.1 == url));
}

// ---- refusals ----

/// The client-credentials client `machine`, as `configure` sets it up.
fn machine(configure: impl FnOnce(OAuthBuilder) -> OAuthBuilder) -> OAuth {
    configure(OAuth::client_credentials("machine", "machine-secret")).build()
}

/// Connects to `url` with `oauth`.
async fn connect(url: &str, oauth: OAuth) -> Result<HttpTransport, ClientError> {
    HttpTransport::builder(url).oauth(oauth).connect().await
}

fn refused(outcome: Result<HttpTransport, ClientError>, says: &str) {
    match outcome {
        Err(ClientError::Authorization(text)) => assert!(text.contains(says), "{text}"),
        Err(other) => panic!("expected an authorization error saying {says:?}, got {other}"),
        Ok(_) => panic!("expected an authorization error saying {says:?}, got a connection"),
    }
}

/// The provider issues tokens for another audience than the notes server: the client
/// refuses them before sending one.
#[tokio::test]
#[ignore = "needs Node and oidc-provider: run scripts/auth.sh"]
async fn a_token_for_another_audience_is_refused() {
    let provider = Provider::start(&[("PROVIDER_WRONG_AUDIENCE", "http://127.0.0.1".into())]);
    let notes = Notes::start(&provider.issuer());
    let outcome = connect(&notes.url, machine(|o| o)).await;
    refused(outcome, "is for \"https://elsewhere.example/mcp\"");
}

/// The notes server names `http://localhost:PORT` as its authorization server, whose
/// metadata says its issuer is `http://127.0.0.1:PORT`: the metadata is not used.
#[tokio::test]
#[ignore = "needs Node and oidc-provider: run scripts/auth.sh"]
async fn metadata_naming_another_issuer_is_not_used() {
    let provider = Provider::start(&[]);
    let named = format!("http://localhost:{}", provider.port);
    let notes = Notes::start(&named);
    let outcome = connect(&notes.url, machine(|o| o)).await;
    refused(
        outcome,
        &format!("names the issuer Some(\"{}\")", provider.issuer()),
    );
    assert!(provider.tokens().is_empty());
}

/// Pre-registered credentials bound to one issuer are not sent to another.
#[tokio::test]
#[ignore = "needs Node and oidc-provider: run scripts/auth.sh"]
async fn credentials_bound_to_an_issuer_go_nowhere_else() {
    let provider = Provider::start(&[]);
    let notes = Notes::start(&provider.issuer());
    let outcome = connect(&notes.url, machine(|o| o.issuer("https://as.example"))).await;
    refused(outcome, "registered with \"https://as.example\"");
    assert!(provider.tokens().is_empty());
}

/// A server whose protected resource metadata claims another server's resource (to have a
/// token for that one asked for and sent to it): refused before any token request.
#[tokio::test]
#[ignore = "needs Node and oidc-provider: run scripts/auth.sh"]
async fn a_server_claiming_another_resource_gets_no_token() {
    let provider = Provider::start(&[]);
    let notes = Notes::start(&provider.issuer());
    let impostor = impostor(&notes.url, &provider.issuer(), Arc::default()).await;
    let outcome = connect(&impostor, machine(|o| o)).await;
    refused(outcome, "describes the resource");
    assert!(provider.tokens().is_empty());
}

/// Tokens a store hands out for another server (a store keyed carelessly) are not sent:
/// the other server's requests go without them.
#[tokio::test]
#[ignore = "needs Node and oidc-provider: run scripts/auth.sh"]
async fn tokens_of_another_server_are_not_sent_to_it() {
    let provider = Provider::start(&[]);
    let notes = Notes::start(&provider.issuer());
    let store = Arc::new(MemoryTokenStore::new());
    let client = connect(&notes.url, machine(|o| o.store(store.clone())))
        .await
        .unwrap();
    call_tool(&client, "list_tags", json!({})).await.unwrap();
    let tokens = store.tokens(&notes.url).expect("tokens");
    let seen = Arc::new(Mutex::new(Vec::new()));
    let other = impostor(&notes.url, &provider.issuer(), Arc::clone(&seen)).await;
    let careless = Arc::new(Careless(tokens.clone()));
    let _ = connect(&other, machine(|o| o.store(careless))).await;
    let seen = seen.lock().unwrap().clone();
    assert!(!seen.is_empty());
    assert!(
        seen.iter().all(|a| !a.contains(&tokens.access_token)),
        "{seen:?}"
    );
}

/// A store that answers every endpoint with the same tokens.
struct Careless(Tokens);

impl TokenStore for Careless {
    fn tokens(&self, _: &str) -> Option<Tokens> {
        Some(self.0.clone())
    }
    fn set_tokens(&self, _: &str, _: Option<&Tokens>) {}
    fn registration(&self, _: &str) -> Option<Registration> {
        None
    }
    fn set_registration(&self, _: &str, _: &Registration) {}
}

/// An HTTP server that answers every MCP request 401, with protected resource metadata
/// claiming `resource` and the authorization server `issuer`; it keeps the
/// `Authorization` headers it gets. Its endpoint URL.
async fn impostor(resource: &str, issuer: &str, seen: Arc<Mutex<Vec<String>>>) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let metadata = json!({"resource": resource, "authorization_servers": [issuer]}).to_string();
    let challenge = format!(
        "Bearer resource_metadata=\"http://{addr}/.well-known/oauth-protected-resource/mcp\""
    );
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            let (metadata, challenge, seen) = (metadata.clone(), challenge.clone(), seen.clone());
            let service = hyper::service::service_fn(move |request: hyper::Request<_>| {
                let seen = Arc::clone(&seen);
                if let Some(a) = request.headers().get("authorization") {
                    seen.lock()
                        .unwrap()
                        .push(a.to_str().unwrap_or("").to_owned());
                } else {
                    seen.lock().unwrap().push(String::new());
                }
                let response = match request.uri().path().starts_with("/.well-known/") {
                    true => hyper::Response::builder()
                        .header("content-type", "application/json")
                        .body(metadata.clone()),
                    false => hyper::Response::builder()
                        .status(401)
                        .header("www-authenticate", challenge.clone())
                        .body(String::new()),
                };
                async move { response }
            });
            tokio::spawn(async move {
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(hyper_util::rt::TokioIo::new(tcp), service)
                    .await;
            });
        }
    });
    format!("http://{addr}/mcp")
}

/// A redirect whose answer is tampered with on its way back (a mix-up attacker): each
/// parameter named in `replace` gets the value given.
struct Tampered {
    inner: Arc<LoopbackRedirect>,
    replace: Vec<(&'static str, &'static str)>,
}

impl Redirect for Tampered {
    fn redirect_uri(&self) -> String {
        self.inner.redirect_uri()
    }

    fn authorize<'a>(&'a self, authorization_url: &'a str) -> RedirectFuture<'a> {
        Box::pin(async move {
            let mut answer = self.inner.authorize(authorization_url).await?;
            for (name, value) in &self.replace {
                answer.retain(|(n, _)| n != name);
                answer.push((name.to_string(), value.to_string()));
            }
            Ok(answer)
        })
    }
}

#[tokio::test]
#[ignore = "needs Node and oidc-provider: run scripts/auth.sh"]
async fn a_redirect_from_another_issuer_or_with_another_state_is_refused() {
    let provider = Provider::start(&[]);
    let notes = Notes::start(&provider.issuer());
    for (replace, says) in [
        (("iss", "https://evil.example"), "a mix-up"),
        (("state", "forged"), "`state` is not the one sent"),
    ] {
        let (inner, _) = user().await;
        let redirect = Arc::new(Tampered {
            inner,
            replace: vec![replace],
        });
        let oauth = OAuth::authorization_code(redirect)
            .client("app", None)
            .build();
        let outcome = HttpTransport::builder(&notes.url)
            .oauth(oauth)
            .connect()
            .await;
        refused(outcome, says);
    }
    // No code was exchanged.
    assert!(provider.tokens().is_empty(), "{:?}", provider.tokens());
}

// ---- toolidl import --url ----

/// `toolidl import --url URL --login`: the command prints the authorization URL, the
/// test plays the user, and the listing of the protected server is imported; then with a
/// token given by `--bearer`.
#[tokio::test]
#[ignore = "needs Node and oidc-provider: run scripts/auth.sh"]
async fn toolidl_import_reads_a_protected_server() {
    let provider = Provider::start(&[]);
    let notes = Notes::start(&provider.issuer());
    let cli = env("TOOLIDL_CLI");
    let mut child = tokio::process::Command::new(&cli)
        .args([
            "import",
            "--url",
            &notes.url,
            "--login",
            "--client-id",
            "app",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let mut lines = tokio::io::AsyncBufReadExt::lines(tokio::io::BufReader::new(stderr));
    let mut said = Vec::new();
    while let Some(line) = lines.next_line().await.unwrap() {
        said.push(line.clone());
        if let Some(url) = line.trim().strip_prefix("http") {
            play_user(&format!("http{url}")).await.unwrap();
            break;
        }
    }
    let out = tokio::time::timeout(Duration::from_secs(60), child.wait_with_output())
        .await
        .unwrap()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said:?} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("tool create_note("), "{stdout}");
    // A token got elsewhere (the client-credentials grant here), given with --bearer.
    let token = client_credentials_token(&provider, &notes.url).await;
    let out = Command::new(&cli)
        .args(["import", "--url", &notes.url, "--bearer", &token])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("tool list_tags("));
    // Without either, the command says what the server wants.
    let out = Command::new(&cli)
        .args(["import", "--url", &notes.url])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("requires authorization"), "{stderr}");
}

/// A client-credentials token for `resource`, straight from the token endpoint.
async fn client_credentials_token(provider: &Provider, resource: &str) -> String {
    let response = reqwest::Client::new()
        .post(format!("{}/token", provider.issuer()))
        .basic_auth("machine", Some("machine-secret"))
        .form(&[
            ("grant_type", "client_credentials"),
            ("scope", "notes:read notes:write"),
            ("resource", resource),
        ])
        .send()
        .await
        .unwrap();
    let body: Value = serde_json::from_str(&response.text().await.unwrap()).unwrap();
    body["access_token"].as_str().unwrap().to_owned()
}
