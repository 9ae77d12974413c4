//! The build.rs API: compile `.tool` files, generate Rust, write it to `OUT_DIR`, tell cargo.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use toolidl::diagnostics::{self, Diagnostic};
use toolidl::model::Model;
use toolidl_codegen::bundle::{self, Author, BundleInfo};
use toolidl_codegen::profile::Profile;
use toolidl_codegen::rust::{self, GeneratedFile, RustOptions};
use toolidl_codegen::{Listings, SchemaOptions, listings};

use crate::Error;
use crate::compile::load;

/// The name of the file, written beside the packages' files, that nests every package's
/// module by its package path (`pub mod acme { pub mod common { include!("acme.common.rs"); } }`).
pub const INCLUDE_FILE: &str = "_toolidl.rs";

/// The MCP Bundle manifest [`Builder::mcpb_manifest`] writes beside the packages' files.
pub const MCPB_MANIFEST_FILE: &str = "manifest.json";

/// Compiles `.tool` files with the default options: `configure().compile(roots)`.
///
/// Paths are relative to the current folder, which for a build script is the crate's folder
/// (where its `Cargo.toml` is). See [`Builder::compile`].
pub fn compile<P: AsRef<Path>>(roots: &[P]) -> Result<Compiled, Error> {
    configure().compile(roots)
}

/// A [`Builder`] with the default options, to change some before compiling.
pub fn configure() -> Builder {
    Builder::default()
}

/// Options of a build: where the generated files go, what the generated Rust looks like, and
/// what is told to cargo.
#[derive(Debug, Clone)]
#[must_use]
pub struct Builder {
    out_dir: Option<PathBuf>,
    options: RustOptions,
    emit_rerun_if_changed: bool,
    emit_warnings: bool,
    include_file: bool,
    /// Forward bindings to read when compiling.
    forward: Vec<PathBuf>,
    mcpb_manifest: Option<BundleInfo>,
}

impl Default for Builder {
    fn default() -> Self {
        Builder {
            out_dir: None,
            forward: Vec::new(),
            options: RustOptions::default(),
            emit_rerun_if_changed: true,
            emit_warnings: true,
            include_file: true,
            mcpb_manifest: None,
        }
    }
}

/// What a successful [`Builder::compile`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Compiled {
    /// Every `.tool` file read, roots and imports, each once, in the order first read: the
    /// paths given cargo in `cargo:rerun-if-changed`.
    pub files_read: Vec<PathBuf>,
    /// The packages generated, sorted; each is the file `<package>.rs` in the output folder.
    pub packages: Vec<String>,
    /// The files actually rewritten (content changed or file new); empty when nothing changed.
    pub written: Vec<PathBuf>,
    /// Every warning, each rendered as `toolidl check` renders it (ending with a newline).
    pub warnings: Vec<String>,
}

/// What [`Builder::generate`] produced, in memory.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Generated {
    /// As [`Compiled::files_read`].
    pub files_read: Vec<PathBuf>,
    /// One file per package, sorted by package.
    pub files: Vec<GeneratedFile>,
    /// As [`Compiled::warnings`].
    pub warnings: Vec<String>,
}

impl Builder {
    /// The folder the generated files are written to. Default: the environment variable
    /// `OUT_DIR`, which cargo sets for build scripts. Relative paths are relative to the
    /// current folder. Created when missing.
    pub fn out_dir(mut self, path: impl Into<PathBuf>) -> Self {
        self.out_dir = Some(path.into());
        self
    }

    /// How generated code names the runtime crate. Default `::toolidl_runtime`.
    pub fn runtime_crate(mut self, path: impl Into<String>) -> Self {
        self.options.runtime_crate = path.into();
        self
    }

    /// Hoist records used more than once in a schema to `$defs` in the embedded listings.
    /// Default `false`: inline schemas are the portable ones.
    pub fn hoist_shared(mut self, hoist: bool) -> Self {
        self.options.hoist_shared = hoist;
        self
    }

