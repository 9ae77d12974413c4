//! Which records of one root schema are written to `$defs`, and under which key.
//!
//! A record goes to `$defs` when it is part of a cycle (it could not be written inline), or,
//! with [`SchemaOptions::hoist_shared`], when the root uses it more than once. Everything
//! else stays inline, because many clients drop `$defs`.

use std::collections::{BTreeSet, HashMap, HashSet};

use toolidl::model::{DefKind, Model, Record, Type, TypeDef};

use crate::options::{SchemaError, SchemaOptions};

/// `(package, name)` of a record or enum.
pub(crate) type TypeKey = (String, String);

/// The records named by a type expression, looking through `?`, `list`, `set`, `map` and
/// the variants of unions (not through records).
pub(crate) fn named_records(model: &Model, ty: &Type) -> Vec<TypeKey> {
    let mut out = Vec::new();
    collect_records(model, ty, &mut out, &mut Vec::new());
    out
}

fn collect_records(model: &Model, ty: &Type, out: &mut Vec<TypeKey>, unions: &mut Vec<TypeKey>) {
    match ty {
        Type::Primitive { .. } => {}
        Type::List { item, .. } | Type::Set { item, .. } => {
            collect_records(model, item, out, unions)
        }
        Type::Map { value, .. } => collect_records(model, value, out, unions),
        Type::Nullable { inner } => collect_records(model, inner, out, unions),
        Type::Named { package, name, def } => {
            let key = (package.clone(), name.clone());
            match def {
                DefKind::Record => out.push(key),
                DefKind::Union if !unions.contains(&key) => {
                    unions.push(key);
                    if let Some(TypeDef::Union(u)) = model.lookup(package, name) {
                        for v in &u.variants {
                            collect_records(model, &v.ty, out, unions);
                        }
                    }
                }
                _ => {}
            }
        }
    }
}

pub(crate) fn find_record<'m>(model: &'m Model, key: &TypeKey) -> Result<&'m Record, SchemaError> {
    match model.lookup(&key.0, &key.1) {
        Some(TypeDef::Record(record)) => Ok(record),
        _ => Err(SchemaError::UnknownType {
            package: key.0.clone(),
            name: key.1.clone(),
        }),
    }
}

/// The records of the model that lie on a cycle of record references.
#[derive(Debug, Default)]
pub(crate) struct Cycles {
    members: HashSet<TypeKey>,
}

impl Cycles {
    pub fn of(model: &Model) -> Result<Self, SchemaError> {
        let mut members = HashSet::new();
        for def in model.types() {
            let TypeDef::Record(record) = def else {
                continue;
            };
            let start = (record.package.clone(), record.name.clone());
            if reaches(model, &start, &start)? {
                members.insert(start);
            }
        }
        Ok(Cycles { members })
    }

    pub fn contains(&self, key: &TypeKey) -> bool {
        self.members.contains(key)
    }
}

/// True when `target` is reachable from `start` through at least one field.
fn reaches(model: &Model, start: &TypeKey, target: &TypeKey) -> Result<bool, SchemaError> {
    let mut seen = HashSet::new();
    let mut pending = vec![start.clone()];
    while let Some(key) = pending.pop() {
        for field in &find_record(model, &key)?.fields {
            for next in named_records(model, &field.ty) {
                if &next == target {
                    return Ok(true);
                }
                if seen.insert(next.clone()) {
                    pending.push(next);
                }
            }
        }
    }
    Ok(false)
}

/// The `$defs` keys of the records hoisted out of one root schema.
#[derive(Debug, Default)]
pub(crate) struct Plan {
    keys: HashMap<TypeKey, String>,
}

