//! [`lint`]: what a client profile is documented to reject in a tool listing.

use serde_json::{Map, Value};
use toolidl_formats::publish::{
    GEMINI_FORMATS, GEMINI_KEYWORDS, OPENAI_FORMATS, OPENAI_KEYWORDS, is_type,
};

use super::{Finding, Profile, Severity, escape, portable_name, severity};

/// OpenAI strict mode's limits (its structured-outputs documentation).
const OPENAI_MAX_DEPTH: usize = 10;
const OPENAI_MAX_PROPERTIES: usize = 5000;
/// JavaScript numbers hold integers exactly up to 2^53.
const JS_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// What `profile`'s client would reject (errors) or mishandle (warnings) in `tool`, a
/// `tools/list` entry.
pub fn lint(tool: &Value, profile: Profile) -> Vec<Finding> {
    let name = tool.get("name").and_then(Value::as_str).unwrap_or("");
    let mut out = Lint {
        profile,
        tool: name,
        findings: Vec::new(),
    };
    out.name(name);
    if tool.get("description").and_then(Value::as_str).is_none() {
        out.warn(
            "L0201",
            "",
            "the tool has no description: models choose tools by it".into(),
        );
    }
    let has_ui = tool.pointer("/_meta/ui").is_some();
    if has_ui && tool.get("title").is_none() {
        out.warn(
            "L0203",
            "",
            "a tool with an app (`@ui`) has no title to show".into(),
        );
    }
    if let Some(schema) = tool.get("inputSchema") {
        out.input(schema);
    }
    out.findings
}

/// L0401, found from the model, since a listing cannot tell that a result may be null: `tool`
/// returns a nullable record or map, whose `outputSchema` is an object all the same, so a
/// null result goes out as the text `null` without structured content, which the official
/// clients (the Python and TypeScript SDKs, the Inspector) refuse. A warning under every
/// profile: no variant of the listing changes what the server sends. `name` is the tool's
/// name as listed (published, under `--published`).
pub fn lint_result(tool: &toolidl::model::Member, name: &str) -> Option<Finding> {
    let ty = tool.returns.null_without_structured_content()?;
    Some(Finding {
        code: "L0401",
        severity: Severity::Warning,
        tool: name.to_owned(),
        pointer: "/outputSchema".into(),
        message: format!(
            "the result `{}` may be null, but a null result has no structured content to match this object schema: MCP clients refuse it",
            ty
        ),
    })
}

struct Lint<'a> {
    profile: Profile,
    tool: &'a str,
    findings: Vec<Finding>,
}

