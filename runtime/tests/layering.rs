//! The runtime's modules form a one-way stack: each imports only layers below it. The layers
//! are the numbered list in `src/lib.rs`'s module docs; this test reads that list and every
//! `crate::` path in `src/`, and fails on an import from the same or a higher layer, so the
//! docs and the code cannot drift apart. `.ci/run` runs it on its own as the layering check.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// The one import allowed to point upwards: `RequestContext::server` hands out the server.
const BACK_EDGES: &[(&str, &str)] = &[("context", "server")];

/// The layers, lowest first, from `//! N. `a`, `b`: …` lines.
fn layers(lib_rs: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for line in lib_rs.lines() {
        let Some(rest) = line.strip_prefix("//! ") else {
            continue;
        };
        let Some((number, rest)) = rest.split_once(". ") else {
            continue;
        };
        if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let names = rest.split(':').next().unwrap_or_default();
        let modules: Vec<String> = names
            .split(',')
            .map(|n| n.trim().trim_matches('`').trim_end_matches('/').to_owned())
            .filter(|n| !n.is_empty())
            .collect();
        out.push(modules);
    }
    out
}

/// The crate's top-level modules, from `mod x;` and `pub mod x;` lines.
fn declared_modules(lib_rs: &str) -> BTreeSet<String> {
    lib_rs
        .lines()
        .filter_map(|l| {
            let l = l.trim();
            let l = l.strip_prefix("pub ").unwrap_or(l);
            l.strip_prefix("mod ")?.strip_suffix(';').map(str::to_owned)
        })
        .collect()
}

/// The root's re-exports (`pub use module::{A, B};`): which module each name comes from, so a
/// `crate::A` path counts as an import of that module.
fn root_reexports(lib_rs: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut text = String::new();
    let mut in_use = false;
    for line in lib_rs.lines() {
        let trimmed = line.trim();
        // Only the root's own `pub use` items, not those of its inline modules.
        if !in_use && line.starts_with("pub use ") {
            in_use = true;
            text.clear();
        }
        if in_use {
            text.push_str(trimmed);
            if trimmed.ends_with(';') {
                in_use = false;
                let path = text["pub use ".len()..].trim_end_matches(';');
                if let Some((module, names)) = path.split_once("::") {
                    for name in names.trim_matches(|c| c == '{' || c == '}').split(',') {
                        let name = name.trim().rsplit("::").next().unwrap_or_default();
                        if !name.is_empty() {
                            out.insert(name.to_owned(), module.to_owned());
                        }
                    }
                }
            }
        }
    }
    out
}

/// The first segment of every `crate::` path in `source` (grouped `use crate::{a::x, b}`
/// included), with its line number; comments are skipped.
fn references(source: &str) -> Vec<(usize, String)> {
    paths_after(source, "crate::")
}

/// The first segment after every `prefix` (`crate::`, `super::`) in `source`.
fn paths_after(source: &str, prefix: &str) -> Vec<(usize, String)> {
    let mut code = String::with_capacity(source.len());
    for line in source.lines() {
        let line = match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        };
        code.push_str(line);
        code.push('\n');
    }
    let line_of = |offset: usize| code[..offset].matches('\n').count() + 1;
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = code[from..].find(prefix) {
        let start = from + i + prefix.len();
        from = start;
        // `$crate::` and names ending in `crate` are not paths from this crate's root.
        let before = code[..start - prefix.len()].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            continue;
        }
        let rest = &code[start..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 1;
            let mut segment_start = true;
            for (j, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    ',' if depth == 1 => segment_start = true,
                    c if segment_start && (c.is_alphanumeric() || c == '_') => {
                        segment_start = false;
                        let name: String = group[j..]
                            .chars()
                            .take_while(|c| c.is_alphanumeric() || *c == '_')
                            .collect();
                        out.push((line_of(start + 1 + j), name));
                    }
                    _ => {}
                }
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                out.push((line_of(start), name));
            }
        }
    }
    out
}

