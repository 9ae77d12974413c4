//! `toolidl bundle`: an MCP Bundle (`.mcpb`, a zip with `manifest.json`) of a server crate:
//! its binary for this platform (built with `cargo build --release` unless given), binaries for
//! other platforms the user built, the icon, and the manifest written from the `.tool` files
//! and `[package.metadata.toolidl.bundle]` (docs/shipping.md).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use toolidl_codegen::bundle::{self, Author, BundleInfo, UserOption};
use zip::write::SimpleFileOptions;

use super::metadata::{self, Package, string, strings};

pub struct Args {
    pub manifest_path: PathBuf,
    pub bin: Option<String>,
    /// A built binary for this platform (no `cargo build`).
    pub binary: Option<PathBuf>,
    /// `PLATFORM=PATH`: binaries for other platforms.
    pub platform_binaries: Vec<String>,
    pub out: Option<PathBuf>,
    pub name: Option<String>,
    pub display_name: Option<String>,
    pub version: Option<String>,
    pub description: Option<String>,
    pub author: Option<String>,
    pub icon: Option<PathBuf>,
    pub args: Vec<String>,
    /// Also write the manifest here.
    pub manifest_out: Option<PathBuf>,
}

/// The platform this command runs on, as bundles name it.
pub fn this_platform() -> &'static str {
    match std::env::consts::OS {
        "macos" => "darwin",
        "windows" => "win32",
        _ => "linux",
    }
}

pub fn run(args: &Args) -> i32 {
    match bundle(args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}

fn bundle(args: &Args) -> Result<(), String> {
    let package = metadata::read(&args.manifest_path)?;
    let table = package.section("bundle");
    let what = "package.metadata.toolidl.bundle";
    let bin = match (args.bin.clone(), string(table, "bin", what)?) {
        (Some(bin), _) | (None, Some(bin)) => bin,
        (None, None) => match package.binaries.as_slice() {
            [only] => only.clone(),
            [] => return Err(format!("{} has no binary", package.name)),
            _ => {
                return Err(format!(
                    "{} has several binaries ({}); choose one with --bin",
                    package.name,
                    package.binaries.join(", ")
                ));
            }
        },
    };
    let binary = match &args.binary {
        Some(path) => path.clone(),
        None => build(&args.manifest_path, &package, &bin)?,
    };
    let exe = |platform: &str| {
        if platform == "win32" {
            format!("{bin}.exe")
        } else {
            bin.clone()
        }
    };
    let here = this_platform();
    let mut files: Vec<(String, Vec<u8>, bool)> = Vec::new();
    let entry_point = format!("server/{}", exe(here));
    files.push((entry_point.clone(), read(&binary)?, true));
    let mut others = Vec::new();
    for spec in &args.platform_binaries {
        let Some((platform, path)) = spec.split_once('=') else {
            return Err(format!("--platform-binary {spec}: use PLATFORM=PATH"));
        };
        if platform == here || others.iter().any(|(p, _)| p == platform) {
            return Err(format!("--platform-binary: {platform} is given twice"));
        }
        let entry = format!("server/{platform}/{}", exe(platform));
        files.push((entry.clone(), read(Path::new(path))?, true));
        others.push((platform.to_owned(), entry));
    }
    let mut info = info(args, &package, table)?;
    info.entry_point = entry_point;
    if info.platforms.is_empty() {
        info.platforms = std::iter::once(here.to_owned())
            .chain(others.iter().map(|(p, _)| p.clone()))
            .collect();
        info.platforms.sort();
    }
    info.platform_entry_points = others;
    let icon = match &args.icon {
        Some(icon) => Some(icon.clone()),
        None => string(table, "icon", what)?.map(|i| package.dir.join(i)),
    };
    if let Some(icon) = icon {
        let name = icon
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "icon.png".into());
        files.push((name.clone(), read(&icon)?, false));
        info.icon = Some(name);
    }
    let listings = super::listings_of(&package.tool_files()?)?;
    let manifest = bundle::manifest(&listings, &info)?;
    let mut json = serde_json::to_string_pretty(&manifest).map_err(|e| e.to_string())?;
    json.push('\n');
    if let Some(path) = &args.manifest_out {
        std::fs::write(path, &json).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    files.push(("manifest.json".into(), json.into_bytes(), false));
    files.sort_by(|a, b| a.0.cmp(&b.0));
    let out = args.out.clone().unwrap_or_else(|| {
        package
            .target_dir
            .join("bundle")
            .join(format!("{}-{}.mcpb", info.name, info.version))
    });
    write_zip(&out, &files)?;
    let sha = super::sha256_hex(&out).map_err(|e| format!("cannot read {}: {e}", out.display()))?;
    println!("{}", out.display());
    eprintln!(
        "wrote {} ({} {}, {} tools, {} prompts; sha256 {sha})",
        out.display(),
        info.name,
        info.version,
        listings
            .services
            .iter()
            .map(|s| s.tools.len())
            .sum::<usize>(),
        listings
            .services
            .iter()
            .map(|s| s.prompts.len())
            .sum::<usize>(),
    );
    Ok(())
}

fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// `cargo build --release --bin BIN`, and the binary's path.
fn build(manifest: &Path, package: &Package, bin: &str) -> Result<PathBuf, String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .args(["build", "--release", "--bin", bin, "--manifest-path"])
        .arg(manifest)
        .status()
        .map_err(|e| format!("cannot run cargo build: {e}"))?;
    if !status.success() {
        return Err(format!("cargo build --release --bin {bin} failed"));
    }
    Ok(package
        .target_dir
        .join("release")
        .join(format!("{bin}{}", std::env::consts::EXE_SUFFIX)))
}

