//! A server crate as `cargo metadata` describes it: the package fields, its binaries, the
//! target folder, and the `[package.metadata.toolidl]` section (docs/shipping.md).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// One package of `cargo metadata --no-deps`.
pub struct Package {
    pub name: String,
    pub version: String,
    pub description: Option<String>,
    pub authors: Vec<String>,
    pub license: Option<String>,
    pub repository: Option<String>,
    pub homepage: Option<String>,
    pub documentation: Option<String>,
    pub keywords: Vec<String>,
    /// The folder of its Cargo.toml.
    pub dir: PathBuf,
    pub binaries: Vec<String>,
    pub target_dir: PathBuf,
    /// `[package.metadata.toolidl]`, or `null`.
    pub toolidl: Value,
}

impl Package {
    /// `[package.metadata.toolidl.SECTION]`, or `null`.
    pub fn section(&self, name: &str) -> &Value {
        &self.toolidl[name]
    }

    /// The `.tool` files: `[package.metadata.toolidl] tools`, else every `tools/*.tool`.
    pub fn tool_files(&self) -> Result<Vec<PathBuf>, String> {
        if let Some(list) = self.toolidl.get("tools") {
            let files = strings(list, "package.metadata.toolidl.tools")?;
            return Ok(files.iter().map(|f| self.dir.join(f)).collect());
        }
        let dir = self.dir.join("tools");
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "tool"))
            .collect();
        files.sort();
        if files.is_empty() {
            return Err(format!(
                "no .tool file in {}; list them in [package.metadata.toolidl] tools",
                dir.display()
            ));
        }
        Ok(files)
    }
}

/// Reads the package of `manifest` (a Cargo.toml) with `cargo metadata`.
pub fn read(manifest: &Path) -> Result<Package, String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "metadata",
            "--no-deps",
            "--format-version",
            "1",
            "--manifest-path",
        ])
        .arg(manifest)
        .output()
        .map_err(|e| format!("cannot run cargo metadata: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "cargo metadata failed for {}:\n{}",
            manifest.display(),
            String::from_utf8_lossy(&out.stderr).trim_end()
        ));
    }
    let doc: Value = serde_json::from_slice(&out.stdout)
        .map_err(|e| format!("cargo metadata printed no JSON: {e}"))?;
    let wanted = std::fs::canonicalize(manifest).unwrap_or_else(|_| manifest.to_path_buf());
    let package = doc["packages"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|p| {
            p["manifest_path"]
                .as_str()
                .is_some_and(|m| Path::new(m) == wanted)
        })
        .ok_or_else(|| {
            format!(
                "{} is not a package's Cargo.toml (a workspace root? pass the server's)",
                manifest.display()
            )
        })?;
    let text = |key: &str| package[key].as_str().map(str::to_owned);
    let dir = wanted.parent().map(Path::to_path_buf).unwrap_or_default();
    let binaries = package["targets"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|t| {
            t["kind"]
                .as_array()
                .is_some_and(|k| k.iter().any(|k| k == "bin"))
        })
        .filter_map(|t| t["name"].as_str().map(str::to_owned))
        .collect();
    Ok(Package {
        name: text("name").unwrap_or_default(),
        version: text("version").unwrap_or_default(),
        description: text("description"),
        authors: strings(&package["authors"], "authors").unwrap_or_default(),
        license: text("license"),
        repository: text("repository"),
        homepage: text("homepage"),
        documentation: text("documentation"),
        keywords: strings(&package["keywords"], "keywords").unwrap_or_default(),
        dir,
        binaries,
        target_dir: PathBuf::from(doc["target_directory"].as_str().unwrap_or("target")),
        toolidl: package["metadata"]["toolidl"].clone(),
    })
}

/// A list of strings (`null`: none), or what is wrong with it.
pub fn strings(value: &Value, what: &str) -> Result<Vec<String>, String> {
    match value {
        Value::Null => Ok(Vec::new()),
        Value::Array(items) => items
            .iter()
            .map(|v| {
                v.as_str()
                    .map(str::to_owned)
                    .ok_or_else(|| format!("{what}: every item must be a string"))
            })
            .collect(),
        _ => Err(format!("{what} must be a list of strings")),
    }
}

/// A string field of a metadata table (`null`: absent), or what is wrong with it.
pub fn string(table: &Value, key: &str, what: &str) -> Result<Option<String>, String> {
    match &table[key] {
        Value::Null => Ok(None),
        Value::String(s) => Ok(Some(s.clone())),
        _ => Err(format!("{what}.{key} must be a string")),
    }
}
