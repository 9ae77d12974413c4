//! `toolidl install --client NAME`: writes or updates one server's entry in an MCP client's
//! configuration file. The rest of the file is kept byte for byte (comments and layout
//! included: the file is edited as JSONC, in place); a changed file's previous content is kept
//! as `FILE.bak`; an entry that is already as wanted leaves the file untouched; `--dry-run`
//! prints the change as a unified diff and writes nothing (docs/shipping.md).

use std::io::Read;
use std::path::{Path, PathBuf};

use jsonc_parser::ParseOptions;
use jsonc_parser::cst::{CstInputValue, CstRootNode};
use serde_json::{Map, Value, json};

/// The clients `install` knows: name, the key holding the servers, and the shapes of entries.
pub struct Client {
    pub name: &'static str,
    /// The object holding the servers (`mcpServers`, VS Code's `servers`).
    key: &'static str,
    /// Stdio entries carry `"type": "stdio"`.
    typed_stdio: bool,
    /// How an HTTP entry names its URL, and its `type` if it has one; `None`: the client's
    /// configuration file has no HTTP servers.
    http: Option<(&'static str, Option<&'static str>)>,
    /// The file per scope: user (relative to the home folder, or to the platform's
    /// application-data folder when it starts with `<config>/`) and project (relative to
    /// the current folder).
    user: fn() -> Option<PathBuf>,
    project: Option<&'static str>,
}

pub const CLIENTS: [Client; 6] = [
    Client {
        name: "claude-desktop",
        key: "mcpServers",
        typed_stdio: false,
        http: None,
        user: || app_config("Claude/claude_desktop_config.json"),
        project: None,
    },
    Client {
        name: "claude-code",
        key: "mcpServers",
        typed_stdio: true,
        http: Some(("url", Some("http"))),
        user: || home(".claude.json"),
        project: Some(".mcp.json"),
    },
    Client {
        name: "cursor",
        key: "mcpServers",
        typed_stdio: false,
        http: Some(("url", None)),
        user: || home(".cursor/mcp.json"),
        project: Some(".cursor/mcp.json"),
    },
    Client {
        name: "vscode",
        key: "servers",
        typed_stdio: true,
        http: Some(("url", Some("http"))),
        user: || app_config("Code/User/mcp.json"),
        project: Some(".vscode/mcp.json"),
    },
    Client {
        name: "windsurf",
        key: "mcpServers",
        typed_stdio: false,
        http: Some(("serverUrl", None)),
        user: || home(".codeium/windsurf/mcp_config.json"),
        project: None,
    },
    Client {
        name: "gemini-cli",
        key: "mcpServers",
        typed_stdio: false,
        http: Some(("httpUrl", None)),
        user: || home(".gemini/settings.json"),
        project: Some(".gemini/settings.json"),
    },
];

fn home(rel: &str) -> Option<PathBuf> {
    let home = std::env::var_os("HOME").or_else(|| std::env::var_os("USERPROFILE"))?;
    Some(PathBuf::from(home).join(rel))
}

/// The platform's folder for applications' settings: `~/Library/Application Support` on
/// macOS, `%APPDATA%` on Windows, `$XDG_CONFIG_HOME` or `~/.config` elsewhere.
fn app_config(rel: &str) -> Option<PathBuf> {
    let base = if cfg!(target_os = "macos") {
        home("Library/Application Support")?
    } else if cfg!(windows) {
        PathBuf::from(std::env::var_os("APPDATA")?)
    } else {
        match std::env::var_os("XDG_CONFIG_HOME") {
            Some(dir) if !dir.is_empty() => PathBuf::from(dir),
            _ => home(".config")?,
        }
    };
    Some(base.join(rel))
}

pub struct Args {
    pub client: String,
    /// The entry's name.
    pub name: Option<String>,
    pub project: bool,
    /// The configuration file (default: the client's for the scope and platform).
    pub config: Option<PathBuf>,
    pub dry_run: bool,
    /// `KEY=VALUE` environment variables of a stdio server.
    pub env: Vec<String>,
    /// A stdio server's command line.
    pub command: Vec<String>,
    pub url: Option<String>,
    /// A bundle (`.mcpb`, or the folder it was unpacked to).
    pub bundle: Option<PathBuf>,
    /// Where a `.mcpb` is unpacked (default: beside it, its name without `.mcpb`).
    pub bundle_dir: Option<PathBuf>,
    /// `KEY=VALUE` answers to the bundle's `user_config`.
    pub user_config: Vec<String>,
}

