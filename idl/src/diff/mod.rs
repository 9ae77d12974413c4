//! `toolidl diff`: every change between two resolved models, classified like `buf breaking`.
//!
//! Pure: two [`Model`]s in, a list of [`Change`]s out, each with a stable code (listed in
//! `docs/diff.md`), what it means for clients (breaking, a behaviour change, compatible),
//! whether it changes what implementers write (the generated handler trait and types), and
//! where it applies ([`Site`], which [`Site::locate`] turns into a file position).
//!
//! Tools, resources and prompts are matched by wire name across the file's services (a client
//! sees one list), then, among those left, by declared identifier (a rename). Parameters and
//! fields are matched by wire name, then by declared name. A record or enum is compared where
//! it is declared; its uses compare by name. Whether a change narrows or widens what is
//! accepted (the private `relation` module) decides its class: for inputs (parameters, and records and enums
//! reachable from them) narrowing breaks clients; for outputs (results, and what they reach)
//! widening does.

mod code;
mod relation;

use std::collections::{BTreeSet, HashMap};

use crate::locations::{Location, Locations};
use crate::model::*;
pub use code::Code;
use code::{Holder, Kind, Rule};
pub use relation::Relation;
use relation::{as_output, constraints, types};

/// What a change means for a client of the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Client {
    /// A client written against the old version can fail against the new one.
    Breaking,
    /// The same request means something else (a default changed).
    Behaviour,
    /// A client written against the old version works the same against the new one.
    Compatible,
}

/// Where a change applies, by declared names.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Site {
    /// The file as a whole (its package).
    File,
    /// A record, enum, union or alias.
    Type {
        /// The package that declares it.
        package: String,
        /// Its name.
        name: String,
    },
    /// A field of a record.
    Field {
        /// The package that declares the record.
        package: String,
        /// The record's name.
        record: String,
        /// The field's declared name.
        field: String,
    },
    /// A member of an enum, or a variant of a union.
    Variant {
        /// The package that declares the enum or union.
        package: String,
        /// The enum's or union's name.
        enumeration: String,
        /// The member's or variant's name.
        variant: String,
    },
    /// A service.
    Service {
        /// Its name.
        service: String,
    },
    /// A tool, resource or prompt.
    Member {
        /// The service that declares it.
        service: String,
        /// Its declared name.
        member: String,
    },
    /// A parameter of a tool, resource or prompt.
    Param {
        /// The service that declares the member.
        service: String,
        /// The member's declared name.
        member: String,
        /// The parameter's declared name.
        param: String,
    },
}

impl Site {
    /// Where the site (else the closest enclosing declaration) stands among `locations`, the
    /// locations of a file of package `package`.
    pub fn locate(&self, locations: &Locations, package: &str) -> Option<Location> {
        match self {
            Site::File => None,
            Site::Type { package, name } => locations.type_def(package, name),
            Site::Field {
                package,
                record,
                field,
            } => locations
                .field(package, record, field)
                .or_else(|| locations.type_def(package, record)),
            Site::Variant {
                package,
                enumeration,
                variant,
            } => locations
                .variant(package, enumeration, variant)
                .or_else(|| locations.type_def(package, enumeration)),
            Site::Service { service } => locations.service(package, service),
            Site::Member { service, member } => locations
                .member(package, service, member)
                .or_else(|| locations.service(package, service)),
            Site::Param {
                service,
                member,
                param,
            } => locations
                .param(package, service, member, param)
                .or_else(|| locations.member(package, service, member))
                .or_else(|| locations.service(package, service)),
        }
    }
}

/// One change between two versions.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Change {
    /// Stable, documented in `docs/diff.md`.
    pub code: Code,
    /// What it means for clients.
    pub client: Client,
    /// The generated Rust (handler trait, argument and record types) changes in a way that
    /// can break an implementation.
    pub implementer: bool,
    /// What changed, in one sentence naming the declarations.
    pub message: String,
    /// Where it changed.
    pub site: Site,
}

impl Change {
    /// `breaking`, `behaviour`, `implementer` (compatible for clients, breaking for
    /// implementers) or `compatible`.
    pub fn label(&self) -> &'static str {
        match (self.client, self.implementer) {
            (Client::Breaking, _) => "breaking",
            (Client::Behaviour, _) => "behaviour",
            (Client::Compatible, true) => "implementer",
            (Client::Compatible, false) => "compatible",
        }
    }
}

