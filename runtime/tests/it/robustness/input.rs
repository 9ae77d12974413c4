//! Input for the robustness property: abstract messages drawn by proptest, rendered to
//! bytes together with what the server must answer for each line.

use proptest::prelude::*;
use serde_json::{Value, json};

use super::service::FAIL_KINDS;

/// What one input line must produce.
#[derive(Debug, Clone)]
pub enum Expect {
    /// Exactly one response with this id (raw JSON); at most one when `at_most` (the request
    /// was cancelled later, or is a `subscriptions/listen` stream, which stays open).
    Reply {
        id: String,
        check: Check,
        at_most: bool,
    },
    /// No response with this id (a response to a request the server never sent).
    NoReply { id: String },
    /// Nothing at all (notifications, blank lines).
    Nothing,
    /// One error without an id (unreadable line, unreadable id, batch).
    IdlessError,
    /// At most one error without an id (random bytes).
    MaybeIdlessError,
}

/// What the one response must look like.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Check {
    Any,
    /// A JSON-RPC error with this code.
    Error(i64),
    /// A result (not an error).
    Result,
    /// A tool result with `isError: true` whose text is exactly `The tool failed.`.
    ToolFailed,
    /// A tool result with `isError: true` and any other text.
    ToolError,
    /// Anything but `The tool failed.` (argument decoders never panic).
    NotToolFailed,
}

pub struct Line {
    pub bytes: Vec<u8>,
    pub expect: Expect,
}

pub const REVISIONS: [&str; 6] = [
    "2024-11-05",
    "2025-03-26",
    "2025-06-18",
    "2025-11-25",
    "2026-07-28",
    "1999-01-01",
];

/// Every listed tool of the test server, and one that is not listed.
pub const TOOLS: [&str; 25] = [
    "empty",
    "text",
    "json_list",
    "enum_name",
    "record",
    "null_record",
    "content",
    "call_result",
    "user_error",
    "internal_error",
    "panics",
    "panics_later",
    "slow",
    "progress",
    "sample",
    "elicit",
    "needs_elicitation",
    "input_required",
    "order",
    "context",
    "roots",
    "decode_all",
    "fail",
    "ask_later",
    "nope",
];

const URIS: [&str; 7] = [
    "mem://readme",
    "mem://notes/7",
    "mem://panic",
    "mem://none",
    "fuzz://panic-now",
    "fuzz://panic-later",
    "",
];

#[derive(Debug, Clone)]
pub enum Method {
    Initialize { rev: usize, caps: bool },
    Ping,
    ToolsList(Cursor),
    ToolsCall { tool: usize, args: Args },
    ResourcesList(Cursor),
    TemplatesList,
    ResourcesRead(Option<usize>),
    PromptsList(Cursor),
    PromptsGet { name: usize, args: Args },
    Complete(usize),
    SetLevel(usize),
    Discover,
    Listen(usize),
    Unknown,
}

