//! `toolidl lsp` driven over stdio, one snapshot per feature: `tests/golden/lsp/NAME.json`
//! holds each request's answer (and each publication of diagnostics), labelled, with the
//! workspace's URI written `file:///WORKSPACE`. `TOOLIDL_BLESS=1` rewrites them; read the
//! diff by eye. The workspace is `tests/golden/lsp/workspace` (`shop.tool` imports
//! `common.tool`).

use crate::lsp_client as client;

use std::path::{Path, PathBuf};

use client::Client;
use serde_json::{Map, Value, json};

/// This package's `toolidl lsp`, with `root` as the workspace folder, initialized.
fn start(root: &Path, options: Value) -> Client {
    Client::start_binary(Path::new(env!("CARGO_BIN_EXE_toolidl")), root, options)
}

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/golden/lsp")
}

fn workspace() -> PathBuf {
    golden_dir().join("workspace")
}

fn shop() -> String {
    std::fs::read_to_string(workspace().join("shop.tool")).unwrap()
}

/// The 0-based line and UTF-16 column of the `nth` occurrence of `needle` in `text`, plus
/// `shift` characters.
fn find(text: &str, needle: &str, nth: usize, shift: u32) -> (u32, u32) {
    let offset = text
        .match_indices(needle)
        .nth(nth)
        .unwrap_or_else(|| panic!("no occurrence {nth} of {needle:?}"))
        .0;
    let before = &text[..offset];
    let line = before.matches('\n').count() as u32;
    let column = before.rsplit('\n').next().unwrap().encode_utf16().count() as u32;
    (line, column + shift)
}

/// Labelled answers of one test, compared with (or, blessing, written to) its golden file.
struct Snapshot {
    name: &'static str,
    entries: Map<String, Value>,
}

impl Snapshot {
    fn new(name: &'static str) -> Snapshot {
        Snapshot {
            name,
            entries: Map::new(),
        }
    }

    fn add(&mut self, client: &Client, label: &str, value: &Value) {
        assert!(
            !self.entries.contains_key(label),
            "label {label} used twice"
        );
        self.entries
            .insert(label.to_string(), client.normalize(value));
    }

    fn check(self) {
        let path = golden_dir().join(format!("{}.json", self.name));
        let mut actual = serde_json::to_string_pretty(&Value::Object(self.entries)).unwrap();
        actual.push('\n');
        if std::env::var_os("TOOLIDL_BLESS").is_some_and(|v| v == "1") {
            std::fs::write(&path, &actual).unwrap();
            return;
        }
        let expected = std::fs::read_to_string(&path).unwrap_or_default();
        if actual != expected {
            let diff = similar::TextDiff::from_lines(&expected, &actual)
                .unified_diff()
                .header("expected", "actual")
                .to_string();
            panic!(
                "{} differs from the server's answers (TOOLIDL_BLESS=1 rewrites it):\n{diff}",
                path.display()
            );
        }
    }
}

