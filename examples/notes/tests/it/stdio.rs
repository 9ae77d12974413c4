//! The binary itself over stdio: the handshake, calls answered line for line, a malformed
//! line answered with a JSON-RPC error while the server goes on, and exit status 0 at the end
//! of input. The tools' behaviour is tested in process (`tools.rs`).

use crate::common;

use common::Client;
use serde_json::json;

#[test]
fn the_binary_serves_stdio_until_end_of_input() {
    let mut c = Client::start(&[]);
    let note = c.ok("create_note", json!({"title": "over stdio"}));
    assert_eq!(note["id"], 1);
    c.send_line("{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": ");
    let reply = c.wait_for(|m| m["error"].is_object() && m.get("method").is_none());
    assert_eq!(reply["error"]["code"], -32700, "{reply}");
    assert_eq!(
        c.ok("get_note", json!({"id": 1}))["title"],
        "over stdio",
        "the server went on after the malformed line"
    );
    assert!(c.finish().success());
}
