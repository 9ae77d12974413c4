//! Records, enums, unions and named types: each compared where it is declared; its uses
//! compare by name where they stand.

use super::code::{Code, Holder};
use super::fields::{Owner, field_site};
use super::uses::Use;
use super::{Client, Differ, Site, client};
use crate::model::{Model, Record, TypeDef, Union, UnionVariant};

impl Differ {
    pub(super) fn types(&mut self, old: &Model, new: &Model) {
        for o in old.types() {
            let site = Site::Type {
                package: o.package().into(),
                name: o.name().into(),
            };
            match new.lookup(o.package(), o.name()) {
                None => self.push(
                    Code::TypeRemoved,
                    Client::Compatible,
                    true,
                    site,
                    format!(
                        "{} `{}` removed (its uses are reported where they changed)",
                        kind_of(o),
                        o.name()
                    ),
                ),
                Some(n) => self.type_def(o, n, site),
            }
        }
        for n in new.types() {
            if old.lookup(n.package(), n.name()).is_none() {
                self.push(
                    Code::TypeAdded,
                    Client::Compatible,
                    false,
                    Site::Type {
                        package: n.package().into(),
                        name: n.name().into(),
                    },
                    format!("{} `{}` added", kind_of(n), n.name()),
                );
            }
        }
    }

    fn type_def(&mut self, old: &TypeDef, new: &TypeDef, site: Site) {
        let use_ = self.uses.of_type(new.package(), new.name());
        let what = format!("{} `{}`", kind_of(new), new.name());
        let docs = |t: &TypeDef| match t {
            TypeDef::Record(r) => (r.doc.clone(), r.description.clone()),
            TypeDef::Enum(e) => (e.doc.clone(), e.description.clone()),
            TypeDef::Alias(a) => (a.doc.clone(), a.description.clone()),
            TypeDef::Union(u) => (u.doc.clone(), u.description.clone()),
        };
        if docs(old) != docs(new) {
            self.push(
                Code::DocsChanged,
                Client::Compatible,
                false,
                site.clone(),
                format!("{what}: description or doc comment changed"),
            );
        }
        match (old, new) {
            (TypeDef::Record(a), TypeDef::Record(b)) => {
                let owner = Owner {
                    holder: Holder::Field,
                    text: what,
                    site: field_site,
                    service: String::new(),
                    member: b.name.clone(),
                    package: b.package.clone(),
                    use_,
                };
                self.fields(&owner, &a.fields, &b.fields);
                self.openness(a, b, &owner.text, use_, site);
            }
            (TypeDef::Enum(a), TypeDef::Enum(b)) => {
                let variant_site = |v: &str| Site::Variant {
                    package: b.package.clone(),
                    enumeration: b.name.clone(),
                    variant: v.to_string(),
                };
                for v in &a.variants {
                    if !b.variants.iter().any(|w| w.name == v.name) {
                        self.push(
                            Code::EnumMemberRemoved,
                            client(use_.input),
                            true,
                            variant_site(&v.name),
                            format!("{what}: member `{}` removed", v.name),
                        );
                    }
                }
                for v in &b.variants {
                    match a.variants.iter().find(|w| w.name == v.name) {
                        None => self.push(
                            Code::EnumMemberAdded,
                            client(use_.output),
                            true,
                            variant_site(&v.name),
                            format!("{what}: member `{}` added", v.name),
                        ),
                        Some(w) if w.doc != v.doc => self.push(
                            Code::DocsChanged,
                            Client::Compatible,
                            false,
                            variant_site(&v.name),
                            format!("{what}: doc comment of member `{}` changed", v.name),
                        ),
                        Some(_) => {}
                    }
                }
            }
            // A named type is written out where it is used: its uses report what changed.
            (TypeDef::Alias(_), TypeDef::Alias(_)) => {}
            (TypeDef::Union(a), TypeDef::Union(b)) => self.union(a, b, &what, use_, site),
            _ => self.push(
                Code::TypeKindChanged,
                Client::Breaking,
                true,
                site,
                format!("`{}` was {}, now {}", new.name(), a_kind(old), a_kind(new)),
            ),
        }
    }

    /// A union's variants: one removed narrows what it accepts, one added widens what it
    /// may hold, a changed type or tag property is a different union.
    fn union(&mut self, a: &Union, b: &Union, what: &str, use_: Use, site: Site) {
        if a.tag != b.tag {
            let shown =
                |t: &Option<String>| t.as_deref().map_or("none".into(), |t| format!("`{t}`"));
            self.push(
                Code::UnionTagChanged,
                Client::Breaking,
                true,
                site.clone(),
                format!(
                    "{what}: tag property {} is now {}",
                    shown(&a.tag),
                    shown(&b.tag)
                ),
            );
        }
        for v in &a.variants {
            match b.variants.iter().find(|w| w.name == v.name) {
                None => self.push(
                    Code::UnionVariantRemoved,
                    client(use_.input),
                    true,
                    site.clone(),
                    format!("{what}: variant `{}` removed", v.name),
                ),
                Some(w) if variant_text(w) != variant_text(v) => self.push(
                    Code::UnionVariantChanged,
                    Client::Breaking,
                    true,
                    site.clone(),
                    format!(
                        "{what}: variant `{}` was `{}`, now `{}`",
                        v.name,
                        variant_text(v),
                        variant_text(w)
                    ),
                ),
                Some(_) => {}
            }
        }
        for v in b
            .variants
            .iter()
            .filter(|v| !a.variants.iter().any(|w| w.name == v.name))
        {
            self.push(
                Code::UnionVariantAdded,
                client(use_.output),
                true,
                site.clone(),
                format!("{what}: variant `{}` added", v.name),
            );
        }
    }
}

fn kind_of(t: &TypeDef) -> &'static str {
    match t {
        TypeDef::Record(_) => "record",
        TypeDef::Enum(_) => "enum",
        TypeDef::Alias(_) => "named type",
        TypeDef::Union(_) => "union",
    }
}

fn a_kind(t: &TypeDef) -> &'static str {
    match t {
        TypeDef::Record(_) => "a record",
        TypeDef::Enum(_) => "an enum",
        TypeDef::Alias(_) => "a named type",
        TypeDef::Union(_) => "a union",
    }
}

/// A union variant's type with its constraints (`@length(1, 32) string`).
fn variant_text(v: &UnionVariant) -> String {
    let constraints = v.constraints.to_string();
    if constraints.is_empty() {
        format!("{:#}", v.ty)
    } else {
        format!("{constraints} {:#}", v.ty)
    }
}

impl Differ {
    /// `@open`, `@open(input)` or neither: what a record accepts of members it does not
    /// declare where it is read, and what it may send where it is sent.
    fn openness(&mut self, old: &Record, new: &Record, what: &str, use_: Use, site: Site) {
        let text = |r: &Record| match (r.open, r.open_input) {
            (true, _) => "`@open`",
            (false, true) => "`@open(input)`",
            (false, false) => "closed",
        };
        if (old.open, old.open_input) == (new.open, new.open_input) {
            return;
        }
        // Input: unknown members accepted by either form of `@open`; output: sent only by
        // `@open` (an `@open(input)` record is closed there).
        let accepts = |r: &Record| r.open || r.open_input;
        let narrower_in = accepts(old) && !accepts(new);
        let wider_out = !old.open && new.open;
        let breaking = (use_.input && narrower_in) || (use_.output && wider_out);
        self.push(
            Code::RecordOpennessChanged,
            if breaking {
                Client::Breaking
            } else {
                Client::Compatible
            },
            old.open != new.open,
            site,
            format!("{what}: {} is now {}", text(old), text(new)),
        );
    }
}
