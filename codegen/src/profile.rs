//! Client profiles: what a client is documented to reject in a tool listing
//! ([`lint`]), and the variant of a listing that it accepts ([`publish`]).
//!
//! A variant changes only what is listed. The server still enforces the `.tool` file's
//! constraints: a keyword a client rejects is moved into the property's description as text,
//! never dropped from the checks. The facts behind each rule are in `docs/lint.md`.

use serde_json::{Map, Value};

use crate::listings::Listings;

/// The client profiles, shared with the runtime (which serves one and reads arguments in the
/// forms its listing publishes): `toolidl_formats::Profile`.
pub use toolidl::formats::Profile;

/// How bad a finding is for a profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// Some clients cope badly; the listing still works with this profile's client.
    Warning,
    /// This profile's client rejects the tool (or the whole listing).
    Error,
}

/// One thing a client would reject or mishandle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The rule's stable code (`L0101`…).
    pub code: &'static str,
    /// Whether the profile's client rejects the tool or only copes badly with it.
    pub severity: Severity,
    /// The tool's wire name.
    pub tool: String,
    /// A JSON pointer into the tool's entry (`/inputSchema/properties/city/format`); empty
    /// for the tool itself.
    pub pointer: String,
    /// What the client does with it, in one sentence.
    pub message: String,
}

impl Finding {
    /// What to change in the `.tool` file, in words.
    pub fn help(&self) -> &'static str {
        match self.code {
            "L0101" => "rename the tool with `@name(\"…\")`: 1 to 128 of `A-Z a-z 0-9 _ . -`",
            "L0102" => {
                "rename the tool with `@name(\"…\")`: at most 64 of `A-Z a-z 0-9 _ -` (no dots)"
            }
            "L0103" => {
                "rename the tool with `@name(\"…\")`: a letter or `_` first, at most 64 characters"
            }
            "L0201" => "document the tool with a `///` comment or `@description(\"…\")`",
            "L0202" => "document the parameter with a `///` comment or `@description(\"…\")`",
            "L0203" => "give the tool a `@title(\"…\")` for its app to show",
            "L0301" => {
                "give the union a parameter of its own (`shape: Shape`) instead of making it the whole input"
            }
            "L0302" => {
                "toolidl never writes `$schema`: the listing was changed after it was generated"
            }
            "L0303" => {
                "a record that refers to itself goes to `$defs`: flatten the recursion if the client must read it"
            }
            "L0304" => {
                "`T?` is written as a type array: where `null` need not be sent, make the parameter optional (`name?: T`) instead"
            }
            "L0305" => {
                "`uuid`, `datetime`, `date`, `time`, `uri`, `@email` and `@url` write a `format`; the server checks the format whatever the listing says"
            }
            "L0306" => {
                "a nullable enum (`Kind?`) lists `null` among its values: make the parameter optional (`kind?: Kind`) where `null` need not be sent"
            }
            "L0307" => {
                "records write `additionalProperties: false` and maps `additionalProperties: {…}`"
            }
            "L0308" => {
                "an `@open` record or tool, `object` or `json` leaves the object open: declare a record without `@open` to close it"
            }
            "L0309" => {
                "a parameter with a default or `name?:` is optional: the client wants every property in `required`"
            }
            "L0310" => "nest fewer records (`..Record` spreads a record's fields at the top level)",
            "L0311" => "split the tool: its schema has more properties than the client reads",
            "L0312" => {
                "the keyword comes from a constraint or an annotation (`@length`, `@deprecated`, a default, …) that the client's dialect lacks"
            }
            "L0313" => {
                "bound the integer with `@range(…)` within ±9007199254740991, which JavaScript numbers hold exactly"
            }
            "L0314" => {
                "the profile cannot express this map or open object (it closes every object): change the type (a `list` of records with the keys as a field) or serve another profile"
            }
            "L0315" => {
                "the parameter can no longer be left out under the profile: make it `name?: T` (not nullable) or give it a default, e.g. `name: T? = null`"
            }
            "L0401" => {
                "return a record with a nullable field (`value: T?`) or `content` instead, or make a missing value a tool error"
            }
            _ => "see docs/lint.md for the rule",
        }
    }

    /// Whether serving `profile`'s published variant avoids the finding: rules about the
    /// schema's keywords and names, not missing documentation, integer bounds, a depth
    /// or size the variant keeps (L0310, L0311), or what the variant itself narrows (L0314,
    /// L0315).
    pub fn avoided_by_variant(&self, profile: Profile) -> bool {
        profile != Profile::Standard
            && self.severity == Severity::Error
            && ((self.code.starts_with("L03")
                && !matches!(self.code, "L0310" | "L0311" | "L0314" | "L0315"))
                || matches!(self.code, "L0102" | "L0103"))
    }
}

