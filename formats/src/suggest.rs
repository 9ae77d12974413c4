//! "Did you mean …?": the known name closest to a misspelt one, when it is close enough to
//! be a typo. Shared by the language's diagnostics (unknown types, attributes, fields) and
//! the runtime's texts (an unknown argument, an unknown tool), so both judge alike.

/// The candidate nearest to `word` (edits, a swap of neighbours counting as one), if within
/// a third of the longer length (at least one edit); a candidate differing only in case wins.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = word.to_lowercase();
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        if candidate == word {
            continue;
        }
        let distance = if candidate.to_lowercase() == lower {
            0
        } else {
            distance(word, candidate)
        };
        let limit = (word.chars().count().max(candidate.chars().count()) / 3).max(1);
        if distance <= limit && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, c)| c)
}

/// Edit distance with adjacent transpositions (optimal string alignment): `Tga` is one
/// edit from `Tag`, as a typist sees it.
pub fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut rows = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (rows[i - 1][j] + 1)
                .min(rows[i][j - 1] + 1)
                .min(rows[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = d;
        }
    }
    rows[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_and_transpositions_are_found_and_strangers_are_not() {
        let known = ["query", "limit", "cursor"];
        assert_eq!(closest("qeury", known), Some("query"));
        assert_eq!(closest("Limit", known), Some("limit"));
        assert_eq!(closest("limt", known), Some("limit"));
        assert_eq!(closest("page", known), None);
        assert_eq!(closest("query", known), None);
        assert_eq!(distance("Tga", "Tag"), 1);
        assert_eq!(distance("kitten", "sitting"), 3);
    }
}