#[derive(Debug, Clone)]
pub enum Cursor {
    None,
    Text(&'static str),
    Number,
}

#[derive(Debug, Clone)]
pub enum Args {
    Missing,
    Null,
    Empty,
    NotObject(&'static str),
    /// The tool's own arguments (a valid call where the tool has any).
    Valid(u32),
    /// Valid plus an undeclared member.
    Extra(u32),
    /// Members named after `decode_all`'s decoders, with arbitrary JSON values.
    Decoders(Vec<(&'static str, String)>),
}

#[derive(Debug, Clone, Copy)]
pub enum Meta {
    None,
    Modern,
    ModernLogLevel,
    ModernProgress,
    WrongVersion,
    NoCapabilities,
    /// A handshake request with a progress token.
    Progress,
    /// A progress token of a type MCP does not allow.
    OddProgress,
}

#[derive(Debug, Clone, Copy)]
pub enum IdStyle {
    Number,
    Negative,
    Text,
    NumericText,
    Unicode,
    Huge,
}

#[derive(Debug, Clone, Copy)]
pub enum Frame {
    Plain,
    Crlf,
    Spaces,
    BlankLineBefore,
    WhitespaceLineBefore,
}

#[derive(Debug, Clone)]
pub enum Corrupt {
    Truncate(usize),
    Jsonrpc(usize),
    IdType(usize),
    ParamsType(usize),
    MethodType(usize),
    HugeNumbers,
    Deep(usize),
    InvalidUtf8,
    Batch(bool),
    TwoOnOneLine,
    DuplicateId,
    UnknownMember,
}

#[derive(Debug, Clone)]
pub enum Notify {
    Initialized,
    /// Cancels the request sent `back` requests ago (or an unknown id when there is none).
    CancelLive(usize),
    CancelUnknown,
    CancelUnreadable,
    Progress,
    Unknown,
}

#[derive(Debug, Clone)]
pub enum Item {
    Request {
        method: Method,
        meta: Meta,
        id: IdStyle,
        frame: Frame,
        corrupt: Option<Corrupt>,
    },
    Notify(Notify, Frame, bool),
    ResponseToNothing {
        id: usize,
        error: bool,
    },
    Junk(Junk),
}

#[derive(Debug, Clone)]
pub enum Junk {
    Empty,
    Whitespace,
    CarriageReturn,
    Text(&'static str),
    Bytes(Vec<u8>),
}

/// Any JSON text, including numbers serde_json cannot hold and strings the formats reject.
pub fn json_text() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("null".to_owned()),
        any::<bool>().prop_map(|b| b.to_string()),
        any::<i64>().prop_map(|n| n.to_string()),
        any::<u64>().prop_map(|n| n.to_string()),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| Value::from(f).to_string()),
        prop::sample::select(vec![
            "1e400",
            "-1e400",
            "1e-400",
            "123456789012345678901234567890",
            "-0",
            "2.0",
            "1E2",
            "-9223372036854775809",
            "18446744073709551616",
            "255.5",
        ])
        .prop_map(str::to_owned),
        any::<String>().prop_map(|s| Value::from(s).to_string()),
        prop::sample::select(vec![10usize, 127, 128, 200, 3000]).prop_map(|d| format!(
            "{}{}",
            "[".repeat(d),
            "]".repeat(d)
        )),
        prop::sample::select(vec![
            "",
            "a",
            "é",
            "\u{10FFFF}",
            "2024-02-29",
            "2023-02-29",
            "9999-12-31T23:59:60Z",
            "24:00:00",
            "13:45:00+02:00",
            "00000000-0000-0000-0000-00000000000g",
            "123e4567-e89b-12d3-a456-426614174000",
            "1.02:03:04.5",
            "-00:00:00.12345678",
            "99999999999999999999.00:00:00",
            "a@b",
            "@",
            "http://x",
            "x:",
            "aGk=",
            "a===",
            "celsius",
            "CELSIUS",
            "abc",
            "ab1",
            "\u{0}",
            "\\ud800",
        ])
        .prop_map(|s| Value::from(s).to_string()),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(|v| format!("[{}]", v.join(","))),
            prop::collection::vec(("[a-z]{1,3}", inner), 0..4).prop_map(|v| {
                let members: Vec<String> = v
                    .into_iter()
                    .map(|(k, x)| format!("{}:{x}", Value::from(k)))
                    .collect();
                format!("{{{}}}", members.join(","))
            }),
        ]
    })
}

const DECODERS: [&str; 30] = [
    "i8", "u8", "i32", "u64", "i64", "i128", "f32", "f64", "bool", "string", "char", "opt", "vec",
    "map", "hash", "json", "object", "bytes", "uuid", "date", "time", "datetime", "duration",
    "email", "url", "enum", "set", "pattern", "nested", "other",
];

fn args() -> impl Strategy<Value = Args> {
    prop_oneof![
        Just(Args::Missing),
        Just(Args::Null),
        Just(Args::Empty),
        prop::sample::select(vec!["[1]", "\"x\"", "5", "true"]).prop_map(Args::NotObject),
        any::<u32>().prop_map(Args::Valid),
        any::<u32>().prop_map(Args::Valid),
        any::<u32>().prop_map(Args::Extra),
        prop::collection::vec((prop::sample::select(DECODERS.to_vec()), json_text()), 0..5)
            .prop_map(Args::Decoders),
    ]
}

