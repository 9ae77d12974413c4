//! Facts about the model's records that shape the Rust types: which fields must be boxed
//! (recursion held inline through `T?`), and which records can derive `Eq` and `Hash`.

use std::collections::{HashMap, HashSet};

use toolidl::model::{DefKind, Model, Primitive, Record, Type, TypeDef};

/// A record, by package and name.
pub type RecordKey = (String, String);

#[derive(Debug, Default)]
pub struct Facts {
    /// `(package, record, field)` of every field that holds its type in a `Box`.
    boxed: HashSet<(String, String, String)>,
    /// Records whose every field is `Eq + Hash`.
    hashable: HashSet<RecordKey>,
    /// Every record, for the record defaults that name its fields.
    records: HashMap<RecordKey, Record>,
    /// The variants' types of every union, for the union defaults that name a variant.
    union_variants: HashMap<RecordKey, Vec<(String, Type)>>,
    /// Records and unions whose values can nest without bound: they reach a record that
    /// contains itself, or a `json`, `object` or `array` value.
    unbounded: HashSet<RecordKey>,
}

impl Facts {
    pub fn of(model: &Model) -> Facts {
        let records = model
            .types()
            .iter()
            .filter_map(|t| match t {
                TypeDef::Record(r) => Some(((r.package.clone(), r.name.clone()), r.clone())),
                TypeDef::Enum(_) | TypeDef::Alias(_) | TypeDef::Union(_) => None,
            })
            .collect();
        let union_variants = model
            .types()
            .iter()
            .filter_map(|t| match t {
                TypeDef::Union(u) => Some((
                    (u.package.clone(), u.name.clone()),
                    u.variants
                        .iter()
                        .map(|v| (v.name.clone(), v.ty.clone()))
                        .collect(),
                )),
                TypeDef::Enum(_) | TypeDef::Alias(_) | TypeDef::Record(_) => None,
            })
            .collect();
        Facts {
            union_variants,
            boxed: boxed_fields(model),
            hashable: hashable_records(model),
            records,
            unbounded: unbounded_types(model),
        }
    }

    /// Whether a value of `ty` can nest as deeply as a handler likes (a recursive record, a
    /// `json` value): a result that may be too deep to write, or to drop on a small stack.
    pub fn nests_without_bound(&self, ty: &Type) -> bool {
        match ty {
            Type::Primitive { name } => {
                matches!(name, Primitive::Json | Primitive::Object | Primitive::Array)
            }
            Type::List { item, .. } | Type::Set { item, .. } => self.nests_without_bound(item),
            Type::Map { value, .. } => self.nests_without_bound(value),
            Type::Nullable { inner } => self.nests_without_bound(inner),
            Type::Named { package, name, .. } => {
                self.unbounded.contains(&(package.clone(), name.clone()))
            }
        }
    }

    pub fn record(&self, package: &str, name: &str) -> Option<&Record> {
        self.records.get(&(package.to_owned(), name.to_owned()))
    }

    /// The type of variant `variant` of union `package.name`.
    pub fn union_variant(&self, package: &str, name: &str, variant: &str) -> Option<&Type> {
        self.union_variants
            .get(&(package.to_owned(), name.to_owned()))?
            .iter()
            .find(|(v, _)| v == variant)
            .map(|(_, ty)| ty)
    }

    pub fn is_boxed(&self, package: &str, record: &str, field: &str) -> bool {
        self.boxed
            .contains(&(package.to_owned(), record.to_owned(), field.to_owned()))
    }

    /// Whether values of `ty` are `Eq + Hash` in Rust (no floats or JSON values inside).
    pub fn is_hashable(&self, ty: &Type) -> bool {
        match ty {
            Type::Primitive { name } => primitive_hashable(*name),
            Type::List { item, .. } | Type::Set { item, .. } => self.is_hashable(item),
            Type::Map { value, .. } => self.is_hashable(value),
            Type::Nullable { inner } => self.is_hashable(inner),
            Type::Named {
                def: DefKind::Enum, ..
            } => true,
            Type::Named { package, name, .. } => {
                self.hashable.contains(&(package.clone(), name.clone()))
            }
        }
    }

    pub fn record_is_hashable(&self, package: &str, name: &str) -> bool {
        self.hashable
            .contains(&(package.to_owned(), name.to_owned()))
    }
}

fn primitive_hashable(p: Primitive) -> bool {
    !matches!(
        p,
        Primitive::F32 | Primitive::F64 | Primitive::Json | Primitive::Object | Primitive::Array
    )
}