pub fn run(args: &Args) -> i32 {
    match install(args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}

/// The server an entry starts or points at.
enum Server {
    Stdio {
        command: String,
        args: Vec<String>,
        env: Vec<(String, String)>,
    },
    Http(String),
}

fn install(args: &Args) -> Result<(), String> {
    let client = CLIENTS
        .iter()
        .find(|c| c.name == args.client)
        .ok_or_else(|| {
            let names: Vec<&str> = CLIENTS.iter().map(|c| c.name).collect();
            format!(
                "unknown client `{}` (one of: {})",
                args.client,
                names.join(", ")
            )
        })?;
    let (server, default_name) = server(args)?;
    let name = args
        .name
        .clone()
        .or(default_name)
        .ok_or("name the entry with --name")?;
    let entry = entry(client, &server)?;
    let path = match &args.config {
        Some(p) => p.clone(),
        None if args.project => PathBuf::from(
            client
                .project
                .ok_or_else(|| format!("{} has no project configuration file", client.name))?,
        ),
        None => (client.user)().ok_or("cannot tell the home folder (HOME)")?,
    };
    let before = match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let after = updated(before.as_deref(), client.key, &name, &entry)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let shown = path.display().to_string();
    if before.as_deref() == Some(after.as_str()) {
        eprintln!(
            "{shown}: `{name}` is already configured for {}",
            client.name
        );
        return Ok(());
    }
    if args.dry_run {
        let old = before.as_deref().unwrap_or("");
        let diff = similar::TextDiff::from_lines(old, &after);
        print!(
            "{}",
            diff.unified_diff().context_radius(3).header(&shown, &shown)
        );
        return Ok(());
    }
    write(&path, before.is_some(), &after)?;
    let verb = if before.is_some() {
        "updated"
    } else {
        "created"
    };
    eprintln!("{shown}: {verb}, `{name}` configured for {}", client.name);
    Ok(())
}

/// The file with the entry set: edited in place, everything else kept as it was.
pub fn updated(
    before: Option<&str>,
    key: &str,
    name: &str,
    entry: &Value,
) -> Result<String, String> {
    let text = match before {
        Some(text) if !text.trim().is_empty() => text,
        _ => {
            let doc = json!({ key: { name: entry } });
            let mut text = serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?;
            text.push('\n');
            return Ok(text);
        }
    };
    let root =
        CstRootNode::parse(text, &ParseOptions::default()).map_err(|e| format!("not JSON: {e}"))?;
    let object = root
        .object_value()
        .ok_or("the file's top level is not an object")?;
    let servers = object
        .object_value_or_create(key)
        .ok_or_else(|| format!("`{key}` is not an object"))?;
    match servers.get(name) {
        Some(prop) => {
            let same = prop
                .value()
                .and_then(|v| v.to_serde_value())
                .is_some_and(|v| &v == entry);
            if !same {
                prop.set_value(input(entry));
            }
        }
        None => {
            servers.append(name, input(entry));
        }
    }
    Ok(root.to_string())
}

fn input(value: &Value) -> CstInputValue {
    match value {
        Value::Null => CstInputValue::Null,
        Value::Bool(b) => CstInputValue::Bool(*b),
        Value::Number(n) => CstInputValue::Number(n.to_string()),
        Value::String(s) => CstInputValue::String(s.clone()),
        Value::Array(items) => CstInputValue::Array(items.iter().map(input).collect()),
        Value::Object(m) => {
            CstInputValue::Object(m.iter().map(|(k, v)| (k.clone(), input(v))).collect())
        }
    }
}

/// The new content in place of the old: written beside it and renamed over it (with the old
/// file's permissions: `~/.claude.json` is private), the old content kept as `FILE.bak`.
fn write(path: &Path, existed: bool, text: &str) -> Result<(), String> {
    let failed = |e: &dyn std::fmt::Display| format!("cannot write {}: {e}", path.display());
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&dir).map_err(|e| failed(&e))?;
    let mut backup = path.as_os_str().to_owned();
    backup.push(".bak");
    if existed {
        std::fs::copy(path, &backup).map_err(|e| failed(&e))?;
    }
    let mut tmp = tempfile::NamedTempFile::new_in(&dir).map_err(|e| failed(&e))?;
    std::io::Write::write_all(&mut tmp, text.as_bytes()).map_err(|e| failed(&e))?;
    if existed {
        let permissions = std::fs::metadata(path)
            .map_err(|e| failed(&e))?
            .permissions();
        std::fs::set_permissions(tmp.path(), permissions).map_err(|e| failed(&e))?;
    }
    tmp.persist(path).map_err(|e| failed(&e.error))?;
    Ok(())
}

