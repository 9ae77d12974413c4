//! Golden tests of the generated Rust: every `tests/golden/codegen/*.tool` file, generated
//! with default options, against its reviewed `insta` snapshot in
//! `tests/golden/codegen/snapshots/`; every `invalid/*.tool` against its rendered
//! diagnostics. Accept an intended change with `cargo insta review` (or
//! `INSTA_UPDATE=always cargo test -p toolidl-codegen --test it golden_rust::`), then read the
//! diff by eye.

use std::path::{Path, PathBuf};

use toolidl::source::{MemoryLoader, SourceId};
use toolidl_codegen::rust::{self, RustOptions};

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/golden/codegen")
}

/// Every `.tool` file of `dir`, by file name, in order.
fn tool_files(dir: &Path) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = std::fs::read_dir(dir)
        .expect("golden directory")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "tool"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).expect("read golden"))
        })
        .collect();
    files.sort();
    files
}

fn settings() -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(golden_dir().join("snapshots"));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings
}

/// The generated files of one root, each under a line naming it.
fn generated(loader: &MemoryLoader, name: &str, text: &str) -> String {
    let output = toolidl::compile(loader, SourceId::new(name), text.to_string());
    assert!(!output.has_errors(), "{name}:\n{}", output.render());
    let model = output.model.expect("model");
    let problems = rust::check(&model, &output.locations);
    assert!(problems.is_empty(), "{name}: {problems:?}");
    let files = rust::generate(&[&model], &RustOptions::default()).expect("generate");
    let mut out = String::new();
    for file in files {
        out.push_str(&format!("// ---- {} ----\n", file.file_name));
        out.push_str(&file.code);
    }
    out
}