/// Every upward or sideways import in `files` (path relative to `src/`, text), as messages.
fn violations(lib_rs: &str, files: &[(String, String)]) -> Vec<String> {
    let layers = layers(lib_rs);
    let mut rank = BTreeMap::new();
    for (i, layer) in layers.iter().enumerate() {
        for m in layer {
            rank.insert(m.clone(), i + 1);
        }
    }
    let reexports = root_reexports(lib_rs);
    let mut problems = Vec::new();
    for m in declared_modules(lib_rs) {
        if !rank.contains_key(&m) {
            problems.push(format!("module `{m}` is in no layer of lib.rs's list"));
        }
    }
    for (path, text) in files {
        let module = path
            .split('/')
            .next()
            .unwrap_or_default()
            .trim_end_matches(".rs");
        if module == "lib" {
            continue;
        }
        let Some(&own) = rank.get(module) else {
            problems.push(format!("{path}: module `{module}` is in no layer"));
            continue;
        };
        for (line, name) in references(text) {
            let target = match reexports.get(&name) {
                Some(m) => m.as_str(),
                None => name.as_str(),
            };
            if target == module || BACK_EDGES.contains(&(module, target)) {
                continue;
            }
            match rank.get(target) {
                Some(&r) if r < own => {}
                Some(&r) => problems.push(format!(
                    "{path}:{line}: `{module}` (layer {own}) imports `{target}` (layer {r}); \
                     a module may import only layers below its own"
                )),
                // Macros and items defined in lib.rs itself (`crate::codegen`) sit above all.
                None if target == "codegen" || target == "include_tools" => problems.push(format!(
                    "{path}:{line}: `{module}` imports `{target}`, which is the root's"
                )),
                None => problems.push(format!("{path}:{line}: `crate::{name}` is in no layer")),
            }
        }
    }
    problems
}

/// Inside a directory module whose `mod.rs` lists layers of its own (as `http/mod.rs`
/// does), each file imports only the files listed below it: through `super::` or
/// `crate::DIR::`. `mod.rs` itself is the top (it declares and re-exports the others), so
/// an item a file takes from it is an upward import too. A file's inline test module, whose
/// `super` is the file itself, is left out.
fn directory_violations(files: &[(String, String)]) -> Vec<String> {
    let mut problems = Vec::new();
    for (path, text) in files {
        let Some(dir) = path.strip_suffix("/mod.rs") else {
            continue;
        };
        let layers = layers(text);
        if layers.is_empty() {
            continue;
        }
        let mut rank = BTreeMap::new();
        for (i, layer) in layers.iter().enumerate() {
            for m in layer {
                rank.insert(m.clone(), i + 1);
            }
        }
        for m in declared_modules(text) {
            if !rank.contains_key(&m) {
                problems.push(format!("{dir}/{m}.rs is in no layer of {path}'s list"));
            }
        }
        let prefix = format!("crate::{}::", dir.replace('/', "::"));
        for (child, text) in files {
            let Some(name) = child
                .strip_prefix(&format!("{dir}/"))
                .and_then(|c| c.strip_suffix(".rs"))
            else {
                continue;
            };
            if name == "mod" || name.contains('/') {
                continue;
            }
            let own = rank.get(name).copied().unwrap_or(usize::MAX);
            let code = without_test_module(text);
            let mut refs = paths_after(code, "super::");
            refs.extend(paths_after(code, &prefix));
            for (line, target) in refs {
                if target == name {
                    continue;
                }
                match rank.get(&target) {
                    Some(&r) if r < own => {}
                    Some(&r) => problems.push(format!(
                        "{child}:{line}: `{name}` (layer {own} of {dir}/) imports `{target}` \
                         (layer {r}); a file may import only files listed below it"
                    )),
                    None => problems.push(format!(
                        "{child}:{line}: `{name}` imports `{target}` from {dir}/mod.rs, the top \
                         of {dir}/; move it to a file of its own"
                    )),
                }
            }
        }
    }
    problems
}

/// `source` up to its `#[cfg(test)] mod …` (test modules come last).
fn without_test_module(source: &str) -> &str {
    let mut offset = 0;
    let mut lines = source.split_inclusive('\n').peekable();
    while let Some(line) = lines.next() {
        if line.trim() == "#[cfg(test)]"
            && lines
                .peek()
                .is_some_and(|next| next.trim_start().starts_with("mod "))
        {
            return &source[..offset];
        }
        offset += line.len();
    }
    source
}

