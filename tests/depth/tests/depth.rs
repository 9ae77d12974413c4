//! Deep inputs never abort a server: each generated decoder stops at the nesting limit with
//! the argument error at the path where the limit was hit, on a thread with tokio's 2 MiB
//! worker stack, and a whole server (stdio, in memory) answers the next request after a
//! request of any depth. The shapes are `tests/golden/codegen/deep.tool`'s.
//!
//! Nesting is counted in arrays and objects from the `arguments` object (level 1).

use std::io::{Cursor, Write};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use proptest::prelude::*;
use serde_json::{Value, json};
use toolidl_depth_tests::codegen::deep::{
    self, CellsArgs, Deep, DeepServer, EchoArgs, GrowArgs, SendArgs, Tree, WalkArgs,
};
use toolidl_runtime::codegen::{ArgError, Arguments, Decode, RawValue};
use toolidl_runtime::stdio::StdioConfig;
use toolidl_runtime::transport::serve_io;
use toolidl_runtime::{RequestContext, Server, ToolError, args::depth};

const LIMIT: u32 = depth::DEFAULT_MAX_DEPTH;
/// tokio's worker threads have 2 MiB of stack.
const WORKER_STACK: usize = 2 * 1024 * 1024;

/// Runs `f` on a thread with a worker's stack (a stack overflow aborts the whole test binary,
/// which is the failure this file guards against).
fn on_worker_stack<R: Send + 'static>(f: impl FnOnce() -> R + Send + 'static) -> R {
    std::thread::Builder::new()
        .stack_size(WORKER_STACK)
        .spawn(f)
        .expect("a thread")
        .join()
        .expect("the thread finished")
}

fn decode<T: Decode>(text: String) -> Result<T, ArgError> {
    decode_under(LIMIT, text)
}

/// `text` decoded as a server whose nesting limit is `limit` hands it over.
fn decode_under<T: Decode>(limit: u32, text: String) -> Result<T, ArgError> {
    let raw = RawValue::from_string(text).expect("JSON");
    Arguments::new(&raw).with_max_depth(limit).decode()
}