/// Every change from `old` to `new`, in a stable order: the file, services and their
/// members, then records and enums.
///
/// The old file's own package is taken to be the new one's (a renamed package is reported
/// once, as `PACKAGE_CHANGED`, and its records and enums are compared by name).
pub fn diff(old: &Model, new: &Model) -> Vec<Change> {
    let renamed_from = (old.package != new.package).then(|| old.package.clone());
    let renamed;
    let old = if old.package == new.package {
        old
    } else {
        renamed = rename_package(old, &new.package);
        &renamed
    };
    let mut d = Differ {
        changes: Vec::new(),
        old_uses: uses(old),
        new_uses: uses(new),
        renamed_from,
    };
    if let Some(from) = &d.renamed_from {
        let message = format!("package `{from}` is now `{}`", new.package);
        d.push(
            Code::PackageChanged,
            Client::Compatible,
            true,
            Site::File,
            message,
        );
    }
    d.services(old, new);
    d.members(old, new);
    d.types(old, new);
    d.changes
}

/// `model` with its own package named `to` (in its records and enums, and every use of them).
fn rename_package(model: &Model, to: &str) -> Model {
    fn ty(t: &mut Type, from: &str, to: &str) {
        match t {
            Type::Primitive { .. } => {}
            Type::List { item, .. } | Type::Set { item, .. } => ty(item, from, to),
            Type::Map { value, .. } => ty(value, from, to),
            Type::Nullable { inner } => ty(inner, from, to),
            Type::Named { package, .. } => {
                if package == from {
                    *package = to.to_string();
                }
            }
        }
    }
    fn fields(list: &mut [Field], from: &str, to: &str) {
        for f in list {
            ty(&mut f.ty, from, to);
        }
    }
    fn returns(r: &mut Returns, from: &str, to: &str) {
        if let Returns::Value { ty: t } = r {
            ty(t, from, to);
        }
    }
    let from = model.package.clone();
    let mut model = model.clone();
    model.package = to.to_string();
    for def in &mut model.types {
        match def {
            TypeDef::Record(r) => {
                if r.package == from {
                    r.package = to.to_string();
                }
                fields(&mut r.fields, &from, to);
            }
            TypeDef::Enum(e) => {
                if e.package == from {
                    e.package = to.to_string();
                }
            }
            TypeDef::Alias(a) => {
                if a.package == from {
                    a.package = to.to_string();
                }
                ty(&mut a.ty, &from, to);
            }
            TypeDef::Union(u) => {
                if u.package == from {
                    u.package = to.to_string();
                }
                for v in &mut u.variants {
                    ty(&mut v.ty, &from, to);
                }
            }
        }
    }
    for s in &mut model.services {
        for t in &mut s.tools {
            fields(&mut t.params, &from, to);
            returns(&mut t.returns, &from, to);
        }
        for r in &mut s.resources {
            fields(&mut r.params, &from, to);
            returns(&mut r.returns, &from, to);
        }
        for p in &mut s.prompts {
            fields(&mut p.params, &from, to);
            returns(&mut p.returns, &from, to);
        }
    }
    model
}

/// Whether a record or enum is reachable from parameters (input) and from results (output).
#[derive(Debug, Default, Clone, Copy)]
struct Use {
    input: bool,
    output: bool,
}

fn uses(model: &Model) -> HashMap<(String, String), Use> {
    let mut found: HashMap<(String, String), Use> = HashMap::new();
    let visit = |ty: &Type, output: bool, found: &mut HashMap<(String, String), Use>| {
        let mut stack = vec![ty.clone()];
        let mut seen = BTreeSet::new();
        while let Some(ty) = stack.pop() {
            match ty {
                Type::Primitive { .. } => {}
                Type::List { item, .. } | Type::Set { item, .. } => stack.push(*item),
                Type::Map { value, .. } => stack.push(*value),
                Type::Nullable { inner } => stack.push(*inner),
                Type::Named { package, name, .. } => {
                    if !seen.insert((package.clone(), name.clone())) {
                        continue;
                    }
                    let entry = found.entry((package.clone(), name.clone())).or_default();
                    if output {
                        entry.output = true;
                    } else {
                        entry.input = true;
                    }
                    match model.lookup(&package, &name) {
                        Some(TypeDef::Record(r)) => {
                            stack.extend(r.fields.iter().map(|f| f.ty.clone()));
                        }
                        Some(TypeDef::Union(u)) => {
                            stack.extend(u.variants.iter().map(|v| v.ty.clone()));
                        }
                        Some(TypeDef::Alias(a)) => stack.push(a.ty.clone()),
                        _ => {}
                    }
                }
            }
        }
    };
    for member in members(model) {
        for param in member.params {
            visit(&param.ty, false, &mut found);
        }
        if let Returns::Value { ty } = member.returns {
            visit(ty, true, &mut found);
        }
    }
    found
}