fn sources(dir: &Path, prefix: &str, out: &mut Vec<(String, String)>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .expect("src/ is readable")
        .map(|e| e.expect("src/ entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let rel = format!("{prefix}{name}");
        if path.is_dir() {
            sources(&path, &format!("{rel}/"), out);
        } else if name.ends_with(".rs") {
            out.push((rel, fs::read_to_string(&path).expect("source is UTF-8")));
        }
    }
}

#[test]
fn every_import_points_down_the_stack() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib_rs = fs::read_to_string(src.join("lib.rs")).expect("lib.rs");
    assert!(
        layers(&lib_rs).len() >= 5,
        "lib.rs's module docs list the layers"
    );
    let mut files = Vec::new();
    sources(&src, "", &mut files);
    let mut problems = violations(&lib_rs, &files);
    problems.extend(directory_violations(&files));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

const LIB: &str = "//! 1. `protocol`: the wire\n//! 2. `peer`: one half\n//! 3. `context`, `tasks/`: two\n//! 4. `server`: top\n\
mod context;\nmod peer;\npub mod protocol;\nmod server;\npub mod tasks;\n\
pub use protocol::{Revision, RpcError};\npub use server::Server;\n";

fn check(files: &[(&str, &str)]) -> Vec<String> {
    let files: Vec<_> = files
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect();
    violations(LIB, &files)
}

#[test]
fn an_upward_import_is_reported() {
    assert_eq!(
        check(&[(
            "peer.rs",
            "use crate::protocol::X;\nuse crate::server::Server;\n"
        )]),
        [
            "peer.rs:2: `peer` (layer 2) imports `server` (layer 4); a module may import only layers below its own"
        ]
    );
    // Grouped, through a root re-export, in an expression, and within one layer.
    let found = check(&[
        (
            "protocol/mod.rs",
            "use crate::{\n    peer::Outbox,\n    Revision,\n};\n",
        ),
        ("peer.rs", "fn f() { let _ = crate::Server::builder; }\n"),
        ("tasks/mod.rs", "use crate::context::RequestContext;\n"),
    ]);
    assert_eq!(found.len(), 3, "{found:#?}");
    assert!(found[0].starts_with("protocol/mod.rs:2: `protocol` (layer 1) imports `peer`"));
    assert!(found[1].starts_with("peer.rs:1: `peer` (layer 2) imports `server`"));
    assert!(found[2].starts_with("tasks/mod.rs:1: `tasks` (layer 3) imports `context` (layer 3)"));
}

#[test]
fn downward_imports_comments_and_the_back_edge_pass() {
    assert!(
        check(&[
            (
                "server.rs",
                "use crate::{context::X, peer::{A, B}, protocol};\nuse crate::Revision;\n",
            ),
            (
                "context.rs",
                "use crate::server::Server; // the documented edge\n"
            ),
            (
                "peer.rs",
                "/// See [`Server`](crate::server::Server).\nuse crate::protocol::X;\n"
            ),
            (
                "protocol/revision.rs",
                "macro_rules! m { () => { $crate::x } }\n"
            ),
        ])
        .is_empty()
    );
}

#[test]
fn a_module_outside_the_list_is_reported() {
    let lib = format!("{LIB}mod stray;\n");
    let found = violations(&lib, &[("stray.rs".into(), String::new())]);
    assert_eq!(
        found,
        [
            "module `stray` is in no layer of lib.rs's list",
            "stray.rs: module `stray` is in no layer"
        ]
    );
}

#[test]
fn within_a_listed_directory_files_import_only_files_below() {
    let dir = |files: &[(&str, &str)]| {
        let files: Vec<_> = files
            .iter()
            .map(|(p, t)| (p.to_string(), t.to_string()))
            .collect();
        directory_violations(&files)
    };
    let mod_rs = "//! 1. `config`: options\n//! 2. `body`: bodies\n//! 3. `post`: POST\n\
                  mod body;\nmod config;\nmod post;\npub struct Top;\n";
    let found = dir(&[
        ("http/mod.rs", mod_rs),
        ("http/config.rs", "use super::body::Out;\n"),
        ("http/body.rs", "use super::{config::C, Top};\n"),
        (
            "http/post.rs",
            "use super::body::Out;\nuse crate::http::config::C;\n\
             #[cfg(test)]\nmod tests {\n    use super::*;\n}\n",
        ),
    ]);
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(found[0].starts_with("http/config.rs:1: `config` (layer 1 of http/) imports `body`"));
    assert!(found[1].starts_with("http/body.rs:1: `body` imports `Top` from http/mod.rs"));
    // A directory without a list of its own is not checked inside.
    assert!(
        dir(&[
            ("tasks/mod.rs", "mod dir;\n"),
            ("tasks/dir.rs", "use super::X;\n")
        ])
        .is_empty()
    );
}
