//! The layering check: the top-level modules of every library crate in the workspace form a
//! one-way stack, listed lowest first in `docs/architecture.md` (one section per crate, its
//! heading naming the crate's `src` folder). A module imports only modules of layers below its
//! own, through `crate::` paths, the root's re-exports, or `super::` paths that climb to the
//! crate root; the one allowed exception is [`BACK_EDGES`]. Inside a top-level module, files
//! are checked only where its `mod.rs` lists layers of its own in its module docs (the same
//! numbered form). The lists and the code cannot drift apart: a module missing from its
//! crate's list, listed twice, or listed but absent fails the check as an upward import does.
//!
//! The crate is tests only, with no dependencies: `cargo test -p toolidl-layering`.
#![cfg(test)]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Where the layer lists live, from the workspace root.
const ARCHITECTURE: &str = "docs/architecture.md";

/// The imports allowed to point upwards, as (crate source folder, from, to):
/// `RequestContext::server` hands a handler the server it runs in.
const BACK_EDGES: &[(&str, &str, &str)] = &[("runtime/src", "context", "server")];

/// A crate's section of the architecture document: its source folder (`runtime/src`) and its
/// layers, lowest first.
#[derive(Debug)]
struct Section {
    src: String,
    layers: Vec<Vec<String>>,
    problems: Vec<String>,
}

/// One numbered layer, `N. `a`, `b/`: what they do`, as its number and module names (a
/// trailing `/` dropped); `None` for any other line.
fn layer_item(line: &str) -> Option<(usize, Vec<String>)> {
    let (number, rest) = line.split_once(". ")?;
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let names = rest.split(':').next()?;
    let mut out = Vec::new();
    for name in names.split(',') {
        let name = name.trim().strip_prefix('`')?.strip_suffix('`')?;
        out.push(name.trim_end_matches('/').to_owned());
    }
    Some((number.parse().ok()?, out))
}

/// The layers of a numbered list, lowest first, with a problem for each number out of order.
fn numbered(lines: impl Iterator<Item = String>, what: &str) -> (Vec<Vec<String>>, Vec<String>) {
    let mut layers = Vec::new();
    let mut problems = Vec::new();
    for line in lines {
        let Some((number, modules)) = layer_item(&line) else {
            continue;
        };
        if number != layers.len() + 1 {
            problems.push(format!(
                "{what}: layer {number} follows layer {}; number the layers 1, 2, 3, …",
                layers.len()
            ));
        }
        layers.push(modules);
    }
    (layers, problems)
}

/// The crate sections of the architecture document: a heading with a `` `…/src` `` folder in
/// it opens one, any other heading closes it.
fn sections(doc: &str) -> Vec<Section> {
    let mut out = Vec::new();
    let mut current: Option<(String, Vec<String>)> = None;
    let finish = |current: Option<(String, Vec<String>)>, out: &mut Vec<Section>| {
        if let Some((src, lines)) = current {
            let (layers, problems) =
                numbered(lines.into_iter(), &format!("{ARCHITECTURE}, `{src}`"));
            out.push(Section {
                src,
                layers,
                problems,
            });
        }
    };
    for line in doc.lines() {
        if line.starts_with('#') {
            finish(current.take(), &mut out);
            current = line
                .split('`')
                .skip(1)
                .step_by(2)
                .find(|s| s.ends_with("/src"))
                .map(|src| (src.to_owned(), Vec::new()));
        } else if let Some((_, lines)) = current.as_mut() {
            lines.push(line.to_owned());
        }
    }
    finish(current, &mut out);
    out
}

/// The module docs' layer list of `lib.rs` or a `mod.rs` (`//! 1. `a`: …`).
fn doc_layers(source: &str, what: &str) -> (Vec<Vec<String>>, Vec<String>) {
    numbered(
        source
            .lines()
            .filter_map(|l| l.strip_prefix("//! ").map(str::to_owned)),
        what,
    )
}

/// The modules a file declares from files of their own (`mod x;`, `pub mod x;`,
/// `pub(crate) mod x;`), not inline ones.
fn declared_modules(source: &str) -> BTreeSet<String> {
    source
        .lines()
        .filter_map(|l| {
            let l = l.trim();
            let l = match l.strip_prefix("pub") {
                Some(rest) if rest.starts_with(' ') => rest.trim_start(),
                Some(rest) if rest.starts_with('(') => rest.split_once(')')?.1.trim_start(),
                _ => l,
            };
            let name = l.strip_prefix("mod ")?.strip_suffix(';')?;
            Some(name.trim().to_owned())
        })
        .collect()
}