/// OpenAI strict mode's limits (its structured-outputs documentation).
const OPENAI_MAX_DEPTH: usize = 10;
const OPENAI_MAX_PROPERTIES: usize = 5000;
/// The `format`s OpenAI strict mode accepts.
const OPENAI_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];
/// The `format`s Gemini accepts on strings.
const GEMINI_FORMATS: &[&str] = &["date-time", "enum"];
/// The schema keywords Gemini's `Schema` object has.
const GEMINI_KEYWORDS: &[&str] = &[
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "maxItems",
    "minItems",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "example",
    "anyOf",
    "propertyOrdering",
    "default",
    "items",
    "minimum",
    "maximum",
];
/// The schema keywords OpenAI strict mode accepts (others are refused).
const OPENAI_KEYWORDS: &[&str] = &[
    "type",
    "description",
    "title",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "anyOf",
    "$ref",
    "$defs",
    "pattern",
    "format",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "minItems",
    "maxItems",
];
/// Gemini has no `$ref`: recursive records are written out this many levels deep.
pub const GEMINI_RECURSION_DEPTH: usize = 3;
/// JavaScript numbers hold integers exactly up to 2^53.
const JS_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

fn severity(profile: Profile, errors_for: &[Profile]) -> Option<Severity> {
    if errors_for.contains(&profile) {
        Some(Severity::Error)
    } else if profile == Profile::Standard {
        Some(Severity::Warning)
    } else {
        None
    }
}

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

/// Where `profile`'s variant of a tool accepts less than the standard listing in a way a model
/// cannot work around (L0314, L0315, errors): `standard` and `published` are the tool's
/// entries in the standard listing and in the variant. Their input schemas are walked in
/// parallel (properties by key, `items`, a standard map's values against the variant's
/// `{key, value}` entries, `$ref` in each side's own `$defs`, `oneOf`/`anyOf` branches by
/// index, the variant's `anyOf: [X, {"type": "null"}]` unwrapped to `X`). Pointers are into
/// the published entry. Nothing under `standard`, whose variant is the listing itself.
///
/// `name: T? = null` writes no `default`, so it is reported as `name?: T?` is (L0315): a
/// caller with the model drops those findings (there `null` and left out mean the same), as
/// `toolidl lint` does.
pub fn narrowing(standard: &Value, published: &Value, profile: Profile) -> Vec<Finding> {
    if profile == Profile::Standard {
        return Vec::new();
    }
    let (Some(std_schema), Some(pub_schema)) =
        (standard.get("inputSchema"), published.get("inputSchema"))
    else {
        return Vec::new();
    };
    let defs = |schema: &Value| schema.get("$defs").and_then(Value::as_object).cloned();
    let mut walk = Narrowing {
        tool: published.get("name").and_then(Value::as_str).unwrap_or(""),
        std_defs: defs(std_schema).unwrap_or_default(),
        pub_defs: defs(pub_schema).unwrap_or_default(),
        visited: std::collections::HashSet::new(),
        findings: Vec::new(),
    };
    walk.compare(std_schema, pub_schema, "/inputSchema".into(), 0);
    walk.findings
}

struct Narrowing<'a> {
    tool: &'a str,
    std_defs: Map<String, Value>,
    pub_defs: Map<String, Value>,
    /// The `$ref` targets already followed (standard, published or where it stands).
    visited: std::collections::HashSet<(String, String)>,
    findings: Vec<Finding>,
}

/// A walk deeper than this stops (Gemini writes recursion out a few levels only).
const NARROWING_MAX_DEPTH: usize = 64;

