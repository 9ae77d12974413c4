//! Records that can only be satisfied by an infinite value.

use super::*;

impl Resolver<'_> {
    /// Reports each cycle of records linked by non-nullable direct record fields: such a
    /// record can only be satisfied by an infinite value.
    pub(super) fn infinite_records(&mut self, ast: &ast::File, types: &[TypeDef]) {
        let records: Vec<&Record> = types
            .iter()
            .filter_map(|t| match t {
                TypeDef::Record(r) => Some(r),
                TypeDef::Enum(_) | TypeDef::Alias(_) | TypeDef::Union(_) => None,
            })
            .collect();
        let index = |name: &str| records.iter().position(|r| r.name == name);
        let edges: Vec<Vec<(usize, &str)>> = records
            .iter()
            .map(|r| {
                r.fields
                    .iter()
                    .filter_map(|f| match &f.ty {
                        Type::Named {
                            package,
                            name,
                            def: DefKind::Record,
                        } if *package == self.scope.package => {
                            index(name).map(|i| (i, f.name.as_str()))
                        }
                        _ => None,
                    })
                    .collect()
            })
            .collect();
        let mut reported = vec![false; records.len()];
        for start in 0..records.len() {
            if reported[start] {
                continue;
            }
            // Breadth-first from `start`, remembering how each record was reached.
            let mut came_from: Vec<Option<(usize, &str)>> = vec![None; records.len()];
            let mut queue = std::collections::VecDeque::from([start]);
            let mut closing = None;
            while let Some(at) = queue.pop_front() {
                for &(to, field) in &edges[at] {
                    if to == start {
                        closing = Some((at, field));
                        queue.clear();
                        break;
                    }
                    if came_from[to].is_none() && to != start {
                        came_from[to] = Some((at, field));
                        queue.push_back(to);
                    }
                }
            }
            let Some((last, last_field)) = closing else {
                continue;
            };
            let mut steps = vec![(last, last_field)];
            let mut at = last;
            while at != start {
                // Every record on the way was reached from `start`, so it has a predecessor.
                let Some((prev, field)) = came_from[at] else {
                    break;
                };
                steps.push((prev, field));
                at = prev;
            }
            steps.reverse();
            let mut path: Vec<String> = Vec::new();
            for &(from, field) in &steps {
                reported[from] = true;
                path.push(format!("{}.{field}", records[from].name));
            }
            path.push(records[start].name.clone());
            let name = &records[start].name;
            let span = ast
                .items
                .iter()
                .find(|i| matches!(i, Item::Record(_)) && i.name().name == *name)
                .map_or(Span::default(), |i| i.name().span);
            let d = self.error(
                "E0901",
                span,
                format!("record `{name}` can only be satisfied by an infinite value"),
            );
            d.note = Some(format!(
                "cycle of required record fields: {}",
                path.join(" → ")
            ));
            d.help = Some("make one of these fields nullable (`T?`), or hold the record in a list, set or map".into());
        }
    }
}
