//! How the set of values a type (or a constraint) accepts changed between two versions.

use std::cmp::Ordering;

use crate::model::{Bounds, Constraints, Number, Primitive, Type};

/// The new set of accepted values compared with the old one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Relation {
    /// Accepts exactly what it accepted.
    Same,
    /// Accepts everything it accepted, and more.
    Wider,
    /// Accepts less than it accepted, nothing new.
    Narrower,
    /// Accepts values it did not, and refuses values it accepted.
    Changed,
}

impl Relation {
    /// The relation of two changes made together (to two parts of one value).
    pub fn and(self, other: Relation) -> Relation {
        use Relation::*;
        match (self, other) {
            (Same, r) | (r, Same) => r,
            (a, b) if a == b => a,
            _ => Changed,
        }
    }

    fn flip(self) -> Relation {
        match self {
            Relation::Wider => Relation::Narrower,
            Relation::Narrower => Relation::Wider,
            r => r,
        }
    }
}

/// The integer range of an integer primitive, the rank of a float, or `None`.
fn int_range(p: Primitive) -> Option<(i128, i128)> {
    use Primitive::*;
    Some(match p {
        I8 => (i8::MIN.into(), i8::MAX.into()),
        I16 => (i16::MIN.into(), i16::MAX.into()),
        I32 => (i32::MIN.into(), i32::MAX.into()),
        I64 => (i64::MIN.into(), i64::MAX.into()),
        U8 => (0, u8::MAX.into()),
        U16 => (0, u16::MAX.into()),
        U32 => (0, u32::MAX.into()),
        U64 => (0, u64::MAX.into()),
        Integer => (i128::MIN, i128::MAX),
        _ => return None,
    })
}

fn is_float(p: Primitive) -> bool {
    matches!(p, Primitive::F32 | Primitive::F64)
}

/// Strings with a format (or one character): narrower than `string`.
fn is_formatted_string(p: Primitive) -> bool {
    use Primitive::*;
    matches!(
        p,
        Char | Uuid | Datetime | Date | Time | Duration | Uri | Bytes
    )
}

fn primitive(old: Primitive, new: Primitive) -> Relation {
    use Primitive::*;
    if old == new {
        return Relation::Same;
    }
    if let (Some((a0, a1)), Some((b0, b1))) = (int_range(old), int_range(new)) {
        return if b0 <= a0 && a1 <= b1 {
            Relation::Wider
        } else if a0 <= b0 && b1 <= a1 {
            Relation::Narrower
        } else {
            Relation::Changed
        };
    }
    match (old, new) {
        (Json, _) => Relation::Narrower,
        (_, Json) => Relation::Wider,
        (F64, F32) => Relation::Narrower,
        (F32, F64) => Relation::Wider,
        (o, n) if int_range(o).is_some() && is_float(n) => Relation::Wider,
        (o, n) if is_float(o) && int_range(n).is_some() => Relation::Narrower,
        (String, n) if is_formatted_string(n) => Relation::Narrower,
        (o, String) if is_formatted_string(o) => Relation::Wider,
        _ => Relation::Changed,
    }
}