    /// Typed format values: `uuid`, `datetime`, `date`, `time`, `duration` and `uri` values
    /// become the types of `toolidl_runtime::typed` instead of checked `String`s. Default
    /// `false`. The runtime needs its `typed-formats` feature:
    ///
    /// ```toml
    /// [dependencies]
    /// toolidl-runtime = { version = "0.2", features = ["typed-formats"] }
    /// ```
    ///
    /// | `.tool` | Rust |
    /// | --- | --- |
    /// | `uuid` | `uuid::Uuid` |
    /// | `datetime` | `chrono::DateTime<chrono::FixedOffset>` |
    /// | `date` | `chrono::NaiveDate` |
    /// | `time` | `toolidl_runtime::typed::Time` (a `chrono::NaiveTime` and its optional offset) |
    /// | `duration` | `toolidl_runtime::typed::Duration` (a `chrono::TimeDelta`: the `.tool` duration `[-][d.]hh:mm:ss[.fffffff]` is a fixed length, not an ISO 8601 calendar duration) |
    /// | `uri` | `iri_string::types::UriString` (RFC 3986, the text kept as sent; `url::Url` would refuse or rewrite some URIs the format accepts) |
    ///
    /// The same texts are accepted as with `String`s, and values are written back in their
    /// format; fractions of a second past nanoseconds are dropped (docs/build.md lists what
    /// is not kept). The crates are re-exported by `toolidl_runtime::typed`.
    ///
    /// ```no_run
    /// // build.rs
    /// toolidl_build::configure()
    ///     .typed_formats(true)
    ///     .compile(&["tools/calendar.tool"])
    ///     .unwrap();
    /// ```
    pub fn typed_formats(mut self, typed: bool) -> Self {
        self.options.typed_formats = typed;
        self
    }

    /// Also generates, per service, a typed client `XxxClient` beside the server (default
    /// off, as tonic's `build_client`): one async method per tool, resource and prompt,
    /// taking the input structs the server decodes and returning the declared types, each
    /// result checked as the server checks arguments. The runtime needs its `client`
    /// feature (docs/client.md).
    ///
    /// ```no_run
    /// // build.rs
    /// toolidl_build::configure()
    ///     .client(true)
    ///     .compile(&["tools/weather.tool"])
    ///     .unwrap();
    /// ```
    pub fn client(mut self, client: bool) -> Self {
        self.options.client = client;
        self
    }

    /// Also generates, for the service a forward binding names (the file `toolidl import
    /// --openapi … --forward FILE` writes), handlers that forward each bound tool to the HTTP
    /// API it was imported from: `XxxForward`, a trait whose only required method is
    /// `upstream` (every bound tool's method defaults to its generated request, and may be
    /// overridden to wrap or replace it), implementing the service's trait, and
    /// `XxxRequests`, the requests themselves. The runtime needs its `forward` feature
    /// (docs/openapi.md). The binding is read when compiling (and is a
    /// `rerun-if-changed` path); one that does not fit the service fails the build, naming
    /// the tool.
    ///
    /// ```no_run
    /// // build.rs
    /// toolidl_build::configure()
    ///     .forward("tools/petstore.forward.json")
    ///     .compile(&["tools/petstore.tool"])
    ///     .unwrap();
    /// ```
    pub fn forward(mut self, binding: impl Into<PathBuf>) -> Self {
        self.forward.push(binding.into());
        self
    }

    /// Publishes the listings a client profile accepts (`Profile::Gemini`, …; default
    /// `Profile::Standard`): tool names and input schemas as `toolidl schema --profile`
    /// prints them, the server answering to the published names. Decoding and every check
    /// stay those of the `.tool` file (docs/lint.md says what each profile moves from the
    /// schema into the server).
    pub fn profile(mut self, profile: Profile) -> Self {
        self.options.profile = profile;
        self
    }

    /// Adds a Rust attribute (such as `#[derive(Hash)]`) to generated records and enums
    /// matched by `path`: `.` (every type), a package (`acme.common`) or a type
    /// (`acme.common.Page`). An `attribute` that is not Rust attribute syntax fails
    /// [`Builder::compile`] with [`Error::Generate`](crate::Error::Generate), naming it.
    pub fn type_attribute(mut self, path: impl Into<String>, attribute: impl Into<String>) -> Self {
        self.options
            .type_attributes
            .push((path.into(), attribute.into()));
        self
    }

    /// Adds a Rust attribute to the record fields matched by `path`: a field
    /// (`acme.common.Page.size`), a type, a package, or `.` (every field). A malformed
    /// `attribute` fails the build, as for [`Builder::type_attribute`].
    pub fn field_attribute(
        mut self,
        path: impl Into<String>,
        attribute: impl Into<String>,
    ) -> Self {
        self.options
            .field_attributes
            .push((path.into(), attribute.into()));
        self
    }

    /// Uses the user's own types for `package` instead of generating them: references become
    /// `rust_path::TypeName` (such as `("acme.common", "::common_types")`).
    pub fn extern_path(mut self, package: impl Into<String>, rust_path: impl Into<String>) -> Self {
        self.options
            .extern_paths
            .push((package.into(), rust_path.into()));
        self
    }