#[test]
fn generated_rust_matches_the_snapshots() {
    let files = tool_files(&golden_dir());
    assert!(files.len() >= 8, "golden inputs missing");
    let mut loader = MemoryLoader::new();
    for (name, text) in &files {
        loader.insert(name, text.clone());
    }
    let settings = settings();
    for (name, text) in &files {
        let code = generated(&loader, name, text);
        // The output parses as Rust (the compile test builds it for real).
        for part in code.split("// ---- ").skip(1) {
            let body = part.split_once('\n').map_or("", |(_, b)| b);
            syn::parse_file(body).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        let stem = name.trim_end_matches(".tool");
        settings.bind(|| insta::assert_snapshot!(stem, code));
    }
}

#[test]
fn generation_is_deterministic() {
    let files = tool_files(&golden_dir());
    let mut loader = MemoryLoader::new();
    for (name, text) in &files {
        loader.insert(name, text.clone());
    }
    for (name, text) in &files {
        assert_eq!(
            generated(&loader, name, text),
            generated(&loader, name, text)
        );
    }
}

#[test]
fn generator_diagnostics_match_the_snapshots() {
    let dir = golden_dir().join("invalid");
    let files = tool_files(&dir);
    assert!(!files.is_empty());
    let settings = settings();
    for (name, text) in &files {
        let path = format!("invalid/{name}");
        let output = toolidl::compile(&MemoryLoader::new(), SourceId::new(&path), text.clone());
        assert!(
            !output.has_errors(),
            "{path} must resolve:\n{}",
            output.render()
        );
        let model = output.model.expect("model");
        let problems = rust::check(&model, &output.locations);
        assert!(!problems.is_empty(), "{path}: expected diagnostics");
        let rendered = toolidl::diagnostics::render_all(&problems, &output.sources);
        let stem = format!("invalid_{}", name.trim_end_matches(".tool"));
        settings.bind(|| insta::assert_snapshot!(stem, rendered));
    }
}

#[test]
fn several_roots_share_an_imported_package() {
    let files = tool_files(&golden_dir());
    let mut loader = MemoryLoader::new();
    for (name, text) in &files {
        loader.insert(name, text.clone());
    }
    let compile = |name: &str, text: &str| {
        toolidl::compile(&loader, SourceId::new(name), text.to_string())
            .model
            .expect("model")
    };
    let shop = compile(
        "shop.tool",
        &files.iter().find(|f| f.0 == "shop.tool").unwrap().1,
    );
    let common = compile(
        "shop_common.tool",
        &files.iter().find(|f| f.0 == "shop_common.tool").unwrap().1,
    );
    let both = rust::generate(&[&shop, &common], &RustOptions::default()).expect("generate");
    let names: Vec<&str> = both.iter().map(|f| f.file_name.as_str()).collect();
    assert_eq!(names, ["acme.common.rs", "acme.shop.rs"]);
    let alone = rust::generate(&[&common], &RustOptions::default()).expect("generate");
    assert_eq!(
        alone[0], both[0],
        "an imported package is generated the same either way"
    );
}

/// The typed clients (`client: true`) of the goldens that have every result kind
/// (`results`), resources and prompts (`weather`, `resources`), and an enum, a record and
/// constraints (`shop`), against their `.client` snapshots: the client items only, which
/// follow the server's (tests/generated compiles a client for every golden).
#[test]
fn clients_match_their_snapshots() {
    let files = tool_files(&golden_dir());
    let mut loader = MemoryLoader::new();
    for (name, text) in &files {
        loader.insert(name, text.clone());
    }
    for name in [
        "results.tool",
        "weather.tool",
        "resources.tool",
        "shop.tool",
    ] {
        let text = &files.iter().find(|(n, _)| n == name).expect("golden").1;
        let output = toolidl::compile(&loader, SourceId::new(name), text.clone());
        assert!(!output.has_errors(), "{}", output.render());
        let model = output.model.expect("model");
        let options = RustOptions {
            client: true,
            ..RustOptions::default()
        };
        let with = rust::generate(&[&model], &options).expect("generate");
        let without = rust::generate(&[&model], &RustOptions::default()).expect("generate");
        let root = with
            .iter()
            .find(|f| f.package == model.package)
            .expect("the root's package");
        syn::parse_file(&root.code).unwrap_or_else(|e| panic!("{name}: {e}"));
        let start = root
            .code
            .find("/// Calls a server of")
            .unwrap_or_else(|| panic!("{name}: no client"));
        let server_part = root.code[..start].trim_end();
        let plain = without
            .iter()
            .find(|f| f.package == model.package)
            .expect("the root's package");
        assert_eq!(
            server_part,
            plain.code.trim_end(),
            "{name}: the client adds items after the server's and changes none of them"
        );
        let stem = format!("{}.client", name.trim_end_matches(".tool"));
        settings().bind(|| insta::assert_snapshot!(stem, &root.code[start..]));
    }
}

/// A tool whose client method would take the name of one of the client's own methods is
/// refused, naming the declaration.
#[test]
fn a_tool_named_like_a_client_method_is_refused() {
    let text = "package clash;\nservice Jobs {\n    tool spawn(name: string) -> string;\n}\n";
    let output = toolidl::compile(
        &MemoryLoader::new(),
        SourceId::new("clash.tool"),
        text.into(),
    );
    assert!(!output.has_errors(), "{}", output.render());
    let model = output.model.expect("model");
    assert!(rust::generate(&[&model], &RustOptions::default()).is_ok());
    let options = RustOptions {
        client: true,
        ..RustOptions::default()
    };
    let error = rust::generate(&[&model], &options).unwrap_err();
    assert_eq!(
        error.message,
        "service `Jobs`, tool `spawn`: its client method would be `spawn`, which `JobsClient` \
         has already (it makes the client); rename the tool and keep its published name with \
         `@name(\"spawn\")`, or generate without the client"
    );
}

/// `typed_formats.tool` generated with `typed_formats: true`, against its `.typed` snapshot
/// (tests/generated compiles and runs it).
#[test]
fn typed_formats_match_their_snapshot() {
    let name = "typed_formats.tool";
    let text = std::fs::read_to_string(golden_dir().join(name)).expect("read golden");
    let output = toolidl::compile(&MemoryLoader::new(), SourceId::new(name), text);
    assert!(!output.has_errors(), "{}", output.render());
    let model = output.model.expect("model");
    let options = RustOptions {
        typed_formats: true,
        ..RustOptions::default()
    };
    let files = rust::generate(&[&model], &options).expect("generate");
    assert_eq!(files.len(), 1);
    let code = &files[0].code;
    syn::parse_file(code).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(
        !code.contains("String::from(\"2026-01-01\")"),
        "a typed default is built typed"
    );
    settings().bind(|| insta::assert_snapshot!("typed_formats.typed", code));
}

#[test]
fn extern_paths_replace_a_package() {
    let files = tool_files(&golden_dir());
    let mut loader = MemoryLoader::new();
    for (name, text) in &files {
        loader.insert(name, text.clone());
    }
    let text = &files.iter().find(|f| f.0 == "shop.tool").unwrap().1;
    let model = toolidl::compile(&loader, SourceId::new("shop.tool"), text.clone())
        .model
        .expect("model");
    let options = RustOptions {
        extern_paths: vec![("acme.common".into(), "::common_types".into())],
        ..RustOptions::default()
    };
    let files = rust::generate(&[&model], &options).expect("generate");
    assert_eq!(files.len(), 1);
    assert!(files[0].code.contains("::common_types::Money"));
}

#[test]
fn the_include_file_nests_packages() {
    let file = rust::include_file(&["acme.shop".into(), "acme.common".into(), "weather".into()]);
    let expected = "// @generated by toolidl — do not edit

pub mod acme {
    pub mod common {
        include!(\"acme.common.rs\");
    }
    pub mod shop {
        include!(\"acme.shop.rs\");
    }
}
pub mod weather {
    include!(\"weather.rs\");
}
";
    assert_eq!(file, expected);
}

/// Every build carries each tool's standard listing once, marked so that the runtime derives
/// each profile's from it (published name and all), and dispatches by the `.tool` file's names
/// (the runtime maps a published name back); a build with a profile only makes it the
/// service's default.
#[test]
fn every_build_derives_the_profiles_listings_and_a_profile_is_a_default() {
    let (name, text) = tool_files(&golden_dir())
        .into_iter()
        .find(|(n, _)| n == "weather.tool")
        .expect("weather.tool");
    let output = toolidl::compile(&MemoryLoader::new(), SourceId::new(&name), text);
    let model = output.model.expect("model");
    let generate = |profile| {
        let options = RustOptions {
            profile,
            ..RustOptions::default()
        };
        rust::generate(&[&model], &options).expect("generate")[0]
            .code
            .clone()
    };
    let standard = generate(toolidl_codegen::profile::Profile::Standard);
    let gemini = generate(toolidl_codegen::profile::Profile::Gemini);
    assert!(standard.contains(r#""forecast.daily" =>"#), "{standard}");
    let squeezed = |code: &str| code.split_whitespace().collect::<String>();
    assert!(
        squeezed(&standard).contains(r#"rt::ToolDef::new("forecast.daily","#),
        "{standard}"
    );
    assert_eq!(
        standard.matches(".derive_profiles()").count(),
        standard.matches("rt::ToolDef::new(").count(),
        "{standard}"
    );
    assert!(!standard.contains("forecast_daily"), "{standard}");
    assert!(!standard.contains("fn default_profile"), "{standard}");
    let default = "fndefault_profile(&self)->rt::Profile{rt::Profile::Gemini}";
    assert!(squeezed(&gemini).contains(default), "{gemini}");
    assert_eq!(
        squeezed(&gemini).replacen(default, "", 1),
        squeezed(&standard)
    );
}

/// Every `.tool` file under `dir` (recursively), by path relative to `dir`.
fn tool_files_under(dir: &Path, prefix: &str, out: &mut Vec<(String, String)>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let relative = format!("{prefix}{name}");
        if path.is_dir() {
            tool_files_under(&path, &format!("{relative}/"), out);
        } else if name.ends_with(".tool") {
            out.push((relative, std::fs::read_to_string(&path).expect("read")));
        }
    }
}

/// Generated tools store their standard listing only; a server serving a profile derives the
/// profile's from it (`ToolDef::derive_profiles`, `toolidl_formats::publish::publish_tool_json`).
/// The derivation, from the listing's JSON text, is exactly what the generator publishes
/// (`profile::publish`, which `toolidl lint` and `toolidl schema --profile` show): every tool
/// of every valid `.tool` file of the goldens and the examples, under every profile, with
/// records inline and hoisted to `$defs`.
#[test]
fn each_profiles_listing_derives_from_the_standard_one_as_the_generator_publishes_it() {
    use toolidl_codegen::profile::{self, Profile};
    use toolidl_codegen::{SchemaOptions, listings};
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut compared = 0;
    for dir in ["tests/golden", "examples"] {
        let mut files = Vec::new();
        tool_files_under(&root.join(dir), "", &mut files);
        let mut loader = MemoryLoader::new();
        for (name, text) in &files {
            loader.insert(name, text.clone());
        }
        for (name, text) in &files {
            let output = toolidl::compile(&loader, SourceId::new(name), text.clone());
            if output.has_errors() {
                continue;
            }
            let Some(model) = output.model else {
                continue;
            };
            for hoist_shared in [false, true] {
                let Ok(standard) = listings(&model, &SchemaOptions { hoist_shared }) else {
                    continue;
                };
                for p in Profile::ALL {
                    let mut published = standard.clone();
                    profile::publish(&mut published, p);
                    let pairs = standard.services.iter().zip(&published.services);
                    for (service, variant) in pairs {
                        for (tool, expected) in service.tools.iter().zip(&variant.tools) {
                            let derived = profile::publish_tool_json(&tool.json(), p);
                            assert_eq!(
                                derived,
                                Some((expected.name.clone(), expected.json())),
                                "{dir}/{name}: `{}` under {p:?}",
                                tool.name
                            );
                            compared += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(compared > 1000, "only {compared} listings compared");
}
