//! What only the Rust generator sees: two `.tool` names that become one Rust name, names
//! Rust cannot use, and names taken by generated code.
//!
//! E1101: two declarations get the same Rust name. E1102: a name Rust cannot use at all.
//! E1103: a name the generated code uses itself.

use toolidl::diagnostics::Diagnostic;
use toolidl::locations::{Location, Locations};
use toolidl::model::{Field, Model, TypeDef};

use super::service::{completable, has_completions};
use crate::naming::{self as names, Methods, argument_enum_name, input_names};

struct Checker {
    out: Vec<Diagnostic>,
}

/// One declared name in a namespace: what it is (for messages), its Rust name, where.
struct Entry {
    what: String,
    rust: String,
    at: Option<Location>,
}

impl Checker {
    fn report(&mut self, code: &'static str, at: Option<Location>, message: String, help: &str) {
        let mut d = Diagnostic::error(code, message).help(help);
        if let Some((file, span)) = at {
            d = d.at(file, span);
        }
        self.out.push(d);
    }

    /// Reports each entry whose Rust name an earlier one has, or that Rust cannot use.
    fn namespace(&mut self, entries: &[Entry], rename_help: &str) {
        for (i, e) in entries.iter().enumerate() {
            if names::is_unusable(&e.rust) {
                self.report(
                    "E1102",
                    e.at,
                    format!("{} is `{}` in Rust, which Rust reserves", e.what, e.rust),
                    rename_help,
                );
                continue;
            }
            if let Some(first) = entries[..i].iter().find(|f| f.rust == e.rust) {
                self.report(
                    "E1101",
                    e.at,
                    format!(
                        "{} and {} are both `{}` in Rust",
                        first.what, e.what, e.rust
                    ),
                    rename_help,
                );
            }
        }
    }

    fn fields(&mut self, fields: &[Field], what: &str, at: impl Fn(&str) -> Option<Location>) {
        let entries: Vec<Entry> = fields
            .iter()
            .map(|f| Entry {
                what: format!("{what} `{}`", f.name),
                rust: names::value_name(&f.name),
                at: at(&f.name),
            })
            .collect();
        self.namespace(
            &entries,
            "rename it; @json_name(\"…\") keeps its name on the wire",
        );
    }
}