    /// Print `cargo:rerun-if-changed=<path>` for every file read when running under cargo.
    /// Default `true`.
    pub fn emit_rerun_if_changed(mut self, emit: bool) -> Self {
        self.emit_rerun_if_changed = emit;
        self
    }

    /// Print each line of each warning as `cargo:warning=<line>` when running under cargo.
    /// Default `true`.
    pub fn emit_warnings(mut self, emit: bool) -> Self {
        self.emit_warnings = emit;
        self
    }

    /// Also write [`INCLUDE_FILE`] (`_toolidl.rs`), which nests every package's module by its
    /// package path. Default `true`.
    pub fn include_file(mut self, write: bool) -> Self {
        self.include_file = write;
        self
    }

    /// Also write [`MCPB_MANIFEST_FILE`] (`manifest.json`) to the output folder: the MCP
    /// Bundle manifest of the server (docs/shipping.md), listing the tools and prompts of the
    /// compiled files, with the fields of `info`; those left empty are taken from cargo's
    /// `CARGO_PKG_*` variables (name, version, description, first author, license,
    /// repository, homepage), and the entry point is `server/<package name>`. `toolidl
    /// bundle` writes the whole bundle instead. A field the format refuses fails the build
    /// ([`Error::Bundle`]). Default: no manifest.
    pub fn mcpb_manifest(mut self, info: BundleInfo) -> Self {
        self.mcpb_manifest = Some(info);
        self
    }

    /// The options given the Rust generator (private: every option is a method above, so a
    /// new one breaks no user).
    #[cfg(test)]
    fn rust_options(&self) -> &RustOptions {
        &self.options
    }

    /// Compiles each root file and its imports, checks them for Rust, generates one file per
    /// package into the output folder and tells cargo about them.
    ///
    /// - Diagnostics show each root's path as given (imports joined to it). Any error → `Err`
    ///   with every diagnostic of the failed files, rendered; nothing is written.
    /// - A file is written only when its content changed (bytes compared first): generating
    ///   the same code again changes no modification time.
    /// - Under cargo (`CARGO_MANIFEST_DIR` or `OUT_DIR` set), prints
    ///   `cargo:rerun-if-changed=<path>` for every file read (also when compiling fails) and
    ///   `cargo:warning=<line>` for each non-blank line of each warning.
    pub fn compile<P: AsRef<Path>>(&self, roots: &[P]) -> Result<Compiled, Error> {
        self.compile_to(roots, &mut std::io::stdout().lock(), under_cargo())
    }

    /// Compiles and generates as [`Builder::compile`] does, but writes nothing and prints
    /// nothing: the generated files are returned in memory.
    pub fn generate<P: AsRef<Path>>(&self, roots: &[P]) -> Result<Generated, Error> {
        let loading = load_roots(roots);
        self.generate_loaded(loading)
    }

    /// [`Builder::compile`], with the cargo directives written to `directives` (when
    /// `under_cargo`).
    pub(crate) fn compile_to<P: AsRef<Path>>(
        &self,
        roots: &[P],
        directives: &mut dyn Write,
        under_cargo: bool,
    ) -> Result<Compiled, Error> {
        let out_dir = match &self.out_dir {
            Some(dir) => dir.clone(),
            None => match std::env::var_os("OUT_DIR") {
                Some(dir) if !dir.is_empty() => PathBuf::from(dir),
                _ => return Err(Error::NoOutDir),
            },
        };
        let loading = load_roots(roots);
        if under_cargo {
            // Best effort: a closed stdout must not fail the build.
            if self.emit_rerun_if_changed {
                for path in loading.files_read.iter().chain(&self.forward) {
                    let _ = writeln!(directives, "cargo:rerun-if-changed={}", path.display());
                }
            }
            if self.emit_warnings {
                for line in loading.warnings.iter().flat_map(|w| w.lines()) {
                    if !line.trim().is_empty() {
                        let _ = writeln!(directives, "cargo:warning={line}");
                    }
                }
            }
            let _ = directives.flush();
        }
        let manifest = match &self.mcpb_manifest {
            Some(info) if loading.failures.is_empty() => {
                Some(self.manifest(&loading.models, info.clone())?)
            }
            _ => None,
        };
        let generated = self.generate_loaded(loading)?;

        let mut written = Vec::new();
        std::fs::create_dir_all(&out_dir).map_err(|source| Error::Io {
            path: out_dir.clone(),
            source,
        })?;
        for file in &generated.files {
            let path = out_dir.join(&file.file_name);
            if write_if_changed(&path, file.code.as_bytes())? {
                written.push(path);
            }
        }
        let packages: Vec<String> = generated.files.iter().map(|f| f.package.clone()).collect();
        if self.include_file {
            let path = out_dir.join(INCLUDE_FILE);
            if write_if_changed(&path, rust::include_file(&packages).as_bytes())? {
                written.push(path);
            }
        }
        if let Some(manifest) = manifest {
            let path = out_dir.join(MCPB_MANIFEST_FILE);
            if write_if_changed(&path, manifest.as_bytes())? {
                written.push(path);
            }
        }
        Ok(Compiled {
            files_read: generated.files_read,
            packages,
            written,
            warnings: generated.warnings,
        })
    }