impl Narrowing<'_> {
    fn push(&mut self, code: &'static str, at: &str, message: String) {
        self.findings.push(Finding {
            code,
            severity: Severity::Error,
            tool: self.tool.to_owned(),
            pointer: at.to_owned(),
            message,
        });
    }

    fn compare(&mut self, standard: &Value, published: &Value, at: String, depth: usize) {
        if depth > NARROWING_MAX_DEPTH {
            return;
        }
        let std_ref = ref_name(standard);
        let pub_ref = ref_name(published);
        if std_ref.is_some() || pub_ref.is_some() {
            let pub_at = match pub_ref {
                Some(name) => format!("/inputSchema/$defs/{}", escape(name)),
                None => at.clone(),
            };
            let key = (std_ref.unwrap_or("").to_owned(), pub_at.clone());
            if !self.visited.insert(key) {
                return;
            }
            let standard = match std_ref {
                Some(name) => self.std_defs.get(name).cloned(),
                None => Some(standard.clone()),
            };
            let published = match pub_ref {
                Some(name) => self.pub_defs.get(name).cloned(),
                None => Some(published.clone()),
            };
            if let (Some(s), Some(p)) = (standard, published) {
                self.compare(&s, &p, pub_at, depth + 1);
            }
            return;
        }
        let (Value::Object(s), Value::Object(p)) = (standard, published) else {
            return;
        };
        let std_branches = s
            .get("oneOf")
            .or_else(|| s.get("anyOf"))
            .and_then(Value::as_array);
        let (pub_key, pub_branches) = match (p.get("anyOf"), p.get("oneOf")) {
            (Some(Value::Array(b)), _) => ("anyOf", Some(b)),
            (_, Some(Value::Array(b))) => ("oneOf", Some(b)),
            _ => ("anyOf", None),
        };
        match (std_branches, pub_branches) {
            (Some(sb), Some(pb)) => {
                for (i, (sv, pv)) in sb.iter().zip(pb).enumerate() {
                    self.compare(sv, pv, format!("{at}/{pub_key}/{i}"), depth + 1);
                }
                return;
            }
            // The variant's `anyOf: [X, {"type": "null"}]` wrapper.
            (None, Some(pb)) if pb.len() == 2 && pb[1] == serde_json::json!({"type": "null"}) => {
                self.compare(standard, &pb[0], format!("{at}/{pub_key}/0"), depth + 1);
                return;
            }
            _ => {}
        }
        // An `@open` tool's input schema: its undeclared arguments are ignored, so closing it
        // loses nothing.
        if closed_empty(p) && accepts_members(s) && at != "/inputSchema" {
            let what = if matches!(s.get("additionalProperties"), Some(Value::Object(_))) {
                "a map"
            } else {
                "an open object"
            };
            self.push(
                "L0314",
                &at,
                format!(
                    "{what} in the standard listing is an object that can only be `{{}}` in this variant"
                ),
            );
            return;
        }
        if let (Some(Value::Object(sp)), Some(Value::Object(pp))) =
            (s.get("properties"), p.get("properties"))
        {
            let std_required = required_keys(s);
            let pub_required = required_keys(p);
            for (key, sv) in sp {
                let Some(pv) = pp.get(key) else { continue };
                let here = format!("{at}/properties/{}", escape(key));
                let omittable =
                    !std_required.contains(&key.as_str()) && sv.get("default").is_none();
                if omittable
                    && pub_required.contains(&key.as_str())
                    // A `null` the variant adds is read as left out.
                    && (admits_null(sv) || !accepts_null(pv))
                {
                    let message = if admits_null(sv) {
                        format!(
                            "the property `{key}` may be left out in the standard listing, but is required in this variant, where `null` already means null: a model cannot leave it out"
                        )
                    } else {
                        format!(
                            "the property `{key}` may be left out in the standard listing, but is required in this variant without taking `null`: a model cannot leave it out"
                        )
                    };
                    self.push("L0315", &here, message);
                }
                self.compare(sv, pv, here, depth + 1);
            }
        }
        if let (Some(si), Some(pi)) = (s.get("items"), p.get("items")) {
            self.compare(si, pi, format!("{at}/items"), depth + 1);
        }
        if let Some(sv @ Value::Object(_)) = s.get("additionalProperties") {
            if let Some(pv @ Value::Object(_)) = p.get("additionalProperties") {
                self.compare(sv, pv, format!("{at}/additionalProperties"), depth + 1);
            } else if let Some(pv) = p.get("items").and_then(|i| i.pointer("/properties/value")) {
                // A map published as `{key, value}` entries.
                self.compare(sv, pv, format!("{at}/items/properties/value"), depth + 1);
            }
        }
    }
}

/// Whether the standard listing's `schema` accepts `null`: as written ([`accepts_null`]), or
/// as any JSON value (`json`'s `{}`, a schema with no type, reference or branches).
fn admits_null(schema: &Value) -> bool {
    const CONSTRAINING: [&str; 7] = ["type", "$ref", "enum", "const", "anyOf", "oneOf", "allOf"];
    accepts_null(schema)
        || schema
            .as_object()
            .is_some_and(|obj| !CONSTRAINING.iter().any(|k| obj.contains_key(*k)))
}

/// The `$defs` key a `{"$ref": "#/$defs/Name"}` schema refers to.
fn ref_name(schema: &Value) -> Option<&str> {
    schema
        .get("$ref")
        .and_then(Value::as_str)
        .map(|r| r.strip_prefix("#/$defs/").unwrap_or(r))
}

/// An object that can only be `{}`: type object, `additionalProperties: false`, no (or empty)
/// `properties`.
fn closed_empty(obj: &Map<String, Value>) -> bool {
    is_type(obj, "object")
        && obj.get("additionalProperties") == Some(&Value::Bool(false))
        && obj
            .get("properties")
            .and_then(Value::as_object)
            .is_none_or(Map::is_empty)
}