/// A tool, resource or prompt, seen alike.
#[derive(Clone, Copy)]
struct Member<'m> {
    kind: Kind,
    service: &'m str,
    ident: &'m str,
    name: &'m str,
    title: Option<&'m str>,
    doc: &'m [String],
    description: Option<&'m str>,
    params: &'m [Field],
    returns: &'m Returns,
    scopes: &'m [String],
    tool: Option<&'m Tool>,
    resource: Option<&'m Resource>,
}

fn members(model: &Model) -> Vec<Member<'_>> {
    let mut out = Vec::new();
    for s in &model.services {
        for t in &s.tools {
            out.push(Member {
                kind: Kind::Tool,
                service: &s.name,
                ident: &t.ident,
                name: &t.name,
                title: t.title.as_deref(),
                doc: &t.doc,
                description: t.description.as_deref(),
                params: &t.params,
                returns: &t.returns,
                scopes: &t.scopes,
                tool: Some(t),
                resource: None,
            });
        }
        for r in &s.resources {
            out.push(Member {
                kind: Kind::Resource,
                service: &s.name,
                ident: &r.ident,
                name: &r.name,
                title: r.title.as_deref(),
                doc: &r.doc,
                description: r.description.as_deref(),
                params: &r.params,
                returns: &r.returns,
                scopes: &r.scopes,
                tool: None,
                resource: Some(r),
            });
        }
        for p in &s.prompts {
            out.push(Member {
                kind: Kind::Prompt,
                service: &s.name,
                ident: &p.ident,
                name: &p.name,
                title: p.title.as_deref(),
                doc: &p.doc,
                description: p.description.as_deref(),
                params: &p.params,
                returns: &p.returns,
                scopes: &p.scopes,
                tool: None,
                resource: None,
            });
        }
    }
    out
}

/// Pairs old and new elements by `primary`, then the rest by `secondary`. Returns the pairs
/// (in new order), the old ones left (removed) and the new ones left (added).
#[allow(clippy::type_complexity)]
fn pair_up<T>(
    old: &[T],
    new: &[T],
    primary: impl Fn(&T) -> String,
    secondary: impl Fn(&T) -> String,
) -> (Vec<(usize, usize)>, Vec<usize>, Vec<usize>) {
    let mut old_left: Vec<usize> = (0..old.len()).collect();
    let mut pairs = Vec::new();
    let mut new_left = Vec::new();
    for (j, n) in new.iter().enumerate() {
        match old_left
            .iter()
            .position(|&i| primary(&old[i]) == primary(n))
        {
            Some(at) => pairs.push((old_left.remove(at), j)),
            None => new_left.push(j),
        }
    }
    new_left.retain(|&j| {
        match old_left
            .iter()
            .position(|&i| secondary(&old[i]) == secondary(&new[j]))
        {
            Some(at) => {
                pairs.push((old_left.remove(at), j));
                false
            }
            None => true,
        }
    });
    pairs.sort_by_key(|&(_, j)| j);
    (pairs, old_left, new_left)
}

/// Where a parameter or field stands, for messages and codes.
#[derive(Clone)]
struct Owner {
    /// Parameters or record fields.
    holder: Holder,
    /// `tool `get_weather`` or `record `Forecast``.
    text: String,
    site: fn(&Owner, &str) -> Site,
    service: String,
    member: String,
    package: String,
    use_: Use,
}

fn param_site(owner: &Owner, name: &str) -> Site {
    Site::Param {
        service: owner.service.clone(),
        member: owner.member.clone(),
        param: name.to_string(),
    }
}

fn field_site(owner: &Owner, name: &str) -> Site {
    Site::Field {
        package: owner.package.clone(),
        record: owner.member.clone(),
        field: name.to_string(),
    }
}

/// Whether a change of what is accepted breaks clients, given where the values flow: for an
/// input, narrowing breaks; for an output, widening does.
fn breaks(relation: Relation, use_: Use) -> bool {
    let input = use_.input && matches!(relation, Relation::Narrower | Relation::Changed);
    let output =
        use_.output && matches!(as_output(relation), Relation::Narrower | Relation::Changed);
    input || output
}

/// The rule for a wider, a narrower, or another change.
fn by_relation(relation: Relation, [wider, narrower, changed]: [Rule; 3]) -> Rule {
    match relation {
        Relation::Wider => wider,
        Relation::Narrower => narrower,
        _ => changed,
    }
}

fn client(breaking: bool) -> Client {
    if breaking {
        Client::Breaking
    } else {
        Client::Compatible
    }
}