fn cursor() -> impl Strategy<Value = Cursor> {
    prop_oneof![
        3 => Just(Cursor::None),
        3 => prop::sample::select(vec!["0", "5", "10", "20", "25", "bogus", "999", "-1", "+5", ""])
            .prop_map(Cursor::Text),
        1 => Just(Cursor::Number),
    ]
}

fn method() -> impl Strategy<Value = Method> {
    prop_oneof![
        2 => (0..REVISIONS.len(), any::<bool>()).prop_map(|(rev, caps)| Method::Initialize { rev, caps }),
        1 => Just(Method::Ping),
        2 => cursor().prop_map(Method::ToolsList),
        8 => (0..TOOLS.len(), args()).prop_map(|(tool, args)| Method::ToolsCall { tool, args }),
        1 => cursor().prop_map(Method::ResourcesList),
        1 => Just(Method::TemplatesList),
        2 => prop::option::weighted(0.9, 0..URIS.len()).prop_map(Method::ResourcesRead),
        1 => cursor().prop_map(Method::PromptsList),
        2 => (0..3usize, args()).prop_map(|(name, args)| Method::PromptsGet { name, args }),
        2 => (0..7usize).prop_map(Method::Complete),
        1 => (0..5usize).prop_map(Method::SetLevel),
        1 => Just(Method::Discover),
        1 => (0..3usize).prop_map(Method::Listen),
        1 => Just(Method::Unknown),
    ]
}

fn meta() -> impl Strategy<Value = Meta> {
    prop_oneof![
        8 => Just(Meta::None),
        6 => Just(Meta::Modern),
        1 => Just(Meta::ModernLogLevel),
        1 => Just(Meta::ModernProgress),
        1 => Just(Meta::WrongVersion),
        1 => Just(Meta::NoCapabilities),
        1 => Just(Meta::Progress),
        1 => Just(Meta::OddProgress),
    ]
}

fn id_style() -> impl Strategy<Value = IdStyle> {
    prop::sample::select(vec![
        IdStyle::Number,
        IdStyle::Number,
        IdStyle::Negative,
        IdStyle::Text,
        IdStyle::NumericText,
        IdStyle::Unicode,
        IdStyle::Huge,
    ])
}

fn frame() -> impl Strategy<Value = Frame> {
    prop_oneof![
        6 => Just(Frame::Plain),
        1 => Just(Frame::Crlf),
        1 => Just(Frame::Spaces),
        1 => Just(Frame::BlankLineBefore),
        1 => Just(Frame::WhitespaceLineBefore),
    ]
}

fn corrupt() -> impl Strategy<Value = Corrupt> {
    prop_oneof![
        any::<usize>().prop_map(Corrupt::Truncate),
        (0..4usize).prop_map(Corrupt::Jsonrpc),
        (0..6usize).prop_map(Corrupt::IdType),
        (0..4usize).prop_map(Corrupt::ParamsType),
        (0..4usize).prop_map(Corrupt::MethodType),
        Just(Corrupt::HugeNumbers),
        prop::sample::select(vec![10usize, 100, 200, 5000]).prop_map(Corrupt::Deep),
        Just(Corrupt::InvalidUtf8),
        any::<bool>().prop_map(Corrupt::Batch),
        Just(Corrupt::TwoOnOneLine),
        Just(Corrupt::DuplicateId),
        Just(Corrupt::UnknownMember),
    ]
}

fn notify() -> impl Strategy<Value = Notify> {
    prop_oneof![
        1 => Just(Notify::Initialized),
        3 => (0..6usize).prop_map(Notify::CancelLive),
        1 => Just(Notify::CancelUnknown),
        1 => Just(Notify::CancelUnreadable),
        1 => Just(Notify::Progress),
        1 => Just(Notify::Unknown),
    ]
}