/// The relation between two types. Records and enums are compared by name (their own
/// changes are reported where they are declared).
pub fn types(old: &Type, new: &Type) -> Relation {
    match (old, new) {
        (Type::Nullable { inner: a }, Type::Nullable { inner: b }) => types(a, b),
        (Type::Nullable { inner: a }, b) => types(a, b).and(Relation::Narrower),
        (a, Type::Nullable { inner: b }) => types(a, b).and(Relation::Wider),
        (Type::Primitive { name: a }, Type::Primitive { name: b }) => primitive(*a, *b),
        (
            Type::Primitive {
                name: Primitive::Json,
            },
            _,
        ) => Relation::Narrower,
        (
            _,
            Type::Primitive {
                name: Primitive::Json,
            },
        ) => Relation::Wider,
        // Each item's constraints count as the item type's own (a tightened one narrows).
        (Type::List { item: a, each: x }, Type::List { item: b, each: y })
        | (Type::Set { item: a, each: x }, Type::Set { item: b, each: y })
        | (Type::Map { value: a, each: x }, Type::Map { value: b, each: y }) => {
            types(a, b).and(constraints(x, y))
        }
        (Type::List { item: a, each: x }, Type::Set { item: b, each: y }) => {
            types(a, b).and(constraints(x, y)).and(Relation::Narrower)
        }
        (Type::Set { item: a, each: x }, Type::List { item: b, each: y }) => {
            types(a, b).and(constraints(x, y)).and(Relation::Wider)
        }
        (
            Type::Primitive {
                name: Primitive::Array,
            },
            Type::List { .. } | Type::Set { .. },
        ) => Relation::Narrower,
        (
            Type::List { .. } | Type::Set { .. },
            Type::Primitive {
                name: Primitive::Array,
            },
        ) => Relation::Wider,
        (
            Type::Primitive {
                name: Primitive::Object,
            },
            Type::Map { .. }
            | Type::Named {
                def: crate::model::DefKind::Record,
                ..
            },
        ) => Relation::Narrower,
        (
            Type::Map { .. }
            | Type::Named {
                def: crate::model::DefKind::Record,
                ..
            },
            Type::Primitive {
                name: Primitive::Object,
            },
        ) => Relation::Wider,
        (
            Type::Named {
                package: p1,
                name: n1,
                ..
            },
            Type::Named {
                package: p2,
                name: n2,
                ..
            },
        ) if p1 == p2 && n1 == n2 => Relation::Same,
        _ => Relation::Changed,
    }
}

/// Compares two numbers written in a `.tool` file.
fn number_cmp(a: &Number, b: &Number) -> Option<Ordering> {
    let int = |n: &Number| match n {
        Number::UInt(u) => Some(i128::from(*u)),
        Number::Int(i) => Some(i128::from(*i)),
        Number::Float(_) => None,
    };
    let float = |n: &Number| match n {
        Number::UInt(u) => *u as f64,
        Number::Int(i) => *i as f64,
        Number::Float(f) => *f,
    };
    match (int(a), int(b)) {
        (Some(x), Some(y)) => Some(x.cmp(&y)),
        _ => float(a).partial_cmp(&float(b)),
    }
}

/// A lower bound: raising it (or adding one) narrows.
fn lower<T>(
    old: Option<&T>,
    new: Option<&T>,
    cmp: impl Fn(&T, &T) -> Option<Ordering>,
) -> Relation {
    match (old, new) {
        (None, None) => Relation::Same,
        (None, Some(_)) => Relation::Narrower,
        (Some(_), None) => Relation::Wider,
        (Some(a), Some(b)) => match cmp(a, b) {
            Some(Ordering::Equal) => Relation::Same,
            Some(Ordering::Less) => Relation::Narrower,
            Some(Ordering::Greater) => Relation::Wider,
            None => Relation::Changed,
        },
    }
}

fn bounds<'a, T>(
    old: Option<&'a Bounds<T>>,
    new: Option<&'a Bounds<T>>,
    cmp: impl Fn(&T, &T) -> Option<Ordering> + Copy,
) -> Relation {
    let min = |b: Option<&'a Bounds<T>>| b.and_then(|b| b.min.as_ref());
    let max = |b: Option<&'a Bounds<T>>| b.and_then(|b| b.max.as_ref());
    let lower_bound = lower(min(old), min(new), cmp);
    // An upper bound: lowering it (or adding one) narrows.
    let upper_bound = lower(max(old), max(new), |a, b| cmp(b, a));
    lower_bound.and(upper_bound)
}

fn flag(old: bool, new: bool) -> Relation {
    match (old, new) {
        (false, true) => Relation::Narrower,
        (true, false) => Relation::Wider,
        _ => Relation::Same,
    }
}

