//! Client profiles: what a client is documented to reject in a tool listing
//! ([`lint`]), and the variant of a listing that it accepts ([`publish`]).
//!
//! A variant changes only what is listed. The server still enforces the `.tool` file's
//! constraints: a keyword a client rejects is moved into the property's description as text,
//! never dropped from the checks. The facts behind each rule are in `docs/lint.md`.

use crate::listings::Listings;

mod lint;
mod narrowing;
#[cfg(test)]
mod tests;

pub use lint::{lint, lint_result};
pub use narrowing::narrowing;
pub use toolidl_formats::publish::{
    GEMINI_RECURSION_DEPTH, MAP_ENTRIES_NOTE, NULL_AS_ABSENT_NOTE, publish_schema, publish_tool,
    publish_tool_json, published_name,
};

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
                "`@schema_dialect` writes `$schema`, which Gemini CLI and VS Code cannot resolve: the gemini variant leaves it out; drop `@schema_dialect` where such clients must read the listing"
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
            "L0316" => {
                "tell the variants apart by more than `[]`: a tagged union (`@tag(\"kind\")`) of records holding the list and the map, or serve another profile"
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
    /// L0315, L0316).
    pub fn avoided_by_variant(&self, profile: Profile) -> bool {
        profile != Profile::Standard
            && self.severity == Severity::Error
            && ((self.code.starts_with("L03")
                && !matches!(self.code, "L0310" | "L0311" | "L0314" | "L0315" | "L0316"))
                || matches!(self.code, "L0102" | "L0103"))
    }
}

fn severity(profile: Profile, errors_for: &[Profile]) -> Option<Severity> {
    if errors_for.contains(&profile) {
        Some(Severity::Error)
    } else if profile == Profile::Standard {
        Some(Severity::Warning)
    } else {
        None
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

/// Rewrites `listings` into what `profile`'s client accepts (tools only: resources and
/// prompts have no schemas). `standard` leaves them as they are.
pub fn publish(listings: &mut Listings, profile: Profile) {
    if profile == Profile::Standard {
        return;
    }
    for service in &mut listings.services {
        for tool in &mut service.tools {
            tool.name = published_name(&tool.name, profile);
            publish_tool(&mut tool.entry, profile);
        }
    }
}