fn junk() -> impl Strategy<Value = Junk> {
    prop_oneof![
        Just(Junk::Empty),
        Just(Junk::Whitespace),
        Just(Junk::CarriageReturn),
        prop::sample::select(vec![
            "null",
            "42",
            "\"s\"",
            "{}",
            "[]",
            "{\"jsonrpc\":\"2.0\"}",
            "{\"jsonrpc\":\"2.0\",\"method\":5}",
            "\u{feff}{\"jsonrpc\":\"2.0\",\"method\":\"ping\"}",
            "{\"a\":1}}",
            "[[[[[[",
            "\"\\ud800\"",
        ])
        .prop_map(Junk::Text),
        prop::collection::vec(
            any::<u8>().prop_filter("no newline", |b| *b != b'\n'),
            0..40
        )
        .prop_map(Junk::Bytes),
    ]
}

pub fn item() -> impl Strategy<Value = Item> {
    prop_oneof![
        12 => (method(), meta(), id_style(), frame(), prop::option::weighted(0.25, corrupt()))
            .prop_map(|(method, meta, id, frame, corrupt)| Item::Request { method, meta, id, frame, corrupt }),
        3 => (notify(), frame(), any::<bool>()).prop_map(|(n, f, bad)| Item::Notify(n, f, bad)),
        1 => (0..5usize, any::<bool>()).prop_map(|(id, error)| Item::ResponseToNothing { id, error }),
        2 => junk().prop_map(Item::Junk),
    ]
}

fn modern(extra: Value) -> Value {
    let mut m = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"sampling": {}, "elicitation": {}},
        "io.modelcontextprotocol/clientInfo": {"name": "fuzz", "version": "1"}
    });
    if let (Some(m), Some(extra)) = (m.as_object_mut(), extra.as_object()) {
        m.extend(extra.clone());
    }
    m
}

fn id_text(style: IdStyle, n: usize) -> String {
    match style {
        IdStyle::Number => n.to_string(),
        IdStyle::Negative => format!("-{n}"),
        IdStyle::Text => Value::from(format!("r{n}")).to_string(),
        IdStyle::NumericText => Value::from(n.to_string()).to_string(),
        IdStyle::Unicode => Value::from(format!("é\"{n}\n\u{1}")).to_string(),
        IdStyle::Huge => format!("{n}000000000000000000000000"),
    }
}

fn tool_args(tool: &str, seed: u32) -> Value {
    match tool {
        "slow" => json!({"ms": seed % 15}),
        "order" => json!({"items": [{"qty": seed % 12}]}),
        "fail" => json!({
            "kind": FAIL_KINDS[seed as usize % FAIL_KINDS.len()],
            "when": if (seed / 8).is_multiple_of(2) { "now" } else { "later" }
        }),
        "decode_all" => json!({"i32_a": seed % 7, "string_b": "ok", "enum_c": "celsius"}),
        _ => json!({}),
    }
}

/// Renders `arguments` as JSON text, or `None` to leave the member out.
fn args_text(tool: &str, args: &Args) -> Option<String> {
    Some(match args {
        Args::Missing => return None,
        Args::Null => "null".to_owned(),
        Args::Empty => "{}".to_owned(),
        Args::NotObject(t) => (*t).to_owned(),
        Args::Valid(seed) => tool_args(tool, *seed).to_string(),
        Args::Extra(seed) => {
            let mut v = tool_args(tool, *seed);
            v["zz_extra"] = json!([1, {"x": null}]);
            v.to_string()
        }
        Args::Decoders(members) => {
            let m: Vec<String> = members
                .iter()
                .enumerate()
                .map(|(i, (k, v))| format!("{}:{v}", Value::from(format!("{k}_{i}"))))
                .collect();
            format!("{{{}}}", m.join(","))
        }
    })
}

/// The state the renderer tracks to know what a request's answer must be.
#[derive(Default)]
struct State {
    session: bool,
    sampling: bool,
    /// Raw ids of requests sent so far, and whether each may end without a response.
    sent: Vec<String>,
    at_most_once: Vec<String>,
}