    /// The bundle manifest's text for the resolved models, `info`'s empty fields filled from
    /// cargo's variables.
    fn manifest(&self, models: &[Model], mut info: BundleInfo) -> Result<String, Error> {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let fill = |field: &mut String, name: &str| {
            if field.is_empty() {
                *field = var(name).unwrap_or_default();
            }
        };
        fill(&mut info.name, "CARGO_PKG_NAME");
        fill(&mut info.version, "CARGO_PKG_VERSION");
        fill(&mut info.description, "CARGO_PKG_DESCRIPTION");
        if info.author.name.is_empty()
            && let Some(first) = var("CARGO_PKG_AUTHORS")
                .as_deref()
                .and_then(|a| a.split(':').next())
        {
            info.author = Author::parse(first);
        }
        if info.entry_point.is_empty() {
            info.entry_point = format!("server/{}", info.name);
        }
        info.license = info.license.or_else(|| var("CARGO_PKG_LICENSE"));
        info.repository = info.repository.or_else(|| var("CARGO_PKG_REPOSITORY"));
        info.homepage = info.homepage.or_else(|| var("CARGO_PKG_HOMEPAGE"));
        let options = SchemaOptions {
            hoist_shared: self.options.hoist_shared,
        };
        let mut all = Listings {
            services: Vec::new(),
            notes: Vec::new(),
        };
        for model in models {
            let one = listings(model, &options).map_err(|e| Error::Bundle(e.to_string()))?;
            all.services.extend(one.services);
        }
        let manifest = bundle::manifest(&all, &info).map_err(Error::Bundle)?;
        let mut text = serde_json::to_string_pretty(&manifest).unwrap_or_default();
        text.push('\n');
        Ok(text)
    }

    fn generate_loaded(&self, loading: Loading) -> Result<Generated, Error> {
        if !loading.failures.is_empty() {
            return Err(Error::Diagnostics {
                rendered: loading.failures.join("\n"),
            });
        }
        let models: Vec<&Model> = loading.models.iter().collect();
        let mut options = self.options.clone();
        for path in &self.forward {
            options.forward.push(read_binding(path)?);
        }
        let files = rust::generate(&models, &options).map_err(Error::Generate)?;
        Ok(Generated {
            files_read: loading.files_read,
            files,
            warnings: loading.warnings,
        })
    }
}

/// A forward binding file, read and parsed.
fn read_binding(path: &Path) -> Result<toolidl_codegen::forward::Binding, Error> {
    let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
        path: path.to_owned(),
        source,
    })?;
    let binding: toolidl_codegen::forward::Binding = serde_json::from_str(&text).map_err(|e| {
        Error::Generate(rust::GenerateError {
            message: format!("{}: not a forward binding: {e}", path.display()),
        })
    })?;
    if binding.binding != toolidl_codegen::forward::BINDING_VERSION {
        return Err(Error::Generate(rust::GenerateError {
            message: format!(
                "{}: a forward binding of version {}, and this toolidl-build reads version {}",
                path.display(),
                binding.binding,
                toolidl_codegen::forward::BINDING_VERSION
            ),
        }));
    }
    Ok(binding)
}

/// Whether this process runs under cargo (a build script, or `cargo run`/`cargo test`).
fn under_cargo() -> bool {
    std::env::var_os("CARGO_MANIFEST_DIR").is_some() || std::env::var_os("OUT_DIR").is_some()
}

/// Writes `bytes` to `path` unless the file already holds exactly them. Returns whether it
/// wrote.
fn write_if_changed(path: &Path, bytes: &[u8]) -> Result<bool, Error> {
    if std::fs::read(path).is_ok_and(|old| old == bytes) {
        return Ok(false);
    }
    std::fs::write(path, bytes).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(true)
}

