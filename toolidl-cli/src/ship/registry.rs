//! `toolidl registry`: the MCP registry's `server.json` for a server crate (packages of type
//! `mcpb`, with the bundle's `fileSha256`, and `oci`; `remotes` for a Streamable HTTP
//! deployment), or with `--card` the server card of SEP-2127 (a draft) that the runtime serves
//! at `/.well-known/mcp/server-card` (docs/shipping.md).

use std::path::PathBuf;

use serde_json::{Map, Value, json};

use super::metadata::{self, Package, string};

/// The `$schema` written: the registry's current schema, vendored for the tests in
/// tests/fixtures/mcp-registry/.
pub const SCHEMA_URL: &str =
    "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";

/// The `$schema` of a server card in SEP-2127's draft.
pub const CARD_SCHEMA_URL: &str =
    "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json";

/// The MCP revisions the runtime serves, newest first (`supportedProtocolVersions`).
pub const PROTOCOL_VERSIONS: [&str; 5] = [
    "2026-07-28",
    "2025-11-25",
    "2025-06-18",
    "2025-03-26",
    "2024-11-05",
];

pub struct Args {
    pub manifest_path: PathBuf,
    /// The registry name, `NAMESPACE/NAME`.
    pub name: Option<String>,
    /// The `.mcpb` file (for its SHA-256).
    pub bundle: Option<PathBuf>,
    /// Where the bundle is downloaded from.
    pub bundle_url: Option<String>,
    /// An OCI image reference.
    pub oci: Option<String>,
    /// A Streamable HTTP endpoint.
    pub remote: Option<String>,
    pub card: bool,
    pub out: Option<PathBuf>,
}

