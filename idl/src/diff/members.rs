//! Services and their members: tools, resources and prompts, matched by wire name across the
//! file's services (a client sees one list), then by declared identifier (a rename).

use super::code::{Code, Holder};
use super::fields::{Owner, param_site};
use super::relation::{Relation, types};
use super::uses::Use;
use super::{Client, Differ, Site, pair_up};
use crate::model::{Annotations, Keyword, Member, Model, Resource, Returns, TaskSupport, Tool};

/// A member with the name of the service that declares it.
#[derive(Clone, Copy)]
struct Declared<'m> {
    service: &'m str,
    member: &'m Member,
}

/// The members of `keyword` of every service of `model`, service by service.
fn declared(model: &Model, keyword: Keyword) -> Vec<Declared<'_>> {
    model
        .services
        .iter()
        .flat_map(|s| {
            s.members_of(keyword).map(|member| Declared {
                service: &s.name,
                member,
            })
        })
        .collect()
}

/// The result as `toolidl diff` names it: `nothing`, `content`, `call_result` or the type.
fn returns_text(r: &Returns) -> String {
    match r {
        Returns::Nothing => "nothing".into(),
        Returns::Content => "content".into(),
        Returns::CallResult => "call_result".into(),
        Returns::Value { ty } => format!("{ty:#}"),
    }
}

impl Differ {
    pub(super) fn services(&mut self, old: &Model, new: &Model) {
        for s in &old.services {
            if !new.services.iter().any(|n| n.name == s.name) {
                self.push(
                    Code::ServiceRemoved,
                    Client::Compatible,
                    true,
                    Site::File,
                    format!(
                        "service `{}` removed (its members are reported one by one)",
                        s.name
                    ),
                );
            }
        }
        for s in &new.services {
            if !old.services.iter().any(|o| o.name == s.name) {
                self.push(
                    Code::ServiceAdded,
                    Client::Compatible,
                    false,
                    Site::Service {
                        service: s.name.clone(),
                    },
                    format!("service `{}` added", s.name),
                );
            }
        }
    }

    pub(super) fn members(&mut self, old: &Model, new: &Model) {
        for keyword in Keyword::ALL {
            let (olds, news) = (declared(old, keyword), declared(new, keyword));
            let (pairs, removed, added) = pair_up(
                &olds,
                &news,
                |m| m.member.name.clone(),
                |m| m.member.ident.clone(),
            );
            for i in removed {
                let Declared { service, member } = olds[i];
                self.push(
                    Code::removed(keyword),
                    Client::Breaking,
                    true,
                    Site::Member {
                        service: service.into(),
                        member: member.ident.clone(),
                    },
                    format!("{keyword} `{}` removed", member.name),
                );
            }
            for (i, j) in pairs {
                self.member(new, keyword, olds[i], news[j]);
            }
            for j in added {
                let Declared { service, member } = news[j];
                self.push(
                    Code::added(keyword),
                    Client::Compatible,
                    true,
                    Site::Member {
                        service: service.into(),
                        member: member.ident.clone(),
                    },
                    format!(
                        "{keyword} `{}` added (a new method to implement)",
                        member.name
                    ),
                );
            }
        }
    }

