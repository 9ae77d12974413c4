//! Constraint attributes checked against their field's type, and defaults checked against
//! both the type and the constraints.

use super::*;

impl Resolver<'_> {
    pub(super) fn constraints(&mut self, attrs: &Attrs, ty: &Type) -> Constraints {
        let base = match ty {
            Type::Nullable { inner } => inner.as_ref(),
            other => other,
        };
        let prim = match base {
            Type::Primitive { name } => Some(*name),
            _ => None,
        };
        let is_string = prim == Some(Primitive::String);
        let mut out = Constraints::default();
        let not_applicable = |this: &mut Self, span: Span, attr: &str, applies: &str| {
            let message = format!("`@{attr}` does not apply to `{}`", type_text(ty));
            this.error("E0601", span, message).help =
                Some(format!("`@{attr}` applies to {applies}"));
        };
        if let Some((bounds, span, float_span)) = &attrs.range {
            match prim {
                Some(p) if integer_range(p).is_some() => {
                    if let Some(float_span) = float_span {
                        let message = format!(
                            "`{}` is an integer type, but a `@range` bound is a float",
                            primitive_name(p)
                        );
                        self.error("E0604", *float_span, message).help =
                            Some("write integer bounds, or use f32/f64".into());
                    } else if let Some((lo, hi)) = integer_range(p)
                        && let Some(bound) = range_outside_type(bounds, lo, hi)
                    {
                        // Bounds wider than the type are allowed (generators intersect
                        // them), but an intersection without a value is not.
                        let message = format!(
                            "`@range` {bound} leaves no value of `{}` ({lo} to {hi})",
                            primitive_name(p)
                        );
                        self.error("E0602", *span, message).help = Some(format!(
                            "bounds of `{}` lie in {lo} to {hi}",
                            primitive_name(p)
                        ));
                    } else {
                        // Bounds wider than the type are allowed: generators intersect them.
                        out.range = Some(*bounds);
                    }
                }
                Some(p) if is_float(p) => out.range = Some(*bounds),
                _ => not_applicable(self, *span, "range", "integer and float types"),
            }
        }
        if let Some((bounds, span)) = &attrs.length {
            if is_string || matches!(base, Type::List { .. } | Type::Set { .. }) {
                out.length = Some(*bounds);
            } else {
                not_applicable(self, *span, "length", "string, list and set");
            }
        }
        if let Some((pattern, span)) = &attrs.pattern {
            if !is_string {
                not_applicable(self, *span, "pattern", "string");
            } else if let Err(e) = compile_pattern(pattern) {
                self.error("E0603", *span, format!("invalid regular expression: {e}"))
                    .help = Some(
                    "`@pattern` takes an ECMA-262 regular expression, as JSON Schema does".into(),
                );
            } else {
                out.pattern = Some(pattern.clone());
            }
        }
        for (given, attr) in [(attrs.email, "email"), (attrs.url, "url")] {
            let Some(span) = given else { continue };
            if !is_string {
                not_applicable(self, span, attr, "string");
            } else if attr == "email" {
                out.email = true;
            } else {
                out.url = true;
            }
        }
        out
    }

    pub(super) fn default(
        &mut self,
        lit: &Literal,
        ty: &Type,
        constraints: &Constraints,
    ) -> Option<Value> {
        let (base, nullable) = match ty {
            Type::Nullable { inner } => (inner.as_ref(), true),
            other => (other, false),
        };
        let shown = type_text(ty);
        if lit.kind == LiteralKind::Null {
            if nullable {
                return Some(Value::Null);
            }
            self.error(
                "E0503",
                lit.span,
                format!("`null` is not a value of `{shown}`"),
            )
            .help = Some(format!("make the type nullable: `{shown}?`"));
            return None;
        }
        if let LiteralKind::List(_) = lit.kind {
            self.error("E0501", lit.span, "a default cannot be a list")
                .help = Some("list literals are only allowed in attribute arguments".into());
            return None;
        }
        let value = match base {
            Type::Primitive { name } => self.primitive_default(lit, *name, &shown)?,
            Type::Named {
                package,
                name,
                def: DefKind::Enum,
            } => {
                let members = self
                    .world
                    .defs
                    .get(&(package.clone(), name.clone()))
                    .map(|d| d.variants.clone())
                    .unwrap_or_default();
                match &lit.kind {
                    LiteralKind::Ident(member) if members.contains(member) => {
                        Value::Enum(member.clone())
                    }
                    LiteralKind::Ident(member) => {
                        let help = match suggest(member, members.iter().map(String::as_str)) {
                            Some(s) => format!("did you mean `{s}`?"),
                            None => format!("members of `{name}`: {}", members.join(", ")),
                        };
                        self.error(
                            "E0501",
                            lit.span,
                            format!("`{member}` is not a member of enum `{name}`"),
                        )
                        .help = Some(help);
                        return None;
                    }
                    other => {
                        let help = match other {
                            LiteralKind::String(s) if members.contains(s) => {
                                format!("write the member without quotes: `{s}`")
                            }
                            _ => format!("members of `{name}`: {}", members.join(", ")),
                        };
                        let message =
                            format!("expected a member of `{name}`, found {}", other.describe());
                        self.error("E0501", lit.span, message).help = Some(help);
                        return None;
                    }
                }
            }
            _ => {
                self.error(
                    "E0501",
                    lit.span,
                    format!("a value of type `{shown}` cannot have a default"),
                )
                .help = Some(if nullable {
                    "the only default such a type can have is `= null`".into()
                } else {
                    "defaults are literals: bools, numbers, strings, chars and enum members".into()
                });
                return None;
            }
        };
        self.check_default_constraints(lit, &value, constraints);
        Some(value)
    }

    pub(super) fn primitive_default(
        &mut self,
        lit: &Literal,
        p: Primitive,
        shown: &str,
    ) -> Option<Value> {
        let mismatch = |this: &mut Self, expected: &str, help: Option<String>| {
            let message = format!(
                "expected {expected} for `{shown}`, found {}",
                lit.kind.describe()
            );
            this.error("E0501", lit.span, message).help = help;
            None
        };
        match (&lit.kind, p) {
            (LiteralKind::Bool(b), Primitive::Bool) => Some(Value::Bool(*b)),
            (_, Primitive::Bool) => mismatch(self, "`true` or `false`", None),
            (LiteralKind::Int(n), _) if let Some((lo, hi)) = integer_range(p) => {
                if (lo..=hi).contains(n) {
                    Some(Value::Number(int_number(*n)))
                } else {
                    let message =
                        format!("default {n} is out of range for `{shown}` ({lo} to {hi})");
                    self.error("E0501", lit.span, message);
                    None
                }
            }
            (_, _) if integer_range(p).is_some() => mismatch(self, "an integer", None),
            (LiteralKind::Int(n), _) if is_float(p) => Some(Value::Number(int_number(*n))),
            (LiteralKind::Float(f), _) if is_float(p) => {
                if p == Primitive::F32 && f.abs() > f32::MAX as f64 {
                    self.error(
                        "E0501",
                        lit.span,
                        format!("default {f} is out of range for `f32`"),
                    );
                    return None;
                }
                Some(Value::Number(Number::Float(*f)))
            }
            (_, _) if is_float(p) => mismatch(self, "a number", None),
            (LiteralKind::Char(c), Primitive::Char) => Some(Value::Char(*c)),
            (LiteralKind::String(s), Primitive::Char) if s.chars().count() == 1 => mismatch(
                self,
                "a char",
                Some(format!("write a char in single quotes: '{s}'")),
            ),
            (_, Primitive::Char) => mismatch(self, "a char", None),
            (LiteralKind::String(s), _) if is_string_like(p) || p == Primitive::Bytes => {
                if let Err(expected) = check_format(p, s) {
                    let message = format!("default \"{s}\" is not a valid `{}`", primitive_name(p));
                    self.error("E0504", lit.span, message).help =
                        Some(format!("expected {expected}"));
                    return None;
                }
                Some(Value::String(s.clone()))
            }
            (other, _) if is_string_like(p) || p == Primitive::Bytes => {
                let help = match other {
                    LiteralKind::Ident(word) | LiteralKind::String(word) => {
                        Some(format!("write strings in double quotes: \"{word}\""))
                    }
                    LiteralKind::Char(c) => {
                        Some(format!("write strings in double quotes: \"{c}\""))
                    }
                    _ => None,
                };
                mismatch(self, "a string", help)
            }
            (LiteralKind::String(s), Primitive::Json) => Some(Value::String(s.clone())),
            (LiteralKind::Int(n), Primitive::Json) => Some(Value::Number(int_number(*n))),
            (LiteralKind::Float(f), Primitive::Json) => Some(Value::Number(Number::Float(*f))),
            (LiteralKind::Bool(b), Primitive::Json) => Some(Value::Bool(*b)),
            (_, Primitive::Json) => mismatch(self, "a string, number or bool", None),
            _ => {
                self.error(
                    "E0501",
                    lit.span,
                    format!("a value of type `{shown}` cannot have a default"),
                )
                .help = Some(
                    "defaults are literals: bools, numbers, strings, chars and enum members".into(),
                );
                None
            }
        }
    }

    pub(super) fn check_default_constraints(
        &mut self,
        lit: &Literal,
        value: &Value,
        c: &Constraints,
    ) {
        let broken = |this: &mut Self, message: String| {
            this.error("E0502", lit.span, message).help =
                Some("a default must satisfy the constraints of its own field".into());
        };
        if let (Some(range), Value::Number(n)) = (&c.range, value) {
            if let Some(min) = range.min
                && compare(*n, min).is_lt()
            {
                broken(
                    self,
                    format!(
                        "default {} is below the `@range` minimum {}",
                        number_text(*n),
                        number_text(min)
                    ),
                );
            }
            if let Some(max) = range.max
                && compare(*n, max).is_gt()
            {
                broken(
                    self,
                    format!(
                        "default {} is above the `@range` maximum {}",
                        number_text(*n),
                        number_text(max)
                    ),
                );
            }
        }
        let Value::String(s) = value else { return };
        if let Some(length) = &c.length {
            let count = s.chars().count() as u64;
            if length.min.is_some_and(|m| count < m) || length.max.is_some_and(|m| count > m) {
                let bounds = match (length.min, length.max) {
                    (Some(a), Some(b)) => format!("{a} to {b}"),
                    (Some(a), None) => format!("at least {a}"),
                    (None, Some(b)) => format!("at most {b}"),
                    (None, None) => String::new(),
                };
                let unit = if count == 1 {
                    "character"
                } else {
                    "characters"
                };
                broken(
                    self,
                    format!("default \"{s}\" has {count} {unit}; `@length` allows {bounds}"),
                );
            }
        }
        if let Some(pattern) = &c.pattern
            && let Ok(regex) = compile_pattern(pattern)
            && regex.find(s).is_none()
        {
            broken(
                self,
                format!("default \"{s}\" does not match `@pattern(\"{pattern}\")`"),
            );
        }
        if c.email && !crate::formats::is_email(s) {
            broken(
                self,
                format!("default \"{s}\" is not an e-mail address (`@email`)"),
            );
        }
        if c.url && !crate::formats::is_uri(s) {
            broken(
                self,
                format!("default \"{s}\" is not an absolute URL (`@url`)"),
            );
        }
    }
}