/// An object schema with no properties listed that accepts members: a map, or an open
/// object (`additionalProperties` absent or `true`).
fn accepts_members(obj: &Map<String, Value>) -> bool {
    let untyped = !obj.contains_key("type");
    (untyped || is_type(obj, "object"))
        && obj
            .get("properties")
            .and_then(Value::as_object)
            .is_none_or(Map::is_empty)
        && matches!(
            obj.get("additionalProperties"),
            None | Some(Value::Bool(true)) | Some(Value::Object(_))
        )
}

/// Keywords with a rule of their own (reported once, by that rule).
fn is_checked_elsewhere(key: &str) -> bool {
    matches!(key, "$ref" | "$defs" | "$schema" | "additionalProperties")
}

fn is_type(obj: &Map<String, Value>, name: &str) -> bool {
    match obj.get("type") {
        Some(Value::String(t)) => t == name,
        Some(Value::Array(types)) => types.iter().any(|t| t == name),
        _ => false,
    }
}

/// A JSON pointer token (RFC 6901).
fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// `^[a-zA-Z0-9_-]{1,64}$`.
pub fn portable_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// The name `profile` publishes for the tool `name`: as written under `standard`; elsewhere
/// every character outside A-Z a-z 0-9 _ - becomes `_` (a leading one too, for Gemini) and
/// the name is cut to 64 bytes. Generated servers answer to the published name.
pub fn published_name(name: &str, profile: Profile) -> String {
    if profile == Profile::Standard {
        return name.to_owned();
    }
    let mut out: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if !out.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        out.insert(0, '_');
    }
    out.truncate(64);
    out
}

/// Rewrites `listings` into what `profile`'s client accepts (tools only: resources and
/// prompts have no schemas). `standard` leaves them as they are.
pub fn publish(listings: &mut Listings, profile: Profile) {
    if profile == Profile::Standard {
        return;
    }
    for service in &mut listings.services {
        for tool in &mut service.tools {
            tool.name = published_name(&tool.name, profile);
            if let Value::Object(entry) = &mut tool.entry {
                entry.insert("name".into(), tool.name.clone().into());
                if let Some(schema) = entry.get_mut("inputSchema") {
                    *schema = publish_schema(schema, profile);
                }
            }
        }
    }
}

/// The input schema `profile`'s client accepts.
pub fn publish_schema(schema: &Value, profile: Profile) -> Value {
    match profile {
        Profile::Standard | Profile::Claude => schema.clone(),
        Profile::OpenAiStrict => {
            let mut out = schema.clone();
            openai(&mut out);
            out
        }
        Profile::Gemini => {
            let defs = schema
                .get("$defs")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default();
            gemini(schema, &defs, 0)
        }
    }
}

/// OpenAI strict: every property required, `additionalProperties: false` on every object,
/// unsupported keywords moved into descriptions. What a parameter means is kept: one with a
/// default says it in its description; an optional one without (`name?: T`) also takes
/// `null`, which a server serving this profile reads as left out; a map is a list of
/// `{key, value}` entries, which such a server decodes into the same map.
fn openai(schema: &mut Value) {
    let Value::Object(obj) = schema else {
        return;
    };
    if is_map(obj) {
        map_as_entries(obj);
    }
    let omittable: Vec<String> = match obj.get("properties") {
        Some(Value::Object(props)) => {
            let required = required_keys(obj);
            props
                .iter()
                .filter(|(k, v)| !required.contains(&k.as_str()) && v.get("default").is_none())
                .map(|(k, _)| k.clone())
                .collect()
        }
        _ => Vec::new(),
    };
    let mut notes = Vec::new();
    if let Some(Value::Object(props)) = obj.get_mut("properties") {
        for value in props.values_mut() {
            openai(value);
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(value @ Value::Object(_)) = obj.get_mut(key) {
            openai(value);
        }
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(branches)) = obj.get_mut(key) {
            branches.iter_mut().for_each(openai);
        }
    }
    if let Some(Value::Object(defs)) = obj.get_mut("$defs") {
        defs.values_mut().for_each(openai);
    }
    if let Some(format) = obj.get("format").and_then(Value::as_str)
        && !OPENAI_FORMATS.contains(&format)
    {
        notes.push(format!("Format: {format}."));
        obj.shift_remove("format");
    }
    // OpenAI strict has `anyOf`, not `oneOf` (the server still allows exactly one).
    if let Some(branches) = obj.shift_remove("oneOf") {
        obj.insert("anyOf".into(), branches);
    }
    let unsupported: Vec<String> = obj
        .keys()
        .filter(|k| !OPENAI_KEYWORDS.contains(&k.as_str()) && k.as_str() != "$schema")
        .cloned()
        .collect();
    for key in unsupported {
        if let Some(value) = obj.shift_remove(&key) {
            notes.push(keyword_note(&key, &value));
        }
    }
    if let Some(Value::Object(props)) = obj.get_mut("properties") {
        for key in &omittable {
            if let Some(property) = props.get_mut(key) {
                null_as_absent(property);
            }
        }
    }
    if obj.contains_key("properties") || is_type(obj, "object") {
        obj.insert("additionalProperties".into(), Value::Bool(false));
        if let Some(Value::Object(props)) = obj.get("properties") {
            let keys: Vec<Value> = props.keys().cloned().map(Value::String).collect();
            obj.insert("required".into(), Value::Array(keys));
        }
    }
    append_notes(obj, notes);
}

