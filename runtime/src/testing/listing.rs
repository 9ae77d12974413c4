//! A server's whole listing as one document, for snapshot tests.

use serde::Serialize;
use serde_json::Value;

/// Everything a server lists: `tools/list`, `resources/list`, `resources/templates/list`
/// and `prompts/list`, every page, in the server's order.
///
/// Its `Display` is pretty-printed JSON (`{"tools": […], "resources": […],
/// "resourceTemplates": […], "prompts": […]}`, members in the order the server wrote
/// them), so a golden test of a server's listing is
/// `insta::assert_snapshot!(client.listing().await?)`, and a change to a `.tool` file shows
/// as a readable diff of the listing.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Listing {
    /// The tools.
    pub tools: Vec<Value>,
    /// The resources.
    pub resources: Vec<Value>,
    /// The resource templates.
    pub resource_templates: Vec<Value>,
    /// The prompts.
    pub prompts: Vec<Value>,
}

impl std::fmt::Display for Listing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = serde_json::to_string_pretty(self).map_err(|_| std::fmt::Error)?;
        f.write_str(&text)?;
        f.write_str("\n")
    }
}