pub fn run(args: &Args) -> i32 {
    let written = document(args).and_then(|doc| {
        let mut json = serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?;
        json.push('\n');
        match &args.out {
            Some(path) => std::fs::write(path, json)
                .map_err(|e| format!("cannot write {}: {e}", path.display())),
            None => {
                print!("{json}");
                Ok(())
            }
        }
    });
    match written {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}

fn document(args: &Args) -> Result<Value, String> {
    let package = metadata::read(&args.manifest_path)?;
    let table = package.section("registry");
    let what = "package.metadata.toolidl.registry";
    let bundle = package.section("bundle");
    let version = package.version.clone();
    let name = match &args.name {
        Some(n) => n.clone(),
        None => string(table, "name", what)?.ok_or(
            "the registry needs a name, NAMESPACE/NAME such as io.github.you/server \
             ([package.metadata.toolidl.registry] name, or --name)",
        )?,
    };
    check_name(&name)?;
    let description = string(table, "description", what)?
        .or(string(
            bundle,
            "description",
            "package.metadata.toolidl.bundle",
        )?)
        .or_else(|| package.description.clone())
        .ok_or("the registry needs a description (Cargo.toml's `description`)")?;
    if description.chars().count() > 100 {
        return Err(format!(
            "the description has {} characters and the registry takes at most 100; give a \
             shorter one in [package.metadata.toolidl.registry] description",
            description.chars().count()
        ));
    }
    let mut doc = Map::new();
    let schema = if args.card {
        CARD_SCHEMA_URL
    } else {
        SCHEMA_URL
    };
    doc.insert("$schema".into(), schema.into());
    doc.insert("name".into(), name.into());
    doc.insert("description".into(), description.into());
    if let Some(title) = string(table, "title", what)?.or(string(bundle, "display_name", what)?) {
        doc.insert("title".into(), title.into());
    }
    doc.insert("version".into(), version.clone().into());
    if let Some(site) = package.homepage.clone().or(package.documentation.clone()) {
        doc.insert("websiteUrl".into(), site.into());
    }
    if let Some(url) = &package.repository {
        let mut repository = Map::new();
        repository.insert("url".into(), url.clone().into());
        repository.insert("source".into(), source_of(url).into());
        if let Some(sub) = string(table, "subfolder", what)? {
            repository.insert("subfolder".into(), sub.into());
        }
        doc.insert("repository".into(), repository.into());
    }
    let bundle_url = args
        .bundle_url
        .clone()
        .or(string(table, "bundle_url", what)?)
        .map(|u| super::with_version(&u, &version));
    let oci = args
        .oci
        .clone()
        .or(string(table, "oci", what)?)
        .map(|u| super::with_version(&u, &version));
    let remote = args.remote.clone().or(string(table, "remote", what)?);
    if !args.card {
        let env = environment(&package)?;
        let mut packages = Vec::new();
        match (&args.bundle, &bundle_url) {
            (Some(file), Some(url)) => {
                let sha = super::sha256_hex(file)
                    .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
                packages.push(package_entry("mcpb", url, &version, Some(sha), &env));
            }
            (Some(_), None) => {
                return Err(
                    "--bundle needs the URL the bundle is downloaded from (--bundle-url, or \
                     [package.metadata.toolidl.registry] bundle_url)"
                        .into(),
                );
            }
            (None, Some(_)) => {
                return Err(
                    "a bundle URL needs the bundle itself for its SHA-256 (--bundle FILE.mcpb)"
                        .into(),
                );
            }
            (None, None) => {}
        }
        if let Some(image) = &oci {
            packages.push(package_entry("oci", image, &version, None, &env));
        }
        if !packages.is_empty() {
            doc.insert("packages".into(), packages.into());
        }
    }
    match remote {
        Some(url) => {
            let mut r = Map::new();
            r.insert("type".into(), "streamable-http".into());
            r.insert("url".into(), url.into());
            if args.card {
                r.insert(
                    "supportedProtocolVersions".into(),
                    PROTOCOL_VERSIONS.to_vec().into(),
                );
            }
            doc.insert("remotes".into(), vec![Value::from(r)].into());
        }
        None if args.card => {
            return Err("a server card describes a remote server: give its URL (--remote, or [package.metadata.toolidl.registry] remote)".into());
        }
        None => {}
    }
    if !args.card && !doc.contains_key("packages") && !doc.contains_key("remotes") {
        return Err(
            "server.json lists how to get the server: give --bundle and --bundle-url, --oci, or --remote"
                .into(),
        );
    }
    Ok(doc.into())
}

fn package_entry(
    kind: &str,
    identifier: &str,
    version: &str,
    sha: Option<String>,
    env: &[Value],
) -> Value {
    let mut p = Map::new();
    p.insert("registryType".into(), kind.into());
    p.insert("identifier".into(), identifier.into());
    p.insert("version".into(), version.into());
    if let Some(sha) = sha {
        p.insert("fileSha256".into(), sha.into());
    }
    p.insert("transport".into(), json!({"type": "stdio"}));
    if !env.is_empty() {
        p.insert("environmentVariables".into(), env.to_vec().into());
    }
    p.into()
}

/// The bundle's `user_config` options as the registry's environment variables.
fn environment(package: &Package) -> Result<Vec<Value>, String> {
    let Some(options) = package.section("bundle")["user_config"].as_object() else {
        return Ok(Vec::new());
    };
    let mut env = Vec::new();
    for (key, o) in options {
        let what = format!("package.metadata.toolidl.bundle.user_config.{key}");
        let name = string(o, "env", &what)?.ok_or(format!("{what} needs `env`"))?;
        let mut v = Map::new();
        v.insert("name".into(), name.into());
        if let Some(d) = string(o, "description", &what)? {
            v.insert("description".into(), d.into());
        }
        if o["required"] == true {
            v.insert("isRequired".into(), true.into());
        }
        let format = match o["type"].as_str().unwrap_or("string") {
            "file" | "directory" => "filepath",
            "number" => "number",
            "boolean" => "boolean",
            _ => "string",
        };
        v.insert("format".into(), format.into());
        if o["sensitive"] == true {
            v.insert("isSecret".into(), true.into());
        }
        match &o["default"] {
            Value::Null => {}
            Value::String(s) => {
                v.insert("default".into(), s.clone().into());
            }
            other => {
                v.insert("default".into(), other.to_string().into());
            }
        }
        env.push(v.into());
    }
    Ok(env)
}

/// `github` for a GitHub URL, `gitlab` for GitLab, else the host.
fn source_of(url: &str) -> String {
    let host = url
        .split("://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap_or(url);
    match host {
        "github.com" => "github".into(),
        "gitlab.com" => "gitlab".into(),
        other => other.into(),
    }
}

/// The registry's pattern, `^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`, 3 to 200 characters.
fn check_name(name: &str) -> Result<(), String> {
    let ok = |s: &str, extra: &[char]| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-' || extra.contains(&c))
    };
    let valid = match name.split_once('/') {
        Some((ns, server)) => ok(ns, &[]) && ok(server, &['_']),
        None => false,
    };
    if !valid || !(3..=200).contains(&name.len()) {
        return Err(format!(
            "`{name}` is not a registry name: NAMESPACE/NAME in reverse-DNS form, such as \
             io.github.you/server"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_names() {
        for ok in ["io.github.you/notes", "com.example/a_b-c.d"] {
            assert!(check_name(ok).is_ok(), "{ok}");
        }
        for bad in [
            "notes",
            "a/b/c",
            "io github/x",
            "/x",
            "x/",
            "io.github.you/no tes",
        ] {
            assert!(check_name(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn repository_sources() {
        assert_eq!(source_of("https://github.com/toolidl/toolidl"), "github");
        assert_eq!(source_of("https://gitlab.com/a/b"), "gitlab");
        assert_eq!(source_of("https://git.example.org/a"), "git.example.org");
    }
}