/// The note an optional property without a default gets under openai-strict.
pub const NULL_AS_ABSENT_NOTE: &str = "Null leaves it out.";

/// The note a map gets under openai-strict.
pub const MAP_ENTRIES_NOTE: &str = "A list of {key, value} entries, each key once.";

/// A map's schema: an object whose other properties all have one schema.
fn is_map(obj: &Map<String, Value>) -> bool {
    matches!(obj.get("additionalProperties"), Some(Value::Object(_)))
        && !obj.contains_key("properties")
}

/// The keys in the schema's `required`.
fn required_keys(obj: &Map<String, Value>) -> Vec<&str> {
    obj.get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// Rewrites a map's schema (`additionalProperties: V`) as an array of `{key, value}`
/// entries: OpenAI strict mode closes every object, so a map could only ever be `{}`.
fn map_as_entries(obj: &mut Map<String, Value>) {
    let Some(value) = obj.shift_remove("additionalProperties") else {
        return;
    };
    let entry = serde_json::json!({
        "type": "object",
        "properties": {"key": {"type": "string"}, "value": value},
        "required": ["key", "value"],
        "additionalProperties": false
    });
    let mut out = Map::new();
    for (key, v) in std::mem::take(obj) {
        match key.as_str() {
            "type" => {
                let array = |t: &Value| {
                    if t == "object" {
                        "array".into()
                    } else {
                        t.clone()
                    }
                };
                let types = match &v {
                    Value::Array(types) => Value::Array(types.iter().map(array).collect()),
                    t => array(t),
                };
                out.insert(key, types);
                out.insert("items".into(), entry.clone());
            }
            "minProperties" => {
                out.insert("minItems".into(), v);
            }
            "maxProperties" => {
                out.insert("maxItems".into(), v);
            }
            "default" => {
                out.insert(key, entries(&v));
            }
            _ => {
                out.insert(key, v);
            }
        }
    }
    if !out.contains_key("items") {
        out.insert("items".into(), entry);
    }
    append_notes(&mut out, vec![MAP_ENTRIES_NOTE.to_owned()]);
    *obj = out;
}

/// A map value as the list of `{key, value}` entries openai-strict publishes.
fn entries(map: &Value) -> Value {
    match map {
        Value::Object(m) => Value::Array(
            m.iter()
                .map(|(k, v)| serde_json::json!({"key": k, "value": v}))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Whether `schema` admits `null` as written (a type array, `null` among `anyOf`'s branches).
fn accepts_null(schema: &Value) -> bool {
    match schema.get("type") {
        Some(Value::String(t)) if t == "null" => return true,
        Some(Value::Array(types)) if types.iter().any(|t| t == "null") => return true,
        _ => {}
    }
    if schema.get("nullable") == Some(&Value::Bool(true)) {
        return true;
    }
    ["anyOf", "oneOf"].iter().any(|key| {
        schema
            .get(*key)
            .and_then(Value::as_array)
            .is_some_and(|branches| branches.iter().any(accepts_null))
    })
}

/// An optional property without a default, made to take `null` (read as "left out") now
/// that it is required.
fn null_as_absent(property: &mut Value) {
    if accepts_null(property) {
        // `name?: T?`: `null` already means null; lint's L0315 reports it.
        return;
    }
    let Value::Object(obj) = property else {
        return;
    };
    match obj.get_mut("type") {
        Some(Value::String(t)) => {
            let t = std::mem::take(t);
            obj.insert("type".into(), serde_json::json!([t, "null"]));
            if let Some(Value::Array(members)) = obj.get_mut("enum") {
                members.push(Value::Null);
            }
        }
        Some(Value::Array(types)) => types.push("null".into()),
        _ => {
            if let Some(Value::Array(branches)) = obj.get_mut("anyOf") {
                branches.push(serde_json::json!({"type": "null"}));
            } else {
                let description = obj.shift_remove("description");
                let inner = Value::Object(std::mem::take(obj));
                obj.insert("anyOf".into(), serde_json::json!([inner, {"type": "null"}]));
                if let Some(d) = description {
                    obj.insert("description".into(), d);
                }
            }
        }
    }
    append_notes(obj, vec![NULL_AS_ABSENT_NOTE.to_owned()]);
}

/// Gemini: nullable as `nullable: true`, `$ref` written out (recursion cut at
/// [`GEMINI_RECURSION_DEPTH`]), unsupported keywords and formats moved into descriptions.
fn gemini(schema: &Value, defs: &Map<String, Value>, depth: usize) -> Value {
    let Value::Object(obj) = schema else {
        return schema.clone();
    };
    if let Some(target) = obj.get("$ref").and_then(Value::as_str) {
        let name = target.strip_prefix("#/$defs/").unwrap_or(target);
        let mut out = match defs.get(name) {
            Some(def) if depth < GEMINI_RECURSION_DEPTH => gemini(def, defs, depth + 1),
            _ => {
                let mut cut = Map::new();
                cut.insert("type".into(), "object".into());
                cut.insert(
                    "description".into(),
                    format!("A {name} (nested too deep to describe here).").into(),
                );
                Value::Object(cut)
            }
        };
        if let (Some(description), Value::Object(o)) = (obj.get("description"), &mut out) {
            o.insert("description".into(), description.clone());
        }
        return out;
    }
    let mut out = Map::new();
    let mut notes = Vec::new();
    for (key, value) in obj {
        match key.as_str() {
            "$schema" | "$defs" | "additionalProperties" => {}
            "type" => match value {
                Value::Array(types) => {
                    let rest: Vec<&Value> = types.iter().filter(|t| *t != "null").collect();
                    match rest.as_slice() {
                        [one] => {
                            out.insert("type".into(), (*one).clone());
                        }
                        _ => notes.push(format!("Type: {}.", Value::Array(types.clone()))),
                    }
                    if rest.len() < types.len() {
                        out.insert("nullable".into(), Value::Bool(true));
                    }
                }
                other => {
                    out.insert("type".into(), other.clone());
                }
            },
            "format" => match value.as_str() {
                Some(f) if GEMINI_FORMATS.contains(&f) => {
                    out.insert(key.clone(), value.clone());
                }
                _ => notes.push(keyword_note(key, value)),
            },
            "properties" => {
                let mut props = Map::new();
                if let Value::Object(p) = value {
                    for (k, v) in p {
                        props.insert(k.clone(), gemini(v, defs, depth));
                    }
                }
                out.insert(key.clone(), Value::Object(props));
            }
            "items" => {
                out.insert(key.clone(), gemini(value, defs, depth));
            }
            // `oneOf` is `anyOf` for Gemini (the server still allows exactly one).
            "anyOf" | "oneOf" => {
                let branches = value
                    .as_array()
                    .map(|b| b.iter().map(|s| gemini(s, defs, depth)).collect())
                    .unwrap_or_default();
                out.insert("anyOf".into(), Value::Array(branches));
            }
            "const" if value.is_string() => {
                out.insert("enum".into(), Value::Array(vec![value.clone()]));
            }
            "enum" => match value.as_array() {
                // `null` among the members is `nullable`, which the type array gave.
                Some(values) if values.iter().all(|v| v.is_string() || v.is_null()) => {
                    let members = values.iter().filter(|v| v.is_string()).cloned();
                    out.insert(key.clone(), Value::Array(members.collect()));
                }
                _ => notes.push(keyword_note(key, value)),
            },
            k if GEMINI_KEYWORDS.contains(&k) => {
                out.insert(key.clone(), value.clone());
            }
            _ => notes.push(keyword_note(key, value)),
        }
    }
    append_notes(&mut out, notes);
    Value::Object(out)
}

/// A removed keyword, as a sentence the model can read.
fn keyword_note(key: &str, value: &Value) -> String {
    let shown = value.to_string();
    match key {
        "format" => format!("Format: {}.", value.as_str().unwrap_or(&shown)),
        "pattern" => format!("Matches the pattern {shown}."),
        "default" => format!("Default: {shown}."),
        "minLength" => format!("Length at least {shown}."),
        "maxLength" => format!("Length at most {shown}."),
        "minimum" => format!("At least {shown}."),
        "maximum" => format!("At most {shown}."),
        "exclusiveMinimum" => format!("Greater than {shown}."),
        "exclusiveMaximum" => format!("Less than {shown}."),
        "minItems" => format!("At least {shown} items."),
        "maxItems" => format!("At most {shown} items."),
        "uniqueItems" if value == &Value::Bool(true) => "Items are unique.".into(),
        "const" => format!("Always {shown}."),
        _ => format!("{key}: {shown}."),
    }
}

/// Appends `notes` to the schema's description (creating it).
fn append_notes(obj: &mut Map<String, Value>, notes: Vec<String>) {
    if notes.is_empty() {
        return;
    }
    let extra = notes.join(" ");
    let text = match obj.get("description").and_then(Value::as_str) {
        Some(d) if !d.is_empty() => format!("{d} {extra}"),
        _ => extra,
    };
    obj.insert("description".into(), text.into());
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names() {
        assert_eq!(
            published_name("forecast.daily", Profile::Claude),
            "forecast_daily"
        );
        assert_eq!(
            published_name("forecast.daily", Profile::Standard),
            "forecast.daily"
        );
        assert_eq!(published_name("9lives", Profile::Gemini), "_9lives");
        assert_eq!(published_name(&"a".repeat(70), Profile::Claude).len(), 64);
        assert!(portable_name("get-weather_2"));
        assert!(!portable_name("a.b"));
    }

    #[test]
    fn openai_makes_everything_required_and_moves_keywords() {
        let schema = json!({
            "type": "object",
            "properties": {
                "city": {"type": "string", "minLength": 1, "format": "uri"},
                "days": {"type": "integer", "default": 3}
            },
            "required": ["city"],
            "additionalProperties": false
        });
        let out = publish_schema(&schema, Profile::OpenAiStrict);
        assert_eq!(
            out,
            json!({
                "type": "object",
                "properties": {
                    "city": {"type": "string", "description": "Format: uri. Length at least 1."},
                    "days": {"type": "integer", "description": "Default: 3."}
                },
                "required": ["city", "days"],
                "additionalProperties": false
            })
        );
    }

    #[test]
    fn openai_keeps_optional_parameters_omittable_and_maps_usable() {
        let schema = json!({
            "type": "object",
            "properties": {
                "since": {"type": "string", "format": "date"},
                "order": {"type": "string", "enum": ["asc", "desc"]},
                "window": {"$ref": "#/$defs/Window", "description": "W."},
                "tail": {"type": ["integer", "null"]},
                "labels": {"type": "object", "additionalProperties": {"type": "string", "maxLength": 9}, "maxProperties": 4},
                "meta": {"type": ["object", "null"], "additionalProperties": {"type": "string"}, "default": null}
            },
            "required": [],
            "additionalProperties": false,
            "$defs": {"Window": {"type": "object", "properties": {"head": {"type": "integer"}}, "additionalProperties": false}}
        });
        let out = publish_schema(&schema, Profile::OpenAiStrict);
        let entries = |value: Value| {
            json!({
                "type": "object",
                "properties": {"key": {"type": "string"}, "value": value},
                "required": ["key", "value"],
                "additionalProperties": false
            })
        };
        assert_eq!(
            out["properties"],
            json!({
                "since": {"type": ["string", "null"], "format": "date", "description": "Null leaves it out."},
                "order": {"type": ["string", "null"], "enum": ["asc", "desc", null], "description": "Null leaves it out."},
                "window": {"anyOf": [{"$ref": "#/$defs/Window"}, {"type": "null"}], "description": "W. Null leaves it out."},
                "tail": {"type": ["integer", "null"]},
                "labels": {
                    "type": ["array", "null"],
                    "items": entries(json!({"type": "string", "description": "Length at most 9."})),
                    "maxItems": 4,
                    "description": "A list of {key, value} entries, each key once. Null leaves it out."
                },
                "meta": {
                    "type": ["array", "null"],
                    "items": entries(json!({"type": "string"})),
                    "description": "A list of {key, value} entries, each key once. Default: null."
                }
            })
        );
        assert_eq!(
            out["required"],
            json!(["since", "order", "window", "tail", "labels", "meta"])
        );
        assert_eq!(
            out["$defs"]["Window"]["properties"]["head"],
            json!({"type": ["integer", "null"], "description": "Null leaves it out."})
        );
    }

    /// `a?: string`, `m: map<string, string>`, `t?: i64?`, `o: object`, `e: Empty` (an empty
    /// closed record), as the standard listing writes them.
    fn narrowing_standard() -> Value {
        json!({
            "type": "object",
            "properties": {
                "a": {"type": "string"},
                "m": {"type": "object", "additionalProperties": {"type": "string"}},
                "t": {"type": ["integer", "null"]},
                "o": {"type": "object"},
                "e": {"$ref": "#/$defs/Empty"}
            },
            "required": ["m", "o", "e"],
            "additionalProperties": false,
            "$defs": {"Empty": {"type": "object", "properties": {}, "additionalProperties": false}}
        })
    }

    fn found(standard: &Value, published: &Value, profile: Profile) -> Vec<(&'static str, String)> {
        let entry = |schema: &Value| json!({"name": "t", "inputSchema": schema});
        narrowing(&entry(standard), &entry(published), profile)
            .into_iter()
            .inspect(|f| assert_eq!(f.severity, Severity::Error))
            .map(|f| (f.code, f.pointer))
            .collect()
    }

    #[test]
    fn narrowing_flags_the_old_openai_shapes() {
        // What openai-strict published before optional parameters took `null` and maps
        // became entries.
        let old = json!({
            "type": "object",
            "properties": {
                "a": {"type": "string"},
                "m": {"type": "object", "additionalProperties": false},
                "t": {"type": ["integer", "null"]},
                "o": {"type": "object", "additionalProperties": false},
                "e": {"$ref": "#/$defs/Empty"}
            },
            "required": ["a", "m", "t", "o", "e"],
            "additionalProperties": false,
            "$defs": {"Empty": {"type": "object", "properties": {}, "additionalProperties": false}}
        });
        let standard = narrowing_standard();
        assert_eq!(
            found(&standard, &old, Profile::OpenAiStrict),
            [
                ("L0315", "/inputSchema/properties/a".to_owned()),
                ("L0314", "/inputSchema/properties/m".to_owned()),
                ("L0315", "/inputSchema/properties/t".to_owned()),
                ("L0314", "/inputSchema/properties/o".to_owned()),
            ]
        );
        // The standard listing is its own variant.
        assert!(found(&standard, &old, Profile::Standard).is_empty());
    }

    #[test]
    fn narrowing_flags_only_what_the_new_variants_narrow() {
        let standard = narrowing_standard();
        let openai = publish_schema(&standard, Profile::OpenAiStrict);
        assert_eq!(
            found(&standard, &openai, Profile::OpenAiStrict),
            [
                ("L0315", "/inputSchema/properties/t".to_owned()),
                ("L0314", "/inputSchema/properties/o".to_owned()),
            ]
        );
        for profile in [Profile::Claude, Profile::Gemini] {
            let published = publish_schema(&standard, profile);
            assert!(
                found(&standard, &published, profile).is_empty(),
                "{profile}"
            );
        }
    }

    #[test]
    fn narrowing_follows_refs_maps_and_wrappers() {
        // A record in `$defs` (recursive) with an optional field, reached through a map's
        // values and a nullable wrapper; the variant keeps `b` required without `null`.
        let standard = json!({
            "type": "object",
            "properties": {
                "m": {"type": "object", "additionalProperties": {"$ref": "#/$defs/R"}},
                "r": {"anyOf": [{"$ref": "#/$defs/R"}, {"type": "null"}]}
            },
            "required": ["m", "r"],
            "additionalProperties": false,
            "$defs": {"R": {
                "type": "object",
                "properties": {"b": {"type": "string"}, "next": {"$ref": "#/$defs/R"}},
                "required": ["next"],
                "additionalProperties": false
            }}
        });
        let mut published = publish_schema(&standard, Profile::OpenAiStrict);
        published["$defs"]["R"]["properties"]["b"] = json!({"type": "string"});
        assert_eq!(
            found(&standard, &published, Profile::OpenAiStrict),
            [("L0315", "/inputSchema/$defs/R/properties/b".to_owned())]
        );
        // Gemini writes `$ref` out and says `nullable`.
        let mut gemini = publish_schema(&standard, Profile::Gemini);
        assert!(found(&standard, &gemini, Profile::Gemini).is_empty());
        gemini["properties"]["r"]["anyOf"][0]["required"] = json!(["b", "next"]);
        assert_eq!(
            found(&standard, &gemini, Profile::Gemini),
            [(
                "L0315",
                "/inputSchema/properties/r/anyOf/0/properties/b".to_owned()
            )]
        );
    }

    #[test]
    fn narrowing_reads_json_as_taking_null() {
        // `j?: json`: `{}` already takes `null` (a JSON value), so the variant's `null`
        // cannot say "left out".
        let standard = json!({
            "type": "object",
            "properties": {"j": {}},
            "required": [],
            "additionalProperties": false
        });
        let openai = publish_schema(&standard, Profile::OpenAiStrict);
        assert_eq!(
            found(&standard, &openai, Profile::OpenAiStrict),
            [("L0315", "/inputSchema/properties/j".to_owned())]
        );
    }

    #[test]
    fn gemini_writes_nullable_and_inlines_refs() {
        let schema = json!({
            "type": "object",
            "properties": {
                "n": {"type": ["integer", "null"], "description": "N."},
                "node": {"$ref": "#/$defs/Node"}
            },
            "required": ["n"],
            "additionalProperties": false,
            "$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}, "additionalProperties": false}}
        });
        let out = publish_schema(&schema, Profile::Gemini);
        assert_eq!(
            out["properties"]["n"],
            json!({"type": "integer", "nullable": true, "description": "N."})
        );
        assert!(out.get("$defs").is_none() && out.get("additionalProperties").is_none());
        let mut node = &out["properties"]["node"];
        for _ in 0..GEMINI_RECURSION_DEPTH - 1 {
            node = &node["properties"]["next"];
        }
        assert_eq!(
            node["properties"]["next"]["description"],
            "A Node (nested too deep to describe here)."
        );
        assert!(
            lint(
                &json!({"name": "t", "description": "d", "inputSchema": out}),
                Profile::Gemini
            )
            .iter()
            .all(|f| f.severity == Severity::Warning)
        );
    }
}