fn entry(client: &Client, server: &Server) -> Result<Value, String> {
    let mut e = Map::new();
    match server {
        Server::Stdio { command, args, env } => {
            if client.typed_stdio {
                e.insert("type".into(), "stdio".into());
            }
            e.insert("command".into(), command.clone().into());
            e.insert("args".into(), args.clone().into());
            if !env.is_empty() {
                let env = env.iter().map(|(k, v)| (k.clone(), Value::from(v.clone())));
                e.insert("env".into(), Map::from_iter(env).into());
            }
        }
        Server::Http(url) => {
            let (key, kind) = client.http.ok_or_else(|| {
                format!(
                    "{} takes only servers it starts (stdio) in its configuration file; add a \
                     remote server in its settings",
                    client.name
                )
            })?;
            if let Some(kind) = kind {
                e.insert("type".into(), kind.into());
            }
            e.insert(key.into(), url.clone().into());
        }
    }
    Ok(e.into())
}

fn pairs(list: &[String], flag: &str) -> Result<Vec<(String, String)>, String> {
    list.iter()
        .map(|p| {
            p.split_once('=')
                .map(|(k, v)| (k.to_owned(), v.to_owned()))
                .ok_or_else(|| format!("{flag} {p}: use KEY=VALUE"))
        })
        .collect()
}

/// The server, and the entry's default name.
fn server(args: &Args) -> Result<(Server, Option<String>), String> {
    let env = pairs(&args.env, "--env")?;
    if let Some(url) = &args.url {
        return Ok((Server::Http(url.clone()), None));
    }
    if let Some(bundle) = &args.bundle {
        return from_bundle(args, bundle, env);
    }
    let Some((command, rest)) = args.command.split_first() else {
        return Err("give the server: -- COMMAND ARGS…, --bundle FILE.mcpb or --url URL".into());
    };
    // A relative path works only from where the client happens to start: made absolute.
    let path = Path::new(command);
    let command = if path.components().count() > 1 && path.is_relative() {
        std::fs::canonicalize(path)
            .map_err(|e| format!("{command}: {e}"))?
            .display()
            .to_string()
    } else {
        command.clone()
    };
    let name = Path::new(&command)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned());
    let server = Server::Stdio {
        command,
        args: rest.to_vec(),
        env,
    };
    Ok((server, name))
}