/// Deterministic: entries in the given order, the zip format's earliest timestamp, executables
/// 0755 and other files 0644, so the same inputs give the same bytes (and `fileSha256`).
fn write_zip(out: &Path, files: &[(String, Vec<u8>, bool)]) -> Result<(), String> {
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let failed = |e: &dyn std::fmt::Display| format!("cannot write {}: {e}", out.display());
    let file = std::fs::File::create(out).map_err(|e| failed(&e))?;
    let mut zip = zip::ZipWriter::new(file);
    for (name, bytes, executable) in files {
        let options = SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated)
            .last_modified_time(zip::DateTime::default())
            .unix_permissions(if *executable { 0o755 } else { 0o644 });
        zip.start_file(name.as_str(), options)
            .map_err(|e| failed(&e))?;
        zip.write_all(bytes).map_err(|e| failed(&e))?;
    }
    zip.finish().map_err(|e| failed(&e))?;
    Ok(())
}

/// The manifest's fields: flags first, then `[package.metadata.toolidl.bundle]`, then the
/// package's own fields.
fn info(args: &Args, package: &Package, table: &Value) -> Result<BundleInfo, String> {
    let what = "package.metadata.toolidl.bundle";
    let or = |flag: &Option<String>, key: &str| -> Result<Option<String>, String> {
        Ok(match flag {
            Some(v) => Some(v.clone()),
            None => string(table, key, what)?,
        })
    };
    let mut info = BundleInfo::default();
    info.name = or(&args.name, "name")?.unwrap_or_else(|| package.name.clone());
    info.display_name = or(&args.display_name, "display_name")?;
    info.version = args
        .version
        .clone()
        .unwrap_or_else(|| package.version.clone());
    info.description = or(&args.description, "description")?
        .or_else(|| package.description.clone())
        .ok_or("the bundle needs a description (Cargo.toml's `description`, or --description)")?;
    info.long_description = string(table, "long_description", what)?;
    info.author = match or(&args.author, "author")? {
        Some(author) => Author::parse(&author),
        None => package
            .authors
            .first()
            .map(|a| Author::parse(a))
            .ok_or("the bundle needs an author (Cargo.toml's `authors`, [package.metadata.toolidl.bundle] author, or --author)")?,
    };
    info.author.url = string(table, "author_url", what)?;
    info.license = package.license.clone();
    info.repository = package.repository.clone();
    info.homepage = package.homepage.clone();
    info.documentation = package.documentation.clone();
    info.support = string(table, "support", what)?;
    info.keywords = match table.get("keywords") {
        Some(k) => strings(k, &format!("{what}.keywords"))?,
        None => package.keywords.clone(),
    };
    info.args = if args.args.is_empty() {
        strings(&table["args"], &format!("{what}.args"))?
    } else {
        args.args.clone()
    };
    if let Some(env) = table.get("env") {
        let env = env
            .as_object()
            .ok_or(format!("{what}.env must be a table"))?;
        for (name, value) in env {
            let value = value
                .as_str()
                .ok_or(format!("{what}.env.{name} must be a string"))?;
            info.env.push((name.clone(), value.to_owned()));
        }
    }
    let compatibility = &table["compatibility"];
    if let Some(c) = compatibility.as_object() {
        for (key, value) in c {
            if key == "platforms" {
                info.platforms = strings(value, &format!("{what}.compatibility.platforms"))?;
            } else {
                let range = value.as_str().ok_or(format!(
                    "{what}.compatibility.{key} must be a version range"
                ))?;
                info.clients.push((key.clone(), range.to_owned()));
            }
        }
    }
    if let Some(options) = table.get("user_config") {
        let options = options
            .as_object()
            .ok_or(format!("{what}.user_config must be a table of tables"))?;
        for (key, o) in options {
            info.user_config.push(user_option(key, o)?);
        }
    }
    Ok(info)
}

fn user_option(key: &str, o: &Value) -> Result<UserOption, String> {
    let what = format!("package.metadata.toolidl.bundle.user_config.{key}");
    let text = |field: &str| string(o, field, &what);
    let flag = |field: &str| match &o[field] {
        Value::Null => Ok(false),
        Value::Bool(b) => Ok(*b),
        _ => Err(format!("{what}.{field} must be true or false")),
    };
    let number = |field: &str| match &o[field] {
        Value::Null => Ok(None),
        v => v
            .as_f64()
            .map(Some)
            .ok_or(format!("{what}.{field} must be a number")),
    };
    let mut option = UserOption::default();
    option.key = key.to_owned();
    option.kind = text("type")?.unwrap_or_else(|| "string".into());
    option.title = text("title")?.unwrap_or_default();
    option.description = text("description")?.unwrap_or_default();
    option.env = text("env")?.ok_or(format!(
        "{what} needs `env`, the environment variable the server reads it from"
    ))?;
    option.required = flag("required")?;
    option.sensitive = flag("sensitive")?;
    option.multiple = flag("multiple")?;
    option.default = o.get("default").cloned();
    option.min = number("min")?;
    option.max = number("max")?;
    Ok(option)
}
