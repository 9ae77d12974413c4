//! `WWW-Authenticate` (RFC 9110 §11.6.1) as a client reads it: the `Bearer` challenge's
//! parameters (RFC 6750 §3: `error`, `scope`; RFC 9728 §5.1: `resource_metadata`).

/// The parameters of the `Bearer` challenge among `header`'s challenges (several headers
/// joined with commas are one list), names lowercased; `None` without one.
pub(crate) fn bearer(header: &str) -> Option<Vec<(String, String)>> {
    let mut current: Option<(String, Vec<(String, String)>)> = None;
    let mut bearer = None;
    for item in split_top_level(header) {
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        let (scheme, rest) = match item.split_once([' ', '\t']) {
            Some((scheme, rest)) if !scheme.contains('=') => (Some(scheme), rest.trim()),
            _ if !item.contains('=') => (Some(item), ""),
            _ => (None, item),
        };
        if let Some(scheme) = scheme {
            if let Some((name, params)) = current.take()
                && name.eq_ignore_ascii_case("bearer")
                && bearer.is_none()
            {
                bearer = Some(params);
            }
            current = Some((scheme.to_owned(), Vec::new()));
        }
        if let (Some((_, params)), Some((name, value))) = (current.as_mut(), param(rest)) {
            params.push((name, value));
        }
    }
    if let Some((name, params)) = current
        && name.eq_ignore_ascii_case("bearer")
        && bearer.is_none()
    {
        bearer = Some(params);
    }
    bearer
}

/// The value of the parameter `name` in `params`.
pub(crate) fn get<'a>(params: &'a [(String, String)], name: &str) -> Option<&'a str> {
    params
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// `name=value` or `name="quoted \"value\""`.
fn param(text: &str) -> Option<(String, String)> {
    let (name, value) = text.split_once('=')?;
    let name = name.trim().to_ascii_lowercase();
    let value = value.trim();
    let value = match value.strip_prefix('"').and_then(|v| v.strip_suffix('"')) {
        Some(quoted) => {
            let mut out = String::with_capacity(quoted.len());
            let mut chars = quoted.chars();
            while let Some(c) = chars.next() {
                match c {
                    '\\' => out.extend(chars.next()),
                    c => out.push(c),
                }
            }
            out
        }
        None => value.to_owned(),
    };
    (!name.is_empty()).then_some((name, value))
}

/// `text` split at the commas outside quoted strings.
fn split_top_level(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut start, mut quoted, mut escaped) = (0, false, false);
    for (i, c) in text.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            ',' if !quoted => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bearer_challenges_parameters_are_read() {
        let header = r#"Basic realm="a, b", Bearer error="insufficient_scope", scope="files:read files:write", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", error_description="a \"quoted\" word""#;
        let params = bearer(header).unwrap();
        assert_eq!(get(&params, "error"), Some("insufficient_scope"));
        assert_eq!(get(&params, "scope"), Some("files:read files:write"));
        assert_eq!(
            get(&params, "resource_metadata"),
            Some("https://mcp.example.com/.well-known/oauth-protected-resource")
        );
        assert_eq!(
            get(&params, "error_description"),
            Some(r#"a "quoted" word"#)
        );
        assert_eq!(get(&params, "realm"), None);
    }

    #[test]
    fn a_bare_scheme_and_other_schemes() {
        assert_eq!(bearer("Bearer"), Some(vec![]));
        assert_eq!(
            bearer("bearer realm=x"),
            Some(vec![("realm".into(), "x".into())])
        );
        assert_eq!(bearer(r#"Basic realm="x""#), None);
        assert_eq!(bearer(""), None);
        let params = bearer(r#"DPoP algs="ES256", Bearer scope="a""#).unwrap();
        assert_eq!(get(&params, "scope"), Some("a"));
        assert_eq!(get(&params, "algs"), None);
    }
}
