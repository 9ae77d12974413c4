//! Checking one open document as `toolidl check` does (the resolver, then the Rust
//! generator's E11xx checks) plus `toolidl lint` for the workspace's profile, and turning
//! the diagnostics into the protocol's.

use std::cell::OnceCell;
use std::collections::BTreeMap;

use lsp_types::{
    DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Range,
};
use toolidl::Output;
use toolidl::diagnostics::{self, Diagnostic, Severity};
use toolidl::model::Model;
use toolidl::source::SourceMap;
use toolidl_codegen::profile::{self, Profile};
use toolidl_codegen::{Listings, SchemaOptions, listings};

use super::text::LineIndex;
use super::workspace::{Workspace, uri_of};

/// One compile of a root document: everything it read, and what was found.
pub struct Analysis {
    pub output: Output,
    /// The model's listings, when the file resolved (hover shows their schemas): made on
    /// first use, since a check that only publishes diagnostics does not need them.
    listings: OnceCell<Option<Listings>>,
    /// Protocol diagnostics by file key: the root's, and those found in its imports.
    pub diagnostics: BTreeMap<String, Vec<lsp_types::Diagnostic>>,
}

impl Analysis {
    /// The keys of every file this compile read (the root first).
    pub fn files_read(&self) -> impl Iterator<Item = &str> {
        self.output
            .sources
            .files()
            .iter()
            .map(|f| f.id.key.as_str())
    }

    pub fn model(&self) -> Option<&Model> {
        self.output.model.as_ref()
    }

    pub fn listings(&self) -> Option<&Listings> {
        self.listings
            .get_or_init(|| listings(self.model()?, &SchemaOptions::default()).ok())
            .as_ref()
    }
}

/// Compiles the file `key` (open or on disk) with its imports.
pub fn analyze(workspace: &Workspace, key: &str, lint_profile: Option<Profile>) -> Analysis {
    let output = match workspace.read(key) {
        Ok(text) => toolidl::compile(workspace, workspace.source_id(key), text),
        Err(reason) => Output {
            model: None,
            diagnostics: vec![Diagnostic::error(
                "E1000",
                format!("cannot read `{}`: {reason}", workspace.display_name(key)),
            )],
            sources: SourceMap::default(),
            locations: Default::default(),
        },
    };
    let mut all = output.diagnostics.clone();
    let listed = OnceCell::new();
    if let Some(model) = &output.model {
        all.extend(toolidl_codegen::rust::check(model, &output.locations));
        if let Some(profile) = lint_profile {
            let found = listings(model, &SchemaOptions::default()).ok();
            if let Some(found) = &found {
                all.extend(lint(model, found, &output, profile));
            }
            let _ = listed.set(found);
        }
        diagnostics::sort(&mut all);
    }
    let diagnostics = to_protocol(&all, &output.sources, key);
    Analysis {
        output,
        listings: listed,
        diagnostics,
    }
}

/// `toolidl lint --profile` findings, at the tool (or the parameter) they are about.
fn lint(model: &Model, listed: &Listings, output: &Output, profile: Profile) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (service, listing) in model.services.iter().zip(&listed.services) {
        // The listing has one entry per tool, in the service's order.
        for (tool, (declared, _)) in listing.tools.iter().zip(service.tools()) {
            for finding in profile::lint(&tool.entry, profile) {
                let param = finding
                    .pointer
                    .strip_prefix("/inputSchema/properties/")
                    .and_then(|rest| rest.split('/').next())
                    .and_then(|wire| declared.params.iter().find(|p| p.json_name == wire));
                let place = param
                    .and_then(|p| {
                        output
                            .locations
                            .param(&model.package, &service.name, &tool.ident, &p.name)
                    })
                    .or_else(|| {
                        output
                            .locations
                            .member(&model.package, &service.name, &tool.ident)
                    });
                let at = if finding.pointer.is_empty() {
                    String::new()
                } else {
                    format!(" {}", finding.pointer)
                };
                let message = format!(
                    "tool `{}`{at}: {} (profile {profile})",
                    finding.tool, finding.message
                );
                let mut d = match finding.severity {
                    profile::Severity::Error => Diagnostic::error(finding.code, message),
                    profile::Severity::Warning => Diagnostic::warning(finding.code, message),
                };
                if let Some((file, span)) = place {
                    d = d.at(file, span);
                }
                out.push(d);
            }
        }
    }
    out
}

/// Groups diagnostics by file; a diagnostic without a place goes to the start of `root`.
/// The message carries the note and help under it, as `toolidl check` prints them.
fn to_protocol(
    all: &[Diagnostic],
    sources: &SourceMap,
    root: &str,
) -> BTreeMap<String, Vec<lsp_types::Diagnostic>> {
    let indexes: Vec<LineIndex> = sources
        .files()
        .iter()
        .map(|f| LineIndex::new(&f.text))
        .collect();
    let place = |file: toolidl::source::FileId, span| -> (String, Range) {
        let source = sources.get(file);
        (
            source.id.key.clone(),
            indexes[file.0].range(&source.text, span),
        )
    };
    let mut out: BTreeMap<String, Vec<lsp_types::Diagnostic>> = BTreeMap::new();
    out.entry(root.to_string()).or_default();
    for d in all {
        let (key, range) = match d.location {
            Some((file, span)) => place(file, span),
            None => (root.to_string(), Range::default()),
        };
        let mut message = d.message.clone();
        if let Some(note) = &d.note {
            message.push_str(&format!("\nnote: {note}"));
        }
        if let Some(help) = &d.help {
            message.push_str(&format!("\nhelp: {help}"));
        }
        let related = d.secondary.as_ref().and_then(|(file, span, label)| {
            let (key, range) = place(*file, *span);
            Some(vec![DiagnosticRelatedInformation {
                location: Location::new(uri_of(&key)?, range),
                message: label.clone(),
            }])
        });
        out.entry(key).or_default().push(lsp_types::Diagnostic {
            range,
            severity: Some(match d.severity {
                Severity::Error => DiagnosticSeverity::ERROR,
                Severity::Warning => DiagnosticSeverity::WARNING,
            }),
            code: Some(NumberOrString::String(d.code.to_string())),
            source: Some("toolidl".into()),
            message,
            related_information: related,
            ..Default::default()
        });
    }
    out
}
