//! A renamed package: the old model with its own package named as the new one's, so that
//! its records and enums compare by name.

use crate::model::{Field, Model, Returns, Type, TypeDef};

/// `model` with its own package named `to` (in its records and enums, and every use of them).
pub(super) fn renamed(model: &Model, to: &str) -> Model {
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
    let from = model.package.as_str();
    let own = |package: &mut String| {
        if package == from {
            *package = to.to_string();
        }
    };
    let mut types = model.types().to_vec();
    for def in &mut types {
        match def {
            TypeDef::Record(r) => {
                own(&mut r.package);
                fields(&mut r.fields, from, to);
            }
            TypeDef::Enum(e) => own(&mut e.package),
            TypeDef::Alias(a) => {
                own(&mut a.package);
                ty(&mut a.ty, from, to);
            }
            TypeDef::Union(u) => {
                own(&mut u.package);
                for v in &mut u.variants {
                    ty(&mut v.ty, from, to);
                }
            }
        }
    }
    let mut services = model.services.clone();
    for member in services.iter_mut().flat_map(|s| &mut s.members) {
        fields(&mut member.params, from, to);
        if let Returns::Value { ty: t } = &mut member.returns {
            ty(t, from, to);
        }
    }
    Model::new(to.to_string(), model.imports.clone(), types, services)
}
