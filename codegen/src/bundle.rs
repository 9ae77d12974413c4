//! MCP Bundle manifests: the `manifest.json` of an `.mcpb` file (manifest version 0.3, the
//! newest stable version of `@anthropic-ai/mcpb`'s schema) for a server built from `.tool`
//! files. The tools and prompts it lists come from the [`Listings`]; everything else (name,
//! author, command, the options a user fills in) from a [`BundleInfo`].
//!
//! The server is a `binary` bundle: its command is `${__dirname}/ENTRY`, the executable inside
//! the bundle. Each [`UserOption`] reaches the server as an environment variable,
//! `"ENV": "${user_config.KEY}"`, which the host fills with what the user entered (secrets
//! included: the format keeps `sensitive` values out of arguments).

use serde_json::{Map, Value, json};

use crate::Listings;

/// The manifest version written (`manifest_version`).
pub const MANIFEST_VERSION: &str = "0.3";

/// The platforms a bundle can name (`compatibility.platforms`, `platform_overrides`): Node's
/// `process.platform` values.
pub const PLATFORMS: [&str; 3] = ["darwin", "linux", "win32"];

/// What a bundle's manifest says besides the listings.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct BundleInfo {
    /// Machine-readable name (`name`).
    pub name: String,
    /// Human-friendly name (`display_name`).
    pub display_name: Option<String>,
    /// The server's version (semver).
    pub version: String,
    /// One-line description.
    pub description: String,
    /// Longer description, markdown (`long_description`).
    pub long_description: Option<String>,
    /// The author (required by the format).
    pub author: Author,
    /// SPDX license expression.
    pub license: Option<String>,
    /// Source repository URL (written as `{"type": "git", "url": …}`).
    pub repository: Option<String>,
    /// Homepage URL.
    pub homepage: Option<String>,
    /// Documentation URL.
    pub documentation: Option<String>,
    /// Support URL.
    pub support: Option<String>,
    /// Search keywords.
    pub keywords: Vec<String>,
    /// The icon's path inside the bundle (a PNG).
    pub icon: Option<String>,
    /// The executable's path inside the bundle for the platform it was built on, such as
    /// `server/notes` (`server.entry_point`).
    pub entry_point: String,
    /// Arguments passed to the server.
    pub args: Vec<String>,
    /// Fixed environment variables.
    pub env: Vec<(String, String)>,
    /// Executables for other platforms: platform (`darwin`, `linux`, `win32`) and path inside
    /// the bundle, written as `platform_overrides`.
    pub platform_entry_points: Vec<(String, String)>,
    /// `compatibility.platforms` (none: every platform).
    pub platforms: Vec<String>,
    /// Client version constraints of `compatibility`, such as `("claude_desktop", ">=0.10.0")`.
    pub clients: Vec<(String, String)>,
    /// Options the user fills in when installing the bundle.
    pub user_config: Vec<UserOption>,
}

/// A bundle's author.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Author {
    /// Name (required).
    pub name: String,
    /// E-mail address.
    pub email: Option<String>,
    /// Web page.
    pub url: Option<String>,
}

impl Author {
    /// Parses cargo's `authors` form, `Name <email>` (the e-mail is optional).
    pub fn parse(text: &str) -> Author {
        match text.split_once('<') {
            Some((name, rest)) if rest.trim_end().ends_with('>') => Author {
                name: name.trim().to_owned(),
                email: Some(rest.trim_end().trim_end_matches('>').trim().to_owned()),
                url: None,
            },
            _ => Author {
                name: text.trim().to_owned(),
                email: None,
                url: None,
            },
        }
    }
}

/// An option the user fills in at install time (`user_config`), passed to the server as the
/// environment variable `env`.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct UserOption {
    /// The key in `user_config` (letters, digits, `_`).
    pub key: String,
    /// `string`, `number`, `boolean`, `directory` or `file`.
    pub kind: String,
    /// Shown in the host's form.
    pub title: String,
    /// Help text.
    pub description: String,
    /// The user must fill it in.
    pub required: bool,
    /// The default value.
    pub default: Option<Value>,
    /// Masked and stored securely (strings: API keys, passwords).
    pub sensitive: bool,
    /// Several directories or files.
    pub multiple: bool,
    /// Bounds of a number.
    pub min: Option<f64>,
    /// Bounds of a number.
    pub max: Option<f64>,
    /// The environment variable the server reads it from.
    pub env: String,
}

/// The kinds of [`UserOption::kind`] the format knows.
pub const USER_OPTION_KINDS: [&str; 5] = ["string", "number", "boolean", "directory", "file"];

