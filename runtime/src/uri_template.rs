//! Matching a URI against an RFC 6570 level-1 template (`weather://cities/{name}`), as
//! `resources/read` does for resource templates.
//!
//! Literal parts must match exactly. Each `{var}` captures a run of characters, possibly
//! empty, that contains none of `/`, `?`, `#` (so a variable stays inside one path segment,
//! query or fragment), as short as lets the rest of the template match. Captures are
//! percent-decoded. The match runs in time linear in the URI's length times the number of
//! template parts, whatever the URI (it comes from the client).

use std::borrow::Cow;

/// One piece of a template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part<'t> {
    Literal(&'t str),
    Variable(&'t str),
}

/// Splits a template into literals and `{variables}`. An unclosed `{` is literal text.
fn parts(template: &str) -> Vec<Part<'_>> {
    let mut out = Vec::new();
    let mut rest = template;
    while !rest.is_empty() {
        let Some(open) = rest.find('{') else {
            out.push(Part::Literal(rest));
            break;
        };
        let Some(close) = rest[open..].find('}').map(|c| open + c) else {
            out.push(Part::Literal(rest));
            break;
        };
        if open > 0 {
            out.push(Part::Literal(&rest[..open]));
        }
        out.push(Part::Variable(&rest[open + 1..close]));
        rest = &rest[close + 1..];
    }
    out
}

/// The variable names of `template`, in order of appearance.
pub fn variables(template: &str) -> Vec<&str> {
    parts(template)
        .into_iter()
        .filter_map(|p| match p {
            Part::Variable(name) => Some(name),
            Part::Literal(_) => None,
        })
        .collect()
}

/// Whether a variable's run may cover this byte.
fn allowed(b: u8) -> bool {
    !matches!(b, b'/' | b'?' | b'#')
}

/// Matches `uri` against `template`: the percent-decoded value of each variable, in the order
/// the variables appear, or `None` when the URI does not match (a bad `%` escape or a value
/// that is not UTF-8 once decoded is no match either).
///
/// ```
/// use toolidl_runtime::uri_template::capture;
///
/// let values = capture("weather://cities/{name}", "weather://cities/New%20York").unwrap();
/// assert_eq!(values, ["New York"]);
/// assert_eq!(capture("weather://cities/{name}", "weather://cities/a/b"), None);
/// ```
pub fn capture<'u>(template: &str, uri: &'u str) -> Option<Vec<Cow<'u, str>>> {
    let parts = parts(template);
    // Cheap rejections first: most templates a server holds do not match a given URI.
    if let Some(Part::Literal(first)) = parts.first()
        && !uri.starts_with(first)
    {
        return None;
    }
    if let Some(Part::Literal(last)) = parts.last()
        && !uri.ends_with(last)
    {
        return None;
    }
    let bytes = uri.as_bytes();
    let n = bytes.len();
    // matches[k][p]: parts[k..] match uri[p..]. Filled from the last part backwards, so each
    // entry is computed once (no exponential backtracking).
    let mut matches = vec![vec![false; n + 1]; parts.len() + 1];
    matches[parts.len()][n] = true;
    for k in (0..parts.len()).rev() {
        let (done, rest) = matches.split_at_mut(k + 1);
        let (here, next) = (&mut done[k], &rest[0]);
        match parts[k] {
            Part::Literal(lit) => {
                let lit = lit.as_bytes();
                for p in 0..=n {
                    here[p] = bytes[p..].starts_with(lit) && next[p + lit.len()];
                }
            }
            Part::Variable(_) => {
                // A variable from p can end at p, or take byte p and go on from p + 1.
                for p in (0..=n).rev() {
                    let ends_here = uri.is_char_boundary(p) && next[p];
                    here[p] = ends_here || (p < n && allowed(bytes[p]) && here[p + 1]);
                }
            }
        }
    }
    if !matches[0][0] {
        return None;
    }
    // Walk forward, giving each variable the shortest run after which the rest matches.
    let mut values = Vec::new();
    let mut pos = 0;
    for (k, part) in parts.iter().enumerate() {
        match part {
            Part::Literal(lit) => pos += lit.len(),
            Part::Variable(_) => {
                let next = &matches[k + 1];
                let end = (pos..=n).find(|&e| uri.is_char_boundary(e) && next[e])?;
                values.push(percent_decode(uri.get(pos..end)?)?);
                pos = end;
            }
        }
    }
    Some(values)
}

/// The URI of `template` with each variable replaced by its value (`value(name)`, the empty
/// text when it has none), percent-encoded as RFC 6570's simple string expansion has it:
/// every byte but letters, digits, `-`, `.`, `_` and `~`. [`capture`] gives the values back.
///
/// ```
/// use toolidl_runtime::uri_template::{capture, expand};
///
/// let uri = expand("weather://cities/{name}", |_| Some("New York/Bronx".into()));
/// assert_eq!(uri, "weather://cities/New%20York%2FBronx");
/// assert_eq!(capture("weather://cities/{name}", &uri).unwrap(), ["New York/Bronx"]);
/// ```
pub fn expand(template: &str, value: impl Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    for part in parts(template) {
        match part {
            Part::Literal(lit) => out.push_str(lit),
            Part::Variable(name) => {
                for b in value(name).unwrap_or_default().bytes() {
                    if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
                        out.push(char::from(b));
                    } else {
                        out.push_str(&format!("%{b:02X}"));
                    }
                }
            }
        }
    }
    out
}