#[test]
fn diagnostics_as_check_reports_them_across_imports() {
    let mut c = start(&workspace(), json!({}));
    let mut s = Snapshot::new("diagnostics");
    let common = std::fs::read_to_string(workspace().join("common.tool")).unwrap();
    let d = c.open("common.tool", &common);
    s.add(&c, "open common.tool: clean", &d);
    let d = c.open("shop.tool", &shop());
    s.add(&c, "open shop.tool: clean", &d);

    // A syntax error: the missing comma is reported where it is missing, with its help.
    c.change(
        "shop.tool",
        2,
        &shop().replace("sku: string,", "sku: string"),
    );
    let d = c.diagnostics("shop.tool");
    s.add(&c, "missing comma", &d);

    // A type typo, and `@range` on a string (E0601).
    let typo = shop()
        .replace("sku: string,", "@range(1, 5) sku: string,")
        .replace("price: Money", "price: Mony");
    c.change("shop.tool", 3, &typo);
    let d = c.diagnostics("shop.tool");
    s.add(&c, "unknown type and @range on a string", &d);

    // A change in the imported file re-checks its importer: `Money` disappears.
    c.change("shop.tool", 4, &shop());
    c.diagnostics("shop.tool");
    c.change(
        "common.tool",
        2,
        &common.replace("record Money", "record Cash"),
    );
    let d = c.diagnostics("shop.tool");
    s.add(&c, "importer after the import renamed Money", &d);
    c.change("common.tool", 3, &common);
    let d = c.diagnostics("shop.tool");
    s.add(&c, "importer after the import is restored", &d);

    // The generator's own checks (E11xx): two fields whose Rust names clash.
    let clash = "record R { user_id: u32, userId: u32 }\nservice S { tool t(r: R); }\n";
    let d = c.open("clash.tool", clash);
    s.add(&c, "generator check E11xx", &d);

    // A duplicate name: the secondary label becomes related information.
    let twice = "record A { x: u8 }\nrecord A { y: u8 }\n";
    let d = c.open("twice.tool", twice);
    s.add(&c, "duplicate with related information", &d);

    // A missing import file, with the siblings suggestion.
    let missing = "import \"comon.tool\";\nrecord B { m: Money }\n";
    let d = c.open("missing.tool", missing);
    s.add(&c, "missing import", &d);
    let r = c.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": c.uri("missing.tool")},
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
            "context": {"diagnostics": d["diagnostics"]},
        }),
    );
    s.add(&c, "missing import: the quick fix", &r);

    // Closing a document clears its diagnostics.
    c.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": c.uri("missing.tool")}}),
    );
    let d = c.diagnostics("missing.tool");
    s.add(&c, "closed", &d);
    c.shutdown();
    s.check();
}

#[test]
fn lint_findings_for_the_workspace_profile() {
    let mut c = start(&workspace(), json!({"profile": "openai-strict"}));
    let mut s = Snapshot::new("lint");
    let d = c.open("shop.tool", &shop());
    s.add(&c, "openai-strict", &d);
    c.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"toolidl": {"profile": null}}}),
    );
    let d = c.diagnostics("shop.tool");
    s.add(&c, "profile unset: no lint findings", &d);
    c.shutdown();
    s.check();
}

#[test]
fn hover_definition_references_rename() {
    let mut c = start(&workspace(), json!({}));
    let mut s = Snapshot::new("navigation");
    c.open_file("common.tool");
    c.open_file("shop.tool");
    let text = shop();
    let hovers = [
        ("hover tool place_order", "place_order", 0, 2),
        ("hover parameter coupon", "coupon:", 0, 1),
        ("hover type Money (imported)", "Money", 0, 1),
        (
            "hover qualified acme.common.Money",
            "acme.common.Money",
            0,
            14,
        ),
        ("hover record Item", "Item", 0, 1),
        ("hover field qty", "qty", 0, 0),
        ("hover attribute @length", "@length", 0, 2),
        ("hover attribute @json_name", "@json_name", 0, 1),
        ("hover built-in u32", "u32", 0, 1),
        ("hover enum Priority", "Priority", 0, 0),
        ("hover nothing (a comment)", "/// Takes", 0, 5),
    ];
    for (label, needle, nth, shift) in hovers {
        let (line, col) = find(&text, needle, nth, shift);
        let r = c.at("textDocument/hover", "shop.tool", line, col, json!({}));
        s.add(&c, label, &r);
    }
    let (line, col) = find(&text, "Money", 0, 2);
    let r = c.at("textDocument/definition", "shop.tool", line, col, json!({}));
    s.add(&c, "definition of Money, across the import", &r);
    let (line, col) = find(&text, "common.tool", 0, 3);
    let r = c.at("textDocument/definition", "shop.tool", line, col, json!({}));
    s.add(&c, "definition of the import path", &r);
    let (line, col) = find(&text, "Item>", 0, 1);
    let r = c.at("textDocument/definition", "shop.tool", line, col, json!({}));
    s.add(&c, "definition of Item, in the file", &r);
    let r = c.at(
        "textDocument/references",
        "shop.tool",
        line,
        col,
        json!({"context": {"includeDeclaration": true}}),
    );
    s.add(&c, "references of Item", &r);
    let common = std::fs::read_to_string(workspace().join("common.tool")).unwrap();
    let (line, col) = find(&common, "Money", 0, 1);
    let r = c.at(
        "textDocument/references",
        "common.tool",
        line,
        col,
        json!({"context": {"includeDeclaration": false}}),
    );
    s.add(
        &c,
        "references of Money from its declaration, across files",
        &r,
    );
    let r = c.at(
        "textDocument/prepareRename",
        "common.tool",
        line,
        col,
        json!({}),
    );
    s.add(&c, "prepareRename Money", &r);
    let r = c.at(
        "textDocument/rename",
        "common.tool",
        line,
        col,
        json!({"newName": "Amount"}),
    );
    s.add(&c, "rename Money to Amount, every use", &r);
    let r = c.at(
        "textDocument/rename",
        "common.tool",
        line,
        col,
        json!({"newName": "1x"}),
    );
    s.add(&c, "rename to a name the language refuses", &r);
    let (line, col) = find(&text, "priority:", 0, 1);
    let r = c.at(
        "textDocument/rename",
        "shop.tool",
        line,
        col,
        json!({"newName": "urgency"}),
    );
    s.add(&c, "rename a parameter", &r);
    let warning = c.wait_for("window/showMessage", |_| true);
    s.add(&c, "rename a parameter: the wire-name warning", &warning);
    c.shutdown();
    s.check();
}