/// Every root compiled and checked for Rust.
#[derive(Debug, Default)]
struct Loading {
    /// Every file read, each once (by canonical path), in the order first read.
    files_read: Vec<PathBuf>,
    /// The models of the roots that resolved, in the order given.
    models: Vec<Model>,
    /// The warnings of the roots that resolved, rendered, each once.
    warnings: Vec<String>,
    /// The diagnostics of the roots that failed, rendered, each once.
    failures: Vec<String>,
}

fn load_roots<P: AsRef<Path>>(roots: &[P]) -> Loading {
    let mut loading = Loading::default();
    let mut keys = HashSet::new();
    let mut root_keys = HashSet::new();
    let mut seen = HashSet::new();
    for root in roots {
        let loaded = load(Path::new(""), root.as_ref());
        let output = loaded.output;
        // A root given twice (perhaps spelled differently) is compiled once.
        if let Some(file) = output.sources.files().first()
            && !root_keys.insert(file.id.key.clone())
        {
            continue;
        }
        for file in output.sources.files() {
            if keys.insert(file.id.key.clone()) {
                loading.files_read.push(loaded.base.join(&file.id.name));
            }
        }
        let mut all = output.diagnostics;
        if let Some(model) = &output.model {
            all.extend(rust::check(model, &output.locations));
            diagnostics::sort(&mut all);
        }
        let mut rendered: Vec<String> = all
            .iter()
            .map(|d| d.render(&output.sources))
            .filter(|text| seen.insert(text.clone()))
            .collect();
        match output.model {
            Some(model) if !all.iter().any(Diagnostic::is_error) => {
                loading.models.push(model);
                loading.warnings.append(&mut rendered);
            }
            _ => {
                if all.is_empty() {
                    rendered.push(format!(
                        "error: `{}` did not resolve\n",
                        root.as_ref().display()
                    ));
                }
                loading.failures.append(&mut rendered);
            }
        }
    }
    loading
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `main.tool` imports `shared/common.tool`; `main.tool` has one warning (W0401).
    fn project() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("shared")).unwrap();
        std::fs::write(
            dir.path().join("shared/common.tool"),
            "package acme.common;\nrecord Page { size: u32 }\n",
        )
        .unwrap();
        std::fs::write(
            dir.path().join("main.tool"),
            "package acme.main;\nimport \"shared/common.tool\";\n\
             service S {\n    @name(\"a.b\") tool t(p: Page);\n}\n",
        )
        .unwrap();
        dir
    }

    /// Runs `compile_to` and returns what it printed for cargo.
    fn directives(builder: &Builder, roots: &[PathBuf], under_cargo: bool) -> String {
        let mut out = Vec::new();
        let _ = builder.compile_to(roots, &mut out, under_cargo);
        String::from_utf8(out).unwrap()
    }

    fn rerun_lines(printed: &str) -> Vec<&str> {
        printed
            .lines()
            .filter_map(|l| l.strip_prefix("cargo:rerun-if-changed="))
            .collect()
    }

    #[test]
    fn rerun_if_changed_names_every_file_read_imports_included() {
        let dir = project();
        let out = dir.path().join("out");
        let main = dir.path().join("main.tool");
        let printed = directives(
            &configure().out_dir(&out),
            std::slice::from_ref(&main),
            true,
        );
        let main = main.display().to_string();
        let common = dir.path().join("shared/common.tool").display().to_string();
        assert_eq!(rerun_lines(&printed), [main.as_str(), common.as_str()]);
    }

    #[test]
    fn rerun_if_changed_is_printed_also_when_a_file_fails() {
        let dir = project();
        let bad = dir.path().join("bad.tool");
        std::fs::write(&bad, "import \"main.tool\";\nrecord R { x: Nope }\n").unwrap();
        let builder = configure().out_dir(dir.path().join("out"));
        let mut out = Vec::new();
        let result = builder.compile_to(std::slice::from_ref(&bad), &mut out, true);
        assert!(
            matches!(result, Err(Error::Diagnostics { .. })),
            "{result:?}"
        );
        let printed = String::from_utf8(out).unwrap();
        assert_eq!(rerun_lines(&printed).len(), 3, "{printed}");
        assert!(!dir.path().join("out").exists(), "nothing written on error");
    }

    #[test]
    fn a_file_read_by_two_roots_is_named_once() {
        let dir = project();
        let other = dir.path().join("other.tool");
        std::fs::write(&other, "import \"shared/common.tool\";\n").unwrap();
        let roots = [dir.path().join("main.tool"), other];
        let printed = directives(&configure().out_dir(dir.path().join("out")), &roots, true);
        assert_eq!(rerun_lines(&printed).len(), 3, "{printed}");
    }

    #[test]
    fn a_root_given_twice_is_compiled_once() {
        let dir = project();
        let main = dir.path().join("main.tool");
        let again = dir.path().join("shared/../main.tool");
        let loading = load_roots(&[main, again]);
        assert_eq!(loading.models.len(), 1);
        assert_eq!(loading.files_read.len(), 2);
        assert_eq!(loading.warnings.len(), 1);
    }

    #[test]
    fn warnings_become_one_cargo_warning_per_non_blank_line() {
        let dir = project();
        let main = dir.path().join("main.tool");
        let printed = directives(&configure().out_dir(dir.path().join("out")), &[main], true);
        let warnings: Vec<&str> = printed
            .lines()
            .filter_map(|l| l.strip_prefix("cargo:warning="))
            .collect();
        assert_eq!(
            warnings.first().copied(),
            Some("warning[W0401]: tool name `a.b` contains `.`, which several clients refuse"),
            "{printed}"
        );
        assert!(warnings.iter().all(|l| !l.trim().is_empty()), "{printed}");
        assert!(
            warnings.iter().any(|l| l.ends_with("main.tool:4:11")),
            "{printed}"
        );
        assert!(warnings.iter().any(|l| l.contains("^^^^^")), "{printed}");
        // Every printed line is a directive.
        assert!(
            printed.lines().all(|l| l.starts_with("cargo:")),
            "{printed}"
        );
    }

    #[test]
    fn nothing_is_printed_outside_cargo_or_when_turned_off() {
        let dir = project();
        let roots = [dir.path().join("main.tool")];
        let builder = configure().out_dir(dir.path().join("out"));
        assert_eq!(directives(&builder, &roots, false), "");
        let quiet = builder
            .clone()
            .emit_rerun_if_changed(false)
            .emit_warnings(false);
        assert_eq!(directives(&quiet, &roots, true), "");
        let rerun_only = builder.clone().emit_warnings(false);
        assert!(
            directives(&rerun_only, &roots, true)
                .lines()
                .all(|l| l.starts_with("cargo:rerun-if-changed="))
        );
        let warnings_only = builder.emit_rerun_if_changed(false);
        assert!(
            directives(&warnings_only, &roots, true)
                .lines()
                .all(|l| l.starts_with("cargo:warning="))
        );
    }

    #[test]
    fn an_unchanged_file_is_not_rewritten() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("acme.common.rs");
        assert!(write_if_changed(&path, b"pub struct A;\n").unwrap());
        let before = std::fs::metadata(&path).unwrap().modified().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        assert!(!write_if_changed(&path, b"pub struct A;\n").unwrap());
        assert_eq!(
            std::fs::metadata(&path).unwrap().modified().unwrap(),
            before
        );
        assert!(write_if_changed(&path, b"pub struct B;\n").unwrap());
        assert_eq!(std::fs::read(&path).unwrap(), b"pub struct B;\n");
    }

    #[test]
    fn a_write_error_names_the_path() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("missing/acme.common.rs");
        let error = write_if_changed(&path, b"x").unwrap_err();
        assert!(matches!(&error, Error::Io { path: p, .. } if *p == path));
        assert!(
            error
                .to_string()
                .starts_with(&format!("cannot write `{}`: ", path.display()))
        );
    }

    #[test]
    fn options_reach_the_generator() {
        let builder = configure()
            .runtime_crate("::my::rt")
            .hoist_shared(true)
            .typed_formats(true)
            .client(true)
            .type_attribute(".", "#[derive(Hash)]")
            .field_attribute("acme.common.Page.size", "#[serde(default)]")
            .extern_path("acme.common", "::common_types");
        let options = builder.rust_options();
        assert_eq!(options.runtime_crate, "::my::rt");
        assert!(options.hoist_shared);
        assert!(options.typed_formats);
        assert!(options.client);
        assert_eq!(
            options.type_attributes,
            [(".".into(), "#[derive(Hash)]".into())]
        );
        assert_eq!(
            options.field_attributes,
            [("acme.common.Page.size".into(), "#[serde(default)]".into())]
        );
        assert_eq!(
            options.extern_paths,
            [("acme.common".into(), "::common_types".into())]
        );
    }
}
