//! Calls per second through `client::HttpTransport` against examples/weather's server in
//! this process (its own thread and runtime), `tools/call add` one after the other, each
//! sum checked.

use std::time::Instant;

use serde_json::json;
use toolidl_runtime::client::{HttpTransport, call_tool};
use toolidl_runtime::http::{HttpConfig, HttpServer};
use toolidl_runtime::protocol::Revision;

fn main() {
    let calls: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(5_000);
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
            addr_tx.send(http.local_addr().expect("addr")).expect("send");
            http.run_until(std::future::pending()).await.expect("run");
        });
    });
    let addr = addr_rx.recv().expect("the server's address");
    let url = format!("http://{addr}/mcp");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        for (name, revision) in [("2026-07-28", Revision::V2026_07_28), ("2025-11-25 session", Revision::V2025_11_25)] {
            let transport = HttpTransport::builder(&url).revision(revision).connect().await.expect("connect");
            run(&format!("http {name}"), &transport, calls / 10).await;
            let start = Instant::now();
            run(&format!("http {name}"), &transport, calls).await;
            let secs = start.elapsed().as_secs_f64();
            println!("{:<32} {:>8.0} calls/s ({calls} calls, {:.1} µs each)", format!("http {name}"), calls as f64 / secs, secs * 1e6 / calls as f64);
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