pub fn check(model: &Model, locations: &Locations) -> Vec<Diagnostic> {
    let mut c = Checker { out: Vec::new() };
    // Types, services and servers share one namespace per package.
    let mut packages: Vec<&str> = model.types().iter().map(TypeDef::package).collect();
    packages.push(&model.package);
    packages.sort();
    packages.dedup();
    for package in packages {
        let mut entries: Vec<Entry> = Vec::new();
        for t in model.types().iter().filter(|t| t.package() == package) {
            let kind = match t {
                TypeDef::Record(_) => "record",
                TypeDef::Enum(_) => "enum",
                TypeDef::Alias(_) => "type",
                TypeDef::Union(_) => "union",
            };
            entries.push(Entry {
                what: format!("{kind} `{}`", t.name()),
                rust: names::type_name(t.name()),
                at: locations.type_def(package, t.name()),
            });
        }
        if package == model.package {
            for s in &model.services {
                let at = locations.service(package, &s.name);
                entries.push(Entry {
                    what: format!("service `{}`", s.name),
                    rust: names::type_name(&s.name),
                    at,
                });
                entries.push(Entry {
                    what: format!("the server generated for service `{}`", s.name),
                    rust: names::server_name(&s.name),
                    at,
                });
                let mut inputs: Vec<String> = Vec::new();
                for (what, rust, member) in input_names(s) {
                    let ident = &member.ident;
                    // Two inputs of one service share a name only when their methods do,
                    // which the method check reports.
                    if inputs.contains(&rust) {
                        continue;
                    }
                    inputs.push(rust.clone());
                    entries.push(Entry {
                        what: format!("the input generated for {what}"),
                        rust,
                        at: locations.member(package, &s.name, ident),
                    });
                }
                for (tool, _) in s.tools() {
                    entries.push(Entry {
                        what: format!(
                            "the check of the result of tool `{}` generated for service `{}`",
                            tool.ident, s.name
                        ),
                        rust: names::tool_returns_name(tool),
                        at: locations.member(package, &s.name, &tool.ident),
                    });
                }
                if !completable(s).is_empty() {
                    entries.push(Entry {
                        what: format!(
                            "the enum of completable arguments generated for service `{}`",
                            s.name
                        ),
                        rust: argument_enum_name(&s.name),
                        at,
                    });
                }
            }
        }
        c.namespace(&entries, "rename one of them");
    }
    for t in model.types() {
        match t {
            TypeDef::Record(r) => {
                c.fields(&r.fields, "field", |f| {
                    locations.field(&r.package, &r.name, f)
                });
                let extra = r
                    .fields
                    .iter()
                    .find(|f| names::value_name(&f.name) == "extra");
                if let (true, Some(f)) = (r.open, extra) {
                    c.report(
                        "E1103",
                        locations.field(&r.package, &r.name, &f.name),
                        format!(
                            "field `{}` of open record `{}` is `extra` in Rust, the map of its other members",
                            f.name, r.name
                        ),
                        "rename it; @json_name(\"…\") keeps its name on the wire",
                    );
                }
            }
            TypeDef::Enum(e) => {
                let entries: Vec<Entry> = e
                    .variants
                    .iter()
                    .map(|v| Entry {
                        what: format!("member `{}`", v.name),
                        rust: names::type_name(&v.name),
                        at: locations.variant(&e.package, &e.name, &v.name),
                    })
                    .collect();
                c.namespace(&entries, "rename one of them");
            }
            TypeDef::Union(u) => {
                let entries: Vec<Entry> = u
                    .variants
                    .iter()
                    .map(|v| Entry {
                        what: format!("variant `{}`", v.name),
                        rust: names::type_name(&v.name),
                        at: locations.type_def(&u.package, &u.name),
                    })
                    .collect();
                c.namespace(&entries, "rename one of them");
            }
            TypeDef::Alias(_) => {}
        }
    }
    for s in &model.services {
        let package = model.package.as_str();
        let mut methods: Vec<Entry> = Vec::new();
        let method_names = Methods::of(s);
        for m in &s.members {
            let (kind, ident, params) = (m.kind.keyword(), &m.ident, &m.params);
            let at = locations.member(package, &s.name, ident);
            let rust = method_names.name(m);
            if has_completions(s) && rust == "complete" {
                c.report(
                    "E1103",
                    at,
                    format!(
                        "{kind} `{ident}` is `complete` in Rust, the method that suggests completions of service `{}`",
                        s.name
                    ),
                    "rename it; @name(\"…\") keeps its name on the wire",
                );
            }
            let what = if rust == names::value_name(ident) {
                format!("{kind} `{ident}`")
            } else {
                format!(
                    "{kind} `{ident}` (whose method takes `_{kind}` because of a tool or resource `{}`)",
                    names::value_name(ident)
                )
            };
            methods.push(Entry { what, rust, at });
            let param_at = |p: &str| locations.param(package, &s.name, ident, p);
            if let Some(p) = params.iter().find(|p| names::value_name(&p.name) == "ctx") {
                c.report(
                    "E1103",
                    param_at(&p.name),
                    format!(
                        "parameter `{}` of {kind} `{ident}` is `ctx` in Rust, the name of the request context",
                        p.name
                    ),
                    "rename it; @json_name(\"…\") keeps its name on the wire",
                );
            }
            c.fields(params, "parameter", param_at);
        }
        c.namespace(
            &methods,
            "rename one of them; @name(\"…\") keeps its name on the wire",
        );
        // Arguments of two owners whose methods clash clash too: the method check reports it.
        let all = completable(s);
        let arguments: Vec<Entry> = all
            .iter()
            .enumerate()
            .filter(|(i, a)| {
                !all[..*i]
                    .iter()
                    .any(|b| b.variant == a.variant && b.owner_method == a.owner_method)
            })
            .map(|(_, a)| a.clone())
            .map(|a| Entry {
                rust: a.variant,
                at: locations.member(package, &s.name, a.owner_ident),
                what: a.what,
            })
            .collect();
        c.namespace(
            &arguments,
            "rename one of them; @json_name(\"…\") keeps its name on the wire",
        );
    }
    toolidl::diagnostics::sort(&mut c.out);
    c.out
}