/// The named types `ty` mentions, and whether it holds a `json`, `object` or `array` value.
fn mentions(ty: &Type, named: &mut Vec<RecordKey>) -> bool {
    match ty {
        Type::Primitive { name } => {
            matches!(name, Primitive::Json | Primitive::Object | Primitive::Array)
        }
        Type::List { item, .. } | Type::Set { item, .. } => mentions(item, named),
        Type::Map { value, .. } => mentions(value, named),
        Type::Nullable { inner } => mentions(inner, named),
        Type::Named {
            def: DefKind::Enum, ..
        } => false,
        Type::Named { package, name, .. } => {
            named.push((package.clone(), name.clone()));
            false
        }
    }
}

/// The records and unions that reach themselves, or a JSON value, through their fields and
/// variants.
fn unbounded_types(model: &Model) -> HashSet<RecordKey> {
    let mut edges: HashMap<RecordKey, (Vec<RecordKey>, bool)> = HashMap::new();
    for def in model.types() {
        let (key, types): (RecordKey, Vec<&Type>) = match def {
            TypeDef::Record(r) => (
                (r.package.clone(), r.name.clone()),
                r.fields.iter().map(|f| &f.ty).collect(),
            ),
            TypeDef::Union(u) => (
                (u.package.clone(), u.name.clone()),
                u.variants.iter().map(|v| &v.ty).collect(),
            ),
            TypeDef::Enum(_) | TypeDef::Alias(_) => continue,
        };
        let mut named = Vec::new();
        let mut json = false;
        for ty in types {
            json |= mentions(ty, &mut named);
        }
        edges.insert(key, (named, json));
    }
    let mut unbounded = HashSet::new();
    for start in edges.keys() {
        let mut seen = HashSet::new();
        let mut stack: Vec<&RecordKey> = edges[start].0.iter().collect();
        let mut found = edges[start].1;
        while let Some(key) = stack.pop() {
            if found {
                break;
            }
            if key == start {
                found = true;
            } else if seen.insert(key)
                && let Some((next, json)) = edges.get(key)
            {
                found |= *json;
                stack.extend(next);
            }
        }
        if found {
            unbounded.insert(start.clone());
        }
    }
    unbounded
}

/// The record a field holds inline (directly or through `T?`), if any: a `list`, `set` or
/// `map` holds its items on the heap already.
fn inline_record(ty: &Type) -> Option<RecordKey> {
    match ty {
        Type::Named {
            package,
            name,
            def: DefKind::Record,
        } => Some((package.clone(), name.clone())),
        Type::Nullable { inner } => inline_record(inner),
        _ => None,
    }
}

/// A field is boxed when the record it holds inline can reach the field's own record through
/// inline fields again: exactly the fields that would give a type of infinite size.
fn boxed_fields(model: &Model) -> HashSet<(String, String, String)> {
    let mut edges: HashMap<RecordKey, Vec<RecordKey>> = HashMap::new();
    for def in model.types() {
        if let TypeDef::Record(r) = def {
            let targets = r
                .fields
                .iter()
                .filter_map(|f| inline_record(&f.ty))
                .collect();
            edges.insert((r.package.clone(), r.name.clone()), targets);
        }
    }
    let reaches = |from: &RecordKey, to: &RecordKey| -> bool {
        let mut seen = HashSet::new();
        let mut stack = vec![from.clone()];
        while let Some(key) = stack.pop() {
            if &key == to {
                return true;
            }
            if seen.insert(key.clone()) {
                stack.extend(edges.get(&key).into_iter().flatten().cloned());
            }
        }
        false
    };
    let mut boxed = HashSet::new();
    for def in model.types() {
        let TypeDef::Record(r) = def else { continue };
        let own = (r.package.clone(), r.name.clone());
        for f in &r.fields {
            if let Some(target) = inline_record(&f.ty)
                && reaches(&target, &own)
            {
                boxed.insert((r.package.clone(), r.name.clone(), f.name.clone()));
            }
        }
    }
    boxed
}

/// The greatest set of records whose fields are all hashable (a cycle does not spoil it).
fn hashable_records(model: &Model) -> HashSet<RecordKey> {
    let mut facts = Facts::default();
    for def in model.types() {
        if let TypeDef::Record(r) = def {
            facts.hashable.insert((r.package.clone(), r.name.clone()));
        }
    }
    loop {
        let spoiled: Vec<RecordKey> = model
            .types()
            .iter()
            .filter_map(|def| match def {
                TypeDef::Record(r) => Some(r),
                TypeDef::Enum(_) | TypeDef::Alias(_) | TypeDef::Union(_) => None,
            })
            .filter(|r| facts.record_is_hashable(&r.package, &r.name))
            .filter(|r| r.open || r.fields.iter().any(|f| !facts.is_hashable(&f.ty)))
            .map(|r| (r.package.clone(), r.name.clone()))
            .collect();
        if spoiled.is_empty() {
            return facts.hashable;
        }
        for key in spoiled {
            facts.hashable.remove(&key);
        }
    }
}
