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
mod fields;
mod members;
mod package;
mod relation;
mod types;
mod uses;

use std::collections::{HashMap, VecDeque};

use crate::locations::{Location, Locations};
use crate::model::{Model, Value};
pub use code::Code;
use code::Rule;
pub use relation::Relation;
use relation::as_output;
use uses::{Use, Uses};

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
    let renamed;
    let (old, renamed_from) = if old.package == new.package {
        (old, None)
    } else {
        renamed = package::renamed(old, &new.package);
        (&renamed, Some(&old.package))
    };
    let mut d = Differ {
        changes: Vec::new(),
        uses: Uses::of(old, new),
    };
    if let Some(from) = renamed_from {
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

/// The changes found so far, and where the records and enums of both versions are used.
struct Differ {
    changes: Vec<Change>,
    uses: Uses,
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
}

/// Pairs old and new elements by `primary`, then the rest by `secondary`, each new one with
/// the first old one left that has its key. Returns the pairs (in new order), the old ones
/// left (removed) and the new ones left (added).
#[allow(clippy::type_complexity)]
fn pair_up<T>(
    old: &[T],
    new: &[T],
    primary: impl Fn(&T) -> String,
    secondary: impl Fn(&T) -> String,
) -> (Vec<(usize, usize)>, Vec<usize>, Vec<usize>) {
    let mut taken = vec![false; old.len()];
    let mut pairs = Vec::new();
    let mut by = |key: &dyn Fn(&T) -> String, new_left: Vec<usize>, taken: &mut [bool]| {
        let mut waiting: HashMap<String, VecDeque<usize>> = HashMap::new();
        for (i, o) in old.iter().enumerate().filter(|&(i, _)| !taken[i]) {
            waiting.entry(key(o)).or_default().push_back(i);
        }
        let mut left = Vec::new();
        for j in new_left {
            match waiting.get_mut(&key(&new[j])).and_then(VecDeque::pop_front) {
                Some(i) => {
                    taken[i] = true;
                    pairs.push((i, j));
                }
                None => left.push(j),
            }
        }
        left
    };
    let new_left = by(&primary, (0..new.len()).collect(), &mut taken);
    let new_left = by(&secondary, new_left, &mut taken);
    pairs.sort_by_key(|&(_, j)| j);
    let old_left = (0..old.len()).filter(|&i| !taken[i]).collect();
    (pairs, old_left, new_left)
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

/// A default as `toolidl diff` shows it: the value as written, `none` when there is none.
fn default_text(value: Option<&Value>) -> String {
    value.map_or_else(|| "none".into(), Value::to_string)
}

#[cfg(test)]
mod tests {
    use super::pair_up;

    #[test]
    fn pairs_by_the_first_key_then_the_second() {
        let old = ["a:1", "b:2", "a:3", "c:4"];
        let new = ["x:2", "a:9", "a:8", "d:5"];
        let first = |s: &&str| s[..1].to_string();
        let second = |s: &&str| s[2..].to_string();
        let (pairs, removed, added) = pair_up(&old, &new, first, second);
        // `a:9` takes the first `a`, `a:8` the second; `x:2` pairs with `b:2` by its second key.
        assert_eq!(pairs, vec![(1, 0), (0, 1), (2, 2)]);
        assert_eq!(removed, vec![3]);
        assert_eq!(added, vec![3]);
    }
}