/// A type as it would be written, each item's constraints before the item's type
/// (`list<@length(1, 32) string>`).
fn type_text(ty: &Type) -> String {
    let each = |c: &Constraints, item: &Type| match constraints_written(c) {
        Some(c) => format!("{c} {}", type_text(item)),
        None => type_text(item),
    };
    match ty {
        Type::Primitive { name } => serde_name(name),
        Type::List { item, each: c } => format!("list<{}>", each(c, item)),
        Type::Set { item, each: c } => format!("set<{}>", each(c, item)),
        Type::Map { value, each: c } => format!("map<string, {}>", each(c, value)),
        Type::Named { name, .. } => name.clone(),
        Type::Nullable { inner } => format!("{}?", type_text(inner)),
    }
}

fn serde_name(p: &Primitive) -> String {
    format!("{p:?}").to_lowercase()
}

fn returns_text(r: &Returns) -> String {
    match r {
        Returns::Nothing => "nothing".into(),
        Returns::Content => "content".into(),
        Returns::CallResult => "call_result".into(),
        Returns::Value { ty } => type_text(ty),
    }
}

pub(crate) fn value_text(v: Option<&Value>) -> String {
    fn one(v: &Value) -> String {
        match v {
            Value::Null => "null".into(),
            Value::Bool(b) => b.to_string(),
            Value::Number(Number::UInt(n)) => n.to_string(),
            Value::Number(Number::Int(n)) => n.to_string(),
            Value::Number(Number::Float(f)) => format!("{f:?}"),
            Value::String(s) => format!("{s:?}"),
            Value::Char(c) => format!("{c:?}"),
            Value::Enum(e) => e.clone(),
            Value::List(items) => {
                format!("[{}]", items.iter().map(one).collect::<Vec<_>>().join(", "))
            }
            Value::Map(entries) => {
                let entries: Vec<String> = entries
                    .iter()
                    .map(|e| format!("{:?}: {}", e.key, one(&e.value)))
                    .collect();
                format!("{{{}}}", entries.join(", "))
            }
            Value::Record(entries) => {
                let entries: Vec<String> = entries
                    .iter()
                    .map(|e| format!("{}: {}", e.key, one(&e.value)))
                    .collect();
                format!("{{ {} }}", entries.join(", "))
            }
        }
    }
    v.map_or("none".into(), one)
}

struct Differ {
    changes: Vec<Change>,
    /// The old package, when it is not the new one.
    renamed_from: Option<String>,
    old_uses: HashMap<(String, String), Use>,
    new_uses: HashMap<(String, String), Use>,
}

impl Differ {
    fn push(&mut self, code: Code, client: Client, implementer: bool, site: Site, message: String) {
        self.changes.push(Change {
            code,
            client,
            implementer,
            message,
            site,
        });
    }