/// The manifest, or what is wrong with `info` (a message naming the field).
pub fn manifest(listings: &Listings, info: &BundleInfo) -> Result<Value, String> {
    check(info)?;
    let mut m = Map::new();
    m.insert("manifest_version".into(), MANIFEST_VERSION.into());
    m.insert("name".into(), info.name.clone().into());
    put(&mut m, "display_name", &info.display_name);
    m.insert("version".into(), info.version.clone().into());
    m.insert("description".into(), info.description.clone().into());
    put(&mut m, "long_description", &info.long_description);
    let mut author = Map::new();
    author.insert("name".into(), info.author.name.clone().into());
    put(&mut author, "email", &info.author.email);
    put(&mut author, "url", &info.author.url);
    m.insert("author".into(), author.into());
    if let Some(url) = &info.repository {
        m.insert("repository".into(), json!({"type": "git", "url": url}));
    }
    put(&mut m, "homepage", &info.homepage);
    put(&mut m, "documentation", &info.documentation);
    put(&mut m, "support", &info.support);
    put(&mut m, "icon", &info.icon);
    m.insert("server".into(), server(info));
    let services = &listings.services;
    let tools: Vec<Value> = services
        .iter()
        .flat_map(|s| &s.tools)
        .map(|t| named(&t.entry))
        .collect();
    if !tools.is_empty() {
        m.insert("tools".into(), tools.into());
    }
    let prompts: Vec<Value> = services
        .iter()
        .flat_map(|s| &s.prompts)
        .map(|p| prompt(&p.entry))
        .collect();
    if !prompts.is_empty() {
        m.insert("prompts".into(), prompts.into());
    }
    if !info.keywords.is_empty() {
        m.insert("keywords".into(), info.keywords.clone().into());
    }
    put(&mut m, "license", &info.license);
    let mut compatibility = Map::new();
    for (client, range) in &info.clients {
        compatibility.insert(client.clone(), range.clone().into());
    }
    if !info.platforms.is_empty() {
        compatibility.insert("platforms".into(), info.platforms.clone().into());
    }
    if !compatibility.is_empty() {
        m.insert("compatibility".into(), compatibility.into());
    }
    if !info.user_config.is_empty() {
        let options = info.user_config.iter().map(|o| (o.key.clone(), option(o)));
        m.insert("user_config".into(), Map::from_iter(options).into());
    }
    Ok(m.into())
}

fn put(m: &mut Map<String, Value>, key: &str, value: &Option<String>) {
    if let Some(v) = value {
        m.insert(key.into(), v.clone().into());
    }
}

fn server(info: &BundleInfo) -> Value {
    let mut config = Map::new();
    config.insert("command".into(), command(&info.entry_point).into());
    config.insert("args".into(), info.args.clone().into());
    let mut env = Map::new();
    for (name, value) in &info.env {
        env.insert(name.clone(), value.clone().into());
    }
    for o in &info.user_config {
        env.insert(o.env.clone(), format!("${{user_config.{}}}", o.key).into());
    }
    config.insert("env".into(), env.into());
    if !info.platform_entry_points.is_empty() {
        let overrides = info
            .platform_entry_points
            .iter()
            .map(|(platform, entry)| (platform.clone(), json!({"command": command(entry)})));
        config.insert(
            "platform_overrides".into(),
            Map::from_iter(overrides).into(),
        );
    }
    json!({"type": "binary", "entry_point": info.entry_point, "mcp_config": config})
}

fn command(entry: &str) -> String {
    format!("${{__dirname}}/{entry}")
}

fn named(entry: &Value) -> Value {
    let mut m = Map::new();
    m.insert("name".into(), entry["name"].clone());
    if let Some(d) = entry.get("description") {
        m.insert("description".into(), d.clone());
    }
    m.into()
}

/// The format requires a prompt's `text`; the server renders the real messages, so the text is
/// the prompt's description (its name when it has none).
fn prompt(entry: &Value) -> Value {
    let mut m = named(entry).as_object().cloned().unwrap_or_default();
    let arguments: Vec<Value> = entry["arguments"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|a| a["name"].clone())
        .collect();
    if !arguments.is_empty() {
        m.insert("arguments".into(), arguments.into());
    }
    let text = entry
        .get("description")
        .or_else(|| entry.get("name"))
        .cloned()
        .unwrap_or_default();
    m.insert("text".into(), text);
    m.into()
}