/// `{"root": …}` with `n` trees, each the only child of the one before: the deepest
/// container (the last tree's `children`) is at level `2n + 1`.
fn tree_args(n: usize) -> String {
    let mut s = String::from(r#"{"root":"#);
    for _ in 0..n {
        s.push_str(r#"{"name":"t","children":["#);
    }
    for _ in 0..n {
        s.push_str("]}");
    }
    s.push('}');
    s
}

/// Where the container at `level` of [`tree_args`] sits.
fn tree_path(level: usize) -> String {
    let mut p = String::from("root");
    // Tree k is at level 2k, its children at 2k + 1.
    let k = level / 2;
    for _ in 1..k {
        p.push_str(".children[0]");
    }
    if level % 2 == 1 {
        p.push_str(".children");
    }
    p
}

/// `{"branch": …}` with `n` branches, through leaves and maps: branch k is at level 3k - 1,
/// its leaf at 3k, the leaf's map at 3k + 1; the last branch's leaf is null.
fn branch_args(n: usize) -> String {
    let mut s = String::from(r#"{"branch":"#);
    for i in 0..n {
        if i + 1 == n {
            s.push_str(r#"{"leaf":null}"#);
        } else {
            s.push_str(r#"{"leaf":{"branches":{"a":"#);
        }
    }
    for _ in 1..n {
        s.push_str("}}}");
    }
    s.push('}');
    s
}

fn branch_path(level: usize) -> String {
    let mut p = String::from("branch");
    let mut at = 2;
    while at < level {
        p.push_str(match at % 3 {
            2 => ".leaf",
            0 => ".branches",
            _ => r#"["a"]"#,
        });
        at += 1;
    }
    p
}

/// `{"<name>": [[…[]…]]}`, `n` arrays deep: the deepest at level `n + 1`.
fn arrays_args(name: &str, prefix: &str, n: usize, suffix: &str) -> String {
    format!(
        r#"{{"{name}":{prefix}{}{}{suffix}}}"#,
        "[".repeat(n),
        "]".repeat(n)
    )
}

fn too_deep(path: &str, limit: u32) -> String {
    format!("Argument '{path}' is not valid. Nested deeper than {limit} levels.")
}

#[test]
fn a_recursive_record_is_read_to_the_limit_and_refused_past_it() {
    on_worker_stack(|| {
        // 2n + 1 = 127: inside; 129: past, at the last tree's children.
        decode::<WalkArgs>(tree_args(63)).unwrap();
        let e = decode::<WalkArgs>(tree_args(64)).unwrap_err();
        assert_eq!(e.to_string(), too_deep(&tree_path(129), LIMIT));
        // Exactly at a tighter limit, and one past it (a tree, not its children).
        decode_under::<WalkArgs>(9, tree_args(4)).unwrap();
        let e = decode_under::<WalkArgs>(9, tree_args(5)).unwrap_err();
        assert_eq!(e.to_string(), too_deep(&tree_path(10), 9));
        assert_eq!(
            tree_path(10),
            "root.children[0].children[0].children[0].children[0]"
        );

        // A deep tree whose innermost leaf is invalid fails at the limit, not at the leaf.
        let bad_leaf = tree_args(5000).replacen(r#""name":"t""#, r#""name":1"#, 1);
        assert!(decode::<WalkArgs>(bad_leaf).is_err());
    });
}

#[test]
fn mutual_recursion_through_options_and_maps_stops_at_the_limit() {
    on_worker_stack(|| {
        // 3n - 1 = 128 at n = 43: exactly the limit.
        if let Err(e) = decode::<GrowArgs>(branch_args(43)) {
            panic!("{e}");
        }
        let e = decode::<GrowArgs>(branch_args(44)).unwrap_err();
        assert_eq!(e.to_string(), too_deep(&branch_path(129), LIMIT));
        assert!(branch_path(129).ends_with(r#".leaf.branches["a"].leaf"#));
    });
}

#[test]
fn nested_lists_json_values_and_union_variants_stop_at_the_limit() {
    on_worker_stack(|| {
        // Lists of fixed depth, under a limit tighter than they are deep.
        let e = decode_under::<CellsArgs>(3, r#"{"grid":[[[1]]]}"#.into()).unwrap_err();
        assert_eq!(e.to_string(), too_deep("grid[0][0]", 3));

        decode::<CellsArgs>(r#"{"grid":[[[1]]]}"#.into()).unwrap();

        // `json`: read without recursion, refused at the exact path.
        let value = decode::<EchoArgs>(arrays_args("value", "", 127, "")).unwrap();
        let mut level = 1;
        let mut v = &value.value;
        while let Value::Array(items) = v {
            level += 1;
            v = items.first().unwrap_or(&Value::Null);
        }
        assert_eq!(level, 128);
        let e = decode::<EchoArgs>(arrays_args("value", "", 128, "")).unwrap_err();
        let path = format!("value{}", "[0]".repeat(127));
        assert_eq!(e.to_string(), too_deep(&path, LIMIT));
        // Inside an object member, the key is named as a map's is.
        let e = decode::<EchoArgs>(arrays_args("value", r#"{"a b":"#, 128, "}")).unwrap_err();
        let path = format!(r#"value["a b"]{}"#, "[0]".repeat(126));
        assert_eq!(e.to_string(), too_deep(&path, LIMIT));

        // A union's variants each stop at the limit; the union says why neither fits.
        decode::<SendArgs>(arrays_args("payload", r#"{"k":"#, 126, "}")).unwrap();
        let e = decode::<SendArgs>(arrays_args("payload", r#"{"k":"#, 127, "}")).unwrap_err();
        let path = format!(r#"payload["k"]{}"#, "[0]".repeat(126));
        assert_eq!(
            e.to_string(),
            format!(
                "Argument 'payload' is not valid. It fits none of its variants (text: Expected a \
                 string. doc: '{path}' Nested deeper than 128 levels.)."
            )
        );
    });
}

#[test]
fn a_limit_set_far_above_the_stack_is_held_by_the_stack_budget() {
    on_worker_stack(|| {
        let e = decode_under::<WalkArgs>(u32::MAX, tree_args(100_000)).unwrap_err();
        assert_eq!(e.reason(), Some("Nested too deeply to read."));
        // json values are read without recursion; serde_json drops them recursively, which
        // the ceiling a server may set (1,024) keeps inside the stack.
        let limit = depth::MAX_DEPTH_CEILING as usize;
        decode_under::<EchoArgs>(u32::MAX, arrays_args("value", "", limit - 1, "")).unwrap();
    });
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Random depths and limits: the verdict is exactly "deeper than the limit or not", and
    /// nothing aborts. (`root` is a required tree, so the arguments hold at least one.)
    #[test]
    fn random_depths_never_abort(n in 1usize..4000, limit in 1u32..=1024) {
        let verdicts = on_worker_stack(move || {
            let tree = decode_under::<WalkArgs>(limit, tree_args(n)).map(drop);
            let json = decode_under::<EchoArgs>(limit, arrays_args("value", "", n, "")).map(drop);
            (tree, json)
        });
        let (tree, json) = verdicts;
        match tree {
            Ok(()) => prop_assert!(2 * n < limit as usize),
            Err(e) => prop_assert!(2 * n + 1 > limit as usize || e.reason() == Some("Nested too deeply to read."), "{e}"),
        }
        prop_assert_eq!(json.is_ok(), n < limit as usize, "{:?}", json);
    }
}

/// The service behind the server test: counts, echoes and builds.
struct Impl;

impl Deep for Impl {
    async fn walk(
        &self,
        _: RequestContext,
        deep::WalkArgs { root, .. }: deep::WalkArgs,
    ) -> Result<u64, ToolError> {
        let mut count = 0;
        let mut pending = vec![root];
        while let Some(t) = pending.pop() {
            count += 1;
            pending.extend(t.children);
        }
        Ok(count)
    }
    async fn grow(&self, _: RequestContext, _: deep::GrowArgs) -> Result<u64, ToolError> {
        Ok(0)
    }
    async fn send(&self, _: RequestContext, _: deep::SendArgs) -> Result<String, ToolError> {
        Ok("sent".into())
    }
    async fn cells(
        &self,
        _: RequestContext,
        deep::CellsArgs { grid, .. }: deep::CellsArgs,
    ) -> Result<u64, ToolError> {
        Ok(grid.iter().flatten().flatten().count() as u64)
    }
    async fn echo(
        &self,
        _: RequestContext,
        deep::EchoArgs { value, .. }: deep::EchoArgs,
    ) -> Result<Value, ToolError> {
        Ok(value)
    }
    /// A chain of `depth` trees, built without recursion (300,000 levels are far too deep
    /// for the drop glue on a worker's stack: the runtime drops a result it could not write
    /// on a stack of its own).
    async fn build(
        &self,
        _: RequestContext,
        deep::BuildArgs { depth, .. }: deep::BuildArgs,
    ) -> Result<Tree, ToolError> {
        let mut tree = Tree {
            name: "leaf".into(),
            children: Vec::new(),
        };
        for _ in 0..depth {
            tree = Tree {
                name: "t".into(),
                children: vec![tree],
            };
        }
        Ok(tree)
    }
}

#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("sink").extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Serves `lines` over in-memory stdio on a runtime with two 2 MiB workers, from a thread of
/// the same stack; returns the replies by id.
fn serve(server: Server, lines: Vec<String>) -> std::collections::HashMap<String, Value> {
    let input = lines.join("\n") + "\n";
    let sink = Sink::default();
    let out = sink.clone();
    on_worker_stack(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_stack_size(WORKER_STACK)
            .enable_all()
            .build()
            .expect("runtime");
        rt.block_on(async move {
            let config = StdioConfig::default();
            let served = serve_io(server, Cursor::new(input.into_bytes()), out, config);
            tokio::time::timeout(Duration::from_secs(60), served)
                .await
                .expect("the server finishes")
                .expect("the server does not fail");
        });
    });
    let bytes = sink.0.lock().expect("sink").clone();
    String::from_utf8(bytes)
        .expect("UTF-8")
        .lines()
        .filter_map(|line| match serde_json::from_str::<Value>(line) {
            Ok(m) => Some((m.get("id")?.to_string(), m)),
            // Deeper than serde_json reads by default: kept as its text, by its id.
            Err(_) => {
                let id = line.split(r#""id":"#).nth(1)?.split(',').next()?;
                Some((id.to_owned(), Value::String(line.to_owned())))
            }
        })
        .collect()
}

fn call(id: u32, tool: &str, arguments: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments}}}}}"#
    )
}

fn text_of(reply: &Value) -> (&str, bool) {
    let result = &reply["result"];
    let text = result["content"][0]["text"].as_str().unwrap_or("");
    (text, result["isError"] == json!(true))
}

#[test]
fn a_server_answers_requests_of_any_depth_and_goes_on() {
    let init = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
    let deep_meta = format!(
        r#"{{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{{"_meta":{{"x":{}{}}},"name":"cells","arguments":{{"grid":[]}}}}}}"#,
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let deep_response = format!(
        r#"{{"jsonrpc":"2.0","id":"s9","result":{}{}}}"#,
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let lines = vec![
        init.to_owned(),
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned(),
        // 3,000 levels of trees (78 KB): a 2 MiB stack overflowed on this before the limit.
        call(1, "walk", &tree_args(3000)),
        call(2, "walk", &tree_args(10)),
        call(3, "echo", &arrays_args("value", "", 100_000, "")),
        call(4, "build", r#"{"depth":300000}"#),
        call(5, "build", r#"{"depth":20}"#),
        deep_meta,
        deep_response,
        call(7, "cells", r#"{"grid":[[[1,2]],[[3]]]}"#),
        // 100 trees are 201 levels: written (under the ceiling a handler's value is written
        // with), then refused as deeper than this server's limit.
        call(8, "build", r#"{"depth":100}"#),
    ];
    let server = Server::builder("deep", "1")
        .service(Arc::new(DeepServer::new(Impl)))
        .build();
    let replies = serve(server, lines);

    let (text, is_error) = text_of(&replies["1"]);
    assert!(is_error);
    assert_eq!(text, too_deep(&tree_path(129), LIMIT));
    assert_eq!(text_of(&replies["2"]), ("10", false));
    let (text, is_error) = text_of(&replies["3"]);
    assert!(is_error);
    assert_eq!(
        text,
        too_deep(&format!("value{}", "[0]".repeat(127)), LIMIT)
    );
    // A result too deep to write fails the call; one inside the limit is served.
    assert_eq!(text_of(&replies["4"]), ("The tool failed.", true));
    assert!(!text_of(&replies["5"]).1);
    // Deep `_meta`: serde_json reads protocol fields to 128 levels; the request is answered.
    assert!(replies.contains_key("6"), "{replies:?}");
    assert_eq!(text_of(&replies["7"]), ("3", false));
    assert_eq!(text_of(&replies["8"]), ("The tool failed.", true));
}

#[test]
fn the_server_limit_applies_to_arguments_and_results() {
    let init = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
    let lines = vec![
        init.to_owned(),
        call(1, "echo", &arrays_args("value", "", 300, "")),
        call(2, "echo", &arrays_args("value", "", 400, "")),
        call(3, "build", r#"{"depth":150}"#),
    ];
    let server = Server::builder("deep", "1")
        .max_depth(400)
        .service(Arc::new(DeepServer::new(Impl)))
        .build();
    let replies = serve(server, lines);
    let ids: Vec<_> = replies.keys().collect();
    assert_eq!(replies.len(), 4, "{ids:?}");
    // 300 arrays in the arguments (level 301) are read and echoed (their result nests 300
    // deep inside the structured content's own levels, under 400).
    assert!(!text_of(&replies["1"]).1, "{}", replies["1"]);
    let (text, is_error) = text_of(&replies["2"]);
    assert!(is_error);
    assert_eq!(text, too_deep(&format!("value{}", "[0]".repeat(399)), 400));
    // 150 trees are 301 levels: over the default, under this server's limit (the reply is
    // too deep for serde_json's own default, so it is checked as text).
    let reply = replies["3"]
        .as_str()
        .expect("a reply deeper than 128 levels");
    assert!(
        reply.contains(r#""structuredContent":{"name":"t","children":[{"#),
        "{reply}"
    );
    assert!(!reply.contains("isError"));
}