pub(super) fn number_text(n: Number) -> String {
    match n {
        Number::UInt(u) => u.to_string(),
        Number::Int(i) => i.to_string(),
        Number::Float(f) => f.to_string(),
    }
}

/// Compiles an ECMA-262 pattern in Unicode mode (the `u` flag), as the runtime compiles it:
/// a pattern that only compiles without the flag would refuse every value at call time, and
/// `\p{L}` or `.` would match differently here than there.
pub(super) fn compile_pattern(pattern: &str) -> Result<regress::Regex, String> {
    regress::Regex::with_flags(pattern, "u").map_err(|e| e.to_string())
}

/// The bound of an integer `@range` that leaves the type's own range `lo..=hi` empty
/// (`min: 300` on `u8`, `max: -1` on `u32`), written as in the attribute.
fn range_outside_type(bounds: &Bounds<Number>, lo: i128, hi: i128) -> Option<String> {
    let exact = |n: Number| match n {
        Number::UInt(n) => Some(i128::from(n)),
        Number::Int(n) => Some(i128::from(n)),
        Number::Float(_) => None,
    };
    if let Some(min) = bounds.min
        && exact(min).is_some_and(|m| m > hi)
    {
        return Some(format!("min {}", exact(min).unwrap_or_default()));
    }
    if let Some(max) = bounds.max
        && exact(max).is_some_and(|m| m < lo)
    {
        return Some(format!("max {}", exact(max).unwrap_or_default()));
    }
    None
}