impl Plan {
    /// Plans the root whose top-level type expressions are `roots` (the parameters of a tool,
    /// the fields of a record result, or a map result itself).
    pub fn for_root(
        model: &Model,
        cycles: &Cycles,
        roots: &[&Type],
        options: &SchemaOptions,
    ) -> Result<Self, SchemaError> {
        // Every reachable record is written once (inline or in `$defs`), so counting the
        // references from the root and from each reachable record once counts the uses.
        let mut uses: HashMap<TypeKey, usize> = HashMap::new();
        let mut reached: HashSet<TypeKey> = HashSet::new();
        let mut pending: Vec<TypeKey> = Vec::new();
        let mut visit = |ty: &Type, pending: &mut Vec<TypeKey>| {
            for key in named_records(model, ty) {
                *uses.entry(key.clone()).or_default() += 1;
                if reached.insert(key.clone()) {
                    pending.push(key);
                }
            }
        };
        for ty in roots {
            visit(ty, &mut pending);
        }
        while let Some(key) = pending.pop() {
            for field in &find_record(model, &key)?.fields {
                visit(&field.ty, &mut pending);
            }
        }

        let hoisted: BTreeSet<(usize, TypeKey)> = uses
            .into_iter()
            .filter(|(key, count)| cycles.contains(key) || (options.hoist_shared && *count > 1))
            .map(|(key, _)| (declaration_index(model, &key), key))
            .collect();
        Ok(Plan {
            keys: assign_keys(hoisted.into_iter().map(|(_, key)| key)),
        })
    }

    /// Hoisted records whose `$defs` key is not their simple name (another record of the
    /// root took it), with that key, in key order: what seed 003 asks a diagnostic for.
    pub fn suffixed(&self) -> Vec<(TypeKey, String)> {
        let mut out: Vec<(TypeKey, String)> = self
            .keys
            .iter()
            .filter(|(key, assigned)| key.1 != **assigned)
            .map(|(key, assigned)| (key.clone(), assigned.clone()))
            .collect();
        out.sort_by(|a, b| a.1.cmp(&b.1));
        out
    }

    /// The `$defs` key of a hoisted record; `None` when it is written inline.
    pub fn key(&self, key: &TypeKey) -> Option<&str> {
        self.keys.get(key).map(String::as_str)
    }
}

fn declaration_index(model: &Model, key: &TypeKey) -> usize {
    model
        .types()
        .iter()
        .position(|def| def.package() == key.0 && def.name() == key.1)
        .unwrap_or(usize::MAX)
}

/// Simple names, in `Model::types` order; a later record whose simple name is taken gets the
/// first free numeric suffix (`Page`, then `Page2`).
fn assign_keys(hoisted: impl Iterator<Item = TypeKey>) -> HashMap<TypeKey, String> {
    let hoisted: Vec<TypeKey> = hoisted.collect();
    let simple_names: HashSet<&str> = hoisted.iter().map(|(_, name)| name.as_str()).collect();
    let mut taken: HashSet<String> = HashSet::new();
    let mut keys = HashMap::new();
    for key in &hoisted {
        let name = &key.1;
        let mut candidate = name.clone();
        let mut suffix = 2;
        while taken.contains(&candidate)
            || (candidate != *name && simple_names.contains(candidate.as_str()))
        {
            candidate = format!("{name}{suffix}");
            suffix += 1;
        }
        taken.insert(candidate.clone());
        keys.insert(key.clone(), candidate);
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(package: &str, name: &str) -> TypeKey {
        (package.to_owned(), name.to_owned())
    }

    #[test]
    fn a_shared_simple_name_gets_a_suffix_on_the_later_type() {
        let keys = assign_keys([key("a", "Page"), key("b", "Page"), key("c", "Page")].into_iter());
        assert_eq!(keys[&key("a", "Page")], "Page");
        assert_eq!(keys[&key("b", "Page")], "Page2");
        assert_eq!(keys[&key("c", "Page")], "Page3");
    }

    #[test]
    fn a_suffix_never_collides_with_a_real_name() {
        let keys = assign_keys([key("a", "Page"), key("b", "Page"), key("a", "Page2")].into_iter());
        assert_eq!(keys[&key("a", "Page")], "Page");
        assert_eq!(keys[&key("b", "Page")], "Page3");
        assert_eq!(keys[&key("a", "Page2")], "Page2");
    }
}
