//! Property test: any text, and any mutation of a valid `.tool` file, goes through parsing
//! and resolution without a panic and in bounded time, and every diagnostic renders.

use std::path::Path;
use std::time::{Duration, Instant};

use proptest::prelude::*;
use toolidl::source::{MemoryLoader, SourceId};

/// The valid golden files, by name: the seeds that mutations start from.
fn seeds() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/golden/lang/valid");
    let mut files: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "tool"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    files.sort();
    assert!(!files.is_empty());
    files
}

/// Tokens of the language, and a few that are not, to insert and to build text from.
const TOKENS: &[&str] = &[
    "package",
    "import",
    "enum",
    "record",
    "service",
    "tool",
    "resource",
    "prompt",
    "{",
    "}",
    "(",
    ")",
    "<",
    ">",
    "[",
    "]",
    ",",
    ";",
    ":",
    "=",
    "->",
    "?",
    "@",
    "@range",
    "@length",
    "@name",
    "@uri",
    "@ui",
    "@pattern",
    "@rename_all",
    "@json_name",
    "///",
    "//",
    "/// doc\n",
    "\n",
    " ",
    "\"",
    "'",
    "\\",
    "\"x\"",
    "\"ui://a\"",
    "\"{a}\"",
    "'c'",
    "0",
    "-1",
    "1.5",
    "1e999",
    "99999999999999999999",
    "true",
    "null",
    "list",
    "set",
    "map",
    "string",
    "u8",
    "f64",
    "date",
    "json",
    "content",
    "call_result",
    "A",
    "B",
    "x",
    "a.b",
    "é",
    "\u{1F600}",
    "\t",
    "\r\n",
    "\u{FEFF}",
];

/// Compiles `text` as the root file `root` with every seed file available for imports;
/// checks the time taken and that rendering works.
fn compile(root: &str, text: &str) {
    let mut loader = MemoryLoader::new();
    for (name, seed) in seeds_cached() {
        loader.insert(name, seed.clone());
    }
    let started = Instant::now();
    let output = toolidl::compile(&loader, SourceId::new(root), text.to_string());
    let rendered = output.render();
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "compiling took {:?}",
        started.elapsed()
    );
    assert_eq!(output.model.is_some(), !output.has_errors());
    if output.has_errors() {
        assert!(rendered.contains("error["), "{rendered}");
    }
}

fn seeds_cached() -> &'static [(String, String)] {
    static SEEDS: std::sync::OnceLock<Vec<(String, String)>> = std::sync::OnceLock::new();
    SEEDS.get_or_init(seeds)
}

#[derive(Debug, Clone)]
enum Edit {
    DeleteChars { at: usize, len: usize },
    InsertToken { at: usize, token: usize },
    SwapChars { a: usize, b: usize },
    DeleteToken { nth: usize },
    DuplicateToken { nth: usize },
    SwapTokens { a: usize, b: usize },
}

fn edit() -> impl Strategy<Value = Edit> {
    let n = 100_000usize;
    prop_oneof![
        (0..n, 1..8usize).prop_map(|(at, len)| Edit::DeleteChars { at, len }),
        (0..n, 0..TOKENS.len()).prop_map(|(at, token)| Edit::InsertToken { at, token }),
        (0..n, 0..n).prop_map(|(a, b)| Edit::SwapChars { a, b }),
        (0..n).prop_map(|nth| Edit::DeleteToken { nth }),
        (0..n).prop_map(|nth| Edit::DuplicateToken { nth }),
        (0..n, 0..n).prop_map(|(a, b)| Edit::SwapTokens { a, b }),
    ]
}

/// Splits text into word, punctuation and whitespace runs (a rough token stream).
fn tokens(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let class = |c: char| {
        if c.is_alphanumeric() || c == '_' {
            0
        } else if c.is_whitespace() {
            1
        } else {
            2
        }
    };
    for c in text.chars() {
        match out.last_mut() {
            Some(last) if class(c) != 2 && last.chars().last().map(class) == Some(class(c)) => {
                last.push(c)
            }
            _ => out.push(c.to_string()),
        }
    }
    out
}

fn apply(text: &str, edit: &Edit) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let len = chars.len().max(1);
    match *edit {
        Edit::DeleteChars { at, len: n } => {
            let at = at % len;
            let end = (at + n).min(chars.len());
            if at < end {
                chars.drain(at..end);
            }
        }
        Edit::InsertToken { at, token } => {
            let at = at % (chars.len() + 1);
            chars.splice(at..at, TOKENS[token].chars());
        }
        Edit::SwapChars { a, b } => {
            if !chars.is_empty() {
                let n = chars.len();
                chars.swap(a % n, b % n);
            }
        }
        Edit::DeleteToken { nth } | Edit::DuplicateToken { nth } => {
            let mut toks = tokens(text);
            if !toks.is_empty() {
                let i = nth % toks.len();
                if matches!(edit, Edit::DeleteToken { .. }) {
                    toks.remove(i);
                } else {
                    let t = toks[i].clone();
                    toks.insert(i, t);
                }
            }
            return toks.concat();
        }
        Edit::SwapTokens { a, b } => {
            let mut toks = tokens(text);
            if !toks.is_empty() {
                let n = toks.len();
                toks.swap(a % n, b % n);
            }
            return toks.concat();
        }
    }
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn mutated_valid_files_never_panic(seed in 0..64usize, edits in prop::collection::vec(edit(), 1..6)) {
        let seeds = seeds_cached();
        let (name, text) = &seeds[seed % seeds.len()];
        let mutated = edits.iter().fold(text.clone(), |t, e| apply(&t, e));
        compile(name, &mutated);
    }

    #[test]
    fn token_soup_never_panics(picks in prop::collection::vec(0..TOKENS.len(), 0..200)) {
        let text: String = picks.iter().map(|&i| TOKENS[i]).collect::<Vec<_>>().join(" ");
        compile("soup.tool", &text);
    }

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,400}") {
        compile("any.tool", &text);
    }
}

/// Deep nesting and long inputs stay bounded: no stack overflow, no quadratic blow-up.
#[test]
fn pathological_inputs_are_refused_or_handled_quickly() {
    let deep = format!(
        "record A {{ a: {}u8{} }}",
        "list<".repeat(10_000),
        ">".repeat(10_000)
    );
    compile("deep.tool", &deep);
    let deep_attr = format!("@ui({}) record A {{}}", "[".repeat(10_000));
    compile("deep_attr.tool", &deep_attr);
    let many_fields: String = (0..5_000).map(|i| format!("f{i}: u8, ")).collect();
    compile("wide.tool", &format!("record A {{ {many_fields} }}"));
    let self_import = "import \"self.tool\";";
    let mut loader = MemoryLoader::new();
    loader.insert("self.tool", self_import);
    let output = toolidl::compile(&loader, SourceId::new("self.tool"), self_import.into());
    assert!(output.render().contains("E1002"));
}