/// The root's re-exports (`pub use module::{A, B};`, `pub use other_crate as name;`): which
/// module each name comes from (`None`: from another crate), so that `crate::A` counts as an
/// import of `module`.
fn root_reexports(lib_rs: &str, modules: &BTreeSet<String>) -> BTreeMap<String, Option<String>> {
    let mut out = BTreeMap::new();
    let mut text = String::new();
    let mut in_use = false;
    for line in lib_rs.lines() {
        // Only the root's own `pub use` items, not those of its inline modules.
        if !in_use && line.starts_with("pub use ") {
            in_use = true;
            text.clear();
        }
        if !in_use {
            continue;
        }
        text.push_str(line.trim());
        text.push(' ');
        let Some(path) = text.trim_end().strip_suffix(';') else {
            continue;
        };
        in_use = false;
        let path = path["pub use ".len()..].trim();
        let (first, names) = match path.split_once("::") {
            Some((first, names)) => (first, names),
            None => (path, path),
        };
        let source = modules.contains(first).then(|| first.to_owned());
        for name in names.trim_matches(|c| c == '{' || c == '}').split(',') {
            let name = name.trim();
            let name = match name.split_once(" as ") {
                Some((_, alias)) => alias.trim(),
                None => name.rsplit("::").next().unwrap_or_default(),
            };
            if !name.is_empty() && name != "self" {
                out.insert(name.to_owned(), source.clone());
            }
        }
    }
    out
}

/// `source` without its comments (to the end of the line; `//` inside a string literal cuts
/// the line too, which never hides a path in this workspace's style).
fn without_comments(source: &str) -> String {
    let mut code = String::with_capacity(source.len());
    for line in source.lines() {
        code.push_str(line.find("//").map_or(line, |i| &line[..i]));
        code.push('\n');
    }
    code
}

/// `source` up to its `#[cfg(test)] mod …` (test modules come last): inside it, `super` is the
/// file itself.
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

/// The first segment after each path that starts with `prefix` (`crate::`,
/// `super::super::`), grouped ones (`use crate::{a::x, b}`) included, with its line number.
/// `prefix` must start a path: `$crate::`, `x::crate::` and a longer run of `super::` do not
/// count.
fn paths_after(code: &str, prefix: &str) -> Vec<(usize, String)> {
    let line_of = |offset: usize| code[..offset].matches('\n').count() + 1;
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = code[from..].find(prefix) {
        let at = from + i;
        let start = at + prefix.len();
        from = start;
        let before = &code[..at];
        if before.ends_with(|c: char| ident(c) || c == '$' || c == ':') {
            continue;
        }
        let rest = &code[start..];
        if prefix.starts_with("super") && rest.starts_with("super::") {
            continue;
        }
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
                    c if segment_start && ident(c) => {
                        segment_start = false;
                        let name: String = group[j..].chars().take_while(|c| ident(*c)).collect();
                        out.push((line_of(start + 1 + j), name));
                    }
                    _ => {}
                }
            }
        } else {
            let name: String = rest.chars().take_while(|c| ident(*c)).collect();
            if !name.is_empty() {
                out.push((line_of(start), name));
            }
        }
    }
    out
}

/// How deep a file's module sits below `dir` (`a.rs` and `a/mod.rs`: 1, `a/b.rs`: 2).
fn depth(path: &str) -> usize {
    let segments = path.split('/').count();
    if path.ends_with("/mod.rs") {
        segments - 1
    } else {
        segments
    }
}

/// The paths of `text` (a file `depth` modules below some folder) that name an item of that
/// folder's module: `super::` repeated `depth` times (outside the test module, where `super`
/// is the file itself), and every path starting with `absolute` (`crate::`, `crate::http::`),
/// in the test module too when `tests`.
fn paths_into(text: &str, depth: usize, absolute: &str, tests: bool) -> Vec<(usize, String)> {
    let code = without_comments(text);
    let code_only = without_test_module(&code);
    let mut out = paths_after(if tests { &code } else { code_only }, absolute);
    out.extend(paths_after(code_only, &"super::".repeat(depth)));
    out.sort();
    out
}

