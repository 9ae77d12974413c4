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
        let positions: HashMap<&str, usize> = records
            .iter()
            .enumerate()
            .map(|(i, r)| (r.name.as_str(), i))
            .collect();
        let index = |name: &str| positions.get(name).copied();
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
        // Only a record of a strongly connected component with a cycle can close one; the
        // search from it stays inside its component (what it reaches outside cannot lead
        // back), so each search is as long as its component, not the file.
        let component = components(&edges);
        let mut size = vec![0usize; records.len()];
        for &c in &component {
            size[c] += 1;
        }
        let mut reported = vec![false; records.len()];
        for start in 0..records.len() {
            let own = component[start];
            let looped = edges[start].iter().any(|&(to, _)| to == start);
            if reported[start] || (size[own] < 2 && !looped) {
                continue;
            }
            // Breadth-first from `start`, remembering how each record was reached.
            let mut came_from: HashMap<usize, (usize, &str)> = HashMap::new();
            let mut queue = std::collections::VecDeque::from([start]);
            let mut closing = None;
            while let Some(at) = queue.pop_front() {
                for &(to, field) in &edges[at] {
                    if to == start {
                        closing = Some((at, field));
                        queue.clear();
                        break;
                    }
                    if component[to] == own && to != start && !came_from.contains_key(&to) {
                        came_from.insert(to, (at, field));
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
                let Some(&(prev, field)) = came_from.get(&at) else {
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

/// The strongly connected component of each node of the graph `edges` (Tarjan's algorithm,
/// without recursion: a chain of records is as deep as it is long).
fn components(edges: &[Vec<(usize, &str)>]) -> Vec<usize> {
    const UNSEEN: usize = usize::MAX;
    let n = edges.len();
    let mut order = vec![UNSEEN; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut component = vec![UNSEEN; n];
    let mut stack = Vec::new();
    let mut next = 0;
    let mut count = 0;
    for root in 0..n {
        if order[root] != UNSEEN {
            continue;
        }
        // (node, how many of its edges are followed)
        let mut walk = vec![(root, 0)];
        order[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(top) = walk.last_mut() {
            let at = top.0;
            if let Some(&(to, _)) = edges[at].get(top.1) {
                top.1 += 1;
                if order[to] == UNSEEN {
                    order[to] = next;
                    low[to] = next;
                    next += 1;
                    stack.push(to);
                    on_stack[to] = true;
                    walk.push((to, 0));
                } else if on_stack[to] {
                    low[at] = low[at].min(order[to]);
                }
                continue;
            }
            walk.pop();
            if let Some(&(parent, _)) = walk.last() {
                low[parent] = low[parent].min(low[at]);
            }
            if low[at] == order[at] {
                while let Some(member) = stack.pop() {
                    on_stack[member] = false;
                    component[member] = count;
                    if member == at {
                        break;
                    }
                }
                count += 1;
            }
        }
    }
    component
}

#[cfg(test)]
mod tests {
    use super::components;

    #[test]
    fn components_of_cycles_and_chains() {
        // 0 → 1 → 2 → 0, 2 → 3, 3 → 4 → 3, 5 alone, 6 → 6
        let edges: Vec<Vec<(usize, &str)>> = vec![
            vec![(1, "a")],
            vec![(2, "b")],
            vec![(0, "c"), (3, "d")],
            vec![(4, "e")],
            vec![(3, "f")],
            vec![],
            vec![(6, "g")],
        ];
        let c = components(&edges);
        assert!(c[0] == c[1] && c[1] == c[2]);
        assert!(c[3] == c[4] && c[3] != c[0]);
        assert!(c[5] != c[0] && c[5] != c[3] && c[6] != c[5]);
        // A chain deeper than any stack would hold recursively.
        let chain: Vec<Vec<(usize, &str)>> = (0..200_000)
            .map(|i| {
                if i + 1 < 200_000 {
                    vec![(i + 1, "next")]
                } else {
                    vec![]
                }
            })
            .collect();
        let c = components(&chain);
        let distinct: std::collections::HashSet<usize> = c.into_iter().collect();
        assert_eq!(distinct.len(), 200_000);
    }
}