/// Renders items to lines; `final_newline` false leaves the last line unterminated.
pub fn render(items: &[Item], final_newline: bool) -> (Vec<u8>, Vec<Expect>) {
    let mut st = State::default();
    let mut lines: Vec<Line> = Vec::new();
    for (n, item) in items.iter().enumerate() {
        let n = n + 1;
        match item {
            Item::Request {
                method,
                meta,
                id,
                frame,
                corrupt,
            } => render_request(&mut st, &mut lines, n, method, *meta, *id, *frame, corrupt),
            Item::Notify(notify, frame, bad_jsonrpc) => {
                let (mut v, target) = notification(&st, notify);
                let expect = if *bad_jsonrpc {
                    v["jsonrpc"] = json!("1.0");
                    Expect::IdlessError
                } else {
                    if let Some(t) = target {
                        st.at_most_once.push(t);
                    }
                    Expect::Nothing
                };
                push_framed(&mut lines, v.to_string().into_bytes(), *frame, expect);
            }
            Item::ResponseToNothing { id, error } => {
                let id = ["\"s1\"", "\"s2\"", "\"s3\"", "999999999", "\"x\""][*id].to_owned();
                let mut v =
                    json!({"jsonrpc": "2.0", "id": serde_json::from_str::<Value>(&id).unwrap()});
                if *error {
                    v["error"] = json!({"code": -1, "message": "no"});
                } else {
                    v["result"] = json!({});
                }
                lines.push(Line {
                    bytes: v.to_string().into_bytes(),
                    expect: Expect::NoReply { id },
                });
            }
            Item::Junk(j) => {
                let (bytes, expect) = match j {
                    Junk::Empty => (Vec::new(), Expect::Nothing),
                    Junk::Whitespace => (b" \t  ".to_vec(), Expect::Nothing),
                    Junk::CarriageReturn => (b"\r".to_vec(), Expect::Nothing),
                    Junk::Text(t) => (t.as_bytes().to_vec(), Expect::IdlessError),
                    Junk::Bytes(b) => (b.clone(), Expect::MaybeIdlessError),
                };
                lines.push(Line { bytes, expect });
            }
        }
    }
    let mut bytes = Vec::new();
    let mut expects = Vec::new();
    let count = lines.len();
    for (i, line) in lines.into_iter().enumerate() {
        bytes.extend_from_slice(&line.bytes);
        if i + 1 < count || final_newline {
            bytes.push(b'\n');
        }
        expects.push(line.expect);
    }
    // Requests cancelled after they were sent may end without a response.
    for e in &mut expects {
        if let Expect::Reply { id, at_most, .. } = e
            && st.at_most_once.contains(id)
        {
            *at_most = true;
        }
    }
    (bytes, expects)
}

fn notification(st: &State, n: &Notify) -> (Value, Option<String>) {
    let cancel = |id: &str| json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": serde_json::from_str::<Value>(id).unwrap(), "reason": "fuzz"}});
    match n {
        Notify::Initialized => (
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
            None,
        ),
        Notify::CancelLive(back) => match st.sent.iter().rev().nth(*back) {
            Some(id) => (cancel(id), Some(id.clone())),
            None => (cancel("123456"), None),
        },
        Notify::CancelUnknown => (cancel("\"unknown\""), None),
        Notify::CancelUnreadable => (
            json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": [1]}),
            None,
        ),
        Notify::Progress => (
            json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "t", "progress": 1.5, "total": 1e300}}),
            None,
        ),
        Notify::Unknown => (
            json!({"jsonrpc": "2.0", "method": "notifications/roots/list_changed"}),
            None,
        ),
    }
}

fn push_framed(lines: &mut Vec<Line>, json: Vec<u8>, frame: Frame, expect: Expect) {
    let mut bytes = Vec::new();
    match frame {
        Frame::BlankLineBefore => lines.push(Line {
            bytes: Vec::new(),
            expect: Expect::Nothing,
        }),
        Frame::WhitespaceLineBefore => lines.push(Line {
            bytes: b" \t \r".to_vec(),
            expect: Expect::Nothing,
        }),
        Frame::Spaces => bytes.extend_from_slice(b" \t "),
        _ => {}
    }
    bytes.extend_from_slice(&json);
    match frame {
        Frame::Crlf => bytes.push(b'\r'),
        Frame::Spaces => bytes.extend_from_slice(b"  "),
        _ => {}
    }
    lines.push(Line { bytes, expect });
}