/// Every problem with one crate: modules outside its layers, and imports that point up or
/// sideways. `files` are the crate's sources, with paths relative to its `src/`.
fn crate_violations(section: &Section, files: &[(String, String)]) -> Vec<String> {
    let src = &section.src;
    let mut problems = section.problems.clone();
    let Some((_, lib_rs)) = files.iter().find(|(p, _)| p == "lib.rs") else {
        return vec![format!("{src}/lib.rs is missing")];
    };
    let modules = declared_modules(lib_rs);
    let mut rank = BTreeMap::new();
    for (i, layer) in section.layers.iter().enumerate() {
        for m in layer {
            if rank.insert(m.clone(), i + 1).is_some() {
                problems.push(format!("{ARCHITECTURE}, `{src}`: `{m}` is listed twice"));
            }
            if !modules.contains(m) {
                problems.push(format!(
                    "{ARCHITECTURE}, `{src}`: `{m}` is listed but {src}/lib.rs declares no such module"
                ));
            }
        }
    }
    for m in &modules {
        if !rank.contains_key(m) {
            problems.push(format!(
                "{src}/lib.rs: module `{m}` is in no layer of {ARCHITECTURE}'s list for `{src}`"
            ));
        }
    }
    let reexports = root_reexports(lib_rs, &modules);
    for (path, text) in files {
        let module = path
            .split('/')
            .next()
            .unwrap_or_default()
            .trim_end_matches(".rs");
        // lib.rs sits on top; files of no module of lib.rs belong to a binary (main.rs).
        if !modules.contains(module) {
            continue;
        }
        let Some(&own) = rank.get(module) else {
            continue;
        };
        for (line, name) in paths_into(text, depth(path), "crate::", true) {
            let target = match reexports.get(&name) {
                Some(Some(m)) => m.as_str(),
                Some(None) => continue,
                None => name.as_str(),
            };
            if target == module || BACK_EDGES.contains(&(src.as_str(), module, target)) {
                continue;
            }
            match rank.get(target) {
                Some(&r) if r < own => {}
                Some(&r) => problems.push(format!(
                    "{src}/{path}:{line}: `{module}` (layer {own}) imports `{target}` (layer {r}); \
                     a module may import only layers below its own"
                )),
                None => problems.push(format!(
                    "{src}/{path}:{line}: `{module}` imports `{name}` from lib.rs, which sits above \
                     every layer; move it to a module of its own"
                )),
            }
        }
    }
    problems.extend(directory_violations(src, files));
    problems
}

/// Inside a folder whose `mod.rs` lists layers of its own (the runtime's `http/`), each file
/// imports only the files listed below it, through `super::` or `crate::folder::` paths.
/// `mod.rs` itself is the top (it declares and re-exports the others), so an item a file
/// takes from it is an upward import too. A file's test module may import any of them.
fn directory_violations(src: &str, files: &[(String, String)]) -> Vec<String> {
    let mut problems = Vec::new();
    for (path, text) in files {
        let Some(dir) = path.strip_suffix("/mod.rs") else {
            continue;
        };
        let (layers, mut found) = doc_layers(text, &format!("{src}/{path}"));
        if layers.is_empty() {
            continue;
        }
        problems.append(&mut found);
        let mut rank = BTreeMap::new();
        for (i, layer) in layers.iter().enumerate() {
            for m in layer {
                rank.insert(m.clone(), i + 1);
            }
        }
        for m in declared_modules(text) {
            if !rank.contains_key(&m) {
                problems.push(format!(
                    "{src}/{dir}/{m}.rs is in no layer of {src}/{path}'s list"
                ));
            }
        }
        let absolute = format!("crate::{}::", dir.replace('/', "::"));
        for (child, text) in files {
            let Some(inside) = child.strip_prefix(&format!("{dir}/")) else {
                continue;
            };
            let name = inside
                .split('/')
                .next()
                .unwrap_or_default()
                .trim_end_matches(".rs");
            if name == "mod" {
                continue;
            }
            let own = rank.get(name).copied().unwrap_or(usize::MAX);
            for (line, target) in paths_into(text, depth(inside), &absolute, false) {
                if target == name {
                    continue;
                }
                match rank.get(&target) {
                    Some(&r) if r < own => {}
                    Some(&r) => problems.push(format!(
                        "{src}/{child}:{line}: `{name}` (layer {own} of {dir}/) imports `{target}` \
                         (layer {r}); a file may import only files listed below it"
                    )),
                    None => problems.push(format!(
                        "{src}/{child}:{line}: `{name}` imports `{target}` from {dir}/mod.rs, the \
                         top of {dir}/; move it to a file of its own"
                    )),
                }
            }
        }
    }
    problems
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every `.rs` file under `dir`, with its path relative to `dir`, sorted.
fn sources(dir: &Path, prefix: &str, out: &mut Vec<(String, String)>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let rel = format!("{prefix}{name}");
        if path.is_dir() {
            sources(&path, &format!("{rel}/"), out);
        } else if name.ends_with(".rs") {
            let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{rel}: {e}"));
            out.push((rel, text));
        }
    }
}

