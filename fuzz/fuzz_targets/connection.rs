//! `Connection::handle_bytes` on any bytes, one message per line, as the stdio transport
//! feeds it: on a fresh connection (no `initialize` yet) and on one the target initialized
//! (2025-11-25), of the generated server in src/lib.rs. Spawned calls run on the paused
//! clock until they end or `SETTLE` passes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolidl_fuzz::{SETTLE, runtime, server};
use toolidl_runtime::transport::Connection;

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{},"sampling":{},"roots":{}},"clientInfo":{"name":"fuzz","version":"0"}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

fuzz_target!(|data: &[u8]| {
    let server = server();
    let rt = runtime();
    rt.block_on(async {
        for initialized in [false, true] {
            let (connection, mut outbox) = Connection::new(&server, rt.handle().clone());
            if initialized {
                connection.handle_line(INITIALIZE);
                connection.handle_line(INITIALIZED);
                assert!(
                    connection.negotiated_revision().is_some(),
                    "the target's initialize negotiated nothing"
                );
            }
            for line in data.split(|&b| b == b'\n') {
                connection.handle_bytes(line);
                while outbox.try_recv().is_ok() {}
            }
            tokio::time::sleep(SETTLE).await;
            while outbox.try_recv().is_ok() {}
        }
    });
});