#[test]
fn formatting_symbols_folding_tokens() {
    let mut c = start(&workspace(), json!({}));
    let mut s = Snapshot::new("document");
    c.open_file("shop.tool");
    let doc = json!({"textDocument": {"uri": c.uri("shop.tool")}});
    let options = json!({"textDocument": {"uri": c.uri("shop.tool")}, "options": {"tabSize": 4, "insertSpaces": true}});
    let r = c.request("textDocument/formatting", options.clone());
    s.add(&c, "formatting", &r);
    for (label, method) in [
        ("document symbols", "textDocument/documentSymbol"),
        ("folding ranges", "textDocument/foldingRange"),
        ("semantic tokens", "textDocument/semanticTokens/full"),
    ] {
        let r = c.request(method, doc.clone());
        s.add(&c, label, &r);
    }
    c.change("shop.tool", 2, "service S {\n    tool t(a: u8\n}\n");
    c.diagnostics("shop.tool");
    let r = c.request("textDocument/formatting", options);
    s.add(&c, "formatting a file that does not parse", &r);
    let r = c.request("textDocument/documentSymbol", doc);
    s.add(&c, "symbols of a file that does not parse", &r);
    c.shutdown();
    s.check();
}

#[test]
fn completion_and_quick_fixes() {
    let mut c = start(&workspace(), json!({}));
    let mut s = Snapshot::new("editing");
    c.open_file("common.tool");
    let cases = [
        ("top level keywords", "", "\n"),
        ("in a service", "service S {\n    ", "\n}\n"),
        (
            "types after a colon",
            "import \"common.tool\";\nrecord R { x: ",
            " }\n",
        ),
        ("attributes after @", "record R { @", " }\n"),
        (
            "enum members in a default",
            "import \"common.tool\";\nrecord R { p: Priority = ",
            " }\n",
        ),
        ("import paths", "import \"", "\n"),
    ];
    for (i, (label, before, after)) in cases.iter().enumerate() {
        let text = format!("{before}{after}");
        c.change_or_open("draft.tool", i as i64 + 1, &text);
        let (line, col) = {
            let l = before.matches('\n').count() as u32;
            let col = before.rsplit('\n').next().unwrap().encode_utf16().count() as u32;
            (l, col)
        };
        let r = c.at(
            "textDocument/completion",
            "draft.tool",
            line,
            col,
            json!({}),
        );
        let labels: Vec<Value> = r["result"]
            .as_array()
            .unwrap_or(&Vec::new())
            .iter()
            .map(|item| json!([item["label"], item["detail"]]))
            .collect();
        s.add(&c, label, &json!(labels));
    }
    let fixes = [
        ("fix a type typo", "record R { x: strin }\n"),
        ("fix a keyword typo", "recrod R { x: u8 }\n"),
        (
            "fix a missing comma",
            "record R {\n    x: u8\n    y: u8,\n}\n",
        ),
        (
            "fix @range on a string",
            "record R { @range(1, 3) x: string }\n",
        ),
        ("fix a missing import", "record R { m: Money }\n"),
    ];
    for (i, (label, text)) in fixes.iter().enumerate() {
        c.change("draft.tool", 100 + i as i64, text);
        let d = c.diagnostics("draft.tool");
        let r = c.request(
            "textDocument/codeAction",
            json!({
                "textDocument": {"uri": c.uri("draft.tool")},
                "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
                "context": {"diagnostics": d["diagnostics"]},
            }),
        );
        s.add(&c, label, &r);
    }
    c.shutdown();
    s.check();
}