/// The relation between two sets of constraints.
pub fn constraints(old: &Constraints, new: &Constraints) -> Relation {
    let pattern = match (&old.pattern, &new.pattern) {
        (a, b) if a == b => Relation::Same,
        (None, Some(_)) => Relation::Narrower,
        (Some(_), None) => Relation::Wider,
        _ => Relation::Changed,
    };
    bounds(old.range.as_ref(), new.range.as_ref(), number_cmp)
        .and(bounds(old.length.as_ref(), new.length.as_ref(), |a, b| {
            Some(a.cmp(b))
        }))
        .and(pattern)
        .and(bounds(
            old.exclusive.as_ref(),
            new.exclusive.as_ref(),
            number_cmp,
        ))
        .and(flag(old.email, new.email))
        .and(flag(old.url, new.url))
}

/// For a value the server produces (a result), what the client sees is the reverse.
pub fn as_output(relation: Relation) -> Relation {
    relation.flip()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(name: Primitive) -> Type {
        Type::Primitive { name }
    }

    #[test]
    fn integer_widths() {
        assert_eq!(
            types(&p(Primitive::I64), &p(Primitive::I32)),
            Relation::Narrower
        );
        assert_eq!(
            types(&p(Primitive::U8), &p(Primitive::I16)),
            Relation::Wider
        );
        assert_eq!(
            types(&p(Primitive::U32), &p(Primitive::I32)),
            Relation::Changed
        );
        assert_eq!(
            types(&p(Primitive::I32), &p(Primitive::F64)),
            Relation::Wider
        );
    }

    #[test]
    fn nullable_and_collections() {
        let null = |t| Type::Nullable { inner: Box::new(t) };
        let list = |t| Type::List {
            item: Box::new(t),
            each: Box::default(),
        };
        let set = |t| Type::Set {
            item: Box::new(t),
            each: Box::default(),
        };
        assert_eq!(
            types(&null(p(Primitive::U8)), &p(Primitive::U8)),
            Relation::Narrower
        );
        assert_eq!(
            types(&p(Primitive::U8), &null(p(Primitive::U16))),
            Relation::Wider
        );
        assert_eq!(
            types(&list(p(Primitive::U8)), &set(p(Primitive::U8))),
            Relation::Narrower
        );
        assert_eq!(
            types(&set(p(Primitive::U16)), &list(p(Primitive::U8))),
            Relation::Changed
        );
    }

    #[test]
    fn item_constraints_count_as_the_item_type() {
        let tags = |max: u64| Type::List {
            item: Box::new(p(Primitive::String)),
            each: Box::new(Constraints {
                length: Some(Bounds {
                    min: Some(1),
                    max: Some(max),
                }),
                ..Constraints::default()
            }),
        };
        let plain = Type::List {
            item: Box::new(p(Primitive::String)),
            each: Box::default(),
        };
        assert_eq!(types(&tags(32), &tags(16)), Relation::Narrower);
        assert_eq!(types(&tags(16), &tags(32)), Relation::Wider);
        assert_eq!(types(&plain, &tags(32)), Relation::Narrower);
        assert_eq!(types(&tags(32), &plain), Relation::Wider);
    }

    #[test]
    fn constraint_bounds() {
        let range = |min: Option<u64>, max: Option<u64>| Constraints {
            range: Some(Bounds {
                min: min.map(Number::UInt),
                max: max.map(Number::UInt),
            }),
            ..Constraints::default()
        };
        let none = Constraints::default();
        assert_eq!(
            constraints(&none, &range(Some(1), None)),
            Relation::Narrower
        );
        assert_eq!(
            constraints(&range(Some(1), Some(5)), &range(Some(0), Some(9))),
            Relation::Wider
        );
        assert_eq!(
            constraints(&range(Some(1), Some(5)), &range(Some(2), Some(9))),
            Relation::Changed
        );
        assert_eq!(
            constraints(&range(Some(1), Some(5)), &none),
            Relation::Wider
        );
    }
}