/// The workspace's library crates, as their source folders: the members with a `src/lib.rs`
/// that are published (examples, test and benchmark crates say `publish = false`).
fn library_crates(root: &Path) -> Vec<String> {
    let manifest = fs::read_to_string(root.join("Cargo.toml")).expect("the workspace manifest");
    let members = manifest
        .split_once("members = [")
        .and_then(|(_, rest)| rest.split_once(']'))
        .expect("the workspace's members")
        .0;
    members
        .split(',')
        .map(|m| m.trim().trim_matches('"'))
        .filter(|m| !m.is_empty() && root.join(m).join("src/lib.rs").is_file())
        .filter(|m| {
            let package = fs::read_to_string(root.join(m).join("Cargo.toml")).unwrap_or_default();
            !package
                .lines()
                .any(|l| l.replace(' ', "") == "publish=false")
        })
        .map(|m| format!("{m}/src"))
        .collect()
}

#[test]
fn every_library_crate_is_a_one_way_stack() {
    let root = workspace();
    let doc = fs::read_to_string(root.join(ARCHITECTURE)).expect("docs/architecture.md");
    let sections = sections(&doc);
    let mut problems = Vec::new();
    let crates = library_crates(&root);
    assert!(crates.len() >= 6, "the library crates: {crates:?}");
    for src in &crates {
        let Some(section) = sections.iter().find(|s| &s.src == src) else {
            problems.push(format!(
                "{src}: no section of {ARCHITECTURE} lists its layers (a heading naming `{src}`)"
            ));
            continue;
        };
        let mut files = Vec::new();
        sources(&root.join(src), "", &mut files);
        problems.extend(crate_violations(section, &files));
    }
    for section in &sections {
        if !crates.contains(&section.src) {
            problems.push(format!(
                "{ARCHITECTURE}: `{}` is no library crate of the workspace",
                section.src
            ));
        }
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

/// The architecture document's section for a small crate, in the form the real one takes.
const DOC: &str = "# Architecture\n\n1. not a layer list: `x`\n\n\
### `toolidl-runtime` (`runtime/src`)\n\n\
1. `protocol`: the wire\n2. `peer`: one half\n3. `context`, `tasks/`: two\n   more text\n4. `server`: top\n\n\
## Where each concern lives\n\n1. `elsewhere`: not a layer\n";

const LIB: &str = "//! The crate.\n\
mod context;\nmod peer;\npub mod protocol;\npub(crate) mod server;\npub mod tasks;\n\
pub use protocol::{Revision, RpcError};\npub use server::Server;\npub use other_crate as other;\n";

fn check_with(lib: &str, files: &[(&str, &str)]) -> Vec<String> {
    let mut all = vec![("lib.rs".to_owned(), lib.to_owned())];
    all.extend(files.iter().map(|(p, t)| (p.to_string(), t.to_string())));
    let section = sections(DOC).pop().expect("one section");
    crate_violations(&section, &all)
}

fn check(files: &[(&str, &str)]) -> Vec<String> {
    check_with(LIB, files)
}

#[test]
fn the_document_s_sections_are_read() {
    let found = sections(DOC);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].src, "runtime/src");
    assert_eq!(
        found[0].layers,
        [
            vec!["protocol"],
            vec!["peer"],
            vec!["context", "tasks"],
            vec!["server"]
        ]
    );
    let gap = sections("### `a/src`\n\n1. `x`: one\n3. `y`: three\n");
    assert_eq!(
        gap[0].problems,
        ["docs/architecture.md, `a/src`: layer 3 follows layer 1; number the layers 1, 2, 3, …"]
    );
}

