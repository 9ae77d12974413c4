//! `toolidl lsp` on frames that break the base protocol (docs/lsp.md, "Malformed
//! messages"): each bad frame is answered with a JSON-RPC error, or skipped, and the request
//! sent after it is served. The oversized `Content-Length` is refused without allocating it,
//! and the server's peak memory stays under 100 MiB while the bytes it declared stream past.

use crate::lsp_client as client;

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use client::Client;
use serde_json::{Value, json};

fn start() -> Client {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/golden/lsp/workspace");
    Client::start_binary(Path::new(env!("CARGO_BIN_EXE_toolidl")), &root, json!({}))
}

/// A frame as a client writes it.
fn frame(body: &[u8]) -> Vec<u8> {
    let mut bytes = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    bytes.extend_from_slice(body);
    bytes
}

/// Sends `bad`, then a hover request, and asserts the request is served (an unknown document
/// has no hover: `null`). Returns what else the server sent in between: the answers to `bad`.
fn then_served(c: &mut Client, bad: &[u8]) -> Vec<Value> {
    c.send_raw(bad);
    let uri = c.uri("nowhere.tool");
    let answer = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}),
    );
    assert_eq!(answer["result"], Value::Null, "{answer}");
    assert!(answer.get("error").is_none(), "{answer}");
    c.take_pending()
}