    fn member(&mut self, new_model: &Model, kind: Keyword, old: Declared<'_>, new: Declared<'_>) {
        let (old_service, new_service) = (old.service, new.service);
        let (old, new) = (old.member, new.member);
        let site = Site::Member {
            service: new_service.into(),
            member: new.ident.clone(),
        };
        let what = format!("{kind} `{}`", new.name);
        if old.name != new.name {
            self.push(
                Code::renamed(kind),
                Client::Breaking,
                old.ident != new.ident,
                site.clone(),
                format!("{kind} `{}` renamed to `{}`", old.name, new.name),
            );
        } else if old.ident != new.ident {
            self.push(
                Code::MethodRenamed,
                Client::Compatible,
                true,
                site.clone(),
                format!(
                    "{what}: declared `{}`, now `{}` (the trait method is renamed)",
                    old.ident, new.ident
                ),
            );
        }
        if old_service != new_service {
            self.push(
                Code::MemberMoved,
                Client::Compatible,
                true,
                site.clone(),
                format!(
                    "{what} moved from service `{}` to `{}`",
                    old_service, new_service
                ),
            );
        }
        if old.returns != new.returns {
            let same_shape = match (&old.returns, &new.returns) {
                (Returns::Value { ty: a }, Returns::Value { ty: b }) => {
                    types(a, b) == Relation::Same
                }
                _ => false,
            };
            if !same_shape {
                self.push(
                    Code::ResultChanged,
                    Client::Breaking,
                    true,
                    site.clone(),
                    format!(
                        "{what}: result `{}` is now `{}`",
                        returns_text(&old.returns),
                        returns_text(&new.returns)
                    ),
                );
            }
        }
        // Changes that need no more than a comparison: (changed, code, client, message).
        let (tool_a, tool_b) = (old.tool(), new.tool());
        let (res_a, res_b) = (old.resource(), new.resource());
        let differs =
            |f: fn(&Tool, &Tool) -> bool| tool_a.zip(tool_b).is_some_and(|(a, b)| f(a, b));
        let uri = |r: &Resource| r.uri.clone();
        // A tool's `title` and `annotations.title`: one text for both (`@title("…")`) on
        // either side is one TITLE_CHANGED, as it always was; written apart, each place is
        // its own change.
        let annotations_title = |m: &Member| m.tool().and_then(|t| t.annotations.title.clone());
        let (old_at, new_at) = (annotations_title(old), annotations_title(new));
        let together = |m: &Member, at: &Option<String>| m.tool().is_none() || m.title == *at;
        let apart = !(together(old, &old_at) && together(new, &new_at));
        let quoted = |t: &Option<String>| t.as_ref().map_or("none".into(), |t| format!("{t:?}"));
        let title_message = if apart {
            format!("title {} is now {}", quoted(&old.title), quoted(&new.title))
        } else {
            "title changed".to_string()
        };
        fn hints(t: &Tool) -> Annotations {
            Annotations {
                title: None,
                ..t.annotations.clone()
            }
        }
        let execution = |t: &Tool| t.task_support.map_or("not listed", |s| s.as_str());
        fn effective(t: &Tool) -> TaskSupport {
            t.task_support.unwrap_or(TaskSupport::Forbidden)
        }
        let dialect = |t: &Tool| t.schema_dialect.clone();
        let rules = [
            (
                old.title != new.title,
                Code::TitleChanged,
                Client::Compatible,
                title_message,
            ),
            (
                apart && old_at != new_at,
                Code::AnnotationsTitleChanged,
                Client::Compatible,
                format!(
                    "annotations.title {} is now {}",
                    quoted(&old_at),
                    quoted(&new_at)
                ),
            ),
            (
                differs(|a, b| a.task_support != b.task_support),
                Code::ExecutionChanged,
                // Not listed means `forbidden` (2025-11-25's `ToolExecution`): saying so, or
                // no longer saying so, changes the listing only.
                if differs(|a, b| effective(a) != effective(b)) {
                    Client::Behaviour
                } else {
                    Client::Compatible
                },
                format!(
                    "execution.taskSupport {} is now {}",
                    tool_a.map_or("not listed", execution),
                    tool_b.map_or("not listed", execution)
                ),
            ),
            (
                differs(|a, b| a.schema_dialect != b.schema_dialect),
                Code::SchemaDialectChanged,
                Client::Compatible,
                format!(
                    "$schema {} is now {}",
                    quoted(&tool_a.and_then(dialect)),
                    quoted(&tool_b.and_then(dialect))
                ),
            ),
            (
                old.doc != new.doc || old.description != new.description,
                Code::DocsChanged,
                Client::Compatible,
                "description or doc comment changed".into(),
            ),
            (
                if apart {
                    differs(|a, b| hints(a) != hints(b))
                } else {
                    differs(|a, b| a.annotations != b.annotations)
                },
                Code::AnnotationsChanged,
                Client::Compatible,
                "behaviour hints changed".into(),
            ),
            (
                differs(|a, b| a.ui != b.ui),
                Code::UiChanged,
                Client::Behaviour,
                "@ui changed (app resource or visibility)".into(),
            ),
            (
                res_a.zip(res_b).is_some_and(|(a, b)| a.uri != b.uri),
                Code::ResourceUriChanged,
                Client::Breaking,
                format!(
                    "URI `{}` is now `{}`",
                    res_a.map(uri).unwrap_or_default(),
                    res_b.map(uri).unwrap_or_default()
                ),
            ),
            (
                res_a
                    .zip(res_b)
                    .is_some_and(|(a, b)| a.mime_type != b.mime_type),
                Code::ResourceMimeChanged,
                Client::Behaviour,
                "MIME type changed".into(),
            ),
            (
                res_a.zip(res_b).is_some_and(|(a, b)| a.ui != b.ui),
                Code::ResourceViewChanged,
                Client::Behaviour,
                format!(
                    "the view's {} changed",
                    res_a
                        .zip(res_b)
                        .map(|(a, b)| view_changes(a, b))
                        .unwrap_or_default()
                ),
            ),
        ];
        for (changed, code, client, message) in rules {
            if changed {
                self.push(
                    code,
                    client,
                    false,
                    site.clone(),
                    format!("{what}: {message}"),
                );
            }
        }
        if let Some((a, b)) = tool_a.zip(tool_b)
            && a.text != b.text
        {
            let text = |t: &Option<crate::model::ResultText>| match t {
                Some(t) => t.attribute(),
                None => "its JSON (no @text)".into(),
            };
            // `@text(handler)` added or removed changes what the handler returns.
            let handler = |t: &Tool| t.text == Some(crate::model::ResultText::Handler);
            self.push(
                Code::ResultTextChanged,
                Client::Behaviour,
                handler(a) != handler(b),
                site.clone(),
                format!(
                    "{what}: the text beside its structured result was {}, now {}",
                    text(&a.text),
                    text(&b.text)
                ),
            );
        }
        self.scopes(&site, &what, &old.scopes, &new.scopes);
        let owner = Owner {
            holder: Holder::Param,
            text: what,
            site: param_site,
            service: new_service.into(),
            member: new.ident.clone(),
            package: new_model.package.clone(),
            use_: Use {
                input: true,
                output: false,
            },
        };
        self.fields(&owner, &old.params, &new.params);
    }

