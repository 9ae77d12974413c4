//! Where the records and enums of a model flow: into the server (reachable from
//! parameters), out of it (reachable from results), or both. A change of what a type
//! accepts breaks clients one way for inputs and the other for outputs.

use std::collections::{HashMap, HashSet};

use crate::model::{Model, Returns, Type, TypeDef};

/// Whether a record or enum is reachable from parameters (input) and from results (output).
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct Use {
    pub(super) input: bool,
    pub(super) output: bool,
}

/// The uses of every named type in the old and the new version.
pub(super) struct Uses {
    old: HashMap<(String, String), Use>,
    new: HashMap<(String, String), Use>,
}

impl Uses {
    pub(super) fn of(old: &Model, new: &Model) -> Uses {
        Uses {
            old: uses(old),
            new: uses(new),
        }
    }

    /// How `package.name` is used in either version.
    pub(super) fn of_type(&self, package: &str, name: &str) -> Use {
        let key = (package.to_string(), name.to_string());
        let a = self.old.get(&key).copied().unwrap_or_default();
        let b = self.new.get(&key).copied().unwrap_or_default();
        Use {
            input: a.input || b.input,
            output: a.output || b.output,
        }
    }
}

fn uses(model: &Model) -> HashMap<(String, String), Use> {
    let mut found: HashMap<(String, String), Use> = HashMap::new();
    // What one walk marked, it marked with everything it reaches: a later walk in the same
    // direction stops there (each type is walked at most once per direction).
    let mut seen: [HashSet<(String, String)>; 2] = Default::default();
    let mut visit = |ty: &Type, output: bool| {
        let seen = &mut seen[usize::from(output)];
        let mut stack = vec![ty];
        while let Some(ty) = stack.pop() {
            match ty {
                Type::Primitive { .. } => {}
                Type::List { item, .. } | Type::Set { item, .. } => stack.push(item),
                Type::Map { value, .. } => stack.push(value),
                Type::Nullable { inner } => stack.push(inner),
                Type::Named { package, name, .. } => {
                    let key = (package.clone(), name.clone());
                    if !seen.insert(key.clone()) {
                        continue;
                    }
                    let entry = found.entry(key).or_default();
                    if output {
                        entry.output = true;
                    } else {
                        entry.input = true;
                    }
                    match model.lookup(package, name) {
                        Some(TypeDef::Record(r)) => stack.extend(r.fields.iter().map(|f| &f.ty)),
                        Some(TypeDef::Union(u)) => stack.extend(u.variants.iter().map(|v| &v.ty)),
                        Some(TypeDef::Alias(a)) => stack.push(&a.ty),
                        _ => {}
                    }
                }
            }
        }
    };
    for member in model.services.iter().flat_map(|s| &s.members) {
        for param in &member.params {
            visit(&param.ty, false);
        }
        if let Returns::Value { ty } = &member.returns {
            visit(ty, true);
        }
    }
    found
}