#[allow(clippy::too_many_arguments)]
fn render_request(
    st: &mut State,
    lines: &mut Vec<Line>,
    n: usize,
    method: &Method,
    meta: Meta,
    id_style: IdStyle,
    frame: Frame,
    corrupt: &Option<Corrupt>,
) {
    let id = id_text(id_style, n);
    let mut params = serde_json::Map::new();
    let modern_meta = match meta {
        Meta::None => None,
        Meta::Modern => Some(modern(json!({}))),
        Meta::ModernLogLevel => Some(modern(json!({"io.modelcontextprotocol/logLevel": "debug"}))),
        Meta::ModernProgress => Some(modern(json!({"progressToken": n}))),
        Meta::WrongVersion => Some(
            json!({"io.modelcontextprotocol/protocolVersion": "2025-06-18", "io.modelcontextprotocol/clientCapabilities": {}}),
        ),
        Meta::NoCapabilities => {
            Some(json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28"}))
        }
        Meta::Progress => Some(json!({"progressToken": format!("p{n}")})),
        Meta::OddProgress => Some(json!({"progressToken": {"a": [1, 2]}})),
    };
    if let Some(m) = &modern_meta {
        params.insert("_meta".into(), m.clone());
    }
    let is_modern = matches!(
        meta,
        Meta::Modern | Meta::ModernLogLevel | Meta::ModernProgress
    );
    let bad_meta = matches!(meta, Meta::WrongVersion | Meta::NoCapabilities);
    let handshake = matches!(meta, Meta::None | Meta::Progress | Meta::OddProgress);
    // Served: the request reaches its method (a session, or valid 2026-07-28 `_meta`).
    let served = !bad_meta && (is_modern || st.session);
    let mut raw_params: Vec<(String, String)> = Vec::new();
    let mut check = Check::Any;
    let mut opens_session = false;
    let mut stream = false;
    // Params that do not fit the shape every method reads them into: -32602 before anything.
    let mut unreadable_params = false;
    let name = match method {
        Method::Initialize { rev, caps } => {
            params.insert("protocolVersion".into(), REVISIONS[*rev].into());
            let c = if *caps {
                json!({"sampling": {}, "elicitation": {}, "roots": {}})
            } else {
                json!({})
            };
            params.insert("capabilities".into(), c);
            params.insert("clientInfo".into(), json!({"name": "fuzz", "version": "1"}));
            if handshake {
                check = if st.session {
                    Check::Error(-32600)
                } else {
                    opens_session = true;
                    Check::Result
                };
            } else if is_modern {
                check = Check::Error(-32601);
            }
            "initialize"
        }
        Method::Ping => "ping",
        Method::ToolsList(c) | Method::ResourcesList(c) | Method::PromptsList(c) => {
            match c {
                Cursor::None => {}
                Cursor::Text(t) => {
                    params.insert("cursor".into(), (*t).into());
                }
                Cursor::Number => {
                    params.insert("cursor".into(), 5.into());
                    unreadable_params = true;
                }
            }
            match method {
                Method::ToolsList(_) => "tools/list",
                Method::ResourcesList(_) => "resources/list",
                _ => "prompts/list",
            }
        }
        Method::ToolsCall { tool, args } => {
            let tool = TOOLS[*tool];
            params.insert("name".into(), tool.into());
            if let Some(a) = args_text(tool, args) {
                raw_params.push(("arguments".into(), a));
            }
            let object_args = matches!(
                args,
                Args::Missing
                    | Args::Null
                    | Args::Empty
                    | Args::Valid(_)
                    | Args::Extra(_)
                    | Args::Decoders(_)
            );
            if served && object_args {
                check = match (tool, args) {
                    ("panics" | "panics_later" | "internal_error", _) => Check::ToolFailed,
                    ("decode_all", _) => Check::NotToolFailed,
                    ("fail", Args::Valid(seed)) => {
                        match FAIL_KINDS[*seed as usize % FAIL_KINDS.len()] {
                            "panic" | "internal" => Check::ToolFailed,
                            "message" | "argument" => Check::ToolError,
                            "rpc" => Check::Error(-32099),
                            _ => Check::Result,
                        }
                    }
                    ("nope", _) => Check::Error(-32602),
                    ("text" | "empty" | "record", _) => Check::Result,
                    _ => Check::Any,
                };
            } else if served {
                check = Check::Error(-32602);
            }
            "tools/call"
        }
        Method::TemplatesList => "resources/templates/list",
        Method::ResourcesRead(uri) => {
            if let Some(u) = uri {
                params.insert("uri".into(), URIS[*u].into());
                if served
                    && matches!(
                        URIS[*u],
                        "mem://panic" | "fuzz://panic-now" | "fuzz://panic-later"
                    )
                {
                    check = Check::Error(-32603);
                }
            } else if served {
                check = Check::Error(-32602);
            }
            "resources/read"
        }
        Method::PromptsGet { name, args } => {
            let prompt = ["summarize", "panic_prompt", "nope"][*name];
            params.insert("name".into(), prompt.into());
            if let Some(a) = args_text("prompt", args) {
                raw_params.push(("arguments".into(), a));
            }
            if served && prompt == "panic_prompt" && !matches!(args, Args::NotObject(_)) {
                check = Check::Error(-32603);
            }
            "prompts/get"
        }
        Method::Complete(k) => {
            let (reference, argument) = [
                (
                    json!({"type": "ref/prompt", "name": "summarize"}),
                    json!({"name": "city", "value": "O"}),
                ),
                (
                    json!({"type": "ref/resource", "uri": "mem://notes/{id}"}),
                    json!({"name": "panic_now", "value": ""}),
                ),
                (
                    json!({"type": "ref/prompt", "name": "x"}),
                    json!({"name": "panic_later", "value": ""}),
                ),
                (json!({"type": "bad"}), json!({"name": "a", "value": ""})),
                (json!("ref"), json!([1])),
                (
                    json!({"type": "ref/prompt", "name": "summarize"}),
                    json!({"name": "city"}),
                ),
                (
                    json!({"type": "ref/prompt", "name": 5}),
                    json!({"name": "city", "value": 5}),
                ),
            ][*k]
                .clone();
            params.insert("ref".into(), reference);
            params.insert("argument".into(), argument);
            if served && (*k == 1 || *k == 2) {
                check = Check::Error(-32603);
            }
            "completion/complete"
        }
        Method::SetLevel(k) => {
            let level = [
                json!("debug"),
                json!("info"),
                json!("emergency"),
                json!("loud"),
                json!(5),
            ][*k]
                .clone();
            params.insert("level".into(), level);
            unreadable_params = *k == 4;
            "logging/setLevel"
        }
        Method::Discover => "server/discover",
        Method::Listen(k) => {
            let filter = [json!({"toolsListChanged": true}), json!({}), json!("all")][*k].clone();
            params.insert("notifications".into(), filter);
            stream = is_modern && *k < 2;
            "subscriptions/listen"
        }
        Method::Unknown => {
            if served {
                check = Check::Error(-32601);
            }
            "tools/destroy"
        }
    };
    let takes_context = matches!(
        method,
        Method::ToolsCall { .. }
            | Method::ResourcesRead(_)
            | Method::PromptsGet { .. }
            | Method::Complete(_)
    );
    if bad_meta {
        check = Check::Any;
    }
    // MCP's progress token is a string or a number.
    if served && takes_context && matches!(meta, Meta::OddProgress) {
        check = Check::Error(-32602);
    }
    if unreadable_params {
        check = Check::Error(-32602);
    }
    // The message as text: raw members (arguments) are spliced in as written.
    let mut params_text = Value::Object(params).to_string();
    for (k, v) in &raw_params {
        params_text.pop();
        if params_text.len() > 1 {
            params_text.push(',');
        }
        params_text.push_str(&format!("{}:{v}}}", Value::from(k.as_str())));
    }
    let mut members: Vec<(String, String)> = vec![
        ("jsonrpc".into(), "\"2.0\"".into()),
        ("id".into(), id.clone()),
        ("method".into(), Value::from(name).to_string()),
        ("params".into(), params_text),
    ];
    let mut expect = Expect::Reply {
        id: id.clone(),
        check,
        at_most: false,
    };
    let mut effective = true;
    let mut raw: Option<Vec<u8>> = None;
    if let Some(c) = corrupt {
        effective = false;
        let reply_error = |code| Expect::Reply {
            id: id.clone(),
            check: Check::Error(code),
            at_most: false,
        };
        match c {
            Corrupt::Truncate(_)
            | Corrupt::InvalidUtf8
            | Corrupt::Batch(_)
            | Corrupt::TwoOnOneLine => expect = Expect::IdlessError,
            Corrupt::Jsonrpc(k) => {
                if *k == 3 {
                    members.remove(0);
                } else {
                    members[0].1 = ["\"1.0\"", "2.0", "null"][*k].into();
                }
                expect = reply_error(-32600);
            }
            Corrupt::IdType(k) => {
                members[1].1 = ["{}", "[1]", "true", "1.5", "null", "1e3"][*k].into();
                expect = Expect::IdlessError;
            }
            Corrupt::ParamsType(k) => {
                members[3].1 = ["[1]", "\"x\"", "5", "true"][*k].into();
                expect = reply_error(-32602);
            }
            Corrupt::MethodType(k) => {
                if *k == 3 {
                    members.remove(2);
                } else {
                    members[2].1 = ["5", "null", "{\"m\":1}"][*k].into();
                }
                expect = reply_error(-32600);
            }
            Corrupt::HugeNumbers => {
                members.push((
                    "huge".into(),
                    "[1e400,-1e400,123456789012345678901234567890]".into(),
                ));
                effective = true;
            }
            Corrupt::Deep(depth) => {
                // Members nobody reads are skipped at any depth.
                let deep = format!("{}{}", "[".repeat(*depth), "]".repeat(*depth));
                members.push(("deep".into(), deep.clone()));
                let p = &mut members[3].1;
                p.pop();
                if p.len() > 1 {
                    p.push(',');
                }
                p.push_str(&format!("\"deep\":{deep}}}"));
                effective = true;
            }
            Corrupt::DuplicateId => {
                members.push(("id".into(), "\"other\"".into()));
                expect = Expect::IdlessError;
            }
            Corrupt::UnknownMember => {
                members.insert(1, ("extra".into(), "{\"id\":\"not this\"}".into()));
                effective = true;
            }
        }
        let text = join(&members);
        raw = match c {
            Corrupt::Truncate(at) => {
                let cut = 1 + at % (text.len() - 1);
                Some(text.as_bytes()[..cut].to_vec())
            }
            Corrupt::InvalidUtf8 => {
                let mut b = text.into_bytes();
                b.pop();
                b.extend_from_slice(b",\"pad\":\"\xff\xfe\"}");
                Some(b)
            }
            Corrupt::Batch(two) => Some(
                if *two {
                    format!("[{text},{text}]")
                } else {
                    format!("[{text}]")
                }
                .into_bytes(),
            ),
            Corrupt::TwoOnOneLine => Some(format!("{text} {text}").into_bytes()),
            _ => Some(text.into_bytes()),
        };
    }
    if effective {
        if opens_session {
            st.session = true;
            if let Method::Initialize { caps, .. } = method {
                st.sampling = *caps;
            }
        }
        if stream {
            st.at_most_once.push(id.clone());
        }
    }
    if let Expect::Reply { id, .. } = &expect {
        st.sent.push(id.clone());
    }
    let bytes = raw.unwrap_or_else(|| join(&members).into_bytes());
    push_framed(lines, bytes, frame, expect);
}

fn join(members: &[(String, String)]) -> String {
    let m: Vec<String> = members
        .iter()
        .map(|(k, v)| format!("{}:{v}", Value::from(k.as_str())))
        .collect();
    format!("{{{}}}", m.join(","))
}