    /// Scopes a member needs: one more breaks a client whose token lacks it; one fewer does not.
    fn scopes(&mut self, site: &Site, what: &str, old: &[String], new: &[String]) {
        let quoted = |list: Vec<&String>| {
            list.iter()
                .map(|s| format!("`{s}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let added: Vec<&String> = new.iter().filter(|s| !old.contains(s)).collect();
        let removed: Vec<&String> = old.iter().filter(|s| !new.contains(s)).collect();
        if !added.is_empty() {
            let message = format!("{what}: now needs scope {}", quoted(added));
            self.push(
                Code::ScopeAdded,
                Client::Breaking,
                false,
                site.clone(),
                message,
            );
        }
        if !removed.is_empty() {
            let message = format!("{what}: no longer needs scope {}", quoted(removed));
            self.push(
                Code::ScopeRemoved,
                Client::Compatible,
                false,
                site.clone(),
                message,
            );
        }
    }
}

/// What of a view's `_meta.ui` differs between two resources: "`@csp` and `@domain`".
fn view_changes(a: &crate::model::Resource, b: &crate::model::Resource) -> String {
    let (a, b) = (
        a.ui.clone().unwrap_or_default(),
        b.ui.clone().unwrap_or_default(),
    );
    let parts: Vec<&str> = [
        (a.csp != b.csp, "`@csp`"),
        (a.permissions != b.permissions, "`@permissions`"),
        (a.domain != b.domain, "`@domain`"),
        (a.prefers_border != b.prefers_border, "`@prefers_border`"),
    ]
    .into_iter()
    .filter_map(|(changed, name)| changed.then_some(name))
    .collect();
    match parts.as_slice() {
        [] => "metadata".into(),
        [one] => (*one).into(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}
