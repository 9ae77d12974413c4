//! `toolidl import`: a `.tool` file from a server's listings.
//!
//! - Round trip: for every `.tool` file of the repository that `toolidl schema` accepts (the
//!   goldens, the reference servers, the examples), importing its listing gives a file whose
//!   listing is byte for byte the original's, in the standard and the `--hoist-shared` forms.
//! - Foreign schemas: the originals of the six reference servers (`tests/golden/servers`,
//!   written by zod, pydantic and by hand) imported as they are published. The imported
//!   file's schema accepts and refuses each instance of `<server>.instances.json` as the
//!   original does, except the differences `tests/golden/import/<server>.differences.json`
//!   lists (each says why; closing a gap makes the test say so). The imported files and their
//!   warnings are golden files (`tests/golden/import/<server>.tool` and `.warnings.txt`,
//!   rewritten with `TOOLIDL_BLESS=1`).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Map, Value, json};

// Shared with the schema goldens; this test does not compare listings with golden files.
use crate::support;
use support::{first_difference, invalid_instances, list, validator};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn toolidl(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_toolidl"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn stdout_of(args: &[&str], dir: &Path) -> String {
    let output = toolidl(args, dir);
    assert!(
        output.status.success(),
        "toolidl {args:?} failed ({:?}):\n{}",
        output.status.code(),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// Every `.tool` file a round trip applies to: those `toolidl schema` accepts.
fn tool_files() -> Vec<PathBuf> {
    let mut dirs = vec![
        root().join("tests/golden/schema"),
        root().join("tests/golden/codegen"),
        root().join("tests/golden/servers"),
    ];
    for example in fs::read_dir(root().join("examples")).unwrap() {
        dirs.push(example.unwrap().path().join("tools"));
    }
    let mut files = Vec::new();
    for dir in dirs {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "tool") {
                files.push(path);
            }
        }
    }
    files.sort();
    assert!(files.len() > 40, "found only {} files", files.len());
    files
}

/// Imports `listing` (written to a scratch file) and returns the file and the stderr text.
fn import(listing: &str, name: &str, scratch: &Path) -> (PathBuf, String) {
    let input = scratch.join(format!("{name}.json"));
    let output = scratch.join(format!("{name}.tool"));
    fs::write(&input, listing).unwrap();
    let result = toolidl(
        &[
            "import",
            input.to_str().unwrap(),
            "-o",
            output.to_str().unwrap(),
        ],
        scratch,
    );
    assert!(
        result.status.success(),
        "toolidl import {name}.json failed ({:?}):\n{}",
        result.status.code(),
        String::from_utf8_lossy(&result.stderr)
    );
    (output, String::from_utf8(result.stderr).unwrap())
}