fn option(o: &UserOption) -> Value {
    let mut m = Map::new();
    m.insert("type".into(), o.kind.clone().into());
    m.insert("title".into(), o.title.clone().into());
    m.insert("description".into(), o.description.clone().into());
    if o.required {
        m.insert("required".into(), true.into());
    }
    if let Some(d) = &o.default {
        m.insert("default".into(), d.clone());
    }
    if o.multiple {
        m.insert("multiple".into(), true.into());
    }
    if o.sensitive {
        m.insert("sensitive".into(), true.into());
    }
    for (key, bound) in [("min", o.min), ("max", o.max)] {
        if let Some(n) = bound.and_then(serde_json::Number::from_f64) {
            m.insert(key.into(), n.into());
        }
    }
    m.into()
}

fn check(info: &BundleInfo) -> Result<(), String> {
    for (field, value) in [
        ("name", &info.name),
        ("version", &info.version),
        ("description", &info.description),
        ("author", &info.author.name),
        ("entry point", &info.entry_point),
    ] {
        if value.trim().is_empty() {
            return Err(format!("the bundle needs a {field}"));
        }
    }
    let platforms = info
        .platforms
        .iter()
        .chain(info.platform_entry_points.iter().map(|(p, _)| p));
    for platform in platforms {
        if !PLATFORMS.contains(&platform.as_str()) {
            return Err(format!(
                "unknown platform `{platform}` (one of: {})",
                PLATFORMS.join(", ")
            ));
        }
    }
    let mut keys = Vec::new();
    for o in &info.user_config {
        let word =
            |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !word(&o.key) {
            return Err(format!(
                "user_config key `{}`: use letters, digits and `_`",
                o.key
            ));
        }
        if keys.contains(&&o.key) {
            return Err(format!("user_config key `{}` is given twice", o.key));
        }
        keys.push(&o.key);
        if !word(&o.env) || o.env.starts_with(|c: char| c.is_ascii_digit()) {
            return Err(format!(
                "user_config `{}`: `env` must name an environment variable (letters, digits, `_`)",
                o.key
            ));
        }
        if !USER_OPTION_KINDS.contains(&o.kind.as_str()) {
            return Err(format!(
                "user_config `{}`: unknown type `{}` (one of: {})",
                o.key,
                o.kind,
                USER_OPTION_KINDS.join(", ")
            ));
        }
        if o.title.trim().is_empty() || o.description.trim().is_empty() {
            return Err(format!(
                "user_config `{}` needs a title and a description",
                o.key
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn authors_in_cargo_form() {
        let a = Author::parse("Ada Lovelace <ada@example.com>");
        assert_eq!(a.name, "Ada Lovelace");
        assert_eq!(a.email.as_deref(), Some("ada@example.com"));
        let b = Author::parse("The notes authors");
        assert_eq!((b.name.as_str(), b.email), ("The notes authors", None));
    }

    fn info() -> BundleInfo {
        BundleInfo {
            name: "n".into(),
            version: "1.0.0".into(),
            description: "d".into(),
            author: Author::parse("a"),
            entry_point: "server/n".into(),
            ..BundleInfo::default()
        }
    }

    #[test]
    fn bad_infos_are_refused_with_the_field() {
        let empty = Listings {
            services: vec![],
            notes: vec![],
        };
        assert!(manifest(&empty, &info()).is_ok());
        let mut no_author = info();
        no_author.author.name.clear();
        assert_eq!(
            manifest(&empty, &no_author).err().as_deref(),
            Some("the bundle needs a author")
        );
        let mut platform = info();
        platform.platforms = vec!["macos".into()];
        assert!(manifest(&empty, &platform).is_err_and(|e| e.contains("`macos`")));
        let option = |key: &str, env: &str, kind: &str| UserOption {
            key: key.into(),
            env: env.into(),
            kind: kind.into(),
            title: "t".into(),
            description: "d".into(),
            ..UserOption::default()
        };
        for (bad, says) in [
            (option("a.b", "A", "string"), "letters, digits"),
            (option("a", "A-B", "string"), "environment variable"),
            (option("a", "1A", "string"), "environment variable"),
            (option("a", "A", "secret"), "unknown type"),
        ] {
            let mut i = info();
            i.user_config = vec![bad];
            assert!(
                manifest(&empty, &i).is_err_and(|e| e.contains(says)),
                "{says}"
            );
        }
        let mut twice = info();
        twice.user_config = vec![option("a", "A", "string"), option("a", "B", "string")];
        assert!(manifest(&empty, &twice).is_err_and(|e| e.contains("twice")));
    }
}