/// A bundle's server as its manifest starts it: `${__dirname}` is the unpacked folder,
/// `${user_config.KEY}` the value given with `--user-config KEY=VALUE`, else the option's
/// default; a variable left without a value is not set.
fn from_bundle(
    args: &Args,
    bundle: &Path,
    mut env: Vec<(String, String)>,
) -> Result<(Server, Option<String>), String> {
    let dir = if bundle.is_dir() {
        bundle.to_path_buf()
    } else {
        let dir = args
            .bundle_dir
            .clone()
            .unwrap_or_else(|| bundle.with_extension(""));
        unpack(bundle, &dir)?;
        dir
    };
    let dir = std::fs::canonicalize(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let manifest_path = dir.join("manifest.json");
    let manifest: Value = std::fs::read(&manifest_path)
        .map_err(|e| e.to_string())
        .and_then(|b| serde_json::from_slice(&b).map_err(|e| e.to_string()))
        .map_err(|e| format!("{}: {e}", manifest_path.display()))?;
    let answers = pairs(&args.user_config, "--user-config")?;
    let options = manifest["user_config"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    for (key, _) in &answers {
        if !options.contains_key(key) {
            return Err(format!(
                "--user-config {key}: the bundle has no such option"
            ));
        }
    }
    let value_of = |key: &str| -> Result<Option<String>, String> {
        if let Some((_, v)) = answers.iter().find(|(k, _)| k == key) {
            return Ok(Some(v.clone()));
        }
        let option = &options[key];
        match &option["default"] {
            Value::String(s) => Ok(Some(s.clone())),
            Value::Null if option["required"] == true => Err(format!(
                "the bundle's option `{key}` is required: --user-config {key}=VALUE"
            )),
            Value::Null => Ok(None),
            other => Ok(Some(other.to_string())),
        }
    };
    let dirname = dir.display().to_string();
    // Substitutes the variables of one value; `None` when it names an option left empty.
    let substitute = |text: &str| -> Result<Option<String>, String> {
        let mut out = text.replace("${__dirname}", &dirname);
        while let Some(start) = out.find("${user_config.") {
            let rest = &out[start + "${user_config.".len()..];
            let Some(end) = rest.find('}') else { break };
            let key = rest[..end].to_owned();
            match value_of(&key)? {
                Some(v) => out = format!("{}{v}{}", &out[..start], &rest[end + 1..]),
                None => return Ok(None),
            }
        }
        Ok(Some(out))
    };
    let config = &manifest["server"]["mcp_config"];
    let platform = super::bundle::this_platform();
    let command = config["platform_overrides"][platform]["command"]
        .as_str()
        .or(config["command"].as_str())
        .ok_or("the bundle's manifest has no server.mcp_config.command")?;
    let command = substitute(command)?.unwrap_or_default();
    let mut argv = Vec::new();
    for a in config["args"].as_array().into_iter().flatten() {
        if let Some(a) = a.as_str().map(&substitute).transpose()?.flatten() {
            argv.push(a);
        }
    }
    for (k, v) in config["env"].as_object().into_iter().flatten() {
        if let Some(v) = v.as_str().map(&substitute).transpose()?.flatten() {
            env.push((k.clone(), v));
        }
    }
    let name = manifest["name"].as_str().map(str::to_owned);
    Ok((
        Server::Stdio {
            command,
            args: argv,
            env,
        },
        name,
    ))
}

/// Unpacks a `.mcpb` into `dir` (made empty first), executables keeping their mode.
fn unpack(bundle: &Path, dir: &Path) -> Result<(), String> {
    let failed = |e: &dyn std::fmt::Display| format!("cannot unpack {}: {e}", bundle.display());
    let file = std::fs::File::open(bundle).map_err(|e| failed(&e))?;
    let mut zip = zip::ZipArchive::new(file).map_err(|e| failed(&e))?;
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(|e| failed(&e))?;
    }
    for i in 0..zip.len() {
        let mut entry = zip.by_index(i).map_err(|e| failed(&e))?;
        // Names that would escape the folder (`../`, absolute) are refused.
        let Some(rel) = entry.enclosed_name() else {
            let name = entry.name_raw().escape_ascii().to_string();
            return Err(failed(&format!("the entry `{name}` leaves the folder")));
        };
        let path = dir.join(rel);
        if entry.is_dir() {
            std::fs::create_dir_all(&path).map_err(|e| failed(&e))?;
            continue;
        }
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| failed(&e))?;
        }
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes).map_err(|e| failed(&e))?;
        std::fs::write(&path, bytes).map_err(|e| failed(&e))?;
        #[cfg(unix)]
        if let Some(mode) = entry.unix_mode() {
            use std::os::unix::fs::PermissionsExt;
            let permissions = std::fs::Permissions::from_mode(mode & 0o777);
            std::fs::set_permissions(&path, permissions).map_err(|e| failed(&e))?;
        }
    }
    Ok(())
}