/// Every prefix of every golden `.tool` file (cut at every 7th character, so every broken
/// state a typist passes through is near one): the server answers every request and keeps
/// publishing diagnostics, and a prefix that does not parse always has at least one.
#[test]
fn every_request_answers_on_broken_input() {
    let mut c = start(&workspace(), json!({"debounceMs": 0}));
    let mut files: Vec<PathBuf> = Vec::new();
    for dir in ["tests/golden/codegen", "tests/golden/fmt"] {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(dir);
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "tool") {
                files.push(path);
            }
        }
    }
    files.sort();
    assert!(files.len() > 10);
    let mut texts: Vec<(String, String)> = files
        .iter()
        .map(|p| (p.display().to_string(), std::fs::read_to_string(p).unwrap()))
        .collect();
    // Text that is not ASCII right before the cursor (positions count UTF-16 units).
    texts.push((
        "non-ASCII".into(),
        "/// Température en °C 🌡\nrecord Météo { t: f64 } // é\nenum É { a }\n".into(),
    ));
    let mut version = 1;
    c.open("probe.tool", "");
    let methods = [
        "textDocument/hover",
        "textDocument/definition",
        "textDocument/completion",
        "textDocument/prepareRename",
    ];
    for (name, text) in &texts {
        let step = if name == "non-ASCII" { 1 } else { 7 };
        let cuts: Vec<usize> = (0..text.len())
            .step_by(step)
            .filter(|&i| text.is_char_boundary(i))
            .collect();
        for cut in cuts {
            let prefix = &text[..cut];
            version += 1;
            c.change("probe.tool", version, prefix);
            let d = c.diagnostics("probe.tool");
            let parses = toolidl_parses(prefix);
            if !parses {
                assert!(
                    !d["diagnostics"].as_array().unwrap().is_empty(),
                    "{name}: no diagnostics for a prefix that does not parse ({cut} bytes)"
                );
            }
            let line = prefix.matches('\n').count() as u32;
            let col = prefix.rsplit('\n').next().unwrap().encode_utf16().count() as u32;
            for method in methods {
                // Completion right after the last character; the others on it.
                let at = if method == "textDocument/completion" {
                    col
                } else {
                    col.saturating_sub(1)
                };
                let r = c.at(method, "probe.tool", line, at, json!({}));
                assert!(
                    r.get("error").is_none() || r["error"]["code"] != -32603,
                    "{method} on {name} cut at {cut}: {r}"
                );
            }
            for method in [
                "textDocument/documentSymbol",
                "textDocument/semanticTokens/full",
            ] {
                let r = c.request(
                    method,
                    json!({"textDocument": {"uri": c.uri("probe.tool")}}),
                );
                assert!(r.get("error").is_none(), "{method}: {r}");
            }
        }
    }
    c.shutdown();
}

fn toolidl_parses(text: &str) -> bool {
    toolidl::parser::parse(toolidl::source::FileId(0), text)
        .file
        .is_some()
}