/// Decodes `%XX` escapes; `None` for a malformed escape or bytes that are not UTF-8.
fn percent_decode(s: &str) -> Option<Cow<'_, str>> {
    if !s.contains('%') {
        return Some(Cow::Borrowed(s));
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes.get(i + 1..i + 3)?;
            let hi = (hex[0] as char).to_digit(16)?;
            let lo = (hex[1] as char).to_digit(16)?;
            out.push((hi * 16 + lo) as u8);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok().map(Cow::Owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cap(template: &str, uri: &str) -> Option<Vec<String>> {
        capture(template, uri).map(|v| v.into_iter().map(Cow::into_owned).collect())
    }

    #[test]
    fn one_variable_per_segment() {
        assert_eq!(
            cap("weather://cities/{name}", "weather://cities/New%20York"),
            Some(vec!["New York".into()])
        );
        assert_eq!(cap("weather://cities/{name}", "weather://cities/a/b"), None);
        assert_eq!(cap("weather://cities/{name}", "weather://towns/a"), None);
        assert_eq!(cap("weather://cities/{name}", "weather://cities/a?x"), None);
        assert_eq!(cap("weather://cities/{name}", "weather://cities/a#x"), None);
        // An empty value is a value.
        assert_eq!(
            cap("weather://cities/{name}", "weather://cities/"),
            Some(vec![String::new()])
        );
        // An escaped slash is data, not a separator.
        assert_eq!(
            cap("weather://cities/{name}", "weather://cities/a%2Fb"),
            Some(vec!["a/b".into()])
        );
    }

    #[test]
    fn several_variables_and_literals_between_them() {
        assert_eq!(
            cap("docs://{a}/{b}.md", "docs://guide/intro.md"),
            Some(vec!["guide".into(), "intro".into()])
        );
        // The variable runs on past an earlier `.md` so the final literal can match.
        assert_eq!(
            cap("docs://{a}/{b}.md", "docs://guide/x.md.md"),
            Some(vec!["guide".into(), "x.md".into()])
        );
        assert_eq!(cap("docs://{a}/{b}.md", "docs://guide/intro.txt"), None);
        assert_eq!(cap("docs://{a}/{b}.md", "docs://guide/more/intro.md"), None);
        // Shortest first: `a` stops at the first `-` after which the rest matches.
        assert_eq!(
            cap("x://{a}-{b}", "x://1-2-3"),
            Some(vec!["1".into(), "2-3".into()])
        );
        assert_eq!(
            cap("x://{a}{b}", "x://ab"),
            Some(vec![String::new(), "ab".into()])
        );
        assert_eq!(
            cap("x://{a}?q={b}", "x://p?q=1"),
            Some(vec!["p".into(), "1".into()])
        );
    }

    #[test]
    fn templates_without_variables_match_exactly() {
        assert_eq!(cap("mem://readme", "mem://readme"), Some(vec![]));
        assert_eq!(cap("mem://readme", "mem://readme2"), None);
        assert_eq!(cap("", ""), Some(vec![]));
    }

    #[test]
    fn bad_escapes_and_non_utf8_do_not_match() {
        let t = "f://{x}";
        assert_eq!(cap(t, "f://%"), None);
        assert_eq!(cap(t, "f://%2"), None);
        assert_eq!(cap(t, "f://%zz"), None);
        assert_eq!(cap(t, "f://%FF"), None);
        assert_eq!(cap(t, "f://%C3%A9"), Some(vec!["é".into()]));
        // Raw non-ASCII is kept as it is; captures never split a character.
        assert_eq!(cap(t, "f://é"), Some(vec!["é".into()]));
        assert_eq!(
            cap("f://{x}{y}é", "f://aéé"),
            Some(vec![String::new(), "aé".into()])
        );
    }

    #[test]
    fn values_borrow_when_nothing_is_escaped() {
        let v = capture("a://{x}", "a://plain").unwrap();
        assert!(matches!(v[0], Cow::Borrowed("plain")));
    }

    #[test]
    fn variables_in_order() {
        assert_eq!(variables("docs://{a}/{b}.md"), ["a", "b"]);
        assert_eq!(variables("mem://readme"), Vec::<&str>::new());
        assert_eq!(variables("x://{open"), Vec::<&str>::new());
        assert_eq!(cap("x://{open", "x://{open"), Some(vec![]));
    }

    #[test]
    fn long_ambiguous_uris_are_linear() {
        // Exponential backtracking would not finish this.
        let uri = format!("x://{}", "a".repeat(20_000));
        assert_eq!(cap("x://{a}a{b}a{c}a{d}b", &uri), None);
        let v = cap("x://{a}a{b}a{c}", &uri).unwrap();
        assert_eq!(v[0], "");
        assert_eq!(v[1], "");
        assert_eq!(v[2].len(), 19_998);
    }
}
