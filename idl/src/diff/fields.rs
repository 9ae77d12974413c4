//! The parameters of a member and the fields of a record: matched by wire name, then by
//! declared name; each pair compared for its type, constraints, default and docs.

use super::code::{Code, Holder, Rule};
use super::relation::{constraints, types};
use super::uses::Use;
use super::{Client, Differ, Relation, Site, breaks, by_relation, client, default_text, pair_up};
use crate::model::{Constraints, Field};

/// Where a parameter or field stands, for messages and codes.
#[derive(Clone)]
pub(super) struct Owner {
    /// Parameters or record fields.
    pub(super) holder: Holder,
    /// `tool `get_weather`` or `record `Forecast``.
    pub(super) text: String,
    pub(super) site: fn(&Owner, &str) -> Site,
    pub(super) service: String,
    pub(super) member: String,
    pub(super) package: String,
    pub(super) use_: Use,
}

pub(super) fn param_site(owner: &Owner, name: &str) -> Site {
    Site::Param {
        service: owner.service.clone(),
        member: owner.member.clone(),
        param: name.to_string(),
    }
}

pub(super) fn field_site(owner: &Owner, name: &str) -> Site {
    Site::Field {
        package: owner.package.clone(),
        record: owner.member.clone(),
        field: name.to_string(),
    }
}

impl Differ {
    /// The parameters of a member, or the fields of a record.
    pub(super) fn fields(&mut self, owner: &Owner, old: &[Field], new: &[Field]) {
        let (pairs, removed, added) =
            pair_up(old, new, |f| f.json_name.clone(), |f| f.name.clone());
        let noun = owner.holder.noun();
        for i in removed {
            let f = &old[i];
            self.push(
                owner.holder.code(Rule::Removed),
                Client::Breaking,
                true,
                (owner.site)(owner, &f.name),
                format!("{}: {noun} `{}` removed", owner.text, f.json_name),
            );
        }
        for &(i, j) in &pairs {
            self.field(owner, noun, &old[i], &new[j]);
        }
        if owner.holder == Holder::Param {
            let kept_order: Vec<usize> = pairs.iter().map(|&(i, _)| i).collect();
            if kept_order.windows(2).any(|w| w[0] > w[1]) {
                // The handler takes one input struct, whose fields are named.
                self.push(
                    Code::ParamReordered,
                    Client::Compatible,
                    false,
                    (owner.site)(owner, &new[pairs[0].1].name),
                    format!("{}: parameters reordered", owner.text),
                );
            }
        }
        for j in added {
            let f = &new[j];
            let (rule, breaking) = if f.required {
                (Rule::AddedRequired, owner.use_.input)
            } else {
                (Rule::AddedOptional, false)
            };
            // A handler that destructures its input with `..` compiles on with a new
            // optional parameter; a record gains a field its implementers must write.
            let implementer = f.required || owner.holder == Holder::Field;
            self.push(
                owner.holder.code(rule),
                client(breaking),
                implementer,
                (owner.site)(owner, &f.name),
                format!(
                    "{}: {} {noun} `{}` added",
                    owner.text,
                    if f.required { "required" } else { "optional" },
                    f.json_name
                ),
            );
        }
    }

    fn field(&mut self, owner: &Owner, noun: &str, old: &Field, new: &Field) {
        let site = (owner.site)(owner, &new.name);
        let what = format!("{}: {noun} `{}`", owner.text, new.json_name);
        let use_ = owner.use_;
        if old.json_name != new.json_name {
            self.push(
                owner.holder.code(Rule::Renamed),
                Client::Breaking,
                old.name != new.name,
                site.clone(),
                format!(
                    "{}: {noun} `{}` renamed to `{}` on the wire",
                    owner.text, old.json_name, new.json_name
                ),
            );
        } else if old.name != new.name {
            self.push(
                owner.holder.code(Rule::IdentChanged),
                Client::Compatible,
                true,
                site.clone(),
                format!("{what}: declared `{}`, now `{}`", old.name, new.name),
            );
        }
        let relation = types(&old.ty, &new.ty);
        if old.ty != new.ty && relation != Relation::Same {
            let rule = by_relation(
                relation,
                [Rule::TypeWidened, Rule::TypeNarrowed, Rule::TypeChanged],
            );
            self.push(
                owner.holder.code(rule),
                client(breaks(relation, use_)),
                true,
                site.clone(),
                format!("{what}: type `{:#}` is now `{:#}`", old.ty, new.ty),
            );
        }
        let c = constraints(&old.constraints, &new.constraints);
        if c != Relation::Same {
            let rule = by_relation(
                c,
                [
                    Rule::ConstraintLoosened,
                    Rule::ConstraintTightened,
                    Rule::ConstraintChanged,
                ],
            );
            self.push(
                owner.holder.code(rule),
                client(breaks(c, use_)),
                false,
                site.clone(),
                format!(
                    "{what}: constraints {}",
                    constraint_text(&old.constraints, &new.constraints)
                ),
            );
        }
        match (old.required, new.required) {
            (false, true) => self.push(
                owner.holder.code(Rule::NowRequired),
                client(use_.input),
                false,
                site.clone(),
                format!("{what}: now required (its default `{}` was removed)", default_text(old.default.as_ref())),
            ),
            (true, false) => self.push(
                owner.holder.code(Rule::NowOptional),
                Client::Compatible,
                false,
                site.clone(),
                format!("{what}: now optional (default `{}`)", default_text(new.default.as_ref())),
            ),
            (false, false) if old.default != new.default => self.push(
                owner.holder.code(Rule::DefaultChanged),
                if use_.input { Client::Behaviour } else { Client::Compatible },
                false,
                site.clone(),
                format!(
                    "{what}: default `{}` is now `{}` (a behaviour change for clients that omit it)",
                    default_text(old.default.as_ref()),
                    default_text(new.default.as_ref())
                ),
            ),
            _ => {}
        }
        if old.doc != new.doc || old.description != new.description {
            self.push(
                owner.holder.code(Rule::DocsChanged),
                Client::Compatible,
                false,
                site,
                format!("{what}: description or doc comment changed"),
            );
        }
    }
}

fn constraint_text(old: &Constraints, new: &Constraints) -> String {
    let text = |c: &Constraints| {
        let written = c.to_string();
        if written.is_empty() {
            "none".into()
        } else {
            written
        }
    };
    format!("`{}` are now `{}`", text(old), text(new))
}
