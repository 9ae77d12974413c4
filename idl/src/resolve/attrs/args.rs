//! Attribute arguments: binding positional and named arguments to parameters, and reading
//! strings and numbers out of literals.

use super::*;

impl AttrChecker<'_> {
    /// `min`/`max`, positional or named; at least one.
    pub(super) fn bounds<'l>(
        &mut self,
        attr: &'l Attribute,
        usage: &str,
    ) -> Option<[Option<&'l Literal>; 2]> {
        let bound = self.bind::<2>(
            attr,
            usage,
            &[("min", Arg::Optional), ("max", Arg::Optional)],
        )?;
        if bound.iter().all(Option::is_none) {
            self.wrong(
                attr,
                attr.span,
                &format!("`@{}` needs a minimum, a maximum or both", attr.name.name),
                usage,
            );
            return None;
        }
        // One unnamed bound reads as a minimum to some and an exact size to others: ask
        // for its name.
        if let [only] = attr.args.as_deref().unwrap_or_default()
            && only.name.is_none()
        {
            let name = &attr.name.name;
            let message = format!(
                "a single bound of `@{name}` must be named: `@{name}(min: …)` or `@{name}(max: …)`"
            );
            self.wrong(attr, only.span, &message, usage);
            return None;
        }
        Some(bound)
    }

    pub(super) fn string(
        &mut self,
        attr: &Attribute,
        lit: &Literal,
        usage: &str,
    ) -> Option<String> {
        match &lit.kind {
            LiteralKind::String(s) => Some(s.clone()),
            other => {
                let message = format!(
                    "`@{}` expects a string, found {}",
                    attr.name.name,
                    other.describe()
                );
                self.wrong(attr, lit.span, &message, usage);
                None
            }
        }
    }

    pub(super) fn wrong(&mut self, attr: &Attribute, span: Span, message: &str, usage: &str) {
        let _ = attr;
        self.diagnostics.push(
            Diagnostic::error("E0302", message)
                .at(self.file, span)
                .help(format!("usage: {usage}")),
        );
    }

    /// Matches arguments to parameters: positional ones in order (never `Named` ones), named
    /// ones by name. Reports every mismatch as E0302 and returns `None` after any.
    pub(super) fn bind<'l, const N: usize>(
        &mut self,
        attr: &'l Attribute,
        usage: &str,
        params: &[(&str, Arg); N],
    ) -> Option<[Option<&'l Literal>; N]> {
        let mut bound: [Option<&'l Literal>; N] = [None; N];
        let mut ok = true;
        let name = &attr.name.name;
        let args = attr.args.as_deref().unwrap_or_default();
        let mut next_positional = 0;
        for arg in args {
            let index = match &arg.name {
                None => {
                    let index = next_positional;
                    next_positional += 1;
                    if index >= N || params[index].1 == Arg::Named {
                        ok = false;
                        let expected = match params.iter().filter(|p| p.1 != Arg::Named).count() {
                            0 => format!("`@{name}` takes no arguments"),
                            1 => format!("`@{name}` takes one argument"),
                            n => format!("`@{name}` takes at most {n} arguments"),
                        };
                        self.wrong(
                            attr,
                            arg.span,
                            &format!("{expected}; this one is extra"),
                            usage,
                        );
                        continue;
                    }
                    index
                }
                Some(arg_name) => {
                    match params
                        .iter()
                        .position(|(p, a)| *p == arg_name.name && (N > 1 || *a == Arg::Named))
                    {
                        Some(index) => index,
                        None => {
                            ok = false;
                            self.wrong(
                                attr,
                                arg_name.span,
                                &format!("`@{name}` has no argument named `{}`", arg_name.name),
                                usage,
                            );
                            continue;
                        }
                    }
                }
            };
            if bound[index].is_some() {
                ok = false;
                self.wrong(
                    attr,
                    arg.span,
                    &format!("`{}` of `@{name}` is given twice", params[index].0),
                    usage,
                );
                continue;
            }
            bound[index] = Some(&arg.value);
        }
        for (i, (param, kind)) in params.iter().enumerate() {
            if *kind == Arg::Required && bound[i].is_none() && ok {
                ok = false;
                let what = if N == 1 {
                    "an argument".to_string()
                } else {
                    format!("its `{param}` argument")
                };
                self.wrong(attr, attr.span, &format!("`@{name}` needs {what}"), usage);
            }
        }
        ok.then_some(bound)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Arg {
    Required,
    Optional,
    /// Only by name (`visibility: [...]`).
    Named,
}

pub(crate) fn int_number(n: i128) -> Number {
    if n >= 0 {
        Number::UInt(n as u64)
    } else {
        Number::Int(n as i64)
    }
}

/// Compares two numbers exactly when both are integers, else as floats.
pub(crate) fn compare(a: Number, b: Number) -> std::cmp::Ordering {
    fn int(n: Number) -> Option<i128> {
        match n {
            Number::UInt(u) => Some(u as i128),
            Number::Int(i) => Some(i as i128),
            Number::Float(_) => None,
        }
    }
    fn float(n: Number) -> f64 {
        match n {
            Number::UInt(u) => u as f64,
            Number::Int(i) => i as f64,
            Number::Float(f) => f,
        }
    }
    match (int(a), int(b)) {
        (Some(x), Some(y)) => x.cmp(&y),
        _ => float(a)
            .partial_cmp(&float(b))
            .unwrap_or(std::cmp::Ordering::Equal),
    }
}
