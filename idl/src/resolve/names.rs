//! Wire names of tools, and the variables of URI templates.

use heck::ToSnakeCase;

/// `GetDocketAsync` → `get_docket`, `HTTPRequest` → `http_request`, `get_weather` → itself.
pub(crate) fn derived_tool_name(ident: &str) -> String {
    let snake = ident.to_snake_case();
    match snake.strip_suffix("_async") {
        Some(stem) if !stem.is_empty() => stem.to_string(),
        _ => snake,
    }
}

/// What is wrong with a tool's wire name, if anything: `Err` for an invalid name,
/// `Ok(warnings)` otherwise.
pub(crate) fn check_tool_name(name: &str) -> Result<Vec<(&'static str, String)>, String> {
    let len = name.chars().count();
    if len == 0 {
        return Err("a tool name must not be empty".into());
    }
    if len > 128 {
        return Err(format!(
            "a tool name has at most 128 characters, this one has {len}"
        ));
    }
    if let Some(bad) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')))
    {
        return Err(format!("a tool name may not contain {bad:?}"));
    }
    let mut warnings = Vec::new();
    if name.contains('.') {
        warnings.push((
            "W0401",
            format!("tool name `{name}` contains `.`, which several clients refuse"),
        ));
    }
    if len > 64 {
        warnings.push((
            "W0402",
            format!("tool name `{name}` is longer than 64 characters ({len}), which several clients refuse"),
        ));
    }
    Ok(warnings)
}

/// What keeps a resource's `@uri` from being an absolute URI: it must start with a scheme
/// (`scheme:`, a letter then letters, digits, `+`, `-` or `.`), as `weather://…` does.
pub(crate) fn uri_scheme_problem(uri: &str) -> Option<String> {
    if uri.trim().is_empty() {
        return Some("the URI is empty".into());
    }
    let scheme = uri.split(':').next().unwrap_or_default();
    let valid = uri.contains(':')
        && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    (!valid).then(|| format!("\"{uri}\" does not start with a scheme such as `docs://`"))
}

/// The variable names of an RFC 6570 URI template, in order (`{a}`, `{+path}`, `{?q,lang}`,
/// `{/seg*}`, `{x:3}`), or what is malformed.
pub(crate) fn template_variables(uri: &str) -> Result<Vec<String>, String> {
    let mut vars = Vec::new();
    let mut rest = uri;
    while let Some(open) = rest.find(['{', '}']) {
        if rest[open..].starts_with('}') {
            return Err("`}` without a matching `{`".into());
        }
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            return Err("`{` without a matching `}`".into());
        };
        let expr = &after[..close];
        if expr.contains('{') {
            return Err("`{` inside a template expression".into());
        }
        let expr = expr
            .strip_prefix(['+', '#', '.', '/', ';', '?', '&'])
            .unwrap_or(expr);
        for spec in expr.split(',') {
            let name = spec
                .strip_suffix('*')
                .unwrap_or_else(|| spec.split(':').next().unwrap_or(spec));
            let valid = !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
            if !valid {
                return Err(format!("`{spec}` is not a template variable"));
            }
            if let Some((_, len)) = spec.split_once(':')
                && (len.is_empty() || !len.bytes().all(|b| b.is_ascii_digit()))
            {
                return Err(format!("`{spec}` has an invalid prefix length"));
            }
            vars.push(name.to_string());
        }
        rest = &after[close + 1..];
    }
    Ok(vars)
}

/// Whether `uri` could be read from the URI template `template`: its literal pieces in
/// order, whatever stands for each `{expression}` (loosely: a warning's test, not a router's).
pub(crate) fn template_matches(template: &str, uri: &str) -> bool {
    let mut literals: Vec<&str> = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        literals.push(&rest[..open]);
        match rest[open..].find('}') {
            Some(close) => rest = &rest[open + close + 1..],
            None => return template == uri,
        }
    }
    literals.push(rest);
    let (Some(first), Some(last)) = (literals.first(), literals.last()) else {
        return template == uri;
    };
    if literals.len() == 1 {
        return template == uri;
    }
    let Some(mut tail) = uri.strip_prefix(first) else {
        return false;
    };
    if tail.len() < last.len() || !tail.ends_with(last) {
        return false;
    }
    tail = &tail[..tail.len() - last.len()];
    for middle in &literals[1..literals.len() - 1] {
        match tail.find(middle) {
            Some(at) => tail = &tail[at + middle.len()..],
            None => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_uri_matches_a_template_by_its_literal_pieces() {
        assert!(template_matches(
            "ui://v/{city}/map.html",
            "ui://v/oslo/map.html"
        ));
        assert!(template_matches("ui://v/{a}-{b}.html", "ui://v/x-y.html"));
        assert!(!template_matches(
            "ui://v/{city}/map.html",
            "ui://v/oslo/chart.html"
        ));
        assert!(!template_matches("ui://v/{a}-{b}.html", "ui://v/xy.html"));
        assert!(template_matches("ui://v/fixed", "ui://v/fixed"));
        assert!(!template_matches("ui://w/{x}", "ui://v/x"));
    }

    #[test]
    fn derived_names() {
        assert_eq!(derived_tool_name("GetDocketAsync"), "get_docket");
        assert_eq!(derived_tool_name("HTTPRequest"), "http_request");
        assert_eq!(derived_tool_name("get_weather"), "get_weather");
        assert_eq!(derived_tool_name("Async"), "async");
        assert_eq!(derived_tool_name("fetch_async"), "fetch");
    }

    #[test]
    fn tool_names() {
        assert!(check_tool_name("a.b").unwrap()[0].0 == "W0401");
        assert!(check_tool_name(&"a".repeat(65)).unwrap()[0].0 == "W0402");
        assert!(check_tool_name(&"a".repeat(129)).is_err());
        assert!(check_tool_name("").is_err());
        assert!(check_tool_name("get weather").is_err());
        assert!(check_tool_name("ok-name_1.x").is_ok());
    }

    #[test]
    fn resource_uris_need_a_scheme() {
        for ok in [
            "weather://cities/{name}",
            "urn:isbn:1",
            "ui://x",
            "a+b.c-d://x",
        ] {
            assert_eq!(uri_scheme_problem(ok), None, "{ok}");
        }
        for bad in [
            "",
            "  ",
            "cities/{name}",
            "1x://a",
            "{scheme}://x",
            "://x",
            "x y://z",
        ] {
            assert!(uri_scheme_problem(bad).is_some(), "{bad}");
        }
    }

    #[test]
    fn templates() {
        assert_eq!(
            template_variables("a://{x}/{+y}{?q,lang}").unwrap(),
            ["x", "y", "q", "lang"]
        );
        assert_eq!(
            template_variables("a://{/seg*}{x:3}").unwrap(),
            ["seg", "x"]
        );
        assert!(template_variables("a://static").unwrap().is_empty());
        assert!(template_variables("a://{x").is_err());
        assert!(template_variables("a://x}").is_err());
        assert!(template_variables("a://{}").is_err());
        assert!(template_variables("a://{x y}").is_err());
    }
}
