//! Where each declared name of a model stands in its source file.
//!
//! The model is plain data without spans; this side table lets a generator report what only
//! it can see (a Rust name clash after case conversion, a keyword) at the user's own
//! declaration, with file, line and column.

use std::collections::HashMap;

use crate::ast::{self, Item, Span};
use crate::source::FileId;

/// The location of a declared name: the file it is in and the span of the name.
pub type Location = (FileId, Span);

/// Declared names of every loaded file, keyed by their place in the model.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Locations {
    names: HashMap<String, Location>,
}

/// The key of one declared name. Parts are joined by a character no name can contain.
fn key(parts: &[&str]) -> String {
    parts.join("\u{1}")
}

impl Locations {
    /// A record or enum.
    pub fn type_def(&self, package: &str, name: &str) -> Option<Location> {
        self.get(&["type", package, name])
    }

    /// A record field.
    pub fn field(&self, package: &str, record: &str, field: &str) -> Option<Location> {
        self.get(&["field", package, record, field])
    }

    /// An enum member.
    pub fn variant(&self, package: &str, enumeration: &str, variant: &str) -> Option<Location> {
        self.get(&["variant", package, enumeration, variant])
    }

    /// A service.
    pub fn service(&self, package: &str, service: &str) -> Option<Location> {
        self.get(&["service", package, service])
    }

    /// A tool, resource or prompt of a service, by its declared identifier.
    pub fn member(&self, package: &str, service: &str, member: &str) -> Option<Location> {
        self.get(&["member", package, service, member])
    }

    /// The result type of a tool, resource or prompt (`Coordinates?` after its `->`), by the
    /// member's declared identifier.
    pub fn result(&self, package: &str, service: &str, member: &str) -> Option<Location> {
        self.get(&["result", package, service, member])
    }

    /// A parameter of a tool, resource or prompt.
    pub fn param(
        &self,
        package: &str,
        service: &str,
        member: &str,
        param: &str,
    ) -> Option<Location> {
        self.get(&["param", package, service, member, param])
    }

    fn get(&self, parts: &[&str]) -> Option<Location> {
        self.names.get(&key(parts)).copied()
    }

    /// Records the first declaration of each name (a later duplicate is an error already).
    fn insert(&mut self, parts: &[&str], location: Location) {
        self.names.entry(key(parts)).or_insert(location);
    }

    /// Adds the declarations of one parsed file of `package`.
    pub(crate) fn add_file(&mut self, file: FileId, package: &str, ast: &ast::File) {
        let at = |span: Span| (file, span);
        for item in &ast.items {
            match item {
                Item::Record(r) => {
                    let name = r.name.name.as_str();
                    self.insert(&["type", package, name], at(r.name.span));
                    for f in &r.fields {
                        self.insert(&["field", package, name, &f.name.name], at(f.name.span));
                    }
                }
                Item::Enum(e) => {
                    let name = e.name.name.as_str();
                    self.insert(&["type", package, name], at(e.name.span));
                    for v in &e.variants {
                        self.insert(&["variant", package, name, &v.name.name], at(v.name.span));
                    }
                }
                Item::Union(u) => {
                    self.insert(&["type", package, &u.name.name], at(u.name.span));
                }
                Item::Alias(a) => {
                    self.insert(&["type", package, &a.name.name], at(a.name.span));
                }
                Item::Service(s) => {
                    let service = s.name.name.as_str();
                    self.insert(&["service", package, service], at(s.name.span));
                    for m in &s.members {
                        let member = m.name.name.as_str();
                        self.insert(&["member", package, service, member], at(m.name.span));
                        if let Some(returns) = &m.returns {
                            self.insert(&["result", package, service, member], at(returns.span));
                        }
                        for p in &m.params {
                            self.insert(
                                &["param", package, service, member, &p.name.name],
                                at(p.name.span),
                            );
                        }
                    }
                }
            }
        }
    }
}