/// The one error the server answered, with its code and id.
fn one_error(answers: &[Value], code: i64, id: Value) -> String {
    assert_eq!(answers.len(), 1, "expected one error answer: {answers:?}");
    let answer = &answers[0];
    assert_eq!(answer["jsonrpc"], "2.0", "{answer}");
    assert_eq!(answer["id"], id, "{answer}");
    assert_eq!(answer["error"]["code"], code, "{answer}");
    assert!(answer.get("result").is_none(), "{answer}");
    answer["error"]["message"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;

#[test]
fn a_body_that_is_not_json_is_a_parse_error() {
    let mut c = start();
    let answers = then_served(&mut c, b"Content-Length: 5\r\n\r\n{oops");
    let message = one_error(&answers, PARSE_ERROR, Value::Null);
    assert!(message.contains("not JSON"), "{message}");
    c.shutdown();
}

#[test]
fn a_header_without_content_length_is_a_parse_error() {
    let mut c = start();
    let bad = b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":50,\"method\":\"shutdown\"}";
    let answers = then_served(&mut c, bad);
    let message = one_error(&answers, PARSE_ERROR, Value::Null);
    assert!(message.contains("no Content-Length"), "{message}");
    c.shutdown();
}

#[test]
fn a_content_length_that_is_not_a_number_is_a_parse_error() {
    for length in ["abc", "-5", "5x", "", "0x10", "+5", "1 2"] {
        let mut c = start();
        let bad = format!("Content-Length: {length}\r\n\r\n{{}}");
        let answers = then_served(&mut c, bad.as_bytes());
        let message = one_error(&answers, PARSE_ERROR, Value::Null);
        assert!(message.contains("not a number"), "{length:?}: {message}");
        c.shutdown();
    }
}

#[test]
fn a_body_that_is_not_utf8_is_a_parse_error() {
    let mut c = start();
    let answers = then_served(&mut c, &frame(b"{\"a\":\"\xff\xfe\"}"));
    let message = one_error(&answers, PARSE_ERROR, Value::Null);
    assert!(message.contains("UTF-8"), "{message}");
    c.shutdown();
}

#[test]
fn json_that_is_not_a_message_is_an_invalid_request() {
    let mut c = start();
    // Not an object, an object that is no message, a method that is not a string: id null.
    for body in [
        &b"[1, 2]"[..],
        b"{\"foo\": \"boo\"}",
        b"{\"jsonrpc\":\"2.0\",\"method\":1,\"params\":\"bar\"}",
        b"null",
    ] {
        let answers = then_served(&mut c, &frame(body));
        one_error(&answers, INVALID_REQUEST, Value::Null);
    }
    // A request whose id is readable gets its error under that id, even one outside the
    // 32-bit integers LSP allows.
    let answers = then_served(
        &mut c,
        &frame(b"{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"method\":7}"),
    );
    one_error(&answers, INVALID_REQUEST, json!("x"));
    let answers = then_served(
        &mut c,
        &frame(b"{\"jsonrpc\":\"2.0\",\"id\":4294967296,\"method\":\"textDocument/hover\"}"),
    );
    let message = one_error(&answers, INVALID_REQUEST, json!(4294967296u64));
    assert!(message.contains("32-bit"), "{message}");
    // A response of the client's that cannot be read is not answered (JSON-RPC answers no
    // response): the next request alone is.
    let answers = then_served(
        &mut c,
        &frame(b"{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"x\"}}"),
    );
    assert_eq!(answers, Vec::<Value>::new());
    c.shutdown();
}

#[test]
fn header_fields_other_than_content_length_are_ignored() {
    let mut c = start();
    // Any case, no space after the colon, unknown fields, Content-Type in either spelling of
    // the charset: served as is, nothing else answered.
    let uri = c.uri("nowhere.tool");
    let body = json!({"jsonrpc": "2.0", "id": 900, "method": "textDocument/hover",
        "params": {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}})
    .to_string();
    let bad = format!(
        "X-Trace:1\r\ncontent-type: application/vscode-jsonrpc; charset=utf8\r\nCONTENT-LENGTH:{}\r\nX-Other: a: b\r\n\r\n{body}",
        body.len()
    );
    let answers = then_served(&mut c, bad.as_bytes());
    assert_eq!(answers.len(), 1, "{answers:?}");
    assert_eq!(answers[0]["id"], 900, "{answers:?}");
    assert_eq!(answers[0]["result"], Value::Null, "{answers:?}");
    c.shutdown();
}

#[test]
fn a_header_line_without_a_colon_is_a_parse_error() {
    let mut c = start();
    let answers = then_served(&mut c, b"Content-Length: 2\r\nnonsense\r\n\r\n{}");
    let message = one_error(&answers, PARSE_ERROR, Value::Null);
    assert!(message.contains("header line"), "{message}");
    c.shutdown();
}

#[test]
fn a_header_that_never_ends_is_refused_at_its_cap() {
    let mut c = start();
    // 128 MiB with no line end, more than the 100 MiB the server may grow to: the server
    // refuses the header at 4 KiB and drops the rest as it arrives.
    c.send_raw(b"X-Long: ");
    stream_128_mib(&mut c, b'a');
    let answers = then_served(&mut c, b"");
    let message = one_error(&answers, PARSE_ERROR, Value::Null);
    assert!(message.contains("longer than 4096 bytes"), "{message}");
    assert_peak_under_100_mib(&c);
    c.shutdown();
}

#[test]
fn a_client_that_declares_fewer_bytes_than_it_sends_loses_no_later_message() {
    let mut c = start();
    // 10 bytes declared, 41 sent: the rest of the body and the next frame's header read as
    // one header, which has no Content-Length of its own; the server finds the next frame's
    // inside it.
    let answers = then_served(&mut c, &lying_frame(10));
    assert_eq!(answers.len(), 2, "{answers:?}");
    assert!(
        answers.iter().all(|a| a["error"]["code"] == PARSE_ERROR),
        "{answers:?}"
    );
    c.shutdown();
}

#[test]
fn a_client_that_declares_more_bytes_than_it_sends_loses_no_later_message() {
    let mut c = start();
    // 100 bytes declared, 41 sent: the rest of the body is the next frame's start. The
    // server reads 100 bytes that are no JSON and reads the next frame again from its header.
    let answers = then_served(&mut c, &lying_frame(100));
    one_error(&answers, PARSE_ERROR, Value::Null);
    c.shutdown();
}

#[test]
fn an_oversized_content_length_is_refused_without_allocating_it() {
    let mut c = start();
    // The length the issue reported (the old reader allocated it: 9.5 GiB), then 128 MiB
    // of the body it declares, more than the 100 MiB the server may grow to: the server
    // drops them as they arrive and serves the request after them.
    c.send_raw(
        b"Content-Length: 10000000000\r\n\r\n{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":\"",
    );
    stream_128_mib(&mut c, b'x');
    let answers = then_served(&mut c, b"\"}");
    let message = one_error(&answers, PARSE_ERROR, Value::Null);
    assert!(message.contains("10000000000"), "{message}");
    assert!(message.contains("4194304"), "{message}");
    assert_peak_under_100_mib(&c);
    // A length past u64 is as oversized.
    let answers = then_served(&mut c, b"Content-Length: 99999999999999999999999\r\n\r\n");
    one_error(&answers, PARSE_ERROR, Value::Null);
    // The largest length allowed is read.
    let uri = c.uri("nowhere.tool");
    let mut body = json!({"jsonrpc": "2.0", "id": 901, "method": "textDocument/hover",
        "params": {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}})
    .to_string()
    .into_bytes();
    body.resize(4 << 20, b' ');
    let answers = then_served(&mut c, &frame(&body));
    assert_eq!(answers.len(), 1, "{answers:?}");
    assert_eq!(answers[0]["id"], 901, "{answers:?}");
    assert_peak_under_100_mib(&c);
    c.shutdown();
}

/// A 41-byte notification under a header that declares `length` bytes.
fn lying_frame(length: usize) -> Vec<u8> {
    let mut bytes = format!("Content-Length: {length}\r\n\r\n").into_bytes();
    bytes.extend_from_slice(br#"{"jsonrpc":"2.0","method":"initialized"}"#);
    bytes
}

/// Sends 128 MiB of `byte`: more than the 100 MiB the server may grow to.
fn stream_128_mib(c: &mut Client, byte: u8) {
    let chunk = vec![byte; 1 << 20];
    for _ in 0..128 {
        c.send_raw(&chunk);
    }
}

fn assert_peak_under_100_mib(c: &Client) {
    let peak = peak_memory(c.pid());
    assert!(peak < 100 << 20, "toolidl lsp peaked at {} MiB", peak >> 20);
}

/// The peak resident set of process `pid` (`VmHWM`, Linux), in bytes.
fn peak_memory(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .unwrap_or_else(|| panic!("no VmHWM in {status}"));
    let kib: u64 = line
        .trim_start_matches("VmHWM:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .unwrap();
    kib * 1024
}

#[test]
fn the_end_of_input_after_bad_frames_ends_the_server_cleanly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolidl"))
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut input = Vec::new();
    input.extend(frame(
        br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#,
    ));
    input.extend(frame(
        br#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#,
    ));
    input.extend_from_slice(b"Content-Length: 5\r\n\r\n{oops");
    input.extend_from_slice(b"Content-Length: 10000000000\r\n\r\n");
    stdin.write_all(&input).unwrap();
    drop(stdin);
    let mut stdout = Vec::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_end(&mut stdout)
        .unwrap();
    let status = child.wait().unwrap();
    assert!(status.success(), "toolidl lsp exited with {status}");
    let stdout = String::from_utf8(stdout).unwrap();
    assert_eq!(stdout.matches("\"code\":-32700").count(), 2, "{stdout}");
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert!(stderr.contains("not JSON"), "{stderr}");
}