impl Lint<'_> {
    fn push(&mut self, code: &'static str, severity: Option<Severity>, at: &str, message: String) {
        if let Some(severity) = severity {
            self.findings.push(Finding {
                code,
                severity,
                tool: self.tool.to_owned(),
                pointer: at.to_owned(),
                message,
            });
        }
    }

    /// A warning under every profile.
    fn warn(&mut self, code: &'static str, at: &str, message: String) {
        self.push(code, Some(Severity::Warning), at, message);
    }

    fn name(&mut self, name: &str) {
        let mcp = !name.is_empty()
            && name.len() <= 128
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"_.-".contains(&b));
        if !mcp {
            let message =
                format!("the tool name `{name}` is not 1 to 128 of A-Z a-z 0-9 _ . - (MCP's rule)");
            self.push("L0101", Some(Severity::Error), "/name", message);
            return;
        }
        if !portable_name(name) {
            let message = format!(
                "the tool name `{name}` is not 1 to 64 of A-Z a-z 0-9 _ - (Claude's and OpenAI's rule)"
            );
            let at = severity(self.profile, &[Profile::Claude, Profile::OpenAiStrict]);
            self.push("L0102", at, "/name", message);
        }
        let gemini = name.len() <= 64
            && name
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
        if !gemini {
            let message = format!(
                "the tool name `{name}` must start with a letter or `_` and be at most 64 long (Gemini's rule)"
            );
            let at = severity(self.profile, &[Profile::Gemini]);
            self.push("L0103", at, "/name", message);
        }
    }

    fn input(&mut self, schema: &Value) {
        let Some(root) = schema.as_object() else {
            return;
        };
        for key in ["oneOf", "anyOf", "allOf"] {
            if root.contains_key(key) {
                let message = format!("`{key}` at the top of the input schema");
                let at = severity(self.profile, &[Profile::Claude]);
                self.push("L0301", at, &format!("/inputSchema/{key}"), message);
            }
        }
        if root.contains_key("$schema") {
            let at = severity(self.profile, &[Profile::Gemini]);
            let message = "a `$schema` key the client cannot resolve".into();
            self.push("L0302", at, "/inputSchema/$schema", message);
        }
        if let Some(Value::Object(properties)) = root.get("properties") {
            for (key, property) in properties {
                if property.get("description").is_none() && property.get("$ref").is_none() {
                    self.warn(
                        "L0202",
                        &format!("/inputSchema/properties/{}", escape(key)),
                        format!("the parameter `{key}` has no description"),
                    );
                }
            }
        }
        let mut properties = 0;
        self.walk(schema, "/inputSchema", 0, &mut properties);
        if properties > OPENAI_MAX_PROPERTIES {
            let at = severity(self.profile, &[Profile::OpenAiStrict]);
            let message = format!(
                "{properties} properties in all; OpenAI strict mode takes at most {OPENAI_MAX_PROPERTIES}"
            );
            self.push("L0311", at, "/inputSchema", message);
        }
    }

    /// Checks one schema and everything below it.
    fn walk(&mut self, schema: &Value, at: &str, depth: usize, properties: &mut usize) {
        let Some(obj) = schema.as_object() else {
            return;
        };
        if obj.contains_key("$ref") || obj.contains_key("$defs") {
            let message = "`$ref`/`$defs`: some clients drop `$defs` before use".into();
            self.push(
                "L0303",
                severity(self.profile, &[Profile::Gemini]),
                at,
                message,
            );
        }
        if let Some(Value::Array(types)) = obj.get("type") {
            let message = format!("a type array ({})", Value::Array(types.clone()));
            let severity = severity(self.profile, &[Profile::Gemini]);
            self.push("L0304", severity, &format!("{at}/type"), message);
        }
        if let Some(format) = obj.get("format").and_then(Value::as_str) {
            let mut refused = Vec::new();
            if !OPENAI_FORMATS.contains(&format) {
                refused.push(Profile::OpenAiStrict);
            }
            if !GEMINI_FORMATS.contains(&format) {
                refused.push(Profile::Gemini);
            }
            let message = format!("the format `{format}`");
            let severity = severity(self.profile, &refused);
            self.push("L0305", severity, &format!("{at}/format"), message);
        }
        if let Some(Value::Array(values)) = obj.get("enum")
            && values.iter().any(|v| !v.is_string())
        {
            let message = "an enum with values that are not strings".into();
            let severity = severity(self.profile, &[Profile::Gemini]);
            self.push("L0306", severity, &format!("{at}/enum"), message);
        }
        let object = obj.contains_key("properties") || is_type(obj, "object");
        if obj.contains_key("additionalProperties") && self.profile == Profile::Gemini {
            let message = "`additionalProperties`".into();
            let at = format!("{at}/additionalProperties");
            self.push("L0307", Some(Severity::Error), &at, message);
        }
        if object && obj.get("additionalProperties") != Some(&Value::Bool(false)) {
            let message = "an object without `additionalProperties: false`".into();
            let severity = severity(self.profile, &[Profile::OpenAiStrict]);
            self.push("L0308", severity, at, message);
        }
        if let Some(Value::Object(props)) = obj.get("properties") {
            *properties += props.len();
            let required: Vec<&str> = obj
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            for key in props.keys().filter(|k| !required.contains(&k.as_str())) {
                let message = format!("the property `{key}` is optional (not in `required`)");
                let severity = if self.profile == Profile::OpenAiStrict {
                    Some(Severity::Error)
                } else {
                    None
                };
                let at = format!("{at}/properties/{}", escape(key));
                self.push("L0309", severity, &at, message);
            }
        }
        if depth > OPENAI_MAX_DEPTH {
            let message = format!(
                "nested {depth} levels deep; OpenAI strict mode takes at most {OPENAI_MAX_DEPTH}"
            );
            let severity = severity(self.profile, &[Profile::OpenAiStrict]);
            self.push("L0310", severity, at, message);
        }
        let keywords = match self.profile {
            Profile::OpenAiStrict => Some(OPENAI_KEYWORDS),
            Profile::Gemini => Some(GEMINI_KEYWORDS),
            _ => None,
        };
        if let Some(keywords) = keywords {
            for key in obj.keys().filter(|k| !keywords.contains(&k.as_str())) {
                if is_checked_elsewhere(key) {
                    continue;
                }
                let message = format!("the keyword `{key}`");
                let at = format!("{at}/{}", escape(key));
                self.push("L0312", Some(Severity::Error), &at, message);
            }
        }
        for bound in ["minimum", "maximum"] {
            if let Some(n) = obj.get(bound).and_then(Value::as_f64)
                && n.abs() > JS_SAFE_INTEGER
            {
                let message = format!(
                    "`{bound}` {} is beyond ±2^53: JavaScript clients read it imprecisely",
                    obj[bound]
                );
                self.warn("L0313", &format!("{at}/{bound}"), message);
            }
        }
        self.children(obj, at, depth, properties);
    }

    fn children(
        &mut self,
        obj: &Map<String, Value>,
        at: &str,
        depth: usize,
        properties: &mut usize,
    ) {
        if let Some(Value::Object(props)) = obj.get("properties") {
            for (key, value) in props {
                let here = format!("{at}/properties/{}", escape(key));
                self.walk(value, &here, depth + 1, properties);
            }
        }
        if let Some(items) = obj.get("items") {
            self.walk(items, &format!("{at}/items"), depth + 1, properties);
        }
        if let Some(value @ Value::Object(_)) = obj.get("additionalProperties") {
            let here = format!("{at}/additionalProperties");
            self.walk(value, &here, depth + 1, properties);
        }
        for key in ["anyOf", "oneOf", "allOf"] {
            if let Some(Value::Array(branches)) = obj.get(key) {
                for (i, branch) in branches.iter().enumerate() {
                    self.walk(branch, &format!("{at}/{key}/{i}"), depth, properties);
                }
            }
        }
        if let Some(Value::Object(defs)) = obj.get("$defs") {
            for (key, value) in defs {
                let here = format!("{at}/$defs/{}", escape(key));
                self.walk(value, &here, depth, properties);
            }
        }
    }
}

/// Keywords with a rule of their own (reported once, by that rule).
fn is_checked_elsewhere(key: &str) -> bool {
    matches!(key, "$ref" | "$defs" | "$schema" | "additionalProperties")
}