#[test]
fn an_upward_import_is_reported() {
    assert_eq!(
        check(&[(
            "peer.rs",
            "use crate::protocol::X;\nuse crate::server::Server;\n"
        )]),
        [
            "runtime/src/peer.rs:2: `peer` (layer 2) imports `server` (layer 4); a module may import only layers below its own"
        ]
    );
    // Grouped, through a root re-export, in an expression, within one layer, and through
    // `super::` from a top-level file or folder.
    let found = check(&[
        (
            "protocol/mod.rs",
            "use crate::{\n    peer::Outbox,\n    Revision,\n};\n",
        ),
        ("peer.rs", "fn f() { let _ = crate::Server::builder; }\n"),
        ("tasks/mod.rs", "use crate::context::RequestContext;\n"),
        ("tasks/store.rs", "use super::super::server::Server;\n"),
        ("context.rs", "use super::{peer::Outbox, tasks::Store};\n"),
    ]);
    let mut found = found;
    found.sort();
    assert_eq!(found.len(), 5, "{found:#?}");
    assert!(found[0].starts_with("runtime/src/context.rs:1: `context` (layer 3) imports `tasks`"));
    assert!(found[1].starts_with("runtime/src/peer.rs:1: `peer` (layer 2) imports `server`"));
    assert!(
        found[2].starts_with("runtime/src/protocol/mod.rs:2: `protocol` (layer 1) imports `peer`")
    );
    assert!(
        found[3].starts_with(
            "runtime/src/tasks/mod.rs:1: `tasks` (layer 3) imports `context` (layer 3)"
        )
    );
    assert!(
        found[4].starts_with(
            "runtime/src/tasks/store.rs:1: `tasks` (layer 3) imports `server` (layer 4)"
        )
    );
}

#[test]
fn downward_imports_comments_tests_other_crates_and_the_back_edge_pass() {
    assert_eq!(
        check(&[
            (
                "server.rs",
                "use crate::{context::X, peer::{A, B}, protocol};\nuse crate::Revision;\n",
            ),
            (
                "context.rs",
                "use crate::server::Server; // the documented edge\nuse crate::other::Thing;\n"
            ),
            (
                "peer.rs",
                "/// See [`Server`](crate::server::Server).\nuse crate::protocol::X;\n\
                 #[cfg(test)]\nmod tests {\n    use super::super::peer::X;\n    use super::*;\n}\n"
            ),
            (
                "protocol/revision.rs",
                "macro_rules! m { () => { $crate::x } }\nuse super::Revision;\nuse other::crate::x;\n"
            ),
            ("main.rs", "mod cli;\nuse crate::cli::Args;\n"),
            ("cli.rs", "use crate::server::Server;\n"),
        ]),
        Vec::<String>::new()
    );
}

#[test]
fn modules_outside_the_list_and_items_of_the_root_are_reported() {
    let lib = format!("{LIB}mod stray;\npub fn helper() {{}}\n");
    let found = check_with(
        &lib,
        &[("stray.rs", ""), ("peer.rs", "use crate::helper;\n")],
    );
    assert_eq!(
        found,
        [
            "runtime/src/lib.rs: module `stray` is in no layer of docs/architecture.md's list for `runtime/src`",
            "runtime/src/peer.rs:1: `peer` imports `helper` from lib.rs, which sits above every layer; move it to a module of its own",
        ]
    );
    let lib = LIB.replace("pub mod tasks;\n", "");
    assert_eq!(
        check_with(&lib, &[]),
        [
            "docs/architecture.md, `runtime/src`: `tasks` is listed but runtime/src/lib.rs declares no such module"
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
        directory_violations("runtime/src", &files)
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
    assert!(
        found[0].starts_with(
            "runtime/src/http/config.rs:1: `config` (layer 1 of http/) imports `body`"
        )
    );
    assert!(
        found[1].starts_with("runtime/src/http/body.rs:1: `body` imports `Top` from http/mod.rs")
    );
    // A directory without a list of its own is not checked inside.
    assert!(
        dir(&[
            ("tasks/mod.rs", "mod dir;\n"),
            ("tasks/dir.rs", "use super::X;\n")
        ])
        .is_empty()
    );
}