#[test]
fn importing_a_listing_gives_a_file_with_the_same_listing() {
    let scratch = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    let mut checked = 0;
    for file in tool_files() {
        let dir = file.parent().unwrap();
        let file_name = file.file_name().unwrap().to_str().unwrap();
        let probe = toolidl(&["schema", file_name], dir);
        if !probe.status.success() {
            // A file that imports another from outside its folder, or one `schema` refuses.
            continue;
        }
        for flags in [&[][..], &["--hoist-shared"][..]] {
            let mut args = vec!["schema", file_name];
            args.extend_from_slice(flags);
            let original = stdout_of(&args, dir);
            let stem = format!(
                "{}-{}{}",
                dir.parent().unwrap().file_name().unwrap().to_str().unwrap(),
                file.file_stem().unwrap().to_str().unwrap(),
                if flags.is_empty() { "" } else { "-hoisted" }
            );
            let (imported, _) = import(&original, &stem, scratch.path());
            let mut args = vec!["schema", imported.to_str().unwrap()];
            args.extend_from_slice(flags);
            let again = stdout_of(&args, scratch.path());
            if again != original {
                failures.push(format!(
                    "{} {flags:?}: the imported file's listing differs, {}\n--- imported file:\n{}",
                    file.display(),
                    first_difference(&again, &original),
                    fs::read_to_string(&imported).unwrap()
                ));
            }
            checked += 1;
        }
    }
    assert!(checked > 80, "only {checked} listings checked");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

const SERVERS: [&str; 6] = ["fetch", "filesystem", "github", "memory", "sentry", "time"];

fn read_json(path: &Path) -> Map<String, Value> {
    let text = fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{} cannot be read: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Compares `actual` with the golden file `path`, or writes it with `TOOLIDL_BLESS=1`.
fn golden(path: &Path, actual: &str, failures: &mut Vec<String>) {
    if std::env::var_os("TOOLIDL_BLESS").is_some_and(|v| v == "1") {
        fs::write(path, actual).unwrap();
        return;
    }
    let expected = fs::read_to_string(path).unwrap_or_default();
    if actual != expected {
        failures.push(format!(
            "{} differs, {}",
            path.display(),
            first_difference(actual, &expected)
        ));
    }
}

/// The original's validator, in the draft its `$schema` names.
fn original_validator(schema: &Value) -> jsonschema::Validator {
    match schema.get("$schema").and_then(Value::as_str) {
        Some("http://json-schema.org/draft-07/schema#") => jsonschema::draft7::options()
            .should_validate_formats(true)
            .build(schema)
            .unwrap(),
        _ => validator(schema).unwrap(),
    }
}

#[test]
fn imported_foreign_schemas_accept_and_refuse_what_the_originals_do() {
    let servers = root().join("tests/golden/servers");
    let goldens = root().join("tests/golden/import");
    let scratch = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for server in SERVERS {
        let originals = read_json(&servers.join(format!("{server}.original.json")));
        let instances = read_json(&servers.join(format!("{server}.instances.json")));
        let tools: Vec<Value> = originals
            .iter()
            .map(|(name, schema)| json!({"name": name, "inputSchema": schema}))
            .collect();
        let listing = serde_json::to_string_pretty(&json!({ "tools": tools })).unwrap();
        let (imported, warnings) = import(&listing, server, scratch.path());
        golden(
            &goldens.join(format!("{server}.tool")),
            &fs::read_to_string(&imported).unwrap(),
            &mut failures,
        );
        golden(
            &goldens.join(format!("{server}.warnings.txt")),
            &warnings,
            &mut failures,
        );
        let published: Value = serde_json::from_str(&stdout_of(
            &["schema", imported.to_str().unwrap()],
            scratch.path(),
        ))
        .unwrap();
        let differences_path = goldens.join(format!("{server}.differences.json"));
        let differences = if differences_path.exists() {
            read_json(&differences_path)
        } else {
            Map::new()
        };
        for tool in published["tools"].as_array().unwrap() {
            let name = tool["name"].as_str().unwrap();
            let label = format!("{server}/{name}");
            let ours = validator(&tool["inputSchema"]).unwrap();
            let Some(original) = originals.get(name) else {
                failures.push(format!(
                    "{label}: the import lists a tool the original does not"
                ));
                continue;
            };
            let original = original_validator(original);
            let spec = instances[name].as_object().unwrap();
            let documented: Vec<&Value> = differences
                .get(name)
                .and_then(Value::as_array)
                .map(|d| d.iter().map(|e| &e["instance"]).collect())
                .unwrap_or_default();
            let expected = list(spec, "valid")
                .iter()
                .cloned()
                .map(|i| (i, true))
                .chain(invalid_instances(spec).into_iter().map(|i| (i, false)))
                .chain(
                    list(spec, "differences")
                        .iter()
                        .map(|d| (d["instance"].clone(), d["original"].as_bool().unwrap())),
                );
            for (instance, accepted) in expected {
                assert_eq!(
                    original.is_valid(&instance),
                    accepted,
                    "{label}: {instance}"
                );
                let ours = ours.is_valid(&instance);
                let listed = documented.contains(&&instance);
                if ours != accepted && !listed {
                    failures.push(format!(
                        "{label}: {instance}: the original {} it, the import {} it (fix the import, or list it in {server}.differences.json with why)",
                        if accepted { "accepts" } else { "refuses" },
                        if ours { "accepts" } else { "refuses" },
                    ));
                }
                if ours == accepted && listed {
                    failures.push(format!(
                        "{label}: {instance} is listed as a difference, but the import agrees with the original now (remove it from {server}.differences.json)"
                    ));
                }
            }
            for entry in differences
                .get(name)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                assert!(
                    entry["why"].as_str().is_some_and(|w| !w.is_empty()),
                    "{label}: a difference says why"
                );
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn what_is_not_a_listing_is_refused_and_nothing_is_written() {
    let scratch = tempfile::tempdir().unwrap();
    let out = scratch.path().join("out.tool");
    for (name, text, message) in [
        ("garbage", "not json", "is not JSON"),
        ("number", "42", "not a listing"),
        ("empty", "{}", "not a listing"),
        ("tools", r#"{"tools": 3}"#, "`tools` is not an array"),
        (
            "nameless",
            r#"{"tools": [{"inputSchema": {"type": "object"}}]}"#,
            "a tool has no `name`",
        ),
    ] {
        let input = scratch.path().join(format!("{name}.json"));
        fs::write(&input, text).unwrap();
        let result = toolidl(
            &[
                "import",
                input.to_str().unwrap(),
                "-o",
                out.to_str().unwrap(),
            ],
            scratch.path(),
        );
        assert_eq!(result.status.code(), Some(1), "{name}");
        let stderr = String::from_utf8_lossy(&result.stderr);
        assert!(stderr.contains(message), "{name}: {stderr}");
        assert!(!out.exists(), "{name}: nothing is written");
    }
}

/// The fixture server of the `--url` test: two tools (one with a nested record and an
/// enum), a resource, a template and a prompt.
mod fixture {
    use std::sync::Arc;

    use toolidl_runtime::codegen::{
        Arguments, BoxFuture, ListingDef, RequestContext, Service, ToolDef, ToolResult,
    };
    use toolidl_runtime::{Server, ToolOutput};

    static TOOLS: [ToolDef; 2] = [
        ToolDef::new(
            "forecast",
            r#"{"name":"forecast","title":"Forecast","description":"The weather of a place.","inputSchema":{"type":"object","properties":{"place":{"type":"object","properties":{"city":{"type":"string","minLength":1},"country":{"type":"string"}},"required":["city"],"additionalProperties":false},"units":{"type":"string","enum":["metric","imperial"]},"days":{"type":"integer","minimum":1,"maximum":7}},"required":["place"],"additionalProperties":false},"annotations":{"readOnlyHint":true}}"#,
        ),
        ToolDef::new(
            "ping",
            r#"{"name":"ping","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}"#,
        ),
    ];
    static RESOURCES: [ListingDef; 1] = [ListingDef::new(
        r#"{"uri":"mem://readme","name":"readme","mimeType":"text/plain"}"#,
    )];
    static TEMPLATES: [ListingDef; 1] = [ListingDef::new(
        r#"{"uriTemplate":"mem://notes/{id}","name":"note","mimeType":"text/markdown"}"#,
    )];
    static PROMPTS: [ListingDef; 1] = [ListingDef::new(
        r#"{"name":"summarize","description":"Summarizes a city.","arguments":[{"name":"city","required":true}]}"#,
    )];

    struct Fixture;

    impl Service for Fixture {
        fn tools(&self) -> &[ToolDef] {
            &TOOLS
        }
        fn call_tool(
            self: Arc<Self>,
            _: &str,
            _: Arguments<'_>,
            _: RequestContext,
        ) -> BoxFuture<ToolResult> {
            Box::pin(async { Ok(ToolOutput::Empty) })
        }
        fn resources(&self) -> &[ListingDef] {
            &RESOURCES
        }
        fn resource_templates(&self) -> &[ListingDef] {
            &TEMPLATES
        }
        fn prompts(&self) -> &[ListingDef] {
            &PROMPTS
        }
    }

    pub fn server() -> Server {
        Server::builder("weather_fixture", "1.0.0")
            .service(Arc::new(Fixture))
            .build()
    }
}

/// Set in the environment of the test process re-run as the fixture's stdio server.
const SERVE_STDIO: &str = "TOOLIDL_IMPORT_FIXTURE_STDIO";

/// Not a test of its own: [`a_server_read_over_http_imports_as_over_stdio`] runs this test
/// binary again with only this test and [`SERVE_STDIO`] set, as the stdio server. The
/// test harness prints on stdout, so the shell moves it to stderr and hands the pipe to
/// the server as file descriptor 3.
#[cfg(target_os = "linux")]
#[test]
fn fixture_server_on_stdio() {
    if std::env::var_os(SERVE_STDIO).is_none() {
        return;
    }
    let output = fs::OpenOptions::new()
        .write(true)
        .open("/dev/fd/3")
        .unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let config = toolidl_runtime::stdio::StdioConfig::default();
    let serve =
        toolidl_runtime::transport::serve_io(fixture::server(), std::io::stdin(), output, config);
    runtime.block_on(serve).unwrap();
}

#[cfg(target_os = "linux")]
#[test]
fn a_server_read_over_http_imports_as_over_stdio() {
    let scratch = tempfile::tempdir().unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (addr, stop) = runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let config = toolidl_runtime::http::HttpConfig::new();
        let http =
            toolidl_runtime::http::HttpServer::from_listener(fixture::server(), listener, config)
                .unwrap();
        let addr = http.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        tokio::spawn(http.run_until(async {
            let _ = stopped.await;
        }));
        (addr, stop)
    });
    let url = format!("http://{addr}/mcp");
    let over_http = scratch.path().join("http.tool");
    let listing = scratch.path().join("http.json");
    let read = toolidl(
        &[
            "import",
            "--url",
            &url,
            "--save-listing",
            listing.to_str().unwrap(),
            "-o",
            over_http.to_str().unwrap(),
        ],
        scratch.path(),
    );
    assert!(
        read.status.success(),
        "{}",
        String::from_utf8_lossy(&read.stderr)
    );

    let me = std::env::current_exe().unwrap();
    let over_stdio = scratch.path().join("stdio.tool");
    let read = Command::new(env!("CARGO_BIN_EXE_toolidl"))
        .args([
            "import",
            "-o",
            over_stdio.to_str().unwrap(),
            "--",
            "sh",
            "-c",
        ])
        .arg(r#"exec "$0" --exact import_cli::fixture_server_on_stdio --nocapture --test-threads=1 3>&1 1>&2"#)
        .arg(&me)
        .env(SERVE_STDIO, "1")
        .current_dir(scratch.path())
        .output()
        .unwrap();
    assert!(
        read.status.success(),
        "{}",
        String::from_utf8_lossy(&read.stderr)
    );

    let (http_text, stdio_text) = (
        fs::read_to_string(&over_http).unwrap(),
        fs::read_to_string(&over_stdio).unwrap(),
    );
    assert_eq!(
        http_text,
        stdio_text,
        "{}",
        first_difference(&http_text, &stdio_text)
    );
    // The package is the server's name, and every list was read.
    assert!(
        http_text.starts_with("package weather_fixture"),
        "{http_text}"
    );
    let saved: Value = serde_json::from_str(&fs::read_to_string(&listing).unwrap()).unwrap();
    for key in ["tools", "resources", "resourceTemplates", "prompts"] {
        assert!(
            saved[key].as_array().is_some_and(|l| !l.is_empty()),
            "{key}: {saved}"
        );
    }
    let _ = stop.send(());
}

#[test]
fn a_url_nothing_listens_at_is_an_error_naming_it() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    drop(listener);
    let scratch = tempfile::tempdir().unwrap();
    let read = toolidl(&["import", "--url", &url], scratch.path());
    assert_eq!(read.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&read.stderr);
    assert!(
        stderr.contains(&url) && stderr.contains("cannot connect"),
        "{stderr}"
    );
}

/// Serves the fixture over TLS (a certificate for `localhost` that a CA made here signed)
/// on a loopback port: the endpoint's URL and the CA's PEM. The server runs on `runtime`.
fn serve_tls(runtime: &tokio::runtime::Runtime) -> (String, String) {
    use tokio_rustls::rustls;
    let ca_key = rcgen::KeyPair::generate().unwrap();
    let mut ca = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    ca.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    let ca_cert = ca.self_signed(&ca_key).unwrap();
    let issuer = rcgen::Issuer::new(ca, ca_key);
    let key = rcgen::KeyPair::generate().unwrap();
    let cert = rcgen::CertificateParams::new(vec!["localhost".to_owned()])
        .unwrap()
        .signed_by(&key, &issuer)
        .unwrap();
    let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(
            vec![cert.der().clone()],
            rustls::pki_types::PrivateKeyDer::Pkcs8(key.serialize_der().into()),
        )
        .unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(std::sync::Arc::new(config));
    let _in_runtime = runtime.enter();
    let mcp = toolidl_runtime::http::McpService::new(
        fixture::server(),
        toolidl_runtime::http::HttpConfig::new(),
    );
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let port = listener.local_addr().unwrap().port();
    runtime.spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            let (acceptor, mcp) = (acceptor.clone(), mcp.clone());
            tokio::spawn(async move {
                let Ok(tls) = acceptor.accept(tcp).await else {
                    return;
                };
                let service = hyper::service::service_fn(move |request| {
                    let mut mcp = mcp.clone();
                    async move { tower_service::Service::call(&mut mcp, request).await }
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(hyper_util::rt::TokioIo::new(tls), service)
                    .await;
            });
        }
    });
    (format!("https://localhost:{port}/mcp"), ca_cert.pem())
}

/// `--url https://…`: a certificate a private CA signed is refused until the CA is trusted,
/// through SSL_CERT_FILE or --ca-cert.
#[test]
fn a_server_over_https_is_imported_once_its_ca_is_trusted() {
    let scratch = tempfile::tempdir().unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (url, ca) = serve_tls(&runtime);
    let ca_file = scratch.path().join("ca.pem");
    fs::write(&ca_file, ca).unwrap();
    let untrusted = toolidl(&["import", "--url", &url], scratch.path());
    assert_eq!(untrusted.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&untrusted.stderr);
    assert!(
        stderr.contains(&url) && stderr.contains("certificate"),
        "{stderr}"
    );
    let by_env = Command::new(env!("CARGO_BIN_EXE_toolidl"))
        .args(["import", "--url", &url])
        .env("SSL_CERT_FILE", &ca_file)
        .current_dir(scratch.path())
        .output()
        .unwrap();
    let by_flag = toolidl(
        &[
            "import",
            "--url",
            &url,
            "--ca-cert",
            ca_file.to_str().unwrap(),
        ],
        scratch.path(),
    );
    for read in [by_env, by_flag] {
        assert!(
            read.status.success(),
            "{}",
            String::from_utf8_lossy(&read.stderr)
        );
        let text = String::from_utf8_lossy(&read.stdout);
        assert!(text.starts_with("package weather_fixture"), "{text}");
    }
}

/// `--url http://…` goes through the proxy HTTP_PROXY names: a relay that counts the
/// connections it forwards to the server (a plain HTTP proxy gets the request in absolute
/// form, which the server reads as well).
#[test]
fn a_server_is_reached_through_the_proxy_of_the_environment() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let scratch = tempfile::tempdir().unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let proxied = std::sync::Arc::new(AtomicUsize::new(0));
    let count = std::sync::Arc::clone(&proxied);
    let (server, proxy) = runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let config = toolidl_runtime::http::HttpConfig::new();
        let http =
            toolidl_runtime::http::HttpServer::from_listener(fixture::server(), listener, config)
                .unwrap();
        let server = http.local_addr().unwrap();
        tokio::spawn(http.run_until(std::future::pending()));
        let relay = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let proxy = relay.local_addr().unwrap();
        tokio::spawn(async move {
            while let Ok((mut inbound, _)) = relay.accept().await {
                count.fetch_add(1, Ordering::SeqCst);
                tokio::spawn(async move {
                    let mut outbound = tokio::net::TcpStream::connect(server).await.unwrap();
                    let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                });
            }
        });
        (server, proxy)
    });
    let read = Command::new(env!("CARGO_BIN_EXE_toolidl"))
        .args(["import", "--url", &format!("http://{server}/mcp")])
        .env("HTTP_PROXY", format!("http://{proxy}"))
        .env_remove("NO_PROXY")
        .env_remove("no_proxy")
        .current_dir(scratch.path())
        .output()
        .unwrap();
    assert!(
        read.status.success(),
        "{}",
        String::from_utf8_lossy(&read.stderr)
    );
    assert!(proxied.load(Ordering::SeqCst) >= 1);
}