    fn services(&mut self, old: &Model, new: &Model) {
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

    fn members(&mut self, old: &Model, new: &Model) {
        let (old_members, new_members) = (members(old), members(new));
        for kind in Kind::ALL {
            let of = |list: &[Member<'_>]| -> Vec<usize> {
                (0..list.len()).filter(|&i| list[i].kind == kind).collect()
            };
            let (o, n) = (of(&old_members), of(&new_members));
            let olds: Vec<Member<'_>> = o.iter().map(|&i| old_members[i]).collect();
            let news: Vec<Member<'_>> = n.iter().map(|&i| new_members[i]).collect();
            let (pairs, removed, added) = pair_up(
                &olds,
                &news,
                |m| m.name.to_string(),
                |m| m.ident.to_string(),
            );
            for i in removed {
                let m = olds[i];
                self.push(
                    kind.removed(),
                    Client::Breaking,
                    true,
                    Site::Member {
                        service: m.service.into(),
                        member: m.ident.into(),
                    },
                    format!("{kind} `{}` removed", m.name),
                );
            }
            for (i, j) in pairs {
                self.member(new, olds[i], news[j]);
            }
            for j in added {
                let m = news[j];
                self.push(
                    kind.added(),
                    Client::Compatible,
                    true,
                    Site::Member {
                        service: m.service.into(),
                        member: m.ident.into(),
                    },
                    format!("{kind} `{}` added (a new method to implement)", m.name),
                );
            }
        }
    }

    fn member(&mut self, new_model: &Model, old: Member<'_>, new: Member<'_>) {
        let kind = old.kind;
        let site = Site::Member {
            service: new.service.into(),
            member: new.ident.into(),
        };
        let what = format!("{kind} `{}`", new.name);
        if old.name != new.name {
            self.push(
                kind.renamed(),
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
        if old.service != new.service {
            self.push(
                Code::MemberMoved,
                Client::Compatible,
                true,
                site.clone(),
                format!(
                    "{what} moved from service `{}` to `{}`",
                    old.service, new.service
                ),
            );
        }
        if old.returns != new.returns {
            let same_shape = match (old.returns, new.returns) {
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
                        returns_text(old.returns),
                        returns_text(new.returns)
                    ),
                );
            }
        }
        // Changes that need no more than a comparison: (changed, code, client, message).
        let (tool_a, tool_b) = (old.tool, new.tool);
        let (res_a, res_b) = (old.resource, new.resource);
        let differs =
            |f: fn(&Tool, &Tool) -> bool| tool_a.zip(tool_b).is_some_and(|(a, b)| f(a, b));
        let uri = |r: &Resource| r.uri.clone();
        let rules = [
            (
                old.title != new.title,
                Code::TitleChanged,
                Client::Compatible,
                "title changed".to_string(),
            ),
            (
                old.doc != new.doc || old.description != new.description,
                Code::DocsChanged,
                Client::Compatible,
                "description or doc comment changed".into(),
            ),
            (
                differs(|a, b| a.annotations != b.annotations),
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
        self.scopes(&site, &what, old.scopes, new.scopes);
        let owner = Owner {
            holder: Holder::Param,
            text: what,
            site: param_site,
            service: new.service.into(),
            member: new.ident.into(),
            package: new_model.package.clone(),
            use_: Use {
                input: true,
                output: false,
            },
        };
        self.fields(&owner, old.params, new.params);
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

    /// The parameters of a member, or the fields of a record.
    fn fields(&mut self, owner: &Owner, old: &[Field], new: &[Field]) {
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
                format!(
                    "{what}: type `{}` is now `{}`",
                    type_text(&old.ty),
                    type_text(&new.ty)
                ),
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
                format!("{what}: now required (its default `{}` was removed)", value_text(old.default.as_ref())),
            ),
            (true, false) => self.push(
                owner.holder.code(Rule::NowOptional),
                Client::Compatible,
                false,
                site.clone(),
                format!("{what}: now optional (default `{}`)", value_text(new.default.as_ref())),
            ),
            (false, false) if old.default != new.default => self.push(
                owner.holder.code(Rule::DefaultChanged),
                if use_.input { Client::Behaviour } else { Client::Compatible },
                false,
                site.clone(),
                format!(
                    "{what}: default `{}` is now `{}` (a behaviour change for clients that omit it)",
                    value_text(old.default.as_ref()),
                    value_text(new.default.as_ref())
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

    fn use_of(&self, package: &str, name: &str) -> Use {
        let key = (package.to_string(), name.to_string());
        let a = self.old_uses.get(&key).copied().unwrap_or_default();
        let b = self.new_uses.get(&key).copied().unwrap_or_default();
        Use {
            input: a.input || b.input,
            output: a.output || b.output,
        }
    }

    fn types(&mut self, old: &Model, new: &Model) {
        for o in &old.types {
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
        for n in &new.types {
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
        let use_ = self.use_of(new.package(), new.name());
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
}

impl Differ {
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
fn variant_text(v: &crate::model::UnionVariant) -> String {
    match constraints_written(&v.constraints) {
        Some(c) => format!("{c} {}", type_text(&v.ty)),
        None => type_text(&v.ty),
    }
}

fn constraint_text(old: &Constraints, new: &Constraints) -> String {
    let text = |c: &Constraints| constraints_written(c).unwrap_or_else(|| "none".into());
    format!("`{}` are now `{}`", text(old), text(new))
}

/// Constraints as attributes (`@range(1, _) @pattern("…")`), `None` when there are none.
fn constraints_written(c: &Constraints) -> Option<String> {
    {
        let mut parts = Vec::new();
        let n = |n: &Option<Number>| {
            n.as_ref()
                .map_or("_".into(), |n| value_text(Some(&Value::Number(*n))))
        };
        let u = |n: &Option<u64>| n.map_or("_".into(), |n| n.to_string());
        if let Some(r) = &c.range {
            parts.push(format!("@range({}, {})", n(&r.min), n(&r.max)));
        }
        if let Some(l) = &c.length {
            parts.push(format!("@length({}, {})", u(&l.min), u(&l.max)));
        }
        if let Some(p) = &c.pattern {
            parts.push(format!("@pattern({p:?})"));
        }
        if c.email {
            parts.push("@email".into());
        }
        if c.url {
            parts.push("@url".into());
        }
        (!parts.is_empty()).then(|| parts.join(" "))
    }
}
